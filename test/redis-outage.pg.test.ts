/**
 * Live delivery survives a Redis outage (issue 10, point 4). Two instances on one PostgreSQL
 * database share a private Redis, which is killed (SIGKILL) mid-stream and restarted on the
 * same port. Meanwhile the followers on the instance that wrote get its items at once (local
 * dispatch), the ones on the other instance get them from the database (polled while Redis is
 * down), /readyz says `"redis": "degraded"` with 200, and at the end every follower, over
 * graphql-ws and SSE on both instances, has every seq exactly once in order.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { freePort, type ServerProcess, startServer } from './testkit/process.js';
import {
  type Subscription,
  sseSubscribe,
  until,
  untilLive,
  wsSubscribe,
} from './testkit/streams.js';

const SECRET = 'redis-outage-test-secret-of-at-least-32-characters';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

let database: TestDatabase;
let redisPort: number;
let redis: ChildProcess | null = null;
let a: ServerProcess;
let b: ServerProcess;
let auth: string;

/** Starts the private redis-server on `redisPort` (never the shared one); waits for PONG. */
async function startRedis(): Promise<void> {
  redis = spawn(
    '/usr/bin/redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let n = 0; n < 100; n++) {
    const ok = await new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(redisPort), 'ping'], { stdio: 'ignore' });
      probe.on('exit', (code) => resolve(code === 0));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
}

/** SIGKILLs the private Redis: no goodbye to its clients. */
async function killRedis(): Promise<void> {
  const proc = redis;
  redis = null;
  if (!proc || proc.exitCode !== null) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  database = await createTestDatabase();
  redisPort = await freePort();
  await startRedis();
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    AUTH: 'required',
    AUTH_JWT_SECRET: SECRET,
    LOG_LEVEL: 'warn',
  };
  a = await startServer(env);
  b = await startServer(env);
  const token = await new SignJWT({ tenant: 'outage', scope: 'threads:read threads:write' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('outage-test')
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  auth = `Bearer ${token}`;
});

afterAll(async () => {
  a?.kill();
  b?.kill();
  await Promise.all([a?.exited, b?.exited]);
  await killRedis();
  await database?.drop();
});

/** POSTs an operation to `server` as the test tenant; fails on GraphQL errors. */
async function graphql(server: ServerProcess, query: string, variables = {}): Promise<unknown> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

const THREAD = 'outage';
const APPEND = `mutation($input: AppendItemsInput!) {
  appendItems(input: $input) { items { ... on ConversationItem { seq } } }
}`;
const FOLLOW = `subscription($id: ID!) {
  threadItems(threadId: $id, afterSeq: -1) { ... on ConversationItem { seq } }
}`;
const EVENTS = 'subscription { threadEvents { type threadId } }';

const append = (server: ServerProcess, content: string) =>
  graphql(server, APPEND, {
    input: { threadId: THREAD, items: [{ message: { role: 'user', content } }] },
  });
const seqs = (s: Subscription) => s.results.map((r) => (r.threadItems as { seq: number }).seq);
const hasAll = (s: Subscription, n: number) => seqs(s).length >= n;
const eventsOf = (s: Subscription) =>
  s.results.map((r) => r.threadEvents as { type: string; threadId: string });

