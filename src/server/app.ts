/**
 * buildApp(env) composes the service: the database, Redis and the event bus, metrics, yoga
 * (yoga.ts) behind the request limits (limits.ts) and the per-tenant rate limit
 * (rate-limit.ts), browser safety (browser.ts: Host, CSRF, CORS, introspection), the audit log
 * (audit.ts), /healthz and /readyz (health.ts), /metrics (metrics.ts), graphql-ws
 * (graphql-ws.ts), the background jobs (jobs.ts), webhook deliveries (webhook-worker.ts), the
 * request log (logging.ts) and the thread browser at /ui (ui-route.ts).
 * start(port) listens; stop() drains and closes everything.
 */
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { limitsFromEnv } from '../context.js';
import { type Availability, createAvailability } from '../db/availability.js';
import { type Database, openDatabase } from '../db/client.js';
import { watchCommits } from '../db/commit-watch.js';
import { ConfigError, type Env } from '../env.js';
import { createAuthenticator } from '../identity/authenticate.js';
import { createJwtVerifier } from '../identity/jwt.js';
import { type BusEventTarget, createEventBus, type EventBus } from '../pubsub/bus.js';
import { connectRedisEventTarget, type RedisEventTarget } from '../pubsub/redis.js';
import { otherWritersThreadEvents } from '../threads/thread-events.js';
import { type Audit, auditPlugin, createAudit } from './audit.js';
import { jwtSettings, requestAuthentication } from './auth.js';
import {
  corsOptions,
  csrfPrevention,
  introspectionOff,
  loopbackHostOnly,
  refuseForeignHost,
  refuseMalformedHost,
  upgradeProblem,
  varyOnOrigin,
} from './browser.js';
import { buildInfo } from './build-info.js';
import { exportRoute } from './export-route.js';
import { attachGraphqlWs } from './graphql-ws.js';
import { healthHandler } from './health.js';
import { inputGuard } from './input-guard.js';
import { startJobs } from './jobs.js';
import { queryLimitPlugins, withBodyLimit } from './limits.js';
import { createLogger, requestIdOf, requestScopePlugin, withRequestLog } from './logging.js';
import { contractErrorCodes } from './mask-error.js';
import { createMetrics } from './metrics.js';
import { createRateLimiter, type RateLimiter, rateLimitPlugin } from './rate-limit.js';
import { servicePrincipal, sharedSubscriptions, withinReadBudget } from './shared-subscriptions.js';
import { streamCredentialsPlugin } from './stream-credentials.js';
import { transcriptDroppedPlugin } from './transcript-dropped.js';
import { uiRoute } from './ui-route.js';
import { startWebhookWorker } from './webhook-worker.js';
import { createThreadstoreYoga, type ThreadstoreYoga, type YogaOptions } from './yoga.js';

export interface App {
  yoga: ThreadstoreYoga;
  server: Server;
  db: Database;
  events: EventBus;
  logger: Logger;
  /**
   * Listens on `port` (0 = any free port) and `env.HOST`; resolves to the port used.
   * @throws ConfigError when the port is in use, not allowed, or HOST is not an address here
   */
  start(port?: number): Promise<number>;
  /** Stops accepting, closes the HTTP server and the database. */
  stop(): Promise<void>;
}

export interface BuildOptions {
  /** Default: a logger made from LOG_LEVEL and LOG_FORMAT. */
  logger?: Logger;
  /** Event target for the bus (tests wrap one to drop events); default from REDIS_URL. */
  eventTarget?: BusEventTarget;
  /** Apply committed migrations before serving (default true). */
  migrate?: boolean;
  /** The built thread browser served at /ui (default ui/dist: ui-route.ts). */
  uiRoot?: string;
}

