/**
 * The yoga instance: the schema, GraphiQL (graphiql.ts: served from the package, not a CDN,
 * with an example query, compressed; GRAPHIQL=false turns it off; its headers tab sends a token), CORS (browser.ts), the bridge from yoga's
 * logger to pino, error masking, and the plugins the app composes in.
 */
import { type ExecutionArgs, type ExecutionResult, execute, GraphQLError } from 'graphql';
import {
  createYoga,
  type Plugin,
  type YogaServerInstance,
  type YogaServerOptions,
} from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ServiceContext } from '../context.js';
import { type DependencyFailure, dependencyFailure, unavailableError } from '../db/unavailable.js';
import { ThreadstoreError } from '../errors.js';
import { schema } from '../schema/index.js';
import type { InitialContext } from './auth.js';
import { compressedGraphiQL, graphiqlOptions, renderGraphiQLPage } from './graphiql.js';
import { jitPlugins } from './jit.js';
import { requestIdOf } from './logging.js';
import { createErrorMasking } from './mask-error.js';

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
  /** GRAPHQL_JIT: run queries and mutations compiled (jit.ts). Default false. */
  jit?: boolean;
  /** Recognises dependency failures (UNAVAILABLE): src/db/availability.ts. */
  classify?: (error: unknown) => DependencyFailure | null;
}

/**
 * Yoga's logger on pino: its messages are strings, so the arguments are joined. Yoga writes
 * every error it masks to it: client mistakes (GraphQLErrors, our own errors) are not server
 * errors, and unexpected ones were logged with their stack and request (`logged`), so both go
 * at debug.
 */
function loggingBridge(logger: Logger, logged: (error: unknown) => boolean) {
  const text = (args: unknown[]) => args.map(String).join(' ');
  return {
    debug: (...args: unknown[]) => logger.debug(text(args)),
    info: (...args: unknown[]) => logger.info(text(args)),
    warn: (...args: unknown[]) => logger.warn(text(args)),
    error: (...args: unknown[]) =>
      args[0] instanceof GraphQLError || args[0] instanceof ThreadstoreError || logged(args[0])
        ? logger.debug(text(args))
        : logger.error(text(args)),
  };
}

/**
 * `plugin` with a failure of its onParams hook (authentication reads the database there)
 * noted with the request's id before yoga masks it without the request.
 */
function notingParamsFailures(plugin: Plugin, note: (error: unknown, requestId?: string) => void) {
  const { onParams } = plugin;
  if (!onParams) return plugin;
  const failed = (error: unknown, request: Request): never => {
    note(error, requestIdOf(request));
    throw error;
  };
  const wrapped: Plugin = {
    ...plugin,
    onParams(payload) {
      try {
        const done = onParams(payload);
        return typeof (done as Promise<void> | undefined)?.then === 'function'
          ? (done as Promise<void>).then(undefined, (error) => failed(error, payload.request))
          : done;
      } catch (error) {
        return failed(error, payload.request);
      }
    },
  };
  return wrapped;
}

type Stream = AsyncIterable<ExecutionResult>;

/** One of our errors, or UNAVAILABLE for a dependency that failed mid-stream; else null. */
function ourError(error: unknown): ThreadstoreError | null {
  if (error instanceof ThreadstoreError) return error;
  const failed = dependencyFailure(error);
  return failed ? unavailableError(failed) : null;
}

/**
 * `source` until it fails with one of our errors, which becomes its last result. An iterator
 * object, not a generator: a consumer that goes away frees the source at once. The inner
 * promise is passed on as it is (no async function per event: one follower's event crosses
 * several such layers).
 */
