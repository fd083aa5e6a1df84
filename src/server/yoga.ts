/**
 * The yoga instance: the schema, GraphiQL (served from the package, not a CDN; GRAPHIQL=false
 * turns it off; its headers tab sends a token), CORS (browser.ts), the bridge from yoga's
 * logger to pino, error masking, and the plugins the app composes in.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { GraphQLError } from 'graphql';
import {
  createYoga,
  type Plugin,
  type YogaServerInstance,
  type YogaServerOptions,
} from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.js';
import type { DependencyFailure } from '../db/unavailable.js';
import { schema } from '../schema/index.js';
import type { InitialContext } from './auth.js';
import { createMaskError } from './mask-error.js';

export type ThreadstoreYoga = YogaServerInstance<Record<string, unknown>, ServiceContext>;

export interface YogaOptions {
  logger: Logger;
  /** Limits, metrics, request logging: run in this order, before yoga's own. */
  plugins: Plugin[];
  /** A fresh service context per operation (dataloaders cache per context object). */
  context: (initial: InitialContext) => Promise<ServiceContext>;
  /** GRAPHIQL: serve GraphiQL to browsers. */
  graphiql: boolean;
  /** Yoga's `cors` option (browser.ts: listed origins only). */
  cors: YogaServerOptions<Record<string, unknown>, ServiceContext>['cors'];
  /** Recognises dependency failures (UNAVAILABLE): src/db/availability.ts. */
  classify?: (error: unknown) => DependencyFailure | null;
}

/** Yoga's logger on pino: its messages are strings, so the arguments are joined. */
function loggingBridge(logger: Logger) {
  const text = (args: unknown[]) => args.map(String).join(' ');
  return {
    debug: (...args: unknown[]) => logger.debug(text(args)),
    info: (...args: unknown[]) => logger.info(text(args)),
    warn: (...args: unknown[]) => logger.warn(text(args)),
    // Client mistakes (GraphQLErrors) are not server errors; unexpected ones are logged by maskError.
    error: (...args: unknown[]) =>
      args[0] instanceof GraphQLError ? logger.debug(text(args)) : logger.error(text(args)),
  };
}

/** Builds yoga on /graphql with GraphiQL for browsers. */
export function createThreadstoreYoga({
  logger,
  plugins,
  context,
  graphiql,
  cors,
  classify,
}: YogaOptions): ThreadstoreYoga {
  return createYoga<Record<string, unknown>, ServiceContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL served from the package itself, not a CDN: works on machines without internet.
    graphiql: graphiql ? { title: 'threadstore' } : false,
    cors,
    renderGraphiQL,
    landingPage: false,
    logging: loggingBridge(logger),
    maskedErrors: { maskError: createMaskError(logger, classify) },
    plugins,
    context,
  });
}
