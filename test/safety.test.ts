/**
 * Data safety: messages that quote input stay well-formed text (never half an emoji), SQLite
 * syncs every commit to disk by default (SQLITE_SYNCHRONOUS), and an acknowledged write is
 * never undone by another request's rollback (nor read before it commits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('syncs every commit (synchronous=FULL, 2) by default, in WAL mode', async () => {
    expect(await synchronous(t)).toBe(2);
    const [mode] =
      await t.app.db.prisma.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    expect(mode?.journal_mode).toBe('wal');
  });

  it('uses NORMAL (1) when SQLITE_SYNCHRONOUS=NORMAL', async () => {
    const normal = await buildTestApp({ SQLITE_SYNCHRONOUS: 'NORMAL' });
    try {
      expect(await synchronous(normal)).toBe(1);
    } finally {
      await normal.close();
    }
  });

  it('does not count PRAGMAs as statements of a request', async () => {
    const { count } = await t.countStatements(() => synchronous(t));
    expect(count).toBe(0);
  });
});
