/**
 * Data safety: messages that quote input stay well-formed text (never half an emoji), SQLite
 * syncs every commit to disk by default (SQLITE_SYNCHRONOUS), and an acknowledged write is
 * never undone by another request's rollback (nor read before it commits).
 */
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { Transaction } from '@prisma/driver-adapter-utils';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { executeRows } from '../src/db/raw.js';
import { runAlone, serialisedSqlite } from '../src/db/sqlite.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { testProvider } from './testkit/database.js';
import { createThread } from './testkit/seed.js';

const CREATE = graphql(`
  mutation SafetyCreate($id: ID!) {
    createThread(input: { id: $id, agentId: "safety" }) {
      thread {
        id
      }
    }
  }
`);

const THREADS_AFTER = graphql(`
  query SafetyThreadsAfter($after: String!) {
    threads(after: $after) {
      totalCount
    }
  }
`);

const ITEMS_AFTER = graphql(`
  query SafetyItemsAfter($id: ID!, $after: String!) {
    thread(id: $id) {
      items(after: $after) {
        totalCount
      }
    }
  }
`);

const THREAD = graphql(`
  query SafetyThread($id: ID!) {
    thread(id: $id) {
      id
    }
  }
`);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const EMOJI = '😀'; // two UTF-16 code units: a surrogate pair
/** True when `text` holds half of a surrogate pair. */
const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

/** The raw response body of an operation (to see what goes over the wire). */
async function rawBody(query: string, variables: Record<string, unknown>): Promise<string> {
  const response = await t.app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return response.text();
}

describe('messages that quote input', () => {
  it('cut a bad cursor between code points, never inside an emoji', async () => {
    // The 80th code point is the emoji: slicing 80 UTF-16 units would keep half of it.
    const cursor = `${'a'.repeat(79)}${EMOJI}${'b'.repeat(50)}`;
    const error = await t.expectError(THREADS_AFTER, { after: cursor });
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(`after: "${'a'.repeat(79)}${EMOJI}…" is not a cursor`);
    expect(hasLoneSurrogate(error.message)).toBe(false);

    await createThread(t, { id: 'quoted-items' });
    const items = await t.expectError(ITEMS_AFTER, { id: 'quoted-items', after: cursor });
    expect(items.message).toContain(`"${'a'.repeat(79)}${EMOJI}…"`);
  });

  it('cut a bad thread id between code points, and say so with …', async () => {
    const id = `${'x'.repeat(139)}${EMOJI}${'y'.repeat(10)}`;
    const error = await t.expectError(CREATE, { id });
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toBe(
      `id: "${'x'.repeat(139)}${EMOJI}…" is not a valid thread id; use 1-128 characters of A-Z, a-z, 0-9, ".", "_" and "-".`,
    );
    // Short input is quoted whole, without "…".
    const short = await t.expectError(CREATE, { id: `bad ${EMOJI}` });
    expect(short.message).toContain(`id: "bad ${EMOJI}" is not a valid thread id`);
  });

  it('show a lone surrogate of the input as U+FFFD, so the JSON is well-formed', async () => {
    const body = await rawBody(
      'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
      { id: `half\uD83D${'z'.repeat(200)}` },
    );
    const message = (JSON.parse(body) as { errors: { message: string }[] }).errors[0]!.message;
    expect(message).toContain('"half\uFFFDzzz');
    expect(hasLoneSurrogate(message)).toBe(false);
    // Nothing on the wire names half a pair either (JSON escapes it as \ud83d).
    expect(body).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
  });
});

