/**
 * Entry point: parse the environment, build the app, listen, stop cleanly on SIGTERM/SIGINT.
 * A start-up failure caused by a setting is one line naming it (on stderr before the logger
 * exists, else one fatal log line) and exit code 1, never a stack trace.
 */
// First, before any module that loads graphql: it sets NODE_ENV (production-mode.ts). A side-effect
// import, so that sorting the imports never moves it.
import './production-mode.js';
import type { Logger } from 'pino';
import { ConfigError, type Env, parseEnv, redact } from './env.js';
import { graphqlInProductionMode } from './production-mode.js';
import { type App, buildApp } from './server/app.js';
import { buildInfo } from './server/build-info.js';
import { createLogger } from './server/logging.js';

/** Prints one line for a failure before the logger exists and exits. */
function exitBeforeLogger(error: unknown): never {
  const text =
    error instanceof ConfigError ? error.message : redact(String((error as Error)?.stack ?? error));
  process.stderr.write(`${text}\n`);
  process.exit(1);
}

/** Logs the failure as one fatal line and exits (pino writes synchronously). */
function exitWithLog(logger: Logger, error: unknown): never {
  if (error instanceof ConfigError) logger.fatal(error.message);
  else logger.fatal({ err: error }, 'threadstore failed to start');
  process.exit(1);
}

let env: Env;
let logger: Logger;
try {
  env = parseEnv();
  logger = createLogger(env);
} catch (error) {
  exitBeforeLogger(error);
}

let app: App;
let port: number;
try {
  app = await buildApp(env, { logger });
  port = await app.start();
} catch (error) {
  exitWithLog(logger, error);
}

const { version, commit } = buildInfo();
const shown =
  env.HOST === '0.0.0.0' || env.HOST === '::'
    ? 'localhost'
    : env.HOST.includes(':')
      ? `[${env.HOST}]`
      : env.HOST;
const database = redact(env.DATABASE_URL);
const authModes = {
  required: 'AUTH=required (every request needs an API key or a JWT)',
  optional:
    'AUTH=optional (requests without credentials act as the default tenant; loopback Host names only)',
  none: 'AUTH=none (no authentication)',
};
logger.info(
  {
    version,
    commit,
    port,
    database,
    redis: env.REDIS_URL && redact(env.REDIS_URL),
    auth: env.AUTH,
    // production unless set (production-mode.ts)
    nodeEnv: process.env.NODE_ENV,
    productionMode: await graphqlInProductionMode(),
  },
  `threadstore ${version} (${commit.slice(0, 12)}) on http://${shown}:${port}/graphql (${env.GRAPHIQL ? 'GraphiQL in a browser' : 'GraphiQL off'}; thread browser at /ui), database ${database}, ${authModes[env.AUTH]}`,
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) {
      // A second Ctrl-C or SIGTERM: the operator does not want to wait for the drain.
      logger.warn({ signal }, 'stopping now, without waiting for requests in flight');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping (send the signal again to stop at once)');
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        process.exit(1);
      },
    );
  });
}
