/**
 * One fresh database per test app: a SQLite file in a temporary folder, or a new PostgreSQL
 * database when TEST_PROVIDER=postgresql (server from TEST_POSTGRES_URL, default the local one).
 * The bench creates its databases here too (createDatabase).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type TestProvider = 'sqlite' | 'postgresql';

/** The provider this test run uses. */
export const testProvider: TestProvider =
  process.env.TEST_PROVIDER === 'postgresql' ? 'postgresql' : 'sqlite';

/** The PostgreSQL server tests create their databases on. */
export const testPostgresUrl =
  process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/** Creates an empty database of the run's provider. */
export function createTestDatabase(): Promise<TestDatabase> {
  return createDatabase(testProvider, { serverUrl: testPostgresUrl, label: 'test' });
}

/** Runs one statement on the PostgreSQL server at `serverUrl` (its maintenance database). */
async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database of `provider`: a `<label>.db` file in a fresh temporary folder, or
 * a database `threadstore_<label>_<pid>_<time>_<n>` on the PostgreSQL server at `serverUrl`.
 * `drop()` deletes the folder or drops the database (closing its connections).
 */
export async function createDatabase(
  provider: TestProvider,
  { serverUrl, label }: { serverUrl: string; label: string },
): Promise<TestDatabase> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `threadstore-${label}-`));
    return {
      url: `file:${join(dir, `${label}.db`)}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `threadstore_${label}_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  await onServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