describe('acknowledged writes', () => {
  it('are never undone by another transaction rolling back, nor read before it commits', async () => {
    // A transaction that writes a thread, waits, then fails and rolls back; meanwhile a
    // createThread and a read arrive (on SQLite they share the one connection).
    const now = new Date();
    const row = (id: string) => ({
      tenantId: 'local',
      id,
      agentId: 'safety',
      createdAt: now,
      updatedAt: now,
    });
    let started!: () => void;
    const inTransaction = new Promise<void>((resolve) => {
      started = resolve;
    });
    const failing = t.app.db.prisma
      .$transaction(async (tx) => {
        await tx.thread.create({ data: row('rolled-back') });
        started();
        await new Promise((r) => setTimeout(r, 300));
        throw new Error('roll back');
      })
      .catch((error: Error) => error.message);
    await inTransaction;
    const [created, read] = await Promise.all([
      t.execute(CREATE, { id: 'acknowledged' }),
      t.execute(THREAD, { id: 'rolled-back' }),
    ]);
    expect(created.createThread.thread.id).toBe('acknowledged');
    expect(read.thread).toBeNull(); // never saw the uncommitted row
    expect(await failing).toBe('roll back');
    expect((await t.execute(THREAD, { id: 'acknowledged' })).thread).toEqual({
      id: 'acknowledged',
    });
    expect((await t.execute(THREAD, { id: 'rolled-back' })).thread).toBeNull();
  });
});

