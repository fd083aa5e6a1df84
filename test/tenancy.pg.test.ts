/**
 * Tenant isolation across two instances (issue 9, point 2): two server processes on one
 * PostgreSQL, live events through Redis, AUTH=required. Tenant A and tenant B use the same
 * thread ids and idempotency keys through both instances; followers on one instance
 * (graphql-ws and SSE) receive only their own tenant's writes made through the other; a cursor
 * minted on one instance for A is refused for B on the other; API keys stay per tenant and a
 * revocation holds on both instances at once. One instance: tenancy.test.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type GraphQLClient, graphqlClient } from './testkit/graphql.js';
import { freePort, runToExit, type ServerProcess, startServer } from './testkit/process.js';
import {
  type Subscription,
  sseSubscribe,
  until,
  untilLive,
  wsSubscribe,
} from './testkit/streams.js';

const SECRET = 'tenancy-pg-test-secret-of-at-least-32-characters';
const ALL_SCOPES = ['threads:read', 'threads:write', 'threads:delete', 'admin'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An HS256 token of `tenant` with every scope, valid for an hour. */
async function bearer(tenant: string): Promise<string> {
  const token = await new SignJWT({ tenant, scope: ALL_SCOPES.join(' ') })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  return `Bearer ${token}`;
}

/** A GraphQL client of one instance, sending `authorization`. */
function client(server: ServerProcess, authorization: string): GraphQLClient {
  return graphqlClient((body) =>
    fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body,
    }),
  );
}

let database: TestDatabase;
let redis: ChildProcess | null = null;
let one: ServerProcess;
let two: ServerProcess;
let a: string;
let b: string;

async function startRedis(port: number): Promise<void> {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let n = 0; n < 50; n++) {
    const ok = await new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
      probe.on('exit', (code) => resolve(code === 0));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
}

beforeAll(async () => {
  database = await createTestDatabase();
  const redisPort = await freePort();
  await startRedis(redisPort);
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    AUTH: 'required',
    AUTH_JWT_SECRET: SECRET,
    LOG_LEVEL: 'warn',
  };
  one = await startServer(env);
  two = await startServer(env);
  a = await bearer('tenant-a');
  b = await bearer('tenant-b');
});

