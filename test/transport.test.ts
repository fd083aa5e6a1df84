/**
 * graphql-ws identities through a real server on port 0 (issue 9, point 3), AUTH=required:
 * credentials in connection_init (authorization or Authorization) or the upgrade request's
 * header, verified before connection_ack; the close codes (4401 operation before the ack, 4403
 * missing, rejected or expired credentials, 4408 no init in time, 4429 a second init); a
 * follower whose token expires reconnects with a fresh one and afterSeq and misses nothing;
 * scopes checked when each subscription starts; a revoked key's next connection refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import type { GraphQLClient } from './testkit/graphql.js';
import { append, createThread, message } from './testkit/seed.js';
import { hs256, type RawSocket, rawHttp, rawSocket, TEST_JWT_SECRET } from './testkit/transport.js';
import { follow, wsClient } from './testkit/ws.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

type Errors = { errors?: { message: string; extensions?: { code?: string } }[] };

let t: TestApp;
let port: number;
/** The test app acting as an admin of tenant acme (seeders use it). */
let admin: TestApp;
let adminClient: GraphQLClient;

beforeAll(async () => {
  t = await buildTestApp({
    HOST: '127.0.0.1',
    AUTH: 'required',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    WS_INIT_TIMEOUT_MS: '300',
  });
  port = await t.app.start(0);
  adminClient = t.as(`Bearer ${await hs256()}`);
  admin = { ...t, ...adminClient };
});
afterAll(() => t.close());

