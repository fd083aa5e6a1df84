/**
 * Honest errors when the database cannot do its work (issue 10, point 3), on both databases:
 * a statement that waits too long (PostgreSQL: a table lock held elsewhere past
 * DB_STATEMENT_TIMEOUT_MS; SQLite: another process holding the write lock past the 10 s busy
 * timeout), a read-only database (PostgreSQL: default_transaction_read_only; SQLite: its ext4
 * file system remounted read-only by an error), and a full disk (SQLite: its folder is a small
 * tmpfs; PostgreSQL: the test database lives in a tablespace on a small tmpfs). Each answers
 * UNAVAILABLE (HTTP 503) saying what failed and that the outcome is unknown; /readyz fails while
 * the database cannot write and recovers without a restart; a retry with the same idempotency
 * key writes the items exactly once. Mounts need root (CAP_SYS_ADMIN): without it those tests
 * are skipped, saying so.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, testPostgresUrl, testProvider } from './testkit/database.js';
import {
  adminOf,
  appendWithKey,
  readyz,
  storedContents,
  until,
  waitForReady,
} from './testkit/faults.js';
import { createThread } from './testkit/seed.js';

const OUTCOME_UNKNOWN = /outcome of this operation is unknown; retry it .*same idempotencyKey/;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {
      // best effort: the next cleanup (an unmount) must still run
    }
  }
});

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { stdio: 'pipe' }).toString().trim();

/** A fresh tmpfs of `sizeMiB`, or the reason it cannot be mounted here. */
function mountTmpfs(sizeMiB: number, options = ''): { dir: string } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'threadstore-faults-'));
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m${options}`, 'tmpfs', dir]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})` };
  }
  cleanups.push(() => {
    run('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir };
}

/** Fills the file system of `dir` with one file until it is full; returns the file. */
function fill(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  try {
    for (const size of [1 << 20, 64 << 10, 4 << 10, 512]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Builds an app on `url` listening on a free port; closed after the test. */
async function appOn(
  url: string | null,
  env: Record<string, string> = {},
): Promise<{ t: TestApp; port: number }> {
  const t = await buildTestApp(env, {}, url ? { url } : undefined);
  cleanups.push(() => t.close());
  return { t, port: await t.app.start(0) };
}

describe('a statement that waits too long', () => {
  it('is UNAVAILABLE saying what failed, writes nothing, and the retry writes once', async (ctx) => {
    const { t, port } = await appOn(null, { DB_STATEMENT_TIMEOUT_MS: '1000' });
    const threadId = await createThread(t);
    let release: () => Promise<unknown>;
    if (testProvider === 'postgresql') {
      const admin = await adminOf(t.url);
      cleanups.push(() => admin.end());
      await admin.client.query('BEGIN');
      await admin.client.query('LOCK TABLE "Item" IN ACCESS EXCLUSIVE MODE');
      release = () => admin.client.query('ROLLBACK');
    } else {
      // Another process's write transaction: the append waits SQLite's busy timeout (10 s).
      const other = new Database(t.url.replace(/^file:/, ''));
      cleanups.push(() => other.close());
      other.exec('BEGIN IMMEDIATE');
      release = async () => other.exec('ROLLBACK');
    }
    ctx.onTestFinished(async () => {
      await release().catch(() => {});
    });
    const outcome = await appendWithKey(t, threadId, 'slow');
    await release();
    expect(outcome.status).toBe(503);
    expect(outcome.error?.message).toMatch(OUTCOME_UNKNOWN);
    if (testProvider === 'postgresql') {
      expect(outcome.error?.extensions).toEqual({
        code: 'UNAVAILABLE',
        reason: 'statement-timeout',
      });
      expect(outcome.error?.message).toMatch(/took longer than DB_STATEMENT_TIMEOUT_MS/);
    } else {
      expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'database-locked' });
      expect(outcome.error?.message).toMatch(/locked by another process for longer than 10 s/);
    }
    expect((await readyz(port)).status).toBe(200);
    expect(await appendWithKey(t, threadId, 'slow')).toMatchObject({
      status: 200,
      seqs: [0, 1, 2],
    });
    expect(await storedContents(t, threadId)).toEqual(['0:slow-0', '1:slow-1', '2:slow-2']);
  });
});

describe('a read-only database', () => {
  it.runIf(testProvider === 'postgresql')(
    'PostgreSQL: /readyz 503 "read-only" and appends UNAVAILABLE until it is writable again',
    async () => {
      const { t, port } = await appOn(null);
      const threadId = await createThread(t);
      const admin = await adminOf(t.url);
      cleanups.push(() => admin.end());
      const name = new URL(t.url).pathname.slice(1);
      // New sessions are read-only; the server's pool reconnects once its sessions are ended.
      await admin.client.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      cleanups.push(() =>
        admin.client.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`),
      );
      await admin.terminateOthers();
      expect(await waitForReady(port, 503, 'read-only')).toEqual({
        status: 'unavailable',
        database: 'read-only',
      });
      let outcome = await appendWithKey(t, threadId, 'ro');
      // A first statement on a pool connection ended above may still meet the lost session.
      if (outcome.error?.extensions?.reason === 'database-connection') {
        outcome = await appendWithKey(t, threadId, 'ro');
      }
      expect(outcome.status).toBe(503);
      expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'read-only' });
      expect(outcome.error?.message).toMatch(/^The database is read-only: it cannot write: /);

      await admin.client.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await admin.terminateOthers();
      expect(await waitForReady(port, 200)).toEqual({ status: 'ok', database: 'ok' });
      expect(await appendWithKey(t, threadId, 'ro')).toMatchObject({
        status: 200,
        seqs: [0, 1, 2],
      });
      expect(await storedContents(t, threadId)).toEqual(['0:ro-0', '1:ro-1', '2:ro-2']);
    },
  );

  it.runIf(testProvider === 'sqlite')(
    'SQLite: its file system turned read-only by an error: /readyz 503 "read-only", appends UNAVAILABLE',
    async (ctx) => {
      const folder = mkdtempSync(join(tmpdir(), 'threadstore-faults-ro-'));
      const image = `${folder}.img`;
      cleanups.push(() => rmSync(image, { force: true }));
      cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
      try {
        run('truncate', ['-s', '32M', image]);
        run('mkfs.ext4', ['-q', '-F', image]);
        run('mount', ['-o', 'loop,errors=remount-ro', image, folder]);
      } catch (error) {
        ctx.skip(
          `cannot mount an ext4 loop device here: ${(error as Error).message.split('\n')[0]}`,
        );
      }
      cleanups.push(() => run('umount', ['-l', folder]));
      const { t, port } = await appOn(`file:${folder}/faults.db`);
      const threadId = await createThread(t);
      expect(await appendWithKey(t, threadId, 'before', 1)).toMatchObject({ status: 200 });
      // What the kernel does on an I/O error with errors=remount-ro.
      const device = run('findmnt', ['-n', '-o', 'SOURCE', folder]).split('/').pop();
      run('sh', ['-c', `echo 1 > /sys/fs/ext4/${device}/trigger_fs_error`]);

      const outcome = await appendWithKey(t, threadId, 'ro');
      expect(outcome.status).toBe(503);
      expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'read-only' });
      expect(outcome.error?.message).toMatch(/^The database is read-only/);
      expect(outcome.error?.message).toMatch(OUTCOME_UNKNOWN);
      expect(await waitForReady(port, 503)).toEqual({
        status: 'unavailable',
        database: 'read-only',
      });
      // Reads still work; the file system stays read-only until an operator repairs it.
      expect(await storedContents(t, threadId)).toEqual(['0:before-0']);
    },
  );
});

describe('a full disk', () => {
  it.runIf(testProvider === 'sqlite')(
    'SQLite: appends UNAVAILABLE "The disk is full", /readyz 503, then recovery with no gap',
    async (ctx) => {
      const mounted = mountTmpfs(8);
      if ('skip' in mounted) return ctx.skip(mounted.skip);
      const { t, port } = await appOn(`file:${mounted.dir}/faults.db`);
      const threadId = await createThread(t);
      expect(await appendWithKey(t, threadId, 'before')).toMatchObject({ seqs: [0, 1, 2] });
      const filler = fill(mounted.dir);

      const outcome = await appendWithKey(t, threadId, 'full');
      expect(outcome.status).toBe(503);
      expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'disk-full' });
      expect(outcome.error?.message).toMatch(/^The disk is full: the database cannot write: /);
      expect(outcome.error?.message).toMatch(OUTCOME_UNKNOWN);
      expect(await waitForReady(port, 503)).toEqual({
        status: 'unavailable',
        database: 'disk full',
      });

      rmSync(filler);
      expect(await waitForReady(port, 200)).toEqual({ status: 'ok', database: 'ok' });
      const retried = await appendWithKey(t, threadId, 'full');
      expect(retried).toMatchObject({ status: 200, seqs: [3, 4, 5] });
      expect(await appendWithKey(t, threadId, 'after', 1)).toMatchObject({ seqs: [6] });
      expect(await storedContents(t, threadId)).toEqual([
        '0:before-0',
        '1:before-1',
        '2:before-2',
        '3:full-0',
        '4:full-1',
        '5:full-2',
        '6:after-0',
      ]);
    },
  );

  it.runIf(testProvider === 'postgresql')(
    'PostgreSQL (database in a tablespace on a small tmpfs): UNAVAILABLE "The disk is full", /readyz 503, recovery',
    async (ctx) => {
      const uid = run('id', ['-u', 'postgres']);
      const mounted = mountTmpfs(48, `,uid=${uid},mode=0700`);
      if ('skip' in mounted) return ctx.skip(mounted.skip);
      const server = new pg.Client({ connectionString: testPostgresUrl });
      await server.connect();
      cleanups.push(() => server.end());
      const space = `threadstore_faults_${process.pid}_${Date.now().toString(36)}`;
      try {
        await server.query(`CREATE TABLESPACE ${space} LOCATION '${mounted.dir}'`);
      } catch (error) {
        return ctx.skip(`PostgreSQL cannot use ${mounted.dir}: ${(error as Error).message}`);
      }
      cleanups.push(() => server.query(`DROP TABLESPACE IF EXISTS ${space}`));
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      const name = new URL(database.url).pathname.slice(1);
      await server.query(`ALTER DATABASE ${name} SET TABLESPACE ${space}`);

      const { t, port } = await appOn(database.url);
      const threadId = await createThread(t);
      expect(await appendWithKey(t, threadId, 'before')).toMatchObject({ seqs: [0, 1, 2] });
      // The filler belongs to PostgreSQL's file system user: root may not be able to fill it.
      const filler = fill(mounted.dir);

      // Large items make PostgreSQL extend its files (the last free pages are soon used).
      let outcome = await appendWithKey(t, threadId, 'full');
      for (let i = 0; outcome.status === 200 && i < 50; i++) {
        outcome = await appendWithKey(t, threadId, `full-${i}`, 50);
      }
      expect(outcome.status).toBe(503);
      expect(outcome.error?.extensions).toEqual({ code: 'UNAVAILABLE', reason: 'disk-full' });
      expect(outcome.error?.message).toMatch(/^The disk is full/);
      expect((await readyz(port)).body).toEqual({ status: 'unavailable', database: 'disk full' });

      rmSync(filler);
      await until(async () => (await readyz(port)).status === 200, '/readyz to recover');
      const retried = await appendWithKey(t, threadId, 'full');
      expect(retried.status).toBe(200);
      const contents = await storedContents(t, threadId);
      expect(contents.map((c) => Number(c.split(':')[0]))).toEqual(contents.map((_, i) => i));
    },
  );
});
