/**
 * Limits per identity through a real server on port 0 (issue 9, point 6): the request rate
 * per tenant (RATE_LIMITED, HTTP 429 with Retry-After and extensions.retryAfter; other
 * tenants unaffected; a refused mutation writes nothing; audited), shared by two instances
 * through Redis, applied to graphql-ws operations without closing the socket; WebSocket
 * connections per identity (close code 1013 beyond WS_MAX_CONNECTIONS) and operations per
 * socket (RATE_LIMITED beyond WS_MAX_SUBSCRIPTIONS, the socket stays).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';
import {
  collectingLogger,
  hs256,
  type RawSocket,
  rawSocket,
  TEST_JWT_SECRET,
} from './testkit/transport.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

type Body = {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; retryAfter?: number } }[];
};

/** A tenant name no other run uses (the Redis counters outlive a test). */
const freshTenant = () => `tenant-${randomUUID()}`;

/** POSTs `query` as `token` to the server on `port`. */
async function post(port: number, token: string, query: string) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Body,
  };
}

/** Opens a socket with `token` in connection_init; resolves once acknowledged. */
async function acknowledged(port: number, token: string): Promise<RawSocket> {
  const socket = await rawSocket(port);
  socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
  await socket.next((m) => m.type === 'connection_ack');
  return socket;
}

const RATE = { AUTH_JWT_SECRET: TEST_JWT_SECRET, RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '3' };

describe('request rate per tenant (in memory)', () => {
  let t: TestApp;
  let port: number;
  const { logger, lines } = collectingLogger();
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1', ...RATE }, { logger });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('allows a burst, then answers 429 RATE_LIMITED with Retry-After; other tenants go on', async () => {
    const tenant = freshTenant();
    const token = await hs256({ tenant });
    const burst = await Promise.all(
      Array.from({ length: 5 }, () => post(port, token, '{ viewer { tenantId } }')),
    );
    expect(burst.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429]);
    const id = `limited-${randomUUID()}`;
    const refused = await post(
      port,
      token,
      `mutation Limited { createThread(input: { id: "${id}", agentId: "a" }) { thread { id } } }`,
    );
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfter,
    });
    expect(refused.body.errors?.[0]?.message).toMatch(/retry after/);
    expect(refused.body.data ?? null).toBeNull();

    const other = await post(
      port,
      await hs256({ tenant: freshTenant() }),
      '{ viewer { tenantId } }',
    );
    expect(other.status).toBe(200);

    await sleep(retryAfter * 1000 + 100);
    const later = await post(port, token, `{ thread(id: "${id}") { id } }`);
    expect(later.status).toBe(200);
    expect(later.body.data).toEqual({ thread: null });

    const audited = lines.filter((l) => l.msg === 'audit' && l.tenant === tenant);
    expect(audited.filter((l) => l.outcome === 'RATE_LIMITED').length).toBe(3);
    expect(audited.find((l) => l.operation === 'Limited')).toMatchObject({
      subject: 'user-1',
      authMethod: 'JWT',
      transport: 'http',
      status: 429,
    });
  });
});

describe('request rate shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  let ports: [number, number];
  beforeAll(async () => {
    const env = { HOST: '127.0.0.1', REDIS_URL, ...RATE };
    first = await buildTestApp(env);
    second = await buildTestApp(env);
    ports = [await first.app.start(0), await second.app.start(0)];
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it('counts a tenant on every instance, and refuses a WebSocket operation without closing it', async () => {
    const token = await hs256({ tenant: freshTenant() });
    for (const port of [ports[0], ports[0], ports[1]]) {
      expect((await post(port, token, '{ __typename }')).status).toBe(200);
    }
    const refused = await post(ports[1], token, '{ __typename }');
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');

    const socket = await acknowledged(ports[0], token);
    socket.send({ type: 'subscribe', id: '1', payload: { query: '{ __typename }' } });
    const error = await socket.next((m) => m.id === '1');
    expect(error.type).toBe('error');
    const [first] = error.payload as {
      extensions: { code: string; retryAfter: number; http?: unknown };
    }[];
    expect(first!.extensions.code).toBe('RATE_LIMITED');
    expect(first!.extensions.retryAfter).toBeGreaterThanOrEqual(1);
    expect(first!.extensions.http).toBeUndefined();
    await sleep(first!.extensions.retryAfter * 1000 + 100);
    socket.send({ type: 'subscribe', id: '2', payload: { query: '{ __typename }' } });
    const next = await socket.next((m) => m.id === '2');
    expect(next).toMatchObject({ type: 'next', payload: { data: { __typename: 'Query' } } });
    socket.ws.close();
  });
});

describe('WebSocket caps', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({
      HOST: '127.0.0.1',
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      WS_MAX_CONNECTIONS: '2',
      WS_MAX_SUBSCRIPTIONS: '2',
    });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('closes sockets beyond WS_MAX_CONNECTIONS per identity with 1013, before any ack', async () => {
    const tenant = freshTenant();
    const token = await hs256({ tenant, sub: 'u1' });
    const open = [await acknowledged(port, token), await acknowledged(port, token)];
    const extra = await rawSocket(port);
    extra.send({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } });
    const closed = await extra.closed;
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/Too many WebSocket connections/);
    expect(extra.messages).toEqual([]);
    // Another subject of the same tenant has its own count.
    const other = await acknowledged(port, await hs256({ tenant, sub: 'u2' }));
    other.ws.close();
    // A closed socket frees its place.
    open[0]!.ws.close();
    await open[0]!.closed;
    let again: RawSocket | null = null;
    for (let attempt = 0; attempt < 20 && !again; attempt++) {
      again = await acknowledged(port, token).catch(() => null);
      if (!again) await sleep(50);
    }
    expect(again).not.toBeNull();
    again?.ws.close();
    open[1]!.ws.close();
  });

  it('fails operations beyond WS_MAX_SUBSCRIPTIONS with RATE_LIMITED; the socket and the others stay', async () => {
    const id = await createThread(t);
    const socket = await acknowledged(port, await hs256({ tenant: 'local' }));
    const follow = (opId: string) =>
      socket.send({
        type: 'subscribe',
        id: opId,
        payload: {
          query: `subscription { threadItems(threadId: "${id}") { ... on ConversationItem { seq } } }`,
        },
      });
    follow('a');
    follow('b');
    follow('c');
    const refused = await socket.next((m) => m.id === 'c');
    expect(refused.type).toBe('error');
    expect((refused.payload as { extensions: { code: string } }[])[0]!.extensions.code).toBe(
      'RATE_LIMITED',
    );
    await sleep(200);
    await append(t, id, [message('one')]);
    await socket.next((m) => m.id === 'a' && m.type === 'next');
    await socket.next((m) => m.id === 'b' && m.type === 'next');
    // Completing one makes room for another.
    socket.send({ type: 'complete', id: 'a' });
    await sleep(100);
    follow('d');
    await sleep(200);
    await append(t, id, [message('two')]);
    const delivered = await socket.next((m) => m.id === 'd');
    expect(delivered).toMatchObject({
      type: 'next',
      payload: { data: { threadItems: { seq: 1 } } },
    });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    socket.ws.close();
  });
});
