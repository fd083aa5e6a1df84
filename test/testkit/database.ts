/**
 * One fresh database per test app: a SQLite file in a temporary folder, or a new PostgreSQL
 * database when TEST_PROVIDER=postgresql (server from TEST_POSTGRES_URL, default the local one).
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
export const testPostgresUrl = process.env.TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

let counter = 0;

/** Creates an empty database of the run's provider. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testProvider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'threadstore-test-'));
    return {
      url: `file:${join(dir, 'test.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `threadstore_test_${process.pid}_${Date.now().toString(36)}_${++counter}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testPostgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: testPostgresUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
