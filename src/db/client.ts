/**
 * The only place a Prisma client is created. The driver adapter is chosen from DATABASE_URL:
 * `file:` (or a bare path) is SQLite through better-sqlite3, `postgres(ql)://` is PostgreSQL.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/prisma/client.js';
import { applyMigrations, type Provider } from './migrations.js';

export type Db = PrismaClient;

/** A connected database: the client, its provider, and a running count of SQL statements. */
export interface Database {
  prisma: PrismaClient;
  provider: Provider;
  /** SQL statements sent since start (BEGIN/COMMIT excluded); tests and benches read it. */
  statements: { count: number; log: string[] | null };
  /** Migrations applied when the database was opened (empty when it was current). */
  appliedMigrations: string[];
  close(): Promise<void>;
}

/** Which provider a DATABASE_URL selects. @throws Error for an unsupported scheme */
export function providerOf(url: string): Provider {
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgresql';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('file:')) {
    throw new Error(`DATABASE_URL: unsupported scheme in "${url.split('://')[0]}://"; use file: or postgres://`);
  }
  return 'sqlite';
}

function sqliteFactory(url: string): SqlMigrationAwareDriverAdapterFactory {
  const path = url.replace(/^file:/, '');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // timeout: how long a statement waits for another process's lock (SQLITE_BUSY), in ms.
  return new PrismaBetterSqlite3({ url: path, timeout: 10_000 });
}

export interface OpenOptions {
  /** Apply committed migrations first (default true). */
  migrate?: boolean;
}

/**
 * Opens the database named by `url`, first applying committed migrations (before the client
 * connects, so no connection of ours holds a lock the schema engine waits for).
 * @throws Error for an unsupported URL scheme, or when a migration fails
 */
export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  const provider = providerOf(url);
  if (provider !== 'sqlite') throw new Error('PostgreSQL support is not built yet');
  const appliedMigrations =
    options.migrate === false ? [] : await applyMigrations(provider, sqliteFactory(url));
  const factory = sqliteFactory(url);
  const statements: Database['statements'] = { count: 0, log: null };
  const prisma = new PrismaClient({
    adapter: factory,
    log: [{ emit: 'event', level: 'query' }],
  });
  prisma.$on('query', (e) => {
    if (/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(e.query)) return;
    statements.count += 1;
    statements.log?.push(e.query);
  });
  await prisma.$connect();
  // WAL lets readers go on while a write commits; NORMAL sync is safe in WAL mode.
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL');
  await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL');
  await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON');
  statements.count = 0;
  return {
    prisma,
    provider,
    statements,
    appliedMigrations,
    close: () => prisma.$disconnect(),
  };
}
