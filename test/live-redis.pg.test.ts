/**
 * Live events across instances through Redis: a follower on instance A receives what is
 * appended through instance B exactly once each, in seq order, also across a Redis restart.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { freePort, type ServerProcess, startServer } from './testkit/process.js';
import { follow, wsClient } from './testkit/ws.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let database: TestDatabase;
let redisPort: number;
let redis: ChildProcess | null = null;
let a: ServerProcess;
let b: ServerProcess;

async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let n = 0; n < 50; n++) {
    const ok = await new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(redisPort), 'ping'], { stdio: 'ignore' });
      probe.on('exit', (code) => resolve(code === 0));
    });
    if (ok) return;
    await sleep(100);
  }
  throw new Error('redis-server did not start');
}

async function stopRedis(): Promise<void> {
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
  const env = { DATABASE_URL: database.url, REDIS_URL: `redis://127.0.0.1:${redisPort}` };
  a = await startServer(env);
  b = await startServer(env);
});

afterAll(async () => {
  a?.kill();
  b?.kill();
  await Promise.all([a?.exited, b?.exited]);
  await stopRedis();
  await database?.drop();
});

it('a follower on A gets what B appends, exactly once in order, across a Redis restart', async () => {
  const created = await b.graphql(
    'mutation { createThread(input: { id: "shared", agentId: "x" }) { thread { id } } }',
  );
  expect(created.errors).toBeUndefined();
  const client = wsClient(a.port);
  const seen: number[] = [];
  const f = follow(client, 'shared', -1, (item) => seen.push(item.seq));
  await sleep(300);
  const total = 300;
  const appendBatch = async (n: number) => {
    const r = await b.graphql(
      'mutation($input: AppendItemsInput!) { appendItems(input: $input) { items { ... on ConversationItem { seq } } } }',
      {
        input: {
          threadId: 'shared',
          items: range(3).map((i) => ({ message: { role: 'user', content: `${n}-${i}` } })),
        },
      },
    );
    expect(r.errors).toBeUndefined();
  };
  for (let n = 0; n < total / 3 / 2; n++) await appendBatch(n);
  // Redis goes away while appends go on, then comes back on the same port.
  await stopRedis();
  for (let n = 50; n < 60; n++) await appendBatch(n);
  await startRedis();
  for (let n = 60; n < total / 3; n++) {
    await appendBatch(n);
    await sleep(5);
  }
  const deadline = Date.now() + 30_000;
  while (seen.length < total && Date.now() < deadline) await sleep(50);
  expect(seen).toEqual(range(total));
  f.cancel();
  await client.dispose();
});
