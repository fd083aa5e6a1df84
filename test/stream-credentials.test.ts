/**
 * Live streams end when their credentials do: an SSE stream (and a graphql-ws subscription)
 * opened with a JWT ends at the token's expiry (plus the accepted clock skew), and one opened
 * with an API key ends within STREAM_AUTH_RECHECK_MS of the key's revocation; the last message
 * is UNAUTHENTICATED, then the stream completes, and nothing after it is delivered.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamCredentialsPlugin } from '../src/server/stream-credentials.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { type Subscription, sseSubscribe, wsSubscribe } from './testkit/streams.js';
import { hs256, TEST_JWT_SECRET } from './testkit/transport.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FOLLOW =
  'subscription($id: ID!) { threadItems(threadId: $id) { ... on ConversationItem { seq } } }';

let t: TestApp;
let base: string;
let port: number;
let admin: ReturnType<TestApp['as']>;
beforeAll(async () => {
  t = await buildTestApp({
    AUTH: 'required',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    STREAM_AUTH_RECHECK_MS: '150',
  });
  port = await t.app.start(0);
  base = `http://127.0.0.1:${port}`;
  admin = t.as(`Bearer ${await hs256()}`);
});
afterAll(() => t.close());

async function appendTo(id: string, content: string) {
  await admin.execute(
    'mutation($id: ID!, $c: String) { appendItems(input: { threadId: $id, items: [{ message: { role: "user", content: $c } }] }) { replayed } }',
    { id, c: content },
  );
}

/** Waits until the stream completed or failed (a socket closed at expiry fails its operations). */
async function ended(sub: Subscription, ms = 8_000) {
  const deadline = Date.now() + ms;
  while (!sub.completed && sub.errors.length === 0 && Date.now() < deadline) await sleep(20);
  return sub;
}

describe('streams end with their credentials', () => {
  it.each(['sse', 'ws'] as const)('a JWT stream ends at expiry (%s)', async (transport) => {
    const id = `exp-${transport}`;
    await admin.execute(
      'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
      { id },
    );
    // Expired 26 s ago: still inside the 30 s skew, so it ends three to four seconds from now.
    const token = await hs256({ exp: Math.floor(Date.now() / 1000) - 26 });
    const sub =
      transport === 'sse'
        ? sseSubscribe(base, `Bearer ${token}`, FOLLOW, { id })
        : wsSubscribe(port, `Bearer ${token}`, FOLLOW, { id });
    await sleep(300);
    await appendTo(id, 'before');
    const deadline = Date.now() + 3_000;
    while (sub.results.length === 0 && Date.now() < deadline) await sleep(20);
    await ended(sub);
    expect(sub.completed || sub.errors.length > 0).toBe(true);
    await appendTo(id, 'after');
    await sleep(300);
    expect(sub.results).toEqual([{ threadItems: { seq: 0 } }]);
    // SSE: the last message is UNAUTHENTICATED; graphql-ws: the socket closed with 4403.
    expect(sub.errors).toMatchObject([
      transport === 'sse' ? { extensions: { code: 'UNAUTHENTICATED' } } : { close: 4403 },
    ]);
    await sub.close();
  });

  it('an API-key stream ends once the key is revoked', async () => {
    const id = 'revoke-sse';
    await admin.execute(
      'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
      { id },
    );
    const key = await admin.execute(
      'mutation { createApiKey(input: { name: "stream", scopes: ["threads:read"] }) { secret apiKey { id } } }',
    );
    const sub = sseSubscribe(base, `Bearer ${key.createApiKey.secret}`, FOLLOW, { id });
    await sleep(300);
    await appendTo(id, 'one');
    await admin.execute(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id } } }',
      {
        id: key.createApiKey.apiKey.id,
      },
    );
    await ended(sub);
    expect(sub.completed).toBe(true);
    await appendTo(id, 'two');
    await sleep(300);
    expect(sub.results).toEqual([{ threadItems: { seq: 0 } }]);
    expect(sub.errors).toMatchObject([
      { message: expect.stringContaining('revoked'), extensions: { code: 'UNAUTHENTICATED' } },
    ]);
    await sub.close();
  });
});

describe('a long stream', () => {
  it('holds nothing per event: an API-key follower stays flat over 200,000 events', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    async function* endless() {
      for (let i = 0; ; i++) yield { data: { i } };
    }
    let stream!: AsyncIterableIterator<unknown>;
    const hooks = streamCredentialsPlugin(3_600_000).onSubscribe?.({} as never) as {
      onSubscribeResult: (payload: unknown) => void;
    };
    hooks.onSubscribeResult({
      args: {
        contextValue: {
          db: t.app.db,
          identity: { method: 'API_KEY', subject: 'key-1', tenantId: 'local', scopes: [] },
        },
      },
      result: endless(),
      setResult: (wrapped: AsyncIterableIterator<unknown>) => {
        stream = wrapped;
      },
    });
    await stream.next();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 200_000; n++) await stream.next();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    await stream.return?.();
    // A closure kept per event (a Promise.race against the pending end) grew it by ~70 MB.
    expect(grown).toBeLessThan(10_000_000);
  });
});