function endingWithError(source: Stream): AsyncIterableIterator<ExecutionResult> {
  const inner = source[Symbol.asyncIterator]();
  let finished = false;
  const lastResult = (error: unknown): IteratorResult<ExecutionResult> => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    const known = ourError(original);
    if (!known) throw error;
    finished = true;
    const extensions = { ...known.details, code: known.code };
    return {
      done: false,
      value: { errors: [new GraphQLError(known.message, { extensions })] },
    };
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    next() {
      if (finished) return Promise.resolve({ done: true, value: undefined });
      try {
        return inner.next().then(undefined, lastResult);
      } catch (error) {
        return Promise.resolve().then(() => lastResult(error));
      }
    },
    async return() {
      finished = true;
      await inner.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/**
 * A live stream that fails with one of our errors (a follower cut off with RATE_LIMITED) ends
 * with that error as its last result, then completes: graphql-ws sends `next` with the errors
 * then `complete`, SSE an `event: next` with them then `event: complete`. Thrown on, it would
 * be an `error` message on graphql-ws and a response cut without a word on SSE.
 */
export function streamErrorsAsResults(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (Symbol.asyncIterator in Object(result)) setResult(endingWithError(result as Stream));
        },
      };
    },
  };
}

/**
 * Queries and mutations run on graphql-js's own `execute`, not on yoga's default
 * (`@graphql-tools/executor`, a fork of graphql-js 17's for `@defer`/`@stream`, which the
 * contract does not use). Before coercing the variables, the fork copies each input object
 * and list along its type (`snapshotInputValue`: 5.8% of a 100-item append's CPU, bench S2);
 * graphql-js coerces them once. Measured: CPU per append on PostgreSQL, interleaved pairs,
 * 100 items -10% (6 of 6 pairs), 20 items -7%; reads unchanged (per field both allocate about
 * as much). Subscriptions are not executed here (shared-subscriptions.ts runs them);
 * GRAPHQL_JIT's plugin, put after this one, replaces `execute` when on.
 */
function graphqlJsExecution(): Plugin {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(executeAsRequested as Parameters<typeof setExecuteFn>[0]);
    },
  };
}

/**
 * graphql-js's `execute`, with the fork's HTTP status kept: a result without `data` is a
 * request error (variables that do not coerce; graphql-js returns `data` whenever execution
 * started), which GraphQL over HTTP answers with 400 (yoga reads `extensions.http.status`;
 * mask-error.ts keeps the extensions when it codes the error BAD_USER_INPUT).
 */
function executeAsRequested(args: ExecutionArgs): ReturnType<typeof execute> {
  const result = execute(args);
  if ('then' in result || 'data' in result) return result;
  for (const error of result.errors ?? []) {
    // GraphQLError's extensions are read-only; the fork redefines them the same way.
    Object.defineProperty(error, 'extensions', {
      value: { ...error.extensions, http: { ...(error.extensions.http as object), status: 400 } },
    });
  }
  return result;
}

/**
 * Builds yoga on /graphql with GraphiQL for browsers. SSE streams carry yoga's keep-alive: a
 * comment line (`:`) every 12 s, so proxies do not cut idle streams; a stream whose client
 * stops reading is paused by TCP backpressure (yoga waits for the response to drain), so its
 * backlog stays in the follower's byte-counted queue (src/pubsub/queue.ts).
 */
export function createThreadstoreYoga({
  logger,
  plugins,
  context,
  graphiql,
  cors,
  classify,
  jit = false,
}: YogaOptions): ThreadstoreYoga {
  const masking = createErrorMasking(logger, classify);
  return createYoga<Record<string, unknown>, ServiceContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL served from the package itself, not a CDN: works on machines without internet;
    // it opens on an example query (graphiql.ts) and is sent compressed.
    graphiql: graphiql ? graphiqlOptions : false,
    cors,
    renderGraphiQL: renderGraphiQLPage,
    landingPage: false,
    // The body limit is enforced before yoga (limits.ts withBodyLimit: MAX_BODY_BYTES, declared
    // or chunked). Yoga's own would pipe every body through a TransformStream: measured 2.5-3x
    // the CPU per request of `{ __typename }` (AbortSignal, DOMException and stream per body).
    maxRequestBodySize: false,
    logging: loggingBridge(logger, masking.logged),
    maskedErrors: { maskError: masking.maskError },
    plugins: [
      graphqlJsExecution(),
      ...(jit ? jitPlugins(logger) : []),
      // Before any plugin that replaces a result: it logs the unexpected errors in it.
      masking.plugin,
      ...plugins.map((plugin) => notingParamsFailures(plugin, masking.note)),
      streamErrorsAsResults(),
      ...(graphiql ? [compressedGraphiQL()] : []),
    ],
    context,
  });
}