describe.runIf(testProvider === 'sqlite')('SQLite durability', () => {
  const synchronous = async (app: TestApp) => {
    const [row] =
      await app.app.db.prisma.$queryRawUnsafe<{ synchronous: bigint | number }[]>(
        'PRAGMA synchronous',
      );
    return Number(row?.synchronous);
  };

  /**
   * Records the syncs of `app`'s WAL file (fdatasync in libuv's pool, src/db/sqlite.ts) while
   * `work` runs: when each began and ended, and the WAL's size when it began. Each sync is held
   * `delayMs` first, so that what waits for it shows.
   */
  async function watchingSyncs<T>(
    app: TestApp,
    work: () => Promise<T>,
    { delayMs = 0, fail = false } = {},
  ): Promise<{ result: T; syncs: { began: number; ended: number; walBytes: number }[] }> {
    const syncs: { began: number; ended: number; walBytes: number }[] = [];
    const wal = walOf(app);
    const real = fs.fdatasync;
    const spy = vi.spyOn(fs, 'fdatasync').mockImplementation(((
      fd: number,
      done: (error: NodeJS.ErrnoException | null) => void,
    ) => {
      // Only the WAL's descriptor counts (the same file as the path, by inode).
      if (fs.fstatSync(fd).ino !== fs.statSync(wal).ino) return real(fd, done);
      const sync = { began: performance.now(), ended: 0, walBytes: fs.fstatSync(fd).size };
      setTimeout(() => {
        if (fail) {
          sync.ended = performance.now();
          syncs.push(sync);
          done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
          return;
        }
        real(fd, (error) => {
          sync.ended = performance.now();
          syncs.push(sync);
          done(error);
        });
      }, delayMs);
    }) as typeof fs.fdatasync);
    try {
      return { result: await work(), syncs };
    } finally {
      spy.mockRestore();
    }
  }

  /** The WAL file SQLite writes: next to the database file (a symlink's target). */
  const walOf = (app: TestApp) => `${fs.realpathSync(app.url.replace(/^file:/, ''))}-wal`;
  const walBytes = (app: TestApp) => fs.statSync(walOf(app)).size;

  it('by default runs WAL mode at NORMAL (1) and syncs the WAL itself, as FULL does', async () => {
    expect(await synchronous(t)).toBe(1);
    const [mode] =
      await t.app.db.prisma.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    expect(mode?.journal_mode).toBe('wal');
  });

  it('acknowledges an append only after its commit is synced, and runs nothing in between', async () => {
    await createThread(t, { id: 'durable' });
    const before = walBytes(t);
    const began = performance.now();
    let readAt = 0;
    const { result, syncs } = await watchingSyncs(
      t,
      async () => {
        const append = t.request(
          `mutation { appendItems(input: { threadId: "durable", items: [{ message: { role: "user", content: "kept" } }] }) { items { ... on ConversationItem { seq } } } }`,
        );
        // Sent while the sync is held: the connection answers it only after the sync.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const read = t.request(`{ thread(id: "durable") { itemCount } }`).then((r) => {
          readAt = performance.now();
          return r;
        });
        return Promise.all([append, read]);
      },
      { delayMs: 300 },
    );
    const answered = performance.now();
    const [append, read] = result;
    expect(append.errors).toBeUndefined();
    expect(append.data?.appendItems.items).toEqual([{ seq: 0 }]);
    expect(read.data?.thread.itemCount).toBe(1);
    // One sync, of a WAL that already held the commit, ended before either answer.
    expect(syncs).toHaveLength(1);
    const [sync] = syncs;
    expect(sync!.began).toBeGreaterThan(began);
    expect(sync!.walBytes).toBeGreaterThan(before);
    expect(sync!.ended - sync!.began).toBeGreaterThanOrEqual(290);
    expect(readAt).toBeGreaterThanOrEqual(sync!.ended);
    expect(answered).toBeGreaterThanOrEqual(sync!.ended);
  });

  it('syncs a write outside transactions (updateThread expiresAt) before answering; a read syncs nothing', async () => {
    await createThread(t, { id: 'durable-update' });
    const renamed = await watchingSyncs(
      t,
      () =>
        t.request(
          `mutation { updateThread(input: { id: "durable-update", expiresAt: "2100-01-01T00:00:00.000Z" }) { thread { expiresAt } } }`,
        ),
      { delayMs: 200 },
    );
    expect(renamed.result.errors).toBeUndefined();
    expect(renamed.result.data?.updateThread.thread.expiresAt).toBe('2100-01-01T00:00:00.000Z');
    expect(renamed.syncs).toHaveLength(1);
    // A statement the stores send outside any transaction commits as it runs: synced too.
    const raw = await watchingSyncs(
      t,
      () =>
        executeRows(
          t.app.db.prisma,
          Prisma.sql`UPDATE "Thread" SET "name" = ${'raw'} WHERE "id" = ${'durable-update'}`,
        ),
      { delayMs: 200 },
    );
    expect(raw.result).toBe(1);
    expect(raw.syncs).toHaveLength(1);
    expect(performance.now()).toBeGreaterThanOrEqual(raw.syncs[0]!.ended);
    const read = await watchingSyncs(t, () => t.execute(THREAD, { id: 'durable-update' }));
    expect(read.result.thread).toEqual({ id: 'durable-update' });
    expect(read.syncs).toHaveLength(0);
  });

  it('syncs the WAL beside the real file when DATABASE_URL names a symlink', async () => {
    const dir = fs.mkdtempSync(join(tmpdir(), 'threadstore-symlink-'));
    fs.mkdirSync(join(dir, 'real'));
    fs.writeFileSync(join(dir, 'real', 'data.db'), '');
    fs.symlinkSync(join(dir, 'real', 'data.db'), join(dir, 'link.db'));
    const linked = await buildTestApp({}, {}, { url: `file:${join(dir, 'link.db')}` });
    try {
      await createThread(linked, { id: 'linked' });
      const { result, syncs } = await watchingSyncs(linked, () =>
        linked.request(
          `mutation { appendItems(input: { threadId: "linked", items: [{ message: { role: "user", content: "via a link" } }] }) { items { ... on ConversationItem { seq } } } }`,
        ),
      );
      expect(result.errors).toBeUndefined();
      expect(syncs).toHaveLength(1);
      expect(fs.existsSync(join(dir, 'link.db-wal'))).toBe(false);
    } finally {
      await linked.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after a failed sync: UNAVAILABLE (outcome unknown) for that write, every later write refused unwritten, reads go on', async () => {
    const failing = await buildTestApp();
    const append = (content: string) =>
      failing.request(
        `mutation { appendItems(input: { threadId: "sync-fails", items: [{ message: { role: "user", content: "${content}" } }] }) { items { ... on ConversationItem { seq } } } }`,
      );
    try {
      await createThread(failing, { id: 'sync-fails' });
      const failed = await watchingSyncs(failing, () => append('maybe'), { fail: true });
      expect(failed.syncs).toHaveLength(1);
      expect(failed.result.data).toBeNull();
      const [error] = failed.result.errors ?? [];
      expect(error?.extensions?.code).toBe('UNAVAILABLE');
      expect(error?.message).toMatch(/outcome of this operation is unknown/);
      expect(JSON.stringify(failed.result.errors)).not.toMatch(/EIO|fdatasync|\bat /);
      // Committed before its sync failed: it is there, but no later write is.
      const count = async () =>
        (await failing.execute(`{ thread(id: "sync-fails") { itemCount } }`)).thread.itemCount;
      expect(await count()).toBe(1);
      const later = await watchingSyncs(failing, () => append('refused'));
      expect(later.syncs).toHaveLength(0);
      expect(later.result.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
      const created = await failing.request(
        `mutation { createThread(input: { id: "after-failure", agentId: "safety" }) { thread { id } } }`,
      );
      expect(created.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
      expect(await count()).toBe(1);
      expect((await failing.execute(THREAD, { id: 'after-failure' })).thread).toBeNull();
    } finally {
      await failing.close();
    }
  });

  it('uses NORMAL (1) when SQLITE_SYNCHRONOUS=NORMAL, and syncs only at checkpoints', async () => {
    const normal = await buildTestApp({ SQLITE_SYNCHRONOUS: 'NORMAL' });
    try {
      expect(await synchronous(normal)).toBe(1);
      await createThread(normal, { id: 'relaxed' });
      const { syncs } = await watchingSyncs(normal, () =>
        normal.execute(
          `mutation { appendItems(input: { threadId: "relaxed", items: [{ message: { role: "user", content: "fast" } }] }) { items { ... on ConversationItem { seq } } } }`,
        ),
      );
      expect(syncs).toHaveLength(0);
    } finally {
      await normal.close();
    }
  });

  it('does not count PRAGMAs as statements of a request', async () => {
    const { count } = await t.countStatements(() => synchronous(t));
    expect(count).toBe(0);
  });
});

describe.runIf(testProvider === 'sqlite')('SQLite group commit', () => {
  const sql = (text: string) => ({ sql: text, args: [], argTypes: [] });
  /** Ends a transaction as Prisma does (@prisma/client 7.10): COMMIT sent, then commit(). */
  const commit = async (tx: Transaction) => {
    await tx.executeRaw(sql('COMMIT'));
    await tx.commit();
  };

  /**
   * The first of two transactions on the serialised adapter (src/db/sqlite.ts) commits while
   * the second waits for the connection: what answers first, the first one's commit or nothing
   * within 2 s (it was grouped with the second, and waits for their common commit). The adapter
   * alone, on its own file: no background statement queues in between.
   */
  async function firstCommitAnswers(
    startSecond: (start: () => Promise<Transaction>) => Promise<Transaction>,
  ) {
    const dir = fs.mkdtempSync(join(tmpdir(), 'threadstore-group-'));
    const adapter = await serialisedSqlite(
      new PrismaBetterSqlite3({ url: join(dir, 'group.db') }),
      'NORMAL',
    ).connect();
    // A group takes members only in its first 10 ms: with the clock held, always.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      await adapter.executeScript('CREATE TABLE t (n INTEGER)');
      const first = await adapter.startTransaction();
      await first.executeRaw(sql('INSERT INTO t VALUES (1)'));
      // Queued for the connection before the first ends (startTransaction queues at once).
      const second = startSecond(() => adapter.startTransaction());
      const firstDone = commit(first);
      const answered = await Promise.race([
        firstDone.then(() => 'first'),
        new Promise<string>((resolve) => setTimeout(() => resolve('held back'), 2_000)),
      ]);
      const other = await second;
      await other.executeRaw(sql('INSERT INTO t VALUES (2)'));
      await commit(other);
      await firstDone;
      const rows = await adapter.queryRaw(sql('SELECT count(*) AS n FROM t'));
      expect(rows.rows).toEqual([[2]]);
      return answered;
    } finally {
      vi.useRealTimers();
      await adapter.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('groups ordinary transactions: the first answers with the group, once the next ends', async () => {
    expect(await firstCommitAnswers((start) => start())).toBe('held back');
  });

  it('runs a long transaction (runAlone: imports) alone: the one before it answers at once', async () => {
    expect(await firstCommitAnswers((start) => runAlone(start))).toBe('first');
  });
});
