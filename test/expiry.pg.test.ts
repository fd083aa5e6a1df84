/**
 * The expiry sweep with several instances on one PostgreSQL (README: RETENTION_DAYS,
 * EXPIRY_SWEEP_INTERVAL_MS): one instance sweeps at a time (an advisory lock); the others skip
 * their turn instead of waiting or deleting the same rows, and together they delete every
 * expired thread exactly once. One instance: expiry.test.ts.
 */
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRY_LOCK_KEY, sweepExpiredThreads } from '../src/threads/thread.service.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { until } from './testkit/faults.js';
import { append, createThread, message } from './testkit/seed.js';

let database: TestDatabase;
let one: TestApp;
let two: TestApp;
let admin: pg.Client;
/** Warnings and errors the two instances logged. */
const problems: string[] = [];

/** A logger that keeps the warnings and errors it is given. */
function recordingLogger() {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { level: number; msg: string };
      if (line.level >= 40) problems.push(line.msg);
      done();
    },
  });
  return pino({ level: 'warn' }, sink);
}

beforeAll(async () => {
  database = await createTestDatabase();
  // One instance sweeps often; the other only when the test asks.
  one = await buildTestApp({}, { logger: recordingLogger() }, database);
  two = await buildTestApp({}, { logger: recordingLogger() }, database);
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});

afterAll(async () => {
  await admin?.end();
  await one?.close();
  await two?.close();
  await database?.drop();
});

/** Creates `n` threads with an item each and makes them expired; returns their ids. */
async function expiredThreads(n: number, agentId: string): Promise<string[]> {
  const ids = await Promise.all(Array.from({ length: n }, () => createThread(one, { agentId })));
  for (const id of ids) await append(one, id, [message('x')]);
  await admin.query(
    `UPDATE "Thread" SET "expiresAt" = now() - interval '1 second' WHERE "agentId" = $1`,
    [agentId],
  );
  return ids;
}

async function count(sql: string, params: unknown[]): Promise<number> {
  const result = await admin.query(sql, params);
  return Number(result.rows[0].n);
}

const threadsOf = (agentId: string) =>
  count('SELECT COUNT(*) AS n FROM "Thread" WHERE "agentId" = $1', [agentId]);

describe('the expiry sweep on one PostgreSQL with two instances', () => {
  it('skips its turn while another holds the sweep lock, and sweeps after', async () => {
    await expiredThreads(5, 'locked');
    await admin.query('BEGIN');
    await admin.query('SELECT pg_advisory_xact_lock($1)', [EXPIRY_LOCK_KEY]);
    try {
      const started = Date.now();
      expect(await sweepExpiredThreads(one.app.db, one.app.events)).toBe(0);
      expect(await sweepExpiredThreads(two.app.db, two.app.events)).toBe(0);
      // Skipped at once, not queued behind the lock.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await threadsOf('locked')).toBe(5);
    } finally {
      await admin.query('COMMIT');
    }
    expect(await sweepExpiredThreads(two.app.db, two.app.events)).toBe(5);
    expect(await threadsOf('locked')).toBe(0);
  });

  it('runs on one instance at a time: a second sweep skips while the first is busy', async () => {
    const ids = await expiredThreads(4, 'busy');
    // Hold one expired thread's row: the first sweep takes the sweep lock, then waits on it.
    await admin.query('BEGIN');
    await admin.query('SELECT 1 FROM "Thread" WHERE "id" = $1 FOR UPDATE', [ids[0]]);
    let first: Promise<number> | null = null;
    try {
      first = sweepExpiredThreads(one.app.db, one.app.events);
      await until(
        async () =>
          (await count(
            `SELECT COUNT(*) AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
             WHERE l.locktype = 'advisory' AND l.granted AND d.datname = current_database()`,
            [],
          )) > 0,
        'the first sweep to take the lock',
      );
      expect(await sweepExpiredThreads(two.app.db, two.app.events)).toBe(0);
    } finally {
      await admin.query('COMMIT');
    }
    expect(await first).toBe(4);
    expect(await threadsOf('busy')).toBe(0);
  });

  it('deletes each expired thread once when both sweep together, with one tombstone each', async () => {
    const ids = await expiredThreads(30, 'both');
    const results = await Promise.all([
      sweepExpiredThreads(one.app.db, one.app.events, { batchSize: 4 }),
      sweepExpiredThreads(two.app.db, two.app.events, { batchSize: 4 }),
      sweepExpiredThreads(one.app.db, one.app.events, { batchSize: 4 }),
    ]);
    // Whoever skipped left the rest to the next turn of its timer: sweep until done.
    let rest = 0;
    for (let turn = 0; turn < 10 && (await threadsOf('both')) > 0; turn++) {
      rest += await sweepExpiredThreads(two.app.db, two.app.events);
    }
    expect(results.reduce((a, b) => a + b, 0) + rest).toBe(30);
    expect(await threadsOf('both')).toBe(0);
    expect(await count('SELECT COUNT(*) AS n FROM "Item" WHERE "threadId" = ANY($1)', [ids])).toBe(
      0,
    );
    const hashes = ids.map((id) => createHash('sha256').update(id).digest('hex'));
    expect(
      await count('SELECT COUNT(*) AS n FROM "ThreadTombstone" WHERE "idHash" = ANY($1)', [hashes]),
    ).toBe(30);
  });

  it('the jobs of both instances delete what expires, with no error logged', async () => {
    const quick = { EXPIRY_SWEEP_INTERVAL_MS: '20' };
    const a = await buildTestApp(quick, { logger: recordingLogger() }, database);
    const b = await buildTestApp(quick, { logger: recordingLogger() }, database);
    try {
      await expiredThreads(25, 'jobs');
      await until(async () => (await threadsOf('jobs')) === 0, 'the jobs to sweep');
      expect(problems).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
