/**
 * The bench database: a fresh SQLite file or PostgreSQL database per provider and run (made by
 * the test kit's createDatabase), migrated with the app's own migrations, and seeded with bulk
 * SQL straight into the tables (fast; the API path is what the scenarios measure, not what they
 * set up, which is why the bench does not seed through the test kit's API seeders).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';
import {
  createDatabase,
  type TestDatabase,
  type TestProvider,
} from '../../test/testkit/database.js';

export type Provider = TestProvider;

export const POSTGRES_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const TENANT = 'local';

/** The JSON of a seeded message item (the same size as the bench's appended items). */
export const SEED_DATA_JSON = JSON.stringify({
  role: 'assistant',
  content: 'seeded item: '.padEnd(180, 'lorem ipsum dolor sit amet '),
});

/** The JSON of a seeded user message (seedItems with turns: every other item). */
export const SEED_USER_JSON = JSON.stringify({
  role: 'user',
  content: 'seeded question: '.padEnd(180, 'lorem ipsum dolor sit amet '),
});

/** Direct SQL on the bench database, for seeding and checks. */
export interface BenchDb {
  provider: Provider;
  url: string;
  /** Inserts threads (nextSeq/itemCount 0) with createdAt/updatedAt = now - i ms. */
  createThreads(ids: string[], agentId?: string): Promise<void>;
  /**
   * Appends `count` message items at seq nextSeq.. and fixes the thread's counters; with
   * `turns`, items alternate user (first) and assistant, so a transcript has turns to cut at.
   */
  seedItems(threadId: string, count: number, turns?: boolean): Promise<void>;
  /** Rows of Item for a thread. */
  itemCount(threadId: string): Promise<number>;
  analyze(): Promise<void>;
  close(): Promise<void>;
  /** Closes and deletes the database. */
  drop(): Promise<void>;
}

const iso = (d: Date) => d.toISOString().replace('Z', '+00:00');

/** Creates and migrates a fresh bench database of `provider` (created as the tests create theirs). */
export async function createBenchDb(provider: Provider): Promise<BenchDb> {
  const database = await createDatabase(provider, {
    serverUrl: POSTGRES_ADMIN_URL,
    label: 'bench',
  });
  // The app's own migrations, applied as the app applies them.
  const migrated = await openDatabase(database.url);
  await migrated.close();
  return provider === 'sqlite' ? sqliteDb(database) : await postgresDb(database);
}

function sqliteDb({ url, drop: dropDatabase }: TestDatabase): BenchDb {
  const db = new Database(url.replace(/^file:/, ''), { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const insertThread = db.prepare(
    `INSERT INTO "Thread" ("tenantId","id","agentId","name","nameFolded","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
     VALUES (?,?,?,?,?,0,'{}','{}',?,?,0,0)`,
  );
  return {
    provider: 'sqlite',
    url,
    async createThreads(ids, agentId = 'bench-agent') {
      const t = Date.now();
      db.transaction(() => {
        ids.forEach((id, i) => {
          const at = iso(new Date(t - i));
          insertThread.run(TENANT, id, agentId, `Bench ${id}`, `bench ${id.toLowerCase()}`, at, at);
        });
      })();
    },
    async seedItems(threadId, count, turns = false) {
      const thread = db
        .prepare('SELECT "nextSeq" FROM "Thread" WHERE "tenantId" = ? AND "id" = ?')
        .get(TENANT, threadId) as { nextSeq: number } | undefined;
      if (!thread) throw new Error(`no thread ${threadId}`);
      const start = thread.nextSeq;
      const insert = db.prepare(
        `INSERT INTO "Item" ("tenantId","threadId","seq","type","status","createdAt","dataJson") VALUES (?,?,?,'message','COMPLETED',?,?)`,
      );
      const base = Date.now() - count;
      db.transaction(() => {
        for (let i = 0; i < count; i++)
          insert.run(
            TENANT,
            threadId,
            start + i,
            iso(new Date(base + i)),
            turns && i % 2 === 0 ? SEED_USER_JSON : SEED_DATA_JSON,
          );
        db.prepare(
          'UPDATE "Thread" SET "nextSeq" = "nextSeq" + ?, "itemCount" = "itemCount" + ?, "updatedAt" = ? WHERE "tenantId" = ? AND "id" = ?',
        ).run(count, count, iso(new Date()), TENANT, threadId);
      })();
    },
    itemCount: async (threadId) =>
      (
        db
          .prepare('SELECT COUNT(*) AS n FROM "Item" WHERE "tenantId" = ? AND "threadId" = ?')
          .get(TENANT, threadId) as { n: number }
      ).n,
    async analyze() {
      db.exec('ANALYZE');
    },
    async close() {
      db.close();
    },
    async drop() {
      if (db.open) db.close();
      await dropDatabase();
    },
  };
}

async function postgresDb({ url, drop: dropDatabase }: TestDatabase): Promise<BenchDb> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let closed = false;
  return {
    provider: 'postgresql',
    url,
    async createThreads(ids, agentId = 'bench-agent') {
      await client.query(
        `INSERT INTO "Thread" ("tenantId","id","agentId","name","nameFolded","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
         SELECT $1, id, $2, 'Bench ' || id, 'bench ' || lower(id), false, '{}', '{}', now() - (ord * interval '1 millisecond'), now() - (ord * interval '1 millisecond'), 0, 0
         FROM unnest($3::text[]) WITH ORDINALITY AS t(id, ord)`,
        [TENANT, agentId, ids],
      );
    },
    async seedItems(threadId, count, turns = false) {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ nextSeq: number }>(
          'SELECT "nextSeq" FROM "Thread" WHERE "tenantId" = $1 AND "id" = $2 FOR UPDATE',
          [TENANT, threadId],
        );
        if (!rows[0]) throw new Error(`no thread ${threadId}`);
        const start = rows[0].nextSeq;
        await client.query(
          `INSERT INTO "Item" ("tenantId","threadId","seq","type","status","createdAt","dataJson")
           SELECT $1, $2, $3 + g, 'message', 'COMPLETED', now() - (($4 - g) * interval '1 millisecond'),
             CASE WHEN $6 AND g % 2 = 0 THEN $7 ELSE $5 END
           FROM generate_series(0, $4 - 1) AS g`,
          [TENANT, threadId, start, count, SEED_DATA_JSON, turns, SEED_USER_JSON],
        );
        await client.query(
          'UPDATE "Thread" SET "nextSeq" = "nextSeq" + $1, "itemCount" = "itemCount" + $1, "updatedAt" = now() WHERE "tenantId" = $2 AND "id" = $3',
          [count, TENANT, threadId],
        );
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    itemCount: async (threadId) =>
      Number(
        (
          await client.query<{ n: string }>(
            'SELECT COUNT(*) AS n FROM "Item" WHERE "tenantId" = $1 AND "threadId" = $2',
            [TENANT, threadId],
          )
        ).rows[0]!.n,
      ),
    async analyze() {
      await client.query('VACUUM ANALYZE "Item"');
      await client.query('ANALYZE "Thread"');
    },
    async close() {
      if (!closed) await client.end();
      closed = true;
    },
    async drop() {
      if (!closed) await client.end();
      closed = true;
      await dropDatabase();
    },
  };
}
