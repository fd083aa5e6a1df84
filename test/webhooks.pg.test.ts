/**
 * Webhooks with two instances on one PostgreSQL (issue 14, point 5): both run a delivery
 * worker on the same outbox; writes go through both at once; every event reaches the receiver
 * exactly once (the normal case: no instance dies, the receiver answers at once), in order per
 * thread. One instance, both databases: webhooks.test.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type ServerProcess, startServer } from './testkit/process.js';
import { type Receiver, startReceiver, verifySignature } from './testkit/webhook-receiver.js';

let database: TestDatabase;
let receiver: Receiver;
let one: ServerProcess;
let two: ServerProcess;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  const env = {
    DATABASE_URL: database.url,
    AUTH: 'optional',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // Both poll often, so both compete for every row.
    WEBHOOK_POLL_MS: '20',
  };
  one = await startServer(env, { name: 'one' });
  two = await startServer(env, { name: 'two' });
});
afterAll(async () => {
  await one?.stop();
  await two?.stop();
  await receiver?.close();
  await database?.drop();
});

it('two instances deliver each event once, in order per thread', async () => {
  const created = await one.graphql(
    'mutation($url: String!) { createWebhook(input: { url: $url, events: [THREAD_CREATED, ITEMS_APPENDED] }) { secret } }',
    { url: `${receiver.url}/pg` },
  );
  expect(created.errors).toBeUndefined();
  const secret = created.data.createWebhook.secret as string;
  const threads = ['p0', 'p1', 'p2', 'p3'];
  const APPENDS = 15;
  await Promise.all(
    threads.map(async (id, i) => {
      const first = i % 2 === 0 ? one : two;
      const made = await first.graphql(
        'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
        { id },
      );
      expect(made.errors).toBeUndefined();
      for (let n = 0; n < APPENDS; n++) {
        const server = n % 2 === 0 ? two : one; // alternate instances
        const appended = await server.graphql(
          'mutation($id: ID!, $c: String!) { appendItems(input: { threadId: $id, items: [{ message: { role: "user", content: $c } }] }) { thread { id } } }',
          { id, c: `m${n}` },
        );
        expect(appended.errors).toBeUndefined();
      }
    }),
  );
  const total = threads.length * (1 + APPENDS);
  await receiver.until((r) => r.length >= total, 30_000);
  await new Promise((r) => setTimeout(r, 500)); // a duplicate would arrive meanwhile
  expect(receiver.received).toHaveLength(total);
  expect(new Set(receiver.received.map((r) => r.event.id)).size).toBe(total);
  for (const id of threads) {
    const events = receiver.received.filter((r) => r.event.threadId === id);
    expect(events.map((r) => r.event.type)).toEqual([
      'THREAD_CREATED',
      ...Array.from({ length: APPENDS }, () => 'ITEMS_APPENDED'),
    ]);
    expect(events.slice(1).map((r) => r.event.data.firstSeq)).toEqual(
      Array.from({ length: APPENDS }, (_, n) => n),
    );
  }
  for (const r of receiver.received) {
    expect(verifySignature(secret, r.headers['threadstore-signature'] as string, r.body)).toBe(
      true,
    );
  }
});
