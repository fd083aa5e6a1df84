/**
 * Named prepared statements on PostgreSQL (src/db/statement-cache.ts): a statement is prepared
 * once per connection and reused, at most DB_STATEMENT_CACHE_SIZE per connection (the oldest
 * deallocated), none with 0; a table that changes shape under a prepared `SELECT *` fails one
 * execution, then every connection prepares again. Counted from /metrics, answers checked
 * through the GraphQL endpoint.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';

/** The counters of the statement cache on `port`'s /metrics. */
async function counters(
  port: number,
): Promise<{ prepared: number; evicted: number; cache_resets: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = { prepared: Number.NaN, evicted: Number.NaN, cache_resets: Number.NaN };
  for (const name of ['prepared', 'evicted', 'cache_resets'] as const) {
    const metric =
      name === 'cache_resets'
        ? 'threadstore_db_statement_cache_resets_total'
        : `threadstore_db_statements_${name}_total`;
    const line = text.split('\n').find((l) => l.startsWith(`${metric} `));
    out[name] = line ? Number(line.split(' ')[1]) : Number.NaN;
  }
  return out;
}

/** The statements prepared on `t`'s connection (DB_POOL_SIZE 1: the one a request uses). */
async function preparedOnServer(t: TestApp): Promise<string[]> {
  const rows = await t.app.db.prisma.$queryRawUnsafe<{ name: string }[]>(
    'SELECT name FROM pg_prepared_statements ORDER BY name',
  );
  return rows.map((r) => r.name);
}

const LIST = `query($agent: String) { threads(first: 10, filter: { agentId: $agent }) { edges { node { id agentId name } } } }`;

/** Thread ids of `agent`'s list, failing on errors. */
async function list(t: TestApp, agent: string): Promise<string[]> {
  const answer = await t.request(LIST, { agent });
  expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
  const data = answer.data as { threads: { edges: { node: { id: string } }[] } };
  return data.threads.edges.map((e) => e.node.id).sort();
}

describe('PostgreSQL named statements', () => {
  let t: TestApp;
  let port: number;
  let ids: string[];

  beforeAll(async () => {
    // One connection: what it prepared is what the counters show.
    t = await buildTestApp({ HOST: '127.0.0.1', DB_POOL_SIZE: '1' });
    port = await t.app.start(0);
    ids = (await Promise.all([1, 2, 3].map(() => createThread(t, { agentId: 'cache' })))).sort();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('prepares a statement once per connection and answers from it', async () => {
    // Named from its second execution on.
    await list(t, 'cache');
    await list(t, 'cache');
    const before = await counters(port);
    for (let i = 0; i < 10; i++) expect(await list(t, 'cache')).toEqual(ids);
    const after = await counters(port);
    expect(after.prepared).toBe(before.prepared);
    expect(after.evicted).toBe(0);
    // PostgreSQL holds them: the list's among them.
    const names = await preparedOnServer(t);
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBe(after.prepared - after.evicted);
  });

  it('prepares again, once, after a column is added under a prepared SELECT *', async () => {
    await list(t, 'cache');
    const admin = new pg.Client({ connectionString: t.url });
    await admin.connect();
    try {
      await admin.query('ALTER TABLE "Thread" ADD COLUMN "statementCacheTest" integer');
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await t.request(LIST, { agent: 'cache' }));
      // The first execution of the stale plan fails; the next ones prepare again.
      expect(answers[0]?.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(answers.slice(1).map((a) => a.errors)).toEqual([undefined, undefined, undefined]);
      expect((await counters(port)).cache_resets).toBeGreaterThanOrEqual(1);
      expect(await list(t, 'cache')).toEqual(ids);
    } finally {
      await admin.query('ALTER TABLE "Thread" DROP COLUMN IF EXISTS "statementCacheTest"');
      await admin.end();
    }
    // Dropping it changes the shape again: answers still come.
    await t.request(LIST, { agent: 'cache' });
    expect(await list(t, 'cache')).toEqual(ids);
  });
});

describe('DB_STATEMENT_CACHE_SIZE', () => {
  it('keeps at most that many per connection, deallocating the oldest; 0 names none', async () => {
    const small = await buildTestApp({
      HOST: '127.0.0.1',
      DB_POOL_SIZE: '1',
      DB_STATEMENT_CACHE_SIZE: '2',
    });
    const none = await buildTestApp({
      HOST: '127.0.0.1',
      DB_POOL_SIZE: '1',
      DB_STATEMENT_CACHE_SIZE: '0',
    });
    try {
      const [smallPort, nonePort] = await Promise.all([small.app.start(0), none.app.start(0)]);
      for (const app of [small, none]) {
        const mine = await createThread(app, { agentId: 'a' });
        // Lists by agent, by no agent, and a thread by id: more texts than two.
        for (let i = 0; i < 3; i++) {
          expect(await list(app, 'a')).toEqual([mine]);
          const all = await app.request(`{ threads(first: 5) { edges { node { id } } } }`);
          expect(all.errors).toBeUndefined();
          const one = await app.request(`query($id: ID!) { thread(id: $id) { id } }`, {
            id: mine,
          });
          expect(one.data).toEqual({ thread: { id: mine } });
        }
      }
      // Appends of 1 to 5 items at once, with and without idempotency keys: texts of their own,
      // evicting each other while others wait. Every seq comes back once, in order.
      const target = await createThread(small, { agentId: 'a' });
      const seqs = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          append(
            small,
            target,
            Array.from({ length: (i % 5) + 1 }, (_, k) => message(`${i}.${k}`)),
            i % 2 ? { idempotencyKey: `key-${i}` } : {},
          ),
        ),
      );
      expect(seqs.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      const s = await counters(smallPort);
      expect(s.evicted).toBeGreaterThan(0);
      // Evicted ones are deallocated: PostgreSQL holds at most two.
      const held = await preparedOnServer(small);
      expect(held.length).toBeGreaterThan(0);
      expect(held.length).toBeLessThanOrEqual(2);
      expect(await preparedOnServer(none)).toEqual([]);
      expect(await counters(nonePort)).toMatchObject({ prepared: 0, evicted: 0 });
    } finally {
      await Promise.all([small.close(), none.close()]);
    }
  });
});
