/**
 * Running a command-line entry point (npm run import, npm run keys): its exit code, and an
 * unexpected failure as one line on stderr. A bad setting or a database that cannot be opened
 * (ConfigError) prints its one line; anything else is unexpected, and its stack helps (with
 * passwords hidden).
 */
import { limitsFromEnv, type ServiceContext } from './context.js';
import { openDatabase } from './db/client.js';
import { ConfigError, parseEnv, redact } from './env.js';
import { anonymousIdentity } from './identity/identity.js';
import { createEventBus } from './pubsub/bus.js';

/** Runs `main` with the command line's arguments and sets the process's exit code. */
export function runCommand(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const text =
        error instanceof ConfigError
          ? error.message
          : redact(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.stderr.write(`${text}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * The service context a command-line tool works in: the database of `--database` (else
 * DATABASE_URL), as its operator (every scope) in `--tenant` (else DEFAULT_TENANT), with an
 * in-process event bus. The caller closes `ctx.db`.
 * @throws ConfigError when the environment or the database is wrong
 */
export async function operatorContext(options: {
  database?: string;
  tenant?: string;
}): Promise<ServiceContext> {
  const env = parseEnv();
  const db = await openDatabase(options.database ?? env.DATABASE_URL, {
    setting: options.database === undefined ? 'DATABASE_URL' : '--database',
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
  });
  const tenantId = options.tenant ?? env.DEFAULT_TENANT;
  return {
    db,
    identity: anonymousIdentity(tenantId),
    tenantId,
    events: createEventBus(),
    limits: limitsFromEnv(env),
  };
}
