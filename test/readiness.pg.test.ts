/**
 * /readyz follows the database: it fails while PostgreSQL is unreachable and recovers when it
 * is back, without a restart. The database is made unreachable by a TCP proxy we close.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { freePort, type ServerProcess, startServer } from './testkit/process.js';

let database: TestDatabase;
let server: ServerProcess;
let proxy: Server | null = null;
let proxyPort: number;
const sockets = new Set<Socket>();

function openProxy(target: URL): Promise<void> {
  proxy = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  return new Promise((resolve) => proxy!.listen(proxyPort, '127.0.0.1', () => resolve()));
}

function closeProxy(): Promise<void> {
  for (const s of sockets) s.destroy();
  sockets.clear();
  return new Promise((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
}

async function readyStatus(): Promise<number> {
  return (await fetch(`${server.url}/readyz`)).status;
}

async function waitFor(status: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await readyStatus()) !== status) {
    if (Date.now() > deadline) throw new Error(`/readyz never answered ${status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxyPort = await freePort();
  await openProxy(target);
  const viaProxy = new URL(database.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxyPort);
  server = await startServer({ DATABASE_URL: viaProxy.toString() });
});

afterAll(async () => {
  server?.kill();
  await server?.exited;
  await closeProxy();
  await database?.drop();
});

it('fails while the database is unreachable and recovers without a restart', async () => {
  expect(await readyStatus()).toBe(200);
  await closeProxy();
  await waitFor(503);
  const failed = await server.graphql('{ threads { totalCount } }');
  expect(failed.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
  await openProxy(new URL(database.url));
  await waitFor(200);
  const ok = await server.graphql('{ threads { totalCount } }');
  expect(ok).toEqual({ data: { threads: { totalCount: 0 } } });
});
