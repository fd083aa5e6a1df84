/**
 * buildApp(env): the database, the event bus, yoga with the schema, and the HTTP server with
 * /graphql (GraphiQL in a browser) and /healthz. start(port) listens; stop() closes everything.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { type ExecutionArgs, GraphQLError, type parse } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import pino, { type Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { limitsFromEnv, type ServiceContext } from '../context.js';
import { type Database, openDatabase } from '../db/client.js';
import type { Env } from '../env.js';
import { type BusEventTarget, createEventBus, type EventBus } from '../pubsub/bus.js';
import { pruneIdempotencyKeys } from '../items/item.service.js';
import { connectRedisEventTarget } from '../pubsub/redis.js';
import { createMaskError } from './mask-error.js';
import { schema } from '../schema/index.js';

export interface App {
  yoga: YogaServerInstance<Record<string, unknown>, ServiceContext>;
  server: Server;
  db: Database;
  events: EventBus;
  logger: Logger;
  /** Listens on `port` (0 = any free port) and `env.HOST`; resolves to the port used. */
  start(port?: number): Promise<number>;
  /** Stops accepting, closes the HTTP server and the database. */
  stop(): Promise<void>;
}

type ParseHookArgs = {
  parseFn: typeof parse;
  setParseFn: (fn: typeof parse) => void;
};

/** graphql-armor's rejections carry no code; they are documents that do not validate. */
function withValidationCode(_ctx: unknown, error: GraphQLError): void {
  (error.extensions as Record<string, unknown>).code ??= 'GRAPHQL_VALIDATION_FAILED';
}

export interface BuildOptions {
  logger?: Logger;
  /** Event target for the bus (tests wrap one to drop events); default from REDIS_URL. */
  eventTarget?: BusEventTarget;
  /** Apply committed migrations before serving (default true). */
  migrate?: boolean;
}

/**
 * Builds the whole service from configuration.
 * @throws Error when the database cannot be opened or migrated
 */