/** A listen error as a person starting the server can fix it. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  switch (error.code) {
    case 'EADDRINUSE':
      return new ConfigError(
        'PORT',
        `PORT: port ${port} on ${host} is already in use: stop the other process or set PORT to a free port.`,
      );
    case 'EACCES':
      return new ConfigError(
        'PORT',
        `PORT: no permission to listen on port ${port} (ports below 1024 need privileges): set PORT to 1024 or above.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new ConfigError(
        'HOST',
        `HOST: cannot listen on ${host}: it is not an address of this machine; set HOST to 0.0.0.0 or one of its addresses.`,
      );
    default:
      return error;
  }
}

/** Listens on `port` and `host`; resolves to the port used. */
function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, port)));
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops accepting and waits for the requests in flight, at most `timeoutMs`; then cuts the
 * connections that are left (a stuck client must not keep the process alive).
 */
async function drain(server: Server, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, timeoutMs);
    }),
  ]);
  clearTimeout(timer);
}

const AUTH_NONE_WARNING =
  'AUTH=none: no authentication, no Host check; anyone who reaches this port can read, change and delete every thread. Use it only on a private network, or set AUTH=required.';

/**
 * Yoga with its plugins, in order: browser safety (Host, CSRF, CORS), authentication (before
 * parsing; the audit log just before it), introspection off, the query limits, the input
 * guard (lone surrogates), the request log's operation name, the per-tenant rate limit, stream
 * credentials, metrics; last, subscription executions shared per group (shared-subscriptions.ts).
 */
function guardedYoga(
  env: Env,
  deps: {
    logger: Logger;
    audit: Audit;
    rateLimiter: RateLimiter;
    authPlugin: Plugin;
    metricsPlugin: Plugin;
    sharingPlugin: Plugin;
    context: YogaOptions['context'];
    availability: Availability;
  },
): ThreadstoreYoga {
  const { audit } = deps;
  return createThreadstoreYoga({
    logger: deps.logger,
    plugins: [
      // First: the lines other plugins write for a request find its id through it.
      requestScopePlugin(),
      contractErrorCodes(),
      loopbackHostOnly(env.AUTH, audit),
      csrfPrevention(audit),
      varyOnOrigin(env.CORS_ORIGINS),
      // Before authentication: a refused request's line still names its operation.
      auditPlugin(audit),
      deps.authPlugin,
      ...(env.INTROSPECTION ? [] : [introspectionOff()]),
      ...queryLimitPlugins(env),
      inputGuard(),
      rateLimitPlugin(deps.rateLimiter, audit, env.RATE_LIMIT_RPS),
      streamCredentialsPlugin(env.STREAM_AUTH_RECHECK_MS),
      deps.metricsPlugin,
      transcriptDroppedPlugin(),
      // Last: it sets the subscribe engine, so it must follow any plugin that sets one.
      deps.sharingPlugin,
    ],
    context: deps.context,
    classify: deps.availability.classify,
    graphiql: env.GRAPHIQL,
    jit: env.GRAPHQL_JIT,
    cors: corsOptions(env.CORS_ORIGINS),
  });
}

/** graphql-ws's limits and upgrade checks from the configuration. */
function wsLimits(env: Env) {
  return {
    initTimeoutMs: env.WS_INIT_TIMEOUT_MS,
    maxConnections: env.WS_MAX_CONNECTIONS,
    maxSubscriptions: env.WS_MAX_SUBSCRIPTIONS,
    maxMessageBytes: env.MAX_BODY_BYTES,
    upgradeProblem: (req: IncomingMessage) => upgradeProblem(env.AUTH, env.CORS_ORIGINS, req),
  };
}

/** Warns when a JWKS is trusted without an audience (tokens for other APIs would pass). */
function warnOnLooseJwt(env: Env, logger: Logger): void {
  if ((env.AUTH_JWKS_URL || env.AUTH_JWKS_FILE) && !env.AUTH_JWT_AUDIENCE) {
    logger.warn(
      'AUTH_JWT_AUDIENCE is not set: any token of this identity provider is accepted, also one issued for another API; set it to the audience your tokens carry.',
    );
  }
}

/**
 * How long a client may take to send a request (Node's http server options): the headers
 * within HEADERS_TIMEOUT_MS, the whole request within REQUEST_TIMEOUT_MS, else Node answers
 * 408 and closes the connection (a body trickled a byte at a time holds nothing for long).
 * Only receiving counts: responses, SSE streams and upgraded WebSockets are not cut.
 * Idle keep-alive connections close after Node's 5 s.
 */
