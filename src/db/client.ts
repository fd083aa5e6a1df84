/**
 * The only place a Prisma client is created. The driver adapter is chosen from DATABASE_URL:
 * `file:<path>` is SQLite through better-sqlite3, `postgres(ql)://` is PostgreSQL through
 * node-postgres (anything else is refused). Each provider has its own generated client (a
 * Prisma client is bound to one provider); both have the same model API, so services see one
 * type. A database that cannot be reached or opened is a ConfigError: one line naming the
 * setting, the server and what to do, never the password.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { ConfigError, databaseUrlProblem } from '../env.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaClient as PrismaPgClient } from '../generated/prisma-pg/client.js';
import { applyMigrations, hasPendingMigrations, type Provider } from './migrations.js';
import { registerDirect } from './raw.js';
import { type SqliteSynchronous, serialisedSqlite } from './sqlite.js';
import { type StatementCacheStats, statementCachingClient } from './statement-cache.js';

export type Db = PrismaClient;

/**
 * The comment that starts the statements of background work (the webhook delivery worker),
 * which `statements` does not count: they are no request's work, and a poll would otherwise
 * land in the middle of a measured request.
 */
export const BACKGROUND_SQL = '/* background */';

/** A connected database: the client, its provider, and a running count of SQL statements. */
export interface Database {
  prisma: PrismaClient;
  provider: Provider;
  /**
   * SQL statements sent since start (BEGIN/COMMIT/ROLLBACK and PRAGMAs excluded: the PRAGMA
   * data_version poll of src/db/commit-watch.ts is not work of a request; nor are statements
   * that start with BACKGROUND_SQL, the webhook worker's); tests and benches read it. `all`,
   * when set to an array, also receives the transaction ends (COMMIT, ROLLBACK) Prisma or a raw
   * transaction (src/db/raw.ts) sends: where a transaction's statements end.
   */
  statements: { count: number; log: string[] | null; all?: string[] | null };
  /** Migrations applied when the database was opened (empty when it was current). */
  appliedMigrations: string[];
  /** True when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * PostgreSQL's connection pool right now: connections open, idle ones, and queries waiting
   * for a connection; null on SQLite (one embedded connection, no pool).
   */
  pool(): {
    total: number;
    idle: number;
    waiting: number;
    /** The named statements of its connections (statement-cache.ts). */
    statements: StatementCacheStats;
  } | null;
  close(): Promise<void>;
}

/**
 * Which provider a database URL selects: `file:<path>` SQLite, `postgres(ql)://` PostgreSQL.
 * @throws ConfigError for anything else
 */
export function providerOf(url: string, setting = 'DATABASE_URL'): Provider {
  const problem = databaseUrlProblem(url);
  if (problem) throw new ConfigError(setting, `${setting}="${url}" is not valid: ${problem}.`);
  return url.startsWith('file:') ? 'sqlite' : 'postgresql';
}

export interface OpenOptions {
  /** Apply committed migrations first (default true). */
  migrate?: boolean;
  /** PostgreSQL pool size per instance (default 10). */
  poolSize?: number;
  /** PostgreSQL statement timeout in ms (default 30 000; 0 = none). */
  statementTimeoutMs?: number;
  /**
   * How long a PostgreSQL connection may sit unused in the pool before it is closed, in ms
   * (default POOL_IDLE_TIMEOUT_MS; 0 = never).
   */
  poolIdleTimeoutMs?: number;
  /**
   * Named prepared statements kept per PostgreSQL connection (default
   * DEFAULT_STATEMENT_CACHE_SIZE; 0 = none, every statement unnamed): src/db/statement-cache.ts.
   */
  statementCacheSize?: number;
  /** The setting `url` came from, named in start-up errors (default DATABASE_URL). */
  setting?: string;
  /**
   * SQLite's synchronous setting (default FULL: a commit is on disk when it is acknowledged;
   * NORMAL in WAL mode may lose the last commits on a power loss or OS crash, never the file).
   */
  sqliteSynchronous?: SqliteSynchronous;
}

export type { SqliteSynchronous } from './sqlite.js';

function sqliteFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const path = url.replace(/^file:/, '');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // timeout: how long a statement waits for another process's lock (SQLITE_BUSY), in ms.
  return new PrismaBetterSqlite3({ url: path, timeout: 10_000 });
}

// How long opening a PostgreSQL connection may take before it counts as unreachable.
const CONNECT_TIMEOUT_MS = 5_000;

/** The adapter over a pool we create, so its gauges (in use, idle, waiting) can be read. */
function postgresFactory(pool: pg.Pool): SqlMigrationAwareDriverAdapterFactory {
  return new PrismaPg(pool, { disposeExternalPool: true });
}

/** `factory`, with the adapter it connected (once Prisma connected it; null before). */
function keepingAdapter(factory: SqlMigrationAwareDriverAdapterFactory): {
  factory: SqlMigrationAwareDriverAdapterFactory;
  adapter: () => SqlDriverAdapter | null;
} {
  let adapter: SqlDriverAdapter | null = null;
  return {
    factory: {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: async () => {
        const connected = await factory.connect();
        const dispose = connected.dispose.bind(connected);
        // A disposed adapter is never used directly: statements go through Prisma again.
        connected.dispose = async () => {
          if (adapter === connected) adapter = null;
          return dispose();
        };
        adapter = connected;
        return connected;
      },
      connectToShadowDb: () => factory.connectToShadowDb(),
    },
    adapter: () => adapter,
  };
}

/**
 * Idle PostgreSQL connections are kept this long (ms), as HikariCP's default idleTimeout. pg's
 * own default (10 s) closed connections in every lull of a mixed load, and the request that
 * needed one again waited for a new backend (connect, authenticate, cold catalog caches):
 * bench S9 measured append p99 of 62-146 ms at 12-25 appends/s from those waits, 43-48 ms
 * at 50 appends/s once connections were kept.
 */
const POOL_IDLE_TIMEOUT_MS = 600_000;

/** Named statements per PostgreSQL connection by default, as Prisma's engine kept (statement_cache_size). */
const DEFAULT_STATEMENT_CACHE_SIZE = 100;

/**
 * The pool of the app's PostgreSQL connections (pg-pool: `max`, idle timeout, timeouts), its
 * connections naming their statements (statement-cache.ts), and what they did.
 */
function postgresPool(
  url: string,
  options: OpenOptions,
): { pool: pg.Pool; statements: StatementCacheStats } {
  const { Client, stats } = statementCachingClient(
    options.statementCacheSize ?? DEFAULT_STATEMENT_CACHE_SIZE,
  );
  const pool = new pg.Pool({
    Client,
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // pg-pool closes an idle connection after idleTimeoutMillis; 0 turns that off.
    idleTimeoutMillis: options.poolIdleTimeoutMs ?? POOL_IDLE_TIMEOUT_MS,
    allowExitOnIdle: true,
  });
  return { pool, statements: stats };
}

/**
 * Applies SQLite migrations when some are pending. The schema engine takes the file in
 * exclusive locking mode, so it is started only when needed: a second process (the importer
 * next to a running server) on a current database never waits for a lock.
 */
async function migrateSqlite(url: string): Promise<string[]> {
  const path = url.replace(/^file:/, '');
  let applied: string[] = [];
  if (path !== ':memory:' && existsSync(path)) {
    const db = new BetterSqlite3(path, { readonly: true, timeout: 10_000 });
    try {
      applied = (
        db
          .prepare(
            'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
          )
          .all() as { migration_name: string }[]
      ).map((r) => r.migration_name);
    } catch {
      applied = []; // no table yet
    } finally {
      db.close();
    }
  }
  if (!(await hasPendingMigrations('sqlite', applied))) return [];
  return applyMigrations('sqlite', sqliteFactory(url));
}

// Any fixed number: the key of the advisory lock that serialises migrations across instances.
const MIGRATION_LOCK_KEY = 7_263_616_201;

/**
 * Applies PostgreSQL migrations under a session advisory lock, so instances starting at once
 * on an empty database migrate it once (the others wait, then find nothing to apply).
 */