export async function buildApp(env: Env, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? pino({ level: env.LOG_LEVEL });
  const db = await openDatabase(env.DATABASE_URL, {
    migrate: options.migrate,
    poolSize: env.DB_POOL_SIZE,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
  });
  if (db.appliedMigrations.length) logger.info({ applied: db.appliedMigrations }, 'applied migrations');
  const redis = !options.eventTarget && env.REDIS_URL ? await connectRedisEventTarget(env.REDIS_URL, logger) : null;
  const events = createEventBus(options.eventTarget ?? redis?.target);
  // After a Redis outage, events published meanwhile are lost: followers re-read the database.
  redis?.onReconnect(() => events.resync());
  const limits = limitsFromEnv(env);

  const yoga = createYoga<Record<string, unknown>, ServiceContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL served from the package itself, not a CDN: works on machines without internet.
    graphiql: { title: 'threadstore' },
    renderGraphiQL,
    landingPage: false,
    logging: {
      debug: (...args) => logger.debug(args.map(String).join(' ')),
      info: (...args) => logger.info(args.map(String).join(' ')),
      warn: (...args) => logger.warn(args.map(String).join(' ')),
      // Client mistakes (GraphQLErrors) are not server errors; unexpected ones are logged by maskError.
      error: (...args) =>
        args[0] instanceof GraphQLError
          ? logger.debug(args.map(String).join(' '))
          : logger.error(args.map(String).join(' ')),
    },
    maskedErrors: { maskError: createMaskError(logger) },
    // Depth, alias, token and cost limits, checked before execution (a 5,000-deep query
    // would otherwise overflow the parser's stack).
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: env.MAX_QUERY_DEPTH, ignoreIntrospection: true, onReject: [withValidationCode] },
        maxAliases: { n: env.MAX_QUERY_ALIASES, onReject: [withValidationCode] },
        maxTokens: { n: env.MAX_QUERY_TOKENS, onReject: [withValidationCode] },
        costLimit: { maxCost: env.MAX_QUERY_COST, ignoreIntrospection: true, onReject: [withValidationCode] },
        maxDirectives: { n: 50, onReject: [withValidationCode] },
        blockFieldSuggestion: { enabled: false },
      }),
      {
        // A document nested thousands of levels deep overflows the parser's stack before the
        // token limit stops it: that is the client's syntax problem, not a server error.
        onParse({ parseFn, setParseFn }: ParseHookArgs) {
          setParseFn((source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]) => {
            try {
              return parseFn(source, options);
            } catch (error) {
              if (!(error instanceof RangeError)) throw error;
              throw new GraphQLError('Syntax Error: the document is nested too deeply.', {
                extensions: { code: 'GRAPHQL_PARSE_FAILED' },
              });
            }
          });
        },
      },
    ],
    // A fresh context per request: dataloaders cache per context object.
    context: (): ServiceContext => ({ db, tenantId: env.DEFAULT_TENANT, events, limits }),
  });

  let stopping = false;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' || path === '/readyz') {
      // Both answer 200 only while the database answers; /readyz also fails while stopping,
      // so a load balancer drains this instance first.
      const ok = !(path === '/readyz' && stopping) && (await db.ping());
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : 'unavailable' }));
      return;
    }
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
      // A body without a declared length: read it here, within the limit, then hand it on.
      await handleChunked(req, res);
      return;
    }
    const length = Number(req.headers['content-length'] ?? 0);
    if (length > env.MAX_BODY_BYTES) {
      tooLarge(res, length);
      req.resume();
      return;
    }
    await yoga.requestListener(req, res);
  };
  const tooLarge = (res: ServerResponse, size: number) =>
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(
      JSON.stringify({
        errors: [
          {
            message: `The request body is over ${size} bytes; the limit is ${env.MAX_BODY_BYTES}.`,
            extensions: { code: 'PAYLOAD_TOO_LARGE' },
          },
        ],
      }),
    );
  async function handleChunked(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > env.MAX_BODY_BYTES) {
        tooLarge(res, size);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && name !== 'transfer-encoding') headers.set(name, String(value));
    }
    const response = await yoga.fetch(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: Buffer.concat(chunks),
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) res.write(part);
    }
    res.end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error({ err: error }, 'request failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  // graphql-ws on the same port and path (yoga's examples/graphql-ws): yoga's envelop runs
  // parse, validate, context and error masking for WebSocket operations too.
  const wsServer = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  type Run = (a: ExecutionArgs) => ReturnType<typeof import('graphql').execute>;
  type EnvelopedRoot = { execute: Run; subscribe: Run };
  const wsCleanup = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema: enveloped, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        let document: ReturnType<typeof parse>;
        try {
          document = parse(params.query);
        } catch (error) {
          // A syntax error fails this operation only, not the socket and its other subscriptions.
          if (error instanceof GraphQLError) {
            return [
              new GraphQLError(error.message, {
                source: error.source,
                positions: error.positions,
                extensions: { ...error.extensions, code: 'GRAPHQL_PARSE_FAILED' },
              }),
            ];
          }
          throw error;
        }
        const args = {
          schema: enveloped,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
      connectionInitWaitTimeout: 10_000,
    },
    wsServer,
    12_000, // keep-alive ping interval, ms
  );

  // Idempotency keys are kept IDEMPOTENCY_KEY_TTL_HOURS (at least 24), then pruned hourly.
  const prune = () =>
    pruneIdempotencyKeys(db, env.IDEMPOTENCY_KEY_TTL_HOURS).catch((error: unknown) =>
      logger.warn({ err: error }, 'pruning idempotency keys failed'),
    );
  const pruneTimer = setInterval(prune, 3_600_000);
  pruneTimer.unref();

  return {
    yoga,
    server,
    db,
    events,
    logger,
    start: (port = env.PORT) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, env.HOST, () => resolve((server.address() as AddressInfo).port));
      }),
    stop: async () => {
      stopping = true;
      clearInterval(pruneTimer);
      await wsCleanup.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
      if (server.listening) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
      }
      await redis?.close();
      await db.close();
    },
  };
}