function receiveTimeouts(env: Env): ServerOptions {
  const requestTimeout = env.REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(env.HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    requestTimeout,
    headersTimeout,
    keepAliveTimeout: 5_000,
    // Node checks the timeouts every 30 s by default: a 1 s timeout would act after 30 s.
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, headersTimeout / 4)),
  };
}

/** Yoga's endpoint (yoga.ts): health, export and /ui routes never match it. */
const GRAPHQL_PATH = '/graphql';

/**
 * The HTTP server: the Host guard (AUTH=optional), /healthz and /readyz, the export route,
 * the thread browser's files (/ui), then yoga within the body limit; one log line per request.
 */
function httpServer(
  env: Env,
  deps: {
    logger: Logger;
    audit: Audit;
    health: ReturnType<typeof healthHandler>;
    yoga: ThreadstoreYoga;
    exports: ReturnType<typeof exportRoute>;
    ui: ReturnType<typeof uiRoute>;
  },
): Server {
  const { logger, health } = deps;
  const toYoga = withBodyLimit(env.MAX_BODY_BYTES, deps.yoga);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (refuseMalformedHost(req, res)) return;
    if (refuseForeignHost(env.AUTH, deps.audit, req, res)) return;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    // Nearly every request is GraphQL, which none of the other routes serves: straight to yoga.
    if (path !== GRAPHQL_PATH) {
      if (await health(path, res)) return;
      if (await deps.exports(req, res)) return;
      if (await deps.ui(req, res)) return;
    }
    await toYoga(req, res);
  };
  return createServer(
    receiveTimeouts(env),
    withRequestLog(logger, (req, res) => {
      handle(req, res).catch((error: unknown) => {
        logger.error({ err: error, requestId: requestIdOf(req) }, 'request failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    }),
  );
}

/**
 * Brings commits of other processes on the same SQLite file (a second server, the importer),
 * which publish nowhere this one listens, to this process's followers: threadItems followers
 * re-read the database, threadEvents followers get events rebuilt from it (only without
 * Redis: with it, servers share their events and would repeat them). With Redis, the same
 * happens while Redis is down or after another instance dropped events (redis.onCatchUp).
 * @returns the bus for services (noting the thread events they publish) and the watch to stop
 */
function watchOtherProcesses(
  db: Database,
  bus: EventBus,
  redis: RedisEventTarget | null,
  logger: Logger,
) {
  const rebuilt = redis || db.provider === 'sqlite';
  // Rebuilt events stay in this process: every instance rebuilds its own.
  const others = rebuilt
    ? otherWritersThreadEvents(db, { ...bus, publish: bus.publishLocal })
    : null;
  const events = others?.observe(bus) ?? bus;
  const commits = watchCommits(db, {
    following: () => events.listenerCount() > 0,
    onCommit: async () => {
      events.resync();
      if (!redis) await others?.check();
    },
    onError: (error) => logger.warn({ err: error }, 'reading commits of other processes failed'),
  });
  // One check at a time; a catch-up while one runs is taken after it (the earliest since).
  let checking: Promise<void> | null = null;
  let pending: Date | null = null;
  const check = (since: Date) => {
    pending = pending && pending < since ? pending : since;
    if (checking) return;
    const from = pending;
    pending = null;
    checking = (others?.check(from) ?? Promise.resolve())
      .catch((error: unknown) => logger.warn({ err: error }, 'rebuilding thread events failed'))
      .finally(() => {
        checking = null;
        if (pending) check(pending);
      });
  };
  redis?.onCatchUp((since) => {
    if (events.listenerCount() === 0) return;
    events.resync();
    check(since);
  });
  return { events, commits };
}

/**
 * Opens the database (applying migrations unless told not to) and, with REDIS_URL and no
 * event target given, connects Redis; closes the database again when Redis fails.
 * @throws ConfigError when the database or Redis cannot be reached or opened
 */
async function connectDependencies(env: Env, options: BuildOptions, logger: Logger) {
  const db = await openDatabase(env.DATABASE_URL, {
    migrate: options.migrate,
    poolSize: env.DB_POOL_SIZE,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    poolIdleTimeoutMs: env.DB_POOL_IDLE_TIMEOUT_MS,
    statementCacheSize: env.DB_STATEMENT_CACHE_SIZE,
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
  });
  if (db.appliedMigrations.length)
    logger.info({ applied: db.appliedMigrations }, 'applied migrations');
  const redis =
    !options.eventTarget && env.REDIS_URL
      ? await connectRedisEventTarget(env.REDIS_URL, logger, {
          pollMs: env.REDIS_DEGRADED_POLL_MS,
        }).catch(async (error: unknown) => {
          await db.close();
          throw error;
        })
      : null;
  return { db, redis };
}

/**
 * Builds the whole service from configuration.
 * @throws ConfigError when the database or Redis cannot be reached or opened
 * @throws Error when a migration fails
 */
export async function buildApp(env: Env, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(env);
  const { db, redis } = await connectDependencies(env, options, logger);
  const build = buildInfo();
  const sharing = sharedSubscriptions({
    principalOf: servicePrincipal,
    shareable: withinReadBudget,
  });
  const metrics = createMetrics({ db, redis, build, sharing: sharing.stats });
  const bus = metrics.observeBus(createEventBus(options.eventTarget ?? redis?.target));
  const { events, commits } = watchOtherProcesses(db, bus, redis, logger);
  const limits = limitsFromEnv(env);
  const authenticator = createAuthenticator({
    mode: env.AUTH,
    db,
    jwt: createJwtVerifier(jwtSettings(env)),
    defaultTenant: env.DEFAULT_TENANT,
  });

  const audit = createAudit(logger);
  const rateLimiter = await createRateLimiter(env, logger);
  warnOnLooseJwt(env, logger);
  const auth = requestAuthentication(authenticator, { db, events, limits });
  const availability = createAvailability(db, env.DATABASE_URL);
  const yoga = guardedYoga(env, {
    logger,
    audit,
    rateLimiter,
    authPlugin: auth.plugin,
    metricsPlugin: metrics.plugin,
    sharingPlugin: sharing.plugin,
    context: auth.context,
    availability,
  });

  let stopping = false;
  const health = healthHandler({
    db,
    availability,
    build,
    stopping: () => stopping,
    redisStatus: redis ? () => redis.status() : undefined,
  });
  const exports = exportRoute({ authenticator, base: { db, events, limits }, audit, logger });
  const server = httpServer(env, {
    logger,
    audit,
    health,
    yoga,
    exports,
    ui: uiRoute(options.uiRoot),
  });
  const ws = attachGraphqlWs(server, { yoga, authenticator, audit, logger, ...wsLimits(env) });
  const jobs = startJobs(
    db,
    {
      ttlHours: env.IDEMPOTENCY_KEY_TTL_HOURS,
      expirySweepMs: env.EXPIRY_SWEEP_INTERVAL_MS,
      events,
    },
    logger,
  );
  const webhooks = startWebhookWorker(db, env, logger);

  return {
    yoga,
    server,
    db,
    events,
    logger,
    async start(port = env.PORT) {
      const used = await listen(server, port, env.HOST);
      // Redis' protected mode is the model: every start says so.
      if (env.AUTH === 'none') logger.warn({ auth: env.AUTH }, AUTH_NONE_WARNING);
      return used;
    },
    stop: async () => {
      stopping = true;
      await jobs.stop();
      // Deliveries in flight are cut and given back, for another instance or the next start.
      await webhooks.stop();
      // /readyz answers 503 meanwhile, so a load balancer stops sending here first.
      if (env.SHUTDOWN_DELAY_MS > 0) await sleep(env.SHUTDOWN_DELAY_MS);
      // Live subscriptions complete (SSE responses end; clients resume with afterSeq).
      await commits.stop();
      events.close();
      await ws.close();
      if (server.listening) await drain(server, env.SHUTDOWN_TIMEOUT_MS);
      await rateLimiter.close();
      await redis?.close();
      await db.close();
    },
  };
}