/** Opens a socket, sends connection_init with `payload`, waits for the ack. */
async function acknowledged(
  payload?: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<RawSocket> {
  const socket = await rawSocket(port, headers);
  socket.send({ type: 'connection_init', ...(payload ? { payload } : {}) });
  await socket.next((m) => m.type === 'connection_ack');
  return socket;
}

/** Runs one operation on an acknowledged socket; resolves with its first result or errors. */
async function operation(socket: RawSocket, id: string, query: string) {
  socket.send({ type: 'subscribe', id, payload: { query } });
  const answer = await socket.next((m) => m.id === id && (m.type === 'next' || m.type === 'error'));
  return answer.type === 'error'
    ? ({ errors: answer.payload } as Errors & { data?: undefined })
    : (answer.payload as Errors & { data?: Record<string, unknown> });
}

/** An API key of tenant acme with `scopes`; returns the secret and the key id. */
async function apiKey(scopes: string[]): Promise<{ secret: string; id: string }> {
  const data = await adminClient.execute(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
    { input: { name: `key-${scopes.join('-')}`, scopes } },
  );
  return { secret: data.createApiKey.secret, id: data.createApiKey.apiKey.id };
}

const VIEWER = '{ viewer { tenantId subject method } }';

describe('credentials', () => {
  it('takes the token from connection_init (authorization or Authorization) or the upgrade header', async () => {
    const bearer = `Bearer ${await hs256({ sub: 'ws-user' })}`;
    for (const socket of [
      await acknowledged({ authorization: bearer }),
      await acknowledged({ Authorization: bearer }),
      await acknowledged(undefined, { authorization: bearer }),
    ]) {
      const result = await operation(socket, '1', VIEWER);
      expect(result.data?.viewer).toEqual({ tenantId: 'acme', subject: 'ws-user', method: 'JWT' });
      socket.ws.close();
    }
  });

  it('closes with 4403 and no connection_ack for missing, forged, expired or malformed credentials', async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Record<string, unknown> | undefined][] = [
      ['none', undefined],
      ['empty payload', {}],
      ['expired', { authorization: `Bearer ${await hs256({ exp: now - 120 })}` }],
      ['forged', { authorization: `Bearer ${(await hs256()).slice(0, -4)}AAAA` }],
      ['unknown key', { authorization: `Bearer tsk_k000000000000000000_${'A'.repeat(43)}` }],
      ['not a string', { authorization: { token: 'x' } }],
      ['not bearer', { authorization: 'Basic dXNlcjpwdw==' }],
    ];
    for (const [name, payload] of cases) {
      const socket = await rawSocket(port);
      socket.send({ type: 'connection_init', ...(payload ? { payload } : {}) });
      const closed = await socket.closed;
      expect(closed.code, name).toBe(4403);
      expect(Buffer.byteLength(closed.reason), name).toBeLessThanOrEqual(123);
      expect(closed.reason.length, name).toBeGreaterThan(10);
      expect(socket.messages, name).toEqual([]);
    }
  });

  it('refuses a revoked key from its next connection on', async () => {
    const key = await apiKey(['threads:read']);
    const first = await acknowledged({ authorization: `Bearer ${key.secret}` });
    first.ws.close();
    await adminClient.execute(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id } } }',
      {
        id: key.id,
      },
    );
    const socket = await rawSocket(port);
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${key.secret}` } });
    expect((await socket.closed).code).toBe(4403);
    expect(socket.messages).toEqual([]);
  });

  it('closes an open socket of a revoked key at its next operation (4403)', async () => {
    const key = await apiKey(['threads:read']);
    const socket = await acknowledged({ authorization: `Bearer ${key.secret}` });
    expect((await operation(socket, '1', VIEWER)).data?.viewer).toMatchObject({
      method: 'API_KEY',
    });
    await adminClient.execute(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id } } }',
      {
        id: key.id,
      },
    );
    socket.send({ type: 'subscribe', id: '2', payload: { query: VIEWER } });
    expect((await socket.closed).code).toBe(4403);
    expect(socket.messages.filter((m) => m.id === '2' && m.type === 'next')).toEqual([]);
  });

  it('serves any Host name with credentials (the Host check is for AUTH=optional only)', async () => {
    const answer = await rawHttp(port, {
      method: 'POST',
      headers: {
        host: 'threadstore.example.com',
        'content-type': 'application/json',
        authorization: `Bearer ${await hs256()}`,
      },
      body: JSON.stringify({ query: VIEWER }),
    });
    expect(answer.status).toBe(200);
  });
});

describe('protocol close codes', () => {
  it('4401 for an operation before the ack, and the mutation it carried writes nothing', async () => {
    const socket = await rawSocket(port);
    const id = `before-init-${process.pid}`;
    socket.send({
      type: 'subscribe',
      id: '1',
      payload: {
        query: `mutation { createThread(input: { id: "${id}", agentId: "a" }) { thread { id } } }`,
      },
    });
    expect((await socket.closed).code).toBe(4401);
    const after = await adminClient.execute(`{ thread(id: "${id}") { id } }`);
    expect(after.thread).toBeNull();
  });

  it('4429 for a second connection_init', async () => {
    const socket = await acknowledged({ authorization: `Bearer ${await hs256()}` });
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${await hs256()}` } });
    expect((await socket.closed).code).toBe(4429);
  });

  it('4408 when no connection_init arrives within WS_INIT_TIMEOUT_MS', async () => {
    const socket = await rawSocket(port);
    const started = Date.now();
    expect((await socket.closed).code).toBe(4408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('scopes per subscription', () => {
  it('a key without threads:read gets FORBIDDEN for that subscription only; the socket stays', async () => {
    const id = await createThread(admin);
    const writer = await apiKey(['threads:write']);
    const socket = await acknowledged({ authorization: `Bearer ${writer.secret}` });
    const refused = await operation(
      socket,
      '1',
      `subscription { threadItems(threadId: "${id}", afterSeq: -1) { ... on ConversationItem { seq } } }`,
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.errors?.[0]?.message).toContain('threads:read');
    const written = await operation(
      socket,
      '2',
      `mutation { appendItems(input: { threadId: "${id}", items: [{ message: { role: "user", content: "hi" } }] }) { thread { nextSeq } } }`,
    );
    expect(written.errors).toBeUndefined();
    expect(written.data).toEqual({ appendItems: { thread: { nextSeq: 1 } } });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    socket.ws.close();
  });
});

describe('expiring tokens', () => {
  it('closes the socket with 4403 at expiry; a fresh token and afterSeq miss nothing', async () => {
    const id = await createThread(admin);
    await append(admin, id, [message('m0'), message('m1')]);
    const seen: number[] = [];
    // Closes at exp plus the 30 s skew the server accepts: three to four seconds from now.
    const shortLived = await hs256({ exp: Math.floor(Date.now() / 1000) - 27 });
    const first = wsClient(port, `Bearer ${shortLived}`);
    const before = follow(first, id, -1, (item) => seen.push(item.seq));
    await until(() => seen.length === 2, 10_000, 'the replay');

    // A writer appends one item every 100 ms, across the expiry and the reconnect.
    const total = 40;
    const writer = (async () => {
      for (let seq = 2; seq < total; seq++) {
        await append(admin, id, [message(`m${seq}`)]);
        await sleep(100);
      }
    })();
    const closed = (await before.done.then(
      () => null,
      (error: unknown) => error,
    )) as { code?: number; reason?: string } | null;
    expect(closed?.code).toBe(4403);
    expect(closed?.reason).toMatch(/expired/);
    await first.dispose();

    const lastSeen = seen.at(-1)!;
    expect(lastSeen).toBeLessThan(total - 1);
    const second = wsClient(port, `Bearer ${await hs256()}`);
    const after = follow(second, id, lastSeen, (item) => seen.push(item.seq));
    await writer;
    await until(() => seen.length >= total, 15_000, 'every item');
    await sleep(200);
    expect(seen).toEqual(range(total));
    after.cancel();
    await second.dispose();
  });
});
