/**
 * SQL statements per operation (benchmark scenario S4, asserted here too): exact counts that
 * do not grow with the page size or the number of followers.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';
import { follow, wsClient } from './testkit/ws.js';

let t: TestApp;
let port: number;
const threadIds: string[] = [];
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1' });
  port = await t.app.start(0);
  for (let n = 0; n < 100; n++) {
    const id = await createThread(t, { agentId: 'statements' });
    await append(t, id, [
      message(`a${n}`),
      { toolCall: { callId: `c${n}`, name: 'f', arguments: {} } },
    ]);
    threadIds.push(id);
  }
});
afterAll(() => t.close());

const LIST = graphql(`
  query StatementsThreadList($first: Int) {
    threads(first: $first, filter: { agentId: "statements" }) {
      edges {
        node {
          id
          name
          lastItem {
            __typename
            ... on ConversationItem {
              seq
            }
          }
          itemCount
        }
      }
    }
  }
`);

const PAGE = graphql(`
  query StatementsHistoryPage($id: ID!) {
    thread(id: $id) {
      items(first: 50, afterSeq: 3) {
        edges {
          node {
            __typename
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

it('threads(first: 100) with lastItem and itemCount costs what first: 10 costs, at most 3', async () => {
  const ten = await t.countStatements(() => t.execute(LIST, { first: 10 }));
  const hundred = await t.countStatements(() => t.execute(LIST, { first: 100 }));
  expect(hundred.count, hundred.log.join('\n')).toBe(ten.count);
  expect(hundred.count).toBeLessThanOrEqual(3);
});

it('a thread list runs its COUNT only when totalCount is selected', async () => {
  const list = (fields: string) =>
    `{ threads(first: 10, filter: { agentId: "statements" }) { ${fields} edges { node { id } } } }`;
  const without = await t.countStatements(() => t.execute(list('')));
  expect(without.count, without.log.join('\n')).toBe(1);
  expect(without.log.join('\n')).not.toMatch(/COUNT\(/i);
  const counted = await t.countStatements(() => t.execute(list('totalCount')));
  expect(counted.count, counted.log.join('\n')).toBe(2);
  expect(counted.log.filter((sql) => /COUNT\(\*\)/i.test(sql))).toHaveLength(1);
});

it('a 50-item history page costs at most 2; an append at most 2, in one transaction', async () => {
  const id = threadIds[0]!;
  await append(
    t,
    id,
    Array.from({ length: 60 }, (_, i) => message(`h${i}`)),
  );
  const page = await t.countStatements(() => t.execute(PAGE, { id }));
  expect(page.count, page.log.join('\n')).toBeLessThanOrEqual(2);
  const ends: string[] = [];
  t.app.db.statements.all = ends;
  const write = await t.countStatements(() => append(t, id, [message('one more')]));
  t.app.db.statements.all = null;
  expect(write.count, write.log.join('\n')).toBeLessThanOrEqual(2);
  if (t.provider === 'sqlite') {
    // One transaction: its statements, then one COMMIT (src/db/raw.ts, rawTransaction).
    expect(ends.filter((q) => /^(COMMIT|ROLLBACK)\b/.test(q))).toEqual(['COMMIT']);
    expect(ends.at(-1)).toBe('COMMIT');
  } else {
    // PostgreSQL: one statement, a transaction of its own.
    expect(write.count).toBe(1);
  }
});

it('followers cost no SQL statement per live event', async () => {
  const id = threadIds[1]!;
  const alone = await t.countStatements(() => append(t, id, [message('no followers')]));
  const client = wsClient(port);
  const counts = Array.from({ length: 20 }, () => 0);
  const follows = counts.map((_, i) => follow(client, id, null, () => (counts[i]! += 1)));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // Every follower live before counting (a fixed wait lost followers on a loaded machine):
  // probe appends until each has seen one, then until the counts stop moving.
  const ready = Date.now() + 30_000;
  while (counts.some((c) => c === 0) && Date.now() < ready) {
    await append(t, id, [message('probe')]);
    for (let w = 0; w < 25 && counts.some((c) => c === 0); w++) await sleep(10);
  }
  let settled = counts.join();
  for (;;) {
    await sleep(100);
    if (counts.join() === settled) break;
    settled = counts.join();
  }
  const before = [...counts];
  const { count, log } = await t.countStatements(async () => {
    for (let n = 0; n < 5; n++) await append(t, id, [message(`live ${n}`)]);
    const deadline = Date.now() + 10_000;
    while (counts.some((c, i) => c - before[i]! < 5) && Date.now() < deadline) await sleep(10);
  });
  expect(counts.map((c, i) => c - before[i]!)).toEqual(counts.map(() => 5));
  // Only the 5 appends' own statements (each as many as without followers), none per follower.
  expect(alone.count).toBeLessThanOrEqual(2);
  expect(count, log.join('\n')).toBe(5 * alone.count);
  for (const f of follows) f.cancel();
  await client.dispose();
});