afterAll(async () => {
  one?.kill();
  two?.kill();
  await Promise.all([one?.exited, two?.exited]);
  if (redis && redis.exitCode === null) {
    const exited = new Promise((resolve) => redis?.once('exit', resolve));
    redis.kill('SIGKILL');
    await exited;
  }
  await database?.drop();
});

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }`;
const APPEND = `mutation($input: AppendItemsInput!) {
  appendItems(input: $input) { replayed items { ... on ConversationItem { id seq } ... on MessageItem { content } } }
}`;
const FOLLOW = `subscription($id: ID!, $afterSeq: Int) {
  threadItems(threadId: $id, afterSeq: $afterSeq) { ... on ConversationItem { id seq } ... on MessageItem { content } }
}`;
const EVENTS = 'subscription { threadEvents { type threadId thread { agentId } } }';
const msg = (content: string) => ({ message: { role: 'user', content } });

describe('two instances on one PostgreSQL with Redis, AUTH=required', () => {
  it('the same thread id in two tenants: each reads its own, whichever instance it asks', async () => {
    await client(one, a).execute(CREATE, {
      input: { id: 'x', agentId: 'agent-a', name: 'A on one' },
    });
    await client(two, b).execute(CREATE, {
      input: { id: 'x', agentId: 'agent-b', name: 'B on two' },
    });
    await client(two, a).execute(APPEND, { input: { threadId: 'x', items: [msg('a0')] } });
    await client(one, b).execute(APPEND, {
      input: { threadId: 'x', items: [msg('b0'), msg('b1')] },
    });
    const read = '{ threads(first: 10) { totalCount } thread(id: "x") { name itemCount } }';
    for (const server of [one, two]) {
      expect(await client(server, a).execute(read)).toEqual({
        threads: { totalCount: 1 },
        thread: { name: 'A on one', itemCount: 1 },
      });
      expect(await client(server, b).execute(read)).toEqual({
        threads: { totalCount: 1 },
        thread: { name: 'B on two', itemCount: 2 },
      });
      const node = await client(server, a).execute(
        '{ nodes(ids: ["x:0", "x:1"]) { id ... on MessageItem { content } } }',
      );
      expect(node.nodes).toEqual([{ id: 'x:0', content: 'a0' }, null]);
    }
  });

  it('the same idempotency key sent by both tenants to both instances at once: each tenant writes once', async () => {
    for (const [auth, id] of [
      [a, 'idem'],
      [b, 'idem'],
    ] as const) {
      await client(one, auth).execute(CREATE, { input: { id, agentId: 'x' } });
    }
    const inputOf = (tenant: string) => ({
      threadId: 'idem',
      idempotencyKey: 'k-1',
      items: [msg(`${tenant}-once`), msg(`${tenant}-only`)],
    });
    const calls = [
      [one, a, 'a'],
      [two, b, 'b'],
      [two, a, 'a'],
      [one, b, 'b'],
      [one, a, 'a'],
      [two, b, 'b'],
    ] as const;
    const answers = await Promise.all(
      calls.map(([server, auth, tenant]) =>
        client(server, auth).execute(APPEND, { input: inputOf(tenant) }),
      ),
    );
    for (const tenant of ['a', 'b']) {
      const own = answers.filter((_, i) => calls[i]![2] === tenant);
      expect(own.filter((r) => r.appendItems.replayed === false)).toHaveLength(1);
      for (const r of own) {
        expect(r.appendItems.items).toEqual([
          { id: 'idem:0', seq: 0, content: `${tenant}-once` },
          { id: 'idem:1', seq: 1, content: `${tenant}-only` },
        ]);
      }
    }
    for (const auth of [a, b]) {
      const t = await client(two, auth).execute('{ thread(id: "idem") { nextSeq itemCount } }');
      expect(t.thread).toEqual({ nextSeq: 2, itemCount: 2 });
    }
  });

  it('a cursor minted on one instance for tenant A is BAD_USER_INPUT for tenant B on the other', async () => {
    for (const [auth, id] of [
      [a, 'c1'],
      [a, 'c2'],
      [b, 'c1'],
      [b, 'c2'],
    ] as const) {
      await client(one, auth).execute(CREATE, { input: { id, agentId: 'cursor' } });
      await client(one, auth).execute(APPEND, {
        input: { threadId: id, items: [msg('0'), msg('1'), msg('2')] },
      });
    }
    const minted = await client(one, a).execute(
      '{ threads(first: 1, filter: { agentId: "cursor" }) { pageInfo { endCursor } } thread(id: "c1") { items(first: 1) { pageInfo { endCursor } } } }',
    );
    const threads = await client(two, b).request(
      'query($c: String!) { threads(first: 5, after: $c, filter: { agentId: "cursor" }) { edges { node { id } } } }',
      { c: minted.threads.pageInfo.endCursor },
    );
    const items = await client(two, b).request(
      'query($c: String!) { thread(id: "c1") { items(after: $c) { edges { node { ... on ConversationItem { seq } } } } } }',
      { c: minted.thread.items.pageInfo.endCursor },
    );
    expect({
      threads: threads.errors?.[0]?.extensions?.code ?? threads,
      items: items.errors?.[0]?.extensions?.code ?? items,
    }).toEqual({ threads: 'BAD_USER_INPUT', items: 'BAD_USER_INPUT' });
  });

  describe.each(['graphql-ws', 'SSE'] as const)('live over %s', (transport) => {
    const subscribe = (
      server: ServerProcess,
      authorization: string,
      query: string,
      variables: Record<string, unknown> = {},
    ): Subscription =>
      transport === 'graphql-ws'
        ? wsSubscribe(server.port, authorization, query, variables)
        : sseSubscribe(server.url, authorization, query, variables);
    const open: Subscription[] = [];
    afterAll(async () => {
      for (const s of open) await s.close();
    });
    const suffix = transport === 'SSE' ? 'sse' : 'ws';

    it("followers on one instance receive only their own tenant's items, appended through the other", async () => {
      const id = `live-${suffix}`;
      await client(two, a).execute(CREATE, { input: { id, agentId: 'live' } });
      await client(two, b).execute(CREATE, { input: { id, agentId: 'live' } });
      await client(two, a).execute(APPEND, { input: { threadId: id, items: [msg('a-0')] } });
      await client(two, b).execute(APPEND, { input: { threadId: id, items: [msg('b-0')] } });
      const fa = subscribe(one, a, FOLLOW, { id, afterSeq: -1 });
      const fb = subscribe(one, b, FOLLOW, { id, afterSeq: -1 });
      open.push(fa, fb);
      await until(() => fa.results.length >= 1 && fb.results.length >= 1, [fa, fb], 'replay');
      for (let n = 1; n <= 20; n++) {
        await client(two, b).execute(APPEND, { input: { threadId: id, items: [msg(`b-${n}`)] } });
        if (n % 2 === 0) {
          await client(two, a).execute(APPEND, {
            input: { threadId: id, items: [msg(`a-${n / 2}`)] },
          });
        }
      }
      await until(
        () => fa.results.length >= 11 && fb.results.length >= 21,
        [fa, fb],
        'live items from the other instance',
        20_000,
      );
      await sleep(500);
      const seen = (s: Subscription) =>
        s.results.map((r) => {
          const item = r.threadItems as { id: string; seq: number; content: string };
          return `${item.id} ${item.content}`;
        });
      expect(seen(fa)).toEqual(Array.from({ length: 11 }, (_, n) => `${id}:${n} a-${n}`));
      expect(seen(fb)).toEqual(Array.from({ length: 21 }, (_, n) => `${id}:${n} b-${n}`));
      expect([...fa.errors, ...fb.errors]).toEqual([]);
    });

    it("threadEvents on one instance: only the own tenant's changes made through the other", async () => {
      const id = `events-${suffix}`;
      const ea = subscribe(one, a, EVENTS);
      const eb = subscribe(one, b, EVENTS);
      open.push(ea, eb);
      // Each tenant renames a probe thread of its own (through the other instance) until its
      // subscription reports it.
      const probe = { a: `probe-a-${suffix}`, b: `probe-b-${suffix}` };
      const threadIds = (s: Subscription) =>
        s.results.map((r) => (r.threadEvents as { threadId: string }).threadId);
      let n = 0;
      for (const [auth, s, probeId] of [
        [a, ea, probe.a],
        [b, eb, probe.b],
      ] as const) {
        await client(two, auth).execute(CREATE, { input: { id: probeId, agentId: 'probe' } });
        await untilLive(
          s,
          () =>
            client(two, auth).execute(
              'mutation($id: ID!, $name: String) { updateThread(input: { id: $id, name: $name }) { thread { id } } }',
              { id: probeId, name: `${++n}` },
            ),
          () => threadIds(s).includes(probeId),
        );
      }
      await client(two, b).execute(CREATE, { input: { id, agentId: 'agent-b' } });
      await client(two, b).execute(APPEND, { input: { threadId: id, items: [msg('b')] } });
      await client(two, a).execute(CREATE, { input: { id, agentId: 'agent-a' } });
      await client(two, b).execute(
        `mutation { deleteThread(input: { id: "${id}" }) { deletedThreadId } }`,
      );
      const main = (s: Subscription) => threadIds(s).filter((t) => t === id).length;
      await until(() => main(ea) >= 1 && main(eb) >= 3, [ea, eb], 'events', 20_000);
      await sleep(500);
      // Everything but the tenant's own probe: another tenant's probe would show here.
      const events = (s: Subscription, own: string) =>
        s.results
          .map((r) => r.threadEvents as { type: string; threadId: string; thread: unknown })
          .filter((e) => e.threadId !== own)
          .map((e) => [e.type, e.threadId, e.thread]);
      expect(events(ea, probe.a)).toEqual([['CREATED', id, { agentId: 'agent-a' }]]);
      expect(events(eb, probe.b).map(([type]) => type)).toEqual([
        'CREATED',
        'ITEMS_APPENDED',
        'DELETED',
      ]);
      for (const [, , thread] of events(eb, probe.b)) {
        if (thread !== null) expect(thread).toEqual({ agentId: 'agent-b' });
      }
    });
  });

  it('API keys: another tenant can neither see nor revoke a key; a revocation holds on both instances at once', async () => {
    const cli = await runToExit(
      { DATABASE_URL: database.url },
      {
        script: 'src/identity/keys-cli.ts',
        args: ['create', '--tenant', 'tenant-a', '--scopes', 'threads:read', '--name', 'agent'],
        timeoutMs: 60_000,
      },
    );
    expect(cli.code, cli.stderr).toBe(0);
    const key = `Bearer ${cli.stdout.trim()}`;
    const viewer = await client(two, key).execute('{ viewer { tenantId subject } }');
    expect(viewer.viewer.tenantId).toBe('tenant-a');
    const keyId = `apikey:${viewer.viewer.subject}`;
    const bKeys = await client(one, b).execute('{ apiKeys { id } }');
    expect(bKeys.apiKeys).toEqual([]);
    const refused = await client(one, b).expectError(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id } } }',
      { id: keyId },
    );
    expect(refused.code).toBe('NOT_FOUND');
    expect((await client(two, key).execute('{ thread(id: "x") { name } }')).thread).toEqual({
      name: 'A on one',
    });
    await client(one, a).execute(
      'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { revokedAt } } }',
      { id: keyId },
    );
    for (const server of [one, two]) {
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: key },
        body: JSON.stringify({ query: '{ viewer { tenantId } }' }),
      });
      expect(response.status).toBe(401);
    }
  });
});
