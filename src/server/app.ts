/**
 * buildApp(env) composes the service: the database, Redis and the event bus, metrics, yoga
 * (yoga.ts) behind the request limits (limits.ts), /healthz and /readyz (health.ts), /metrics
 * (metrics.ts), graphql-ws (graphql-ws.ts), the background jobs (jobs.ts) and the request log
 * (logging.ts). start(port) listens; stop() drains and closes everything.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { limitsFromEnv, type ServiceContext } from '../context.js';
import { type Database, openDatabase } from '../db/client.js';
import { watchCommits } from '../db/commit-watch.js';
import { ConfigError, type Env } from '../env.js';
import { type BusEventTarget, createEventBus, type EventBus } from '../pubsub/bus.js';
import { connectRedisEventTarget } from '../pubsub/redis.js';
import { otherWritersThreadEvents } from '../threads/thread-events.js';
import { buildInfo } from './build-info.js';
import { attachGraphqlWs } from './graphql-ws.js';
import { healthHandler } from './health.js';
import { startJobs } from './jobs.js';
import { queryLimitPlugins, withBodyLimit } from './limits.js';
import { createLogger, operationNamePlugin, withRequestLog } from './logging.js';
import { createMetrics } from './metrics.js';
import { createThreadstoreYoga, type ThreadstoreYoga } from './yoga.js';

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

/**
 * Brings commits of other processes on the same SQLite file (a second server, the importer),
 * which publish nowhere this one listens, to this process's followers: threadItems followers
 * re-read the database, threadEvents followers get events rebuilt from it (only without
 * Redis: with it, servers share their events and would repeat them).
 * @returns the bus for services (noting the thread events they publish) and the watch to stop
 */
function watchOtherProcesses(db: Database, bus: EventBus, redis: boolean, logger: Logger) {
  const others = db.provider === 'sqlite' && !redis ? otherWritersThreadEvents(db, bus) : null;
  const events = others?.observe(bus) ?? bus;
  const commits = watchCommits(db, {
    following: () => events.listenerCount() > 0,
    onCommit: async () => {
      events.resync();
      await others?.check();
    },
    onError: (error) => logger.warn({ err: error }, 'reading commits of other processes failed'),
  });
  return { events, commits };
}

/**
 * Builds the whole service from configuration.
 * @throws ConfigError when the database or Redis cannot be reached or opened
 * @throws Error when a migration fails
 */
export async function buildApp(env: Env, options: BuildOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(env);
  const db = await openDatabase(env.DATABASE_URL, {
    migrate: options.migrate,
    poolSize: env.DB_POOL_SIZE,
    statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
  });
  if (db.appliedMigrations.length)
    logger.info({ applied: db.appliedMigrations }, 'applied migrations');
  const redis =
    !options.eventTarget && env.REDIS_URL
      ? await connectRedisEventTarget(env.REDIS_URL, logger).catch(async (error: unknown) => {
          await db.close();
          throw error;
        })
      : null;
  const build = buildInfo();
  const metrics = createMetrics({ db, redis, build });
  const bus = metrics.observeBus(createEventBus(options.eventTarget ?? redis?.target));
  const { events, commits } = watchOtherProcesses(db, bus, redis !== null, logger);
  // After a Redis outage, events published meanwhile are lost: followers re-read the database.
  redis?.onReconnect(() => events.resync());
  const limits = limitsFromEnv(env);

  const yoga = createThreadstoreYoga({
    logger,
    plugins: [...queryLimitPlugins(env), operationNamePlugin(), metrics.plugin],
    context: (): ServiceContext => ({ db, tenantId: env.DEFAULT_TENANT, events, limits }),
  });

  let stopping = false;
  const health = healthHandler({ db, build, stopping: () => stopping });
  const toYoga = withBodyLimit(env.MAX_BODY_BYTES, yoga);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (await health((req.url ?? '/').split('?')[0] ?? '/', res)) return;
    await toYoga(req, res);
  };
  const server = createServer(
    withRequestLog(logger, (req, res) => {
      handle(req, res).catch((error: unknown) => {
        logger.error({ err: error }, 'request failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    }),
  );
  const ws = attachGraphqlWs(server, yoga);
  const jobs = startJobs(db, env.IDEMPOTENCY_KEY_TTL_HOURS, logger);

  return {
    yoga,
    server,
    db,
    events,
    logger,
    start: (port = env.PORT) => listen(server, port, env.HOST),
    stop: async () => {
      stopping = true;
      jobs.stop();
      await commits.stop();
      await ws.close();
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