/** /readyz of `server`: its status and body. */
async function ready(server: ServerProcess): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${server.url}/readyz`);
  return { status: res.status, body: await res.json() };
}

/** Waits until /readyz of both instances reports `redis`. */
async function untilRedis(redisState: 'ok' | 'degraded'): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await Promise.all([ready(a), ready(b)]);
    const want = { status: 200, body: { status: 'ok', database: 'ok', redis: redisState } };
    if (states.every((s) => JSON.stringify(s) === JSON.stringify(want))) return;
    if (Date.now() > deadline)
      throw new Error(`readyz never said ${redisState}: ${JSON.stringify(states)}`);
    await sleep(100);
  }
}

it('followers on both instances get every item once, in order, while Redis is down and after it returns', async () => {
  await graphql(
    a,
    'mutation { createThread(input: { id: "outage", agentId: "x" }) { thread { id } } }',
  );
  const followers = {
    aWs: wsSubscribe(a.port, auth, FOLLOW, { id: THREAD }),
    aSse: sseSubscribe(a.url, auth, FOLLOW, { id: THREAD }),
    bWs: wsSubscribe(b.port, auth, FOLLOW, { id: THREAD }),
    bSse: sseSubscribe(b.url, auth, FOLLOW, { id: THREAD }),
  };
  const onA = [followers.aWs, followers.aSse];
  const onB = [followers.bWs, followers.bSse];
  const all = [...onA, ...onB];
  const eventsA = wsSubscribe(a.port, auth, EVENTS);
  const eventsB = sseSubscribe(b.url, auth, EVENTS);
  const watched = [...all, eventsA, eventsB];
  try {
    // Live everywhere: renames on A reach both thread-list followers (locally and through
    // Redis); the first item reaches all four (replayed if it came before they listened).
    const rename = () =>
      graphql(a, 'mutation { updateThread(input: { id: "outage", name: "n" }) { thread { id } } }');
    await untilLive(eventsA, rename, () => eventsA.results.length > 0);
    await untilLive(eventsB, rename, () => eventsB.results.length > 0);
    await append(a, 'before-0');
    await until(() => all.every((s) => hasAll(s, 1)), watched, 'the first item everywhere');
    const appended = (s: Subscription) => eventsOf(s).some((e) => e.type === 'ITEMS_APPENDED');
    await until(() => appended(eventsA) && appended(eventsB), watched, 'ITEMS_APPENDED on both');
    expect(await ready(a)).toEqual({
      status: 200,
      body: { status: 'ok', database: 'ok', redis: 'ok' },
    });

    await killRedis();
    const eventsOnB = eventsB.results.length;
    // Seqs 1..3 appended on A while Redis is down.
    for (const n of [1, 2, 3]) await append(a, `down-a-${n}`);
    const appendedAt = Date.now();
    await until(() => onA.every((s) => hasAll(s, 4)), watched, "A's followers, from A", 30_000);
    const aLagMs = Date.now() - appendedAt;
    expect(redis).toBeNull();
    await until(
      () => onB.every((s) => hasAll(s, 4)),
      watched,
      "B's followers, from the database",
      30_000,
    );
    const bLagMs = Date.now() - appendedAt;
    if (process.env.REDIS_OUTAGE_TIMINGS) console.info({ aLagMs, bLagMs });
    // B's thread-list follower gets the change rebuilt from the database.
    await until(
      () =>
        eventsOf(eventsB)
          .slice(eventsOnB)
          .some((e) => e.threadId === THREAD),
      watched,
      "B's threadEvents follower",
      30_000,
    );
    expect(eventsOf(eventsB).slice(eventsOnB)[0]).toEqual({ type: 'UPDATED', threadId: THREAD });
    await untilRedis('degraded');

    // Seq 4 appended on B while Redis is still down.
    await append(b, 'down-b-4');
    await until(() => all.every((s) => hasAll(s, 5)), watched, 'seq 4 everywhere', 30_000);
    expect(redis).toBeNull();

    await startRedis();
    await untilRedis('ok');
    // Seqs 5..14, alternately on A and B, after Redis returned.
    for (const n of range(10)) await append(n % 2 ? b : a, `after-${n}`);
    await until(() => all.every((s) => hasAll(s, 15)), watched, 'every item everywhere', 30_000);
    // Room for a late duplicate to show (a resync after the return, a repeated event).
    await sleep(2_000);
    for (const s of all) expect(seqs(s)).toEqual(range(15));
    expect(eventsA.errors).toEqual([]);
    expect(eventsB.errors).toEqual([]);
  } finally {
    for (const s of watched) await s.close();
  }
}, 180_000);
