/**
 * The only place a Prisma client is created. The driver adapter is chosen from DATABASE_URL:
 * `file:` (or a bare path) is SQLite through better-sqlite3, `postgres(ql)://` is PostgreSQL
 * through node-postgres. Each provider has its own generated client (a Prisma client is bound
 * to one provider); both have the same model API, so services see one type.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaClient as PrismaPgClient } from '../generated/prisma-pg/client.js';
import { applyMigrations, hasPendingMigrations, type Provider } from './migrations.js';

export type Db = PrismaClient;

/** A connected database: the client, its provider, and a running count of SQL statements. */
export interface Database {
  prisma: PrismaClient;
  provider: Provider;
  /** SQL statements sent since start (BEGIN/COMMIT excluded); tests and benches read it. */
  statements: { count: number; log: string[] | null };
  /** Migrations applied when the database was opened (empty when it was current). */
  appliedMigrations: string[];
  /** True when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Which provider a DATABASE_URL selects. @throws Error for an unsupported scheme */
export function providerOf(url: string): Provider {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('file:')) {
    throw new Error(
      `DATABASE_URL: unsupported scheme "${url.split('://')[0]}://"; use file:<path> (SQLite) or postgres://`,
    );
  }
  return 'sqlite';
}

export interface OpenOptions {
  /** Apply committed migrations first (default true). */
  migrate?: boolean;
  /** PostgreSQL pool size per instance (default 10). */
  poolSize?: number;
  /** PostgreSQL statement timeout in ms (default 30 000; 0 = none). */
  statementTimeoutMs?: number;
}

function sqliteFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const path = url.replace(/^file:/, '');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // timeout: how long a statement waits for another process's lock (SQLITE_BUSY), in ms.
  return new PrismaBetterSqlite3({ url: path, timeout: 10_000 });
}

function postgresFactory(url: string, options: OpenOptions): SqlMigrationAwareDriverAdapterFactory {
  return new PrismaPg({
    connectionString: url,
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: 5_000,
    allowExitOnIdle: true,
  });
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
async function migratePostgres(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
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
    return await applyMigrations('postgresql', new PrismaPg({ connectionString: url, max: 2, allowExitOnIdle: true }));
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/**
 * Opens the database named by `url`, first applying committed migrations (before the client
 * connects, so no connection of ours holds a lock the schema engine waits for).
 * @throws Error for an unsupported URL scheme, or when a migration fails
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  const provider = providerOf(url);
  let appliedMigrations: string[] = [];
  if (options.migrate !== false) {
    appliedMigrations = provider === 'sqlite' ? await migrateSqlite(url) : await migratePostgres(url);
  }
  const statements: Database['statements'] = { count: 0, log: null };
  const log = [{ emit: 'event' as const, level: 'query' as const }];
  // Both generated clients have the same model API; services are typed against the SQLite one.
  const prisma =
    provider === 'sqlite'
      ? new PrismaClient({ adapter: sqliteFactory(url), log })
      : (new PrismaPgClient({ adapter: postgresFactory(url, options), log }) as unknown as PrismaClient);
  const events = prisma as unknown as { $on(event: 'query', cb: (e: { query: string }) => void): void };
  events.$on('query', (e) => {
    if (/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(e.query)) return;
    statements.count += 1;
    statements.log?.push(e.query);
  });
  await prisma.$connect();
  if (provider === 'sqlite') {
    // WAL lets readers go on while a write commits; NORMAL sync is safe in WAL mode.
    await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
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
    close: () => prisma.$disconnect(),
  };
}
