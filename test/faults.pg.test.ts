/**
 * Honest errors when the PostgreSQL connection goes away (issue 10, point 3): the server
 * reaches its database through a TCP proxy we cut (a database restart or network fault as the
 * server sees it; the shared PostgreSQL is never stopped), or has its connections ended with
 * pg_terminate_backend. Every failure is UNAVAILABLE (HTTP 503) saying what failed and that the
 * outcome is unknown, never INTERNAL_SERVER_ERROR; /readyz fails meanwhile and recovers
 * without a restart; a retry with the same idempotency key writes the items exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '../src/identity/api-key.service.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import {
  adminOf,
  appendWithKey,
  readyz,
  storedContents,
  until,
  waitForReady,
} from './testkit/faults.js';
import { createThread } from './testkit/seed.js';
import { startTcpProxy, type TcpProxy } from './testkit/tcp-proxy.js';

const OUTCOME_UNKNOWN = /outcome of this operation is unknown; retry it .*same idempotencyKey/;

let database: TestDatabase;
let proxy: TcpProxy;
let t: TestApp;
let port: number;
let admin: Awaited<ReturnType<typeof adminOf>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const target = new URL(database.url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  t = await buildTestApp({}, {}, { url: proxy.via(database.url) });
  port = await t.app.start(0);
  admin = await adminOf(database.url);
});

// A test that failed while the proxy was cut must not fail the next ones.
afterEach(async () => {
  if (proxy.open() === 0) await proxy.restore().catch(() => {});
});

afterAll(async () => {
  await proxy?.restore().catch(() => {});
  await t?.close();
  await admin?.end();
  await proxy?.close();
  await database?.drop();
});

/** The expected shape of every append that met a lost connection. */
function expectConnectionLost(outcome: Awaited<ReturnType<typeof appendWithKey>>) {
  expect(outcome.status).toBe(503);
  expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'database-connection' });
  expect(outcome.error?.message).toMatch(/^The database could not be reached or its connection/);
  expect(outcome.error?.message).toMatch(OUTCOME_UNKNOWN);
}

describe('a cut TCP connection (a database restart)', () => {
  it('answers UNAVAILABLE while cut, /readyz 503 "unreachable", and recovers without a restart', async () => {
    const threadId = await createThread(t);
    expect((await readyz(port)).status).toBe(200);
    await proxy.cut();
    expectConnectionLost(await appendWithKey(t, threadId, 'cut-before'));
    expect(await waitForReady(port, 503)).toEqual({
      status: 'unavailable',
      database: 'unreachable',
    });
    const read = await t.request('{ threads { totalCount } }');
    expect(read.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    // An API key is looked up in the database before the operation runs: the same answer.
    const secret = `${API_KEY_PREFIX}k${'0'.repeat(18)}_${'a'.repeat(43)}`;
    const keyed = await t.as(`Bearer ${secret}`).request('{ threads { totalCount } }');
    expect(keyed.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');

    await proxy.restore();
    expect(await waitForReady(port, 200)).toEqual({ status: 'ok', database: 'ok' });
    const retried = await appendWithKey(t, threadId, 'cut-before');
    expect(retried).toMatchObject({ status: 200, seqs: [0, 1, 2] });
    expect(await storedContents(t, threadId)).toEqual([
      '0:cut-before-0',
      '1:cut-before-1',
      '2:cut-before-2',
    ]);
  });

  it('an append cut inside its transaction is UNAVAILABLE, and its retry writes it once', async () => {
    const threadId = await createThread(t);
    // The append waits inside its transaction on our lock while the proxy is cut.
    await admin.client.query('BEGIN');
    await admin.client.query('LOCK TABLE "Item" IN ACCESS EXCLUSIVE MODE');
    const pending = appendWithKey(t, threadId, 'cut-mid');
    await until(async () => (await admin.waitingOnLock()) > 0, 'the append to wait on the lock');
    await proxy.cut();
    const outcome = await pending;
    await admin.client.query('ROLLBACK');
    expectConnectionLost(outcome);

    await proxy.restore();
    await waitForReady(port, 200);
    // The server's backend may still be finishing: retry until the outcome is known.
    const retried = await appendWithKey(t, threadId, 'cut-mid');
    expect(retried.status).toBe(200);
    expect(retried.seqs).toEqual([0, 1, 2]);
    const again = await appendWithKey(t, threadId, 'cut-mid');
    expect(again).toMatchObject({ status: 200, replayed: true, seqs: [0, 1, 2] });
    expect(await storedContents(t, threadId)).toEqual([
      '0:cut-mid-0',
      '1:cut-mid-1',
      '2:cut-mid-2',
    ]);
  });
});

describe('pg_terminate_backend on the server connections', () => {
  it('idle connections ended: the next operations succeed or are UNAVAILABLE, never INTERNAL_SERVER_ERROR', async () => {
    const threadId = await createThread(t);
    expect(await admin.terminateOthers()).toBeGreaterThan(0);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const outcome = await appendWithKey(t, threadId, `idle-${i}`, 1);
      codes.push(outcome.error ? String(outcome.error.extensions?.code) : 'ok');
      if (outcome.error) expect(outcome.status).toBe(503);
    }
    expect(codes.every((code) => code === 'ok' || code === 'UNAVAILABLE')).toBe(true);
    expect(codes.at(-1)).toBe('ok');
    await waitForReady(port, 200);
  });

  it('a connection ended inside an append is UNAVAILABLE, and its retry writes it once', async () => {
    const threadId = await createThread(t);
    await admin.client.query('BEGIN');
    await admin.client.query('LOCK TABLE "Item" IN ACCESS EXCLUSIVE MODE');
    const pending = appendWithKey(t, threadId, 'terminated');
    await until(async () => (await admin.waitingOnLock()) > 0, 'the append to wait on the lock');
    await admin.terminateOthers();
    const outcome = await pending;
    await admin.client.query('ROLLBACK');
    expect(outcome.status).toBe(503);
    expect(outcome.error?.extensions?.code).toBe('UNAVAILABLE');
    expect(outcome.error?.message).toMatch(OUTCOME_UNKNOWN);

    await waitForReady(port, 200);
    expect(await appendWithKey(t, threadId, 'terminated')).toMatchObject({
      status: 200,
      seqs: [0, 1, 2],
    });
    expect(await storedContents(t, threadId)).toHaveLength(3);
  });
});
