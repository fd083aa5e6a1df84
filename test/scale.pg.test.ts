/**
 * Several instances on one PostgreSQL (issue: PostgreSQL backend and horizontal scale-out):
 * migration at start, concurrent appends, idempotency and createThread across instances.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type ServerProcess, startServer } from './testkit/process.js';

let database: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;

const APPEND = `mutation($input: AppendItemsInput!) {
  appendItems(input: $input) { replayed items { ... on ConversationItem { seq } ... on MessageItem { content } } }
}`;

beforeAll(async () => {
  database = await createTestDatabase();
  // Both start at once on an empty database: one migrates, the other waits on the lock.
  [a, b] = await Promise.all([
    startServer({ DATABASE_URL: database.url, DB_POOL_SIZE: '8' }),
    startServer({ DATABASE_URL: database.url, DB_POOL_SIZE: '8' }),
  ]);
});

afterAll(async () => {
  a?.kill();
  b?.kill();
  await Promise.all([a?.exited, b?.exited]);
  await database?.drop();
});

async function createThread(server: ServerProcess, id: string): Promise<void> {
  const r = await server.graphql(
    `mutation { createThread(input: { id: "${id}", agentId: "scale" }) { thread { id } } }`,
  );
  expect(r.errors).toBeUndefined();
}

describe('two instances on one PostgreSQL', () => {
  it('migrated the empty database once', async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ migration_name: string; n: string }>(
      'SELECT migration_name, count(*) AS n FROM _prisma_migrations GROUP BY migration_name',
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number(row.n)).toBe(1);
  });

  it('16 concurrent clients on one thread, others on other threads: every seq once, calls consecutive', async () => {
    await createThread(a, 'hot');
    const others = ['cold-1', 'cold-2', 'cold-3', 'cold-4'];
    for (const id of others) await createThread(b, id);
    const rounds = 8;
    const hotCalls = Array.from({ length: 16 }, async (_, client) => {
      const server = client % 2 === 0 ? a : b;
      const seqs: number[][] = [];
      for (let round = 0; round < rounds; round++) {
        const size = 1 + ((client + round) % 4);
        const r = await server.graphql(APPEND, {
          input: {
            threadId: 'hot',
            items: Array.from({ length: size }, (_, i) => ({
              message: { role: 'user', content: `${client}-${round}-${i}` },
            })),
          },
        });
        expect(r.errors).toBeUndefined();
        seqs.push(r.data.appendItems.items.map((x: { seq: number }) => x.seq));
      }
      return seqs;
    });
    const coldCalls = others.map(async (id, n) => {
      for (let round = 0; round < rounds; round++) {
        const r = await (n % 2 ? a : b).graphql(APPEND, {
          input: { threadId: id, items: [{ message: { role: 'user', content: `${round}` } }] },
        });
        expect(r.errors).toBeUndefined();
      }
    });
    const [hot] = await Promise.all([Promise.all(hotCalls), Promise.all(coldCalls)]);
    const calls = hot.flat();
    for (const seqs of calls) expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const all = calls.flat().sort((x, y) => x - y);
    expect(all).toEqual(all.map((_, i) => i));
    const r = await a.graphql(
      '{ thread(id: "hot") { nextSeq itemCount } cold: thread(id: "cold-1") { nextSeq } }',
    );
    expect(r.data.thread).toEqual({ nextSeq: all.length, itemCount: all.length });
    expect(r.data.cold.nextSeq).toBe(rounds);
  });

  it('the same idempotency key sent to both instances at once writes once', async () => {
    await createThread(a, 'idem');
    const input = {
      threadId: 'idem',
      idempotencyKey: 'k-1',
      items: [
        { message: { role: 'user', content: 'once' } },
        { message: { role: 'assistant', content: 'only' } },
      ],
    };
    const answers = await Promise.all([a, b, a, b].map((s) => s.graphql(APPEND, { input })));
    for (const r of answers) expect(r.errors).toBeUndefined();
    const seqs = answers.map((r) => r.data.appendItems.items.map((x: { seq: number }) => x.seq));
    for (const s of seqs) expect(s).toEqual([0, 1]);
    expect(answers.filter((r) => r.data.appendItems.replayed === false)).toHaveLength(1);
    const t = await b.graphql('{ thread(id: "idem") { nextSeq itemCount } }');
    expect(t.data.thread).toEqual({ nextSeq: 2, itemCount: 2 });
  });

  it('createThread with the same id on both instances: one succeeds, the other gets CONFLICT', async () => {
    for (let n = 0; n < 5; n++) {
      const id = `race-${n}`;
      const answers = await Promise.all(
        [a, b].map((s) =>
          s.graphql(
            `mutation { createThread(input: { id: "${id}", agentId: "x" }) { thread { id } } }`,
          ),
        ),
      );
      const ok = answers.filter((r) => !r.errors);
      const failed = answers.filter((r) => r.errors);
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0]?.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    }
  });
});