async function migratePostgres(url: string, setting: string): Promise<string[]> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (error) {
    throw postgresConnectError(error, url, setting);
  }
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await client
      .query<{ migration_name: string }>(
        'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      )
      .then((r) => r.rows.map((row) => row.migration_name))
      .catch(() => [] as string[]); // no table yet: a new database
    if (!(await hasPendingMigrations('postgresql', applied))) return [];
    // allowExitOnIdle: the engine's pool must not keep a short-lived process (npm run migrate) alive.
    return await applyMigrations(
      'postgresql',
      new PrismaPg({ connectionString: url, max: 2, allowExitOnIdle: true }),
    );
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** The first error code found on `error`, its cause chain, or the errors it aggregates. */
function codeOf(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined; e; ) {
    if (typeof e.code === 'string') return e.code;
    e = (e.errors?.[0] ?? e.cause) as typeof e;
  }
  return undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What a failed PostgreSQL connection means for the person starting the server: a
 * ConfigError naming `setting`, the server (never the password) and what to do.
 */
function postgresConnectError(error: unknown, url: string, setting: string): ConfigError {
  const u = new URL(url);
  const database = decodeURIComponent(u.pathname.slice(1)) || 'postgres';
  const server = `${u.hostname || 'localhost'}:${u.port || 5432}`;
  const code = codeOf(error);
  const message = messageOf(error);
  const check = `check the host and port in ${setting} and that PostgreSQL is running`;
  let line: string;
  if (code === 'ECONNREFUSED') {
    line = `cannot reach PostgreSQL at ${server} (connection refused): ${check}.`;
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    line = `cannot reach PostgreSQL: the host "${u.hostname}" is unknown: check the host in ${setting}.`;
  } else if (code === '3D000') {
    line = `PostgreSQL at ${server} has no database "${database}": create it (createdb ${database}) or fix the database name in ${setting}.`;
  } else if (code === '28000' || code === '28P01') {
    // 28000: no such role (or no pg_hba.conf entry); 28P01: wrong password.
    line = `PostgreSQL at ${server} refused the login (${message}): check the user and password in ${setting}${code === '28000' ? ', or create the role' : ''}.`;
  } else if (code === undefined || /^E[A-Z]+$/.test(code)) {
    // Timeouts and dropped connections carry no code, or a socket one (ETIMEDOUT, ...).
    line = `cannot reach PostgreSQL at ${server} (${message || code}): ${check} and reachable from here.`;
  } else {
    line = `PostgreSQL at ${server} refused the connection (${message}): check ${setting} and the server.`;
  }
  return new ConfigError(setting, `${setting}: ${line}`);
}

// Failures to open or create a SQLite file: file system errors, SQLite's open errors, and
// the schema engine's words for the same (it reports no code).
const SQLITE_OPEN_CODES =
  /^(EACCES|EPERM|EROFS|EEXIST|ENOTDIR|EISDIR|ENOENT|ENOSPC|SQLITE_(CANTOPEN|NOTADB|READONLY|PERM|CORRUPT|IOERR)\w*)$/;
const SQLITE_OPEN_MESSAGES =
  /^(file is not a database|unable to open database file|attempt to write a readonly database|database disk image is malformed|disk I\/O error)/;

/** A ConfigError when `error` means the SQLite file cannot be opened; else `error` itself. */
function sqliteOpenError(error: unknown, url: string, setting: string): unknown {
  const code = codeOf(error);
  const reason = messageOf(error).split('\n')[0] ?? '';
  if (!(code && SQLITE_OPEN_CODES.test(code)) && !SQLITE_OPEN_MESSAGES.test(reason)) return error;
  const path = resolve(url.replace(/^file:/, ''));
  return new ConfigError(
    setting,
    `${setting}: cannot open the SQLite database ${path} (${reason}): check the path in ${setting}; its folder must be writable.`,
  );
}

/**
 * Refuses a SQLite path that cannot be a database file before any engine sees it (the schema
 * engine reports such paths without a code): a folder, or a file in a folder we cannot write.
 * @throws ConfigError naming `setting`
 */
function checkSqlitePath(url: string, setting: string): void {
  const path = resolve(url.replace(/^file:/, ''));
  const problem = (() => {
    if (existsSync(path) && statSync(path).isDirectory()) return 'it is a folder';
    const folder = dirname(path);
    if (!existsSync(folder)) return null; // created on open
    try {
      accessSync(folder, constants.W_OK);
      return null;
    } catch {
      return `its folder ${folder} is not writable`;
    }
  })();
  if (problem) {
    throw new ConfigError(
      setting,
      `${setting}: cannot use ${path} as the SQLite database (${problem}): set ${setting} to file:<path of a database file in a writable folder>.`,
    );
  }
  if (!existsSync(dirname(path))) return;
  // Open it once with the driver, which names what is wrong (special file systems, a file
  // that is not a database); the wasm schema engine would only say "External error".
  try {
    const probe = new BetterSqlite3(path, { timeout: 10_000 });
    try {
      probe.pragma('schema_version');
    } finally {
      probe.close();
    }
  } catch (error) {
    throw sqliteOpenError(error, url, setting);
  }
}

/**
 * Opens the database named by `url`, first applying committed migrations (before the client
 * connects, so no connection of ours holds a lock the schema engine waits for).
 * @throws ConfigError for an unsupported URL, or a database that cannot be reached or opened
 *   (one line naming options.setting); Error when a migration fails
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  const setting = options.setting ?? 'DATABASE_URL';
  const provider = providerOf(url, setting);
  if (provider === 'sqlite') checkSqlitePath(url, setting);
  try {
    return await connect(url, provider, options);
  } catch (error) {
    throw provider === 'sqlite' ? sqliteOpenError(error, url, setting) : error;
  }
}

/** openDatabase's work: migrations, the client (over our pool on PostgreSQL), SQLite pragmas. */
async function connect(url: string, provider: Provider, options: OpenOptions): Promise<Database> {
  let appliedMigrations: string[] = [];
  if (options.migrate !== false) {
    appliedMigrations =
      provider === 'sqlite'
        ? await migrateSqlite(url)
        : await migratePostgres(url, options.setting ?? 'DATABASE_URL');
  }
  const statements: Database['statements'] = { count: 0, log: null };
  const log = [{ emit: 'event' as const, level: 'query' as const }];
  const postgres = provider === 'postgresql' ? postgresPool(url, options) : null;
  const pool = postgres?.pool ?? null;
  // The adapter Prisma connects, kept for raw statements sent to it directly (raw.ts).
  const connected = keepingAdapter(
    pool
      ? postgresFactory(pool)
      : serialisedSqlite(sqliteFactory(url), options.sqliteSynchronous ?? 'FULL'),
  );
  // Both generated clients have the same model API; services are typed against the SQLite one.
  const prisma = pool
    ? (new PrismaPgClient({ adapter: connected.factory, log }) as unknown as PrismaClient)
    : new PrismaClient({ adapter: connected.factory, log });
  const events = prisma as unknown as {
    $on(event: 'query', cb: (e: { query: string }) => void): void;
  };
  const count = (query: string) => {
    statements.all?.push(query);
    if (/^(BEGIN|COMMIT|ROLLBACK|PRAGMA)\b/i.test(query)) return;
    if (query.trimStart().startsWith(BACKGROUND_SQL)) return;
    statements.count += 1;
    statements.log?.push(query);
  };
  events.$on('query', (e) => count(e.query));
  await prisma.$connect();
  registerDirect(prisma, {
    adapter: connected.adapter,
    numbered: provider === 'postgresql',
    count,
  });
  if (provider === 'sqlite') {
    // WAL mode and the synchronous level are set by the adapter as it connects (sqlite.ts):
    // WAL lets readers go on while a write commits; FULL syncs the WAL at every commit, so an
    // acknowledged write survives a power loss; NORMAL (opt-in) syncs only at checkpoints.
    await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  }
  statements.count = 0;
  return {
    prisma,
    provider,
    statements,
    appliedMigrations,
    async ping(timeoutMs = 2_000) {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          prisma.$queryRawUnsafe('SELECT 1'),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('ping timed out')), timeoutMs);
          }),
        ]);
        return true;
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    pool: () =>
      postgres
        ? {
            total: postgres.pool.totalCount,
            idle: postgres.pool.idleCount,
            waiting: postgres.pool.waitingCount,
            statements: postgres.statements,
          }
        : null,
    close: () => prisma.$disconnect(),
  };
}
