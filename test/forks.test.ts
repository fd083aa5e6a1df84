/**
 * Forks with lineage (issue 14, point 1; contract part beyond: ForkThreadInput,
 * Thread.forkedFrom, Thread.forks), through the GraphQL endpoint with AUTH=required and two
 * tenants: forkThread copies items 0..atSeq exactly (seqs, data, raw, createdAt, holes) and the
 * compaction records wholly inside (range and marker), the threads then live apart, deleting
 * the source leaves the fork whole, forks are listed newest first in keyset pages, another
 * tenant's threads are NOT_FOUND, and a fork runs a fixed number of statements whatever its
 * size.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import type { NewItem } from './generated/graphql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import type { GraphQLClient, ResultOf } from './testkit/graphql.js';
import { type Subscription, until, untilLive, wsSubscribe } from './testkit/streams.js';

const SECRET = 'forks-test-secret-of-at-least-32-characters!';
const SCOPES = 'threads:read threads:write threads:delete admin';

function jwt(tenant: string): Promise<string> {
  return new SignJWT({ tenant, scope: SCOPES })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

let t: TestApp;
let port: number;
let authA: string;
/** Tenant A and tenant B. */
let a: GraphQLClient;
let b: GraphQLClient;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1', AUTH: 'required', AUTH_JWT_SECRET: SECRET });
  port = await t.app.start(0);
  authA = `Bearer ${await jwt('forks-a')}`;
  a = t.as(authA);
  b = t.as(`Bearer ${await jwt('forks-b')}`);
});
afterAll(() => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let counter = 0;
const newId = (prefix = 'f') => `${prefix}-${process.pid}-${++counter}`;

const CREATE = graphql(`
  mutation ForksCreate($input: CreateThreadInput!) {
    createThread(input: $input) {
      thread {
        id
      }
    }
  }
`);

const APPEND = graphql(`
  mutation ForksAppend($input: AppendItemsInput!) {
    appendItems(input: $input) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

const FORK = graphql(`
  mutation ForksFork($input: ForkThreadInput!) {
    forkThread(input: $input) {
      thread {
        id
        agentId
        name
        metadata
        archived
        nextSeq
        lastSeq
        itemCount
        createdAt
        forkedFrom {
          threadId
          seq
          thread {
            id
          }
        }
      }
    }
  }
`);

const THREAD = graphql(`
  query ForksThread($id: ID!) {
    thread(id: $id) {
      id
      name
      metadata
      nextSeq
      lastSeq
      itemCount
      updatedAt
      forkedFrom {
        threadId
        seq
        thread {
          id
          name
        }
      }
      items(first: 500) {
        edges {
          node {
            ... on ConversationItem {
              id
              threadId
              seq
              type
              status
              data
              raw
              rawFormat
              createdAt
              createdBy
              responseId
            }
          }
        }
      }
      compactions {
        id
        threadId
        startSeq
        endSeq
        summary
        markerSeq
        createdAt
        createdBy
      }
    }
  }
`);

const FORKS = graphql(`
  query ForksList($id: ID!, $first: Int, $after: String) {
    thread(id: $id) {
      forks(first: $first, after: $after) {
        totalCount
        edges {
          cursor
          node {
            id
            createdAt
            forkedFrom {
              threadId
              seq
            }
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

const COMPACT = graphql(`
  mutation ForksCompact($input: AddCompactionInput!) {
    addCompaction(input: $input) {
      compaction {
        id
        markerSeq
      }
    }
  }
`);

const PURGE = graphql(`
  mutation ForksPurge($input: PurgeItemsInput!) {
    purgeItems(input: $input) {
      itemsDeleted
    }
  }
`);

const CLEAR = graphql(`
  mutation ForksClear($input: ClearCompactionsInput!) {
    clearCompactions(input: $input) {
      compactionsDeleted
    }
  }
`);

const DELETE = graphql(`
  mutation ForksDelete($input: DeleteThreadInput!) {
    deleteThread(input: $input) {
      itemsDeleted
      compactionsDeleted
    }
  }
`);

async function create(
  client: GraphQLClient,
  input: { id?: string; name?: string; metadata?: unknown; agentId?: string } = {},
): Promise<string> {
  const data = await client.execute(CREATE, {
    input: { agentId: 'forker', id: newId('src'), ...input },
  });
  return data.createThread.thread.id;
}

async function append(client: GraphQLClient, threadId: string, items: NewItem[]) {
  const data = await client.execute(APPEND, { input: { threadId, items } });
  return data.appendItems.items.map((i) => i.seq);
}

/** `n` user messages "<prefix>0".. */
const messages = (n: number, prefix = 'm'): NewItem[] =>
  Array.from({ length: n }, (_, i) => ({ message: { role: 'user', content: `${prefix}${i}` } }));

async function read(client: GraphQLClient, id: string) {
  const data = await client.execute(THREAD, { id });
  return data.thread;
}

/** The fields of an item that a fork keeps (everything but the ids, which are the fork's). */
function kept(item: { id: string; threadId: string } & Record<string, unknown>) {
  const { id: _id, threadId: _threadId, ...rest } = item;
  return rest;
}

describe('forkThread copies', () => {
  it('items 0..atSeq exactly: seqs, types, status, data, raw, createdAt, createdBy, responseId; ids are the fork', async () => {
    const source = await create(a, { name: 'origin', metadata: { team: 'x', n: 1 } });
    await append(a, source, [
      {
        message: { role: 'user', content: 'hello' },
        createdAt: '2021-03-04T05:06:07.089Z',
        createdBy: 'alice',
      },
      {
        message: { role: 'assistant', parts: [{ type: 'text', text: 'hi' }] },
        responseId: 'resp-1',
        raw: { role: 'assistant', content: [{ type: 'text', text: 'hi', extra: '\u0000' }] },
        rawFormat: 'ANTHROPIC_MESSAGES',
      },
      { toolCall: { callId: 'c1', name: 'search', arguments: { q: 'ü ✓' } }, responseId: 'resp-1' },
      { toolResult: { callId: 'c1', output: { hits: [1, 2.5, null] } }, status: 'IN_PROGRESS' },
      { other: { type: 'custom_event', data: { deep: { a: [1, { b: 2 }] } } } },
      ...messages(3, 'after'),
    ]);
    const before = await read(a, source);
    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 4 } });
    const fork = forkThread.thread;
    expect(fork).toMatchObject({
      agentId: 'forker',
      name: 'origin',
      metadata: { team: 'x', n: 1 },
      archived: false,
      nextSeq: 5,
      lastSeq: 4,
      itemCount: 5,
      forkedFrom: { threadId: source, seq: 4, thread: { id: source } },
    });
    expect(fork.id).not.toBe(source);
    const copied = await read(a, fork.id);
    const items = copied!.items.edges.map((e) => e.node);
    expect(items.map((i) => i.id)).toEqual([0, 1, 2, 3, 4].map((s) => `${fork.id}:${s}`));
    expect(items.every((i) => i.threadId === fork.id)).toBe(true);
    expect(items.map(kept)).toEqual(before!.items.edges.slice(0, 5).map((e) => kept(e.node)));
    // The source is as it was (a fork changes nothing of it, not even updatedAt).
    expect(await read(a, source)).toEqual(before);
  });

  it('with the given id, name (null clears) and metadata', async () => {
    const source = await create(a, { name: 'keep me', metadata: { a: 1 } });
    await append(a, source, messages(2));
    const id = newId('named');
    const named = await a.execute(FORK, {
      input: { threadId: source, atSeq: 0, id, name: 'other', metadata: { b: [2] } },
    });
    expect(named.forkThread.thread).toMatchObject({
      id,
      name: 'other',
      metadata: { b: [2] },
      itemCount: 1,
    });
    const cleared = await a.execute(FORK, {
      input: { threadId: source, atSeq: 1, name: null, metadata: null },
    });
    expect(cleared.forkThread.thread).toMatchObject({
      name: null,
      metadata: { a: 1 },
      itemCount: 2,
    });
  });

  it('leaves purged seqs as holes: nextSeq is atSeq + 1, itemCount the items copied', async () => {
    const source = await create(a);
    await append(a, source, [
      ...messages(3, 'old').map((m) => ({ ...m, createdAt: '2020-01-01T00:00:00.000Z' })),
      ...messages(4, 'new'),
    ]);
    await append(a, source, messages(2, 'purged later'));
    await a.execute(PURGE, { input: { threadId: source, before: '2021-01-01T00:00:00.000Z' } });
    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 5 } });
    expect(forkThread.thread).toMatchObject({ nextSeq: 6, lastSeq: 5, itemCount: 3 });
    const fork = await read(a, forkThread.thread.id);
    expect(fork!.items.edges.map((e) => e.node.seq)).toEqual([3, 4, 5]);
    // The fork's next append takes seq 6, the seq after atSeq.
    expect(await append(a, forkThread.thread.id, messages(1))).toEqual([6]);
    // A fork at a purged seq is allowed (atSeq is within 0..lastSeq): it copies nothing there.
    const holes = await a.execute(FORK, { input: { threadId: source, atSeq: 1 } });
    expect(holes.forkThread.thread).toMatchObject({ nextSeq: 2, itemCount: 0, lastSeq: 1 });
  });

  it('compaction records wholly inside 0..atSeq (range and marker), not those straddling it', async () => {
    const source = await create(a);
    await append(a, source, messages(10)); // 0..9
    const inside = await a.execute(COMPACT, {
      input: { threadId: source, startSeq: 0, endSeq: 3, summary: 'first four', createdBy: 'x' },
    }); // marker 10
    await append(a, source, messages(4, 'n')); // 11..14
    // Range inside atSeq 13 but its marker (15) after: not wholly inside.
    const markerAfter = await a.execute(COMPACT, {
      input: { threadId: source, startSeq: 11, endSeq: 12, summary: 'marker after' },
    }); // marker 15
    await append(a, source, messages(4, 'p')); // 16..19
    await a.execute(COMPACT, {
      input: { threadId: source, startSeq: 16, endSeq: 19, summary: 'range after' },
    }); // marker 20
    expect(inside.addCompaction.compaction.markerSeq).toBe(10);
    expect(markerAfter.addCompaction.compaction.markerSeq).toBe(15);

    const atMarker = await a.execute(FORK, { input: { threadId: source, atSeq: 15 } });
    const withBoth = await read(a, atMarker.forkThread.thread.id);
    expect(withBoth!.compactions.map((c) => [c.startSeq, c.endSeq, c.markerSeq])).toEqual([
      [0, 3, 10],
      [11, 12, 15],
    ]);

    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 13 } });
    const forkId = forkThread.thread.id;
    const fork = await read(a, forkId);
    const src = await read(a, source);
    expect(fork!.compactions).toHaveLength(1);
    const { id, threadId, ...record } = fork!.compactions[0]!;
    expect(id).toBe(`${forkId}:compaction:10`);
    expect(threadId).toBe(forkId);
    const { id: _i, threadId: _t, ...original } = src!.compactions[0]!;
    expect(record).toEqual(original);
    // The marker item came along with its seq and data.
    expect(fork!.items.edges.find((e) => e.node.seq === 10)?.node).toMatchObject({
      type: 'compaction',
      data: { summary: 'first four', startSeq: 0, endSeq: 3 },
    });
    // The fork may compact the range whose record was left out: its marker takes seq 14.
    const again = await a.execute(COMPACT, {
      input: { threadId: forkId, startSeq: 11, endSeq: 12, summary: 'in the fork' },
    });
    expect(again.addCompaction.compaction).toEqual({
      id: `${forkId}:compaction:14`,
      markerSeq: 14,
    });
  });
});

describe('a THREADSTORE_JSONL dump of a fork', () => {
  it('keeps forkedFrom: restored under a new id it is a fork of the same source; dumped again it is the same', async () => {
    const source = await create(a);
    await append(a, source, messages(4));
    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 2 } });
    const fork = forkThread.thread.id;
    const dumpOf = async (client: GraphQLClient, id: string) =>
      (
        await client.execute<{ thread: { transcript: unknown[] } }>(
          'query($id: ID!) { thread(id: $id) { transcript(format: THREADSTORE_JSONL) } }',
          { id },
        )
      ).thread.transcript;
    const dump = await dumpOf(a, fork);
    expect(dump[0]).toMatchObject({
      id: fork,
      nextSeq: 3,
      forkedFrom: { threadId: source, seq: 2 },
    });
    // A thread that is no fork has no forkedFrom key (its dumps are as before).
    expect(Object.keys((await dumpOf(a, source))[0] as object)).not.toContain('forkedFrom');

    const RESTORE =
      'mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id forkedFrom { threadId seq thread { id } } } } }';
    const copy = newId('restored');
    const restored = await a.execute(RESTORE, {
      input: { format: 'THREADSTORE_JSONL', transcript: dump, agentId: 'forker', threadId: copy },
    });
    expect(restored.importTranscript.thread).toEqual({
      id: copy,
      forkedFrom: { threadId: source, seq: 2, thread: { id: source } },
    });
    const list = await a.execute(FORKS, { id: source });
    expect(list.thread!.forks.edges.map((e) => e.node.id).sort()).toEqual([copy, fork].sort());
    // In another tenant (no such source there): the same dump back, origin thread null.
    const elsewhere = await b.execute(RESTORE, {
      input: { format: 'THREADSTORE_JSONL', transcript: dump, agentId: 'forker' },
    });
    expect(elsewhere.importTranscript.thread.forkedFrom).toEqual({
      threadId: source,
      seq: 2,
      thread: null,
    });
    expect(await dumpOf(b, fork)).toEqual(dump);
    // A malformed origin is refused.
    const bad = [
      { ...(dump[0] as object), forkedFrom: { threadId: source, seq: 3 } },
      ...dump.slice(1),
    ];
    const refused = await a.expectError(RESTORE, {
      input: { format: 'THREADSTORE_JSONL', transcript: bad, agentId: 'forker', threadId: newId() },
    });
    expect(refused.code).toBe('BAD_USER_INPUT');
    expect(refused.message).toMatch(/forkedFrom/);
  });
});

describe('a fork and its source live apart', () => {
  it('appends, compactions, purges and clears of either never show in the other', async () => {
    const source = await create(a);
    await append(a, source, [
      ...messages(4, 'old').map((m) => ({ ...m, createdAt: '2020-01-01T00:00:00.000Z' })),
      ...messages(4),
    ]);
    await a.execute(COMPACT, { input: { threadId: source, startSeq: 4, endSeq: 5, summary: 's' } });
    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 8 } });
    const fork = forkThread.thread.id;
    const forkBefore = await read(a, fork);
    const sourceBefore = await read(a, source);
    expect(forkBefore!.compactions).toHaveLength(1);

    // On the source: append, compact, purge, clear.
    await append(a, source, messages(2, 'src'));
    await a.execute(COMPACT, { input: { threadId: source, startSeq: 6, endSeq: 7, summary: 'c' } });
    await a.execute(PURGE, { input: { threadId: source, before: '2021-01-01T00:00:00.000Z' } });
    await a.execute(CLEAR, { input: { threadId: source } });
    expect(await read(a, fork)).toEqual(forkBefore);

    // On the fork: the same, after which the source is as the steps above left it.
    const sourceNow = await read(a, source);
    expect(sourceNow!.items.edges.map((e) => e.node.seq)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(sourceNow!.compactions).toEqual([]);
    expect(sourceNow).not.toEqual(sourceBefore);
    expect(await append(a, fork, messages(2, 'fork'))).toEqual([9, 10]);
    await a.execute(COMPACT, { input: { threadId: fork, startSeq: 9, endSeq: 10, summary: 'f' } });
    await a.execute(PURGE, { input: { threadId: fork, before: '2021-01-01T00:00:00.000Z' } });
    await a.execute(CLEAR, { input: { threadId: fork } });
    expect(await read(a, source)).toEqual(sourceNow);
    const forkNow = await read(a, fork);
    expect(forkNow!.items.edges.map((e) => e.node.seq)).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    expect(forkNow!.items.edges.map((e) => e.node.id)).toEqual(
      [4, 5, 6, 7, 8, 9, 10, 11].map((s) => `${fork}:${s}`),
    );

    // Deleting the fork deletes its rows only.
    const deleted = await a.execute(DELETE, { input: { id: fork } });
    expect(deleted.deleteThread).toEqual({ itemsDeleted: 8, compactionsDeleted: 0 });
    expect(await read(a, source)).toEqual(sourceNow);
  });

  it('deleting the source leaves the fork whole, forkedFrom.thread null with threadId and seq kept', async () => {
    const source = await create(a);
    await append(a, source, messages(6));
    await a.execute(COMPACT, { input: { threadId: source, startSeq: 0, endSeq: 2, summary: 's' } });
    const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 6 } });
    const fork = forkThread.thread.id;
    const before = await read(a, fork);
    expect(before!.items.edges).toHaveLength(7);
    expect(before!.compactions).toHaveLength(1);
    const deleted = await a.execute(DELETE, { input: { id: source } });
    expect(deleted.deleteThread).toEqual({ itemsDeleted: 7, compactionsDeleted: 1 });
    const after = await read(a, fork);
    expect(after!.forkedFrom).toEqual({ threadId: source, seq: 6, thread: null });
    expect({ ...after, forkedFrom: null }).toEqual({ ...before, forkedFrom: null });
    // A deleted source cannot be forked (NOT_FOUND), and the fork can be forked in turn.
    const gone = await a.expectError(FORK, { input: { threadId: source, atSeq: 0 } });
    expect(gone.code).toBe('NOT_FOUND');
    const grandchild = await a.execute(FORK, { input: { threadId: fork, atSeq: 3 } });
    expect(grandchild.forkThread.thread).toMatchObject({
      itemCount: 4,
      forkedFrom: { threadId: fork, seq: 3, thread: { id: fork } },
    });
  });
});

describe('Thread.forks', () => {
  it('lists the forks newest first, in keyset pages with totalCount, archived ones too', async () => {
    const source = await create(a);
    await append(a, source, messages(3));
    const made: string[] = [];
    for (let n = 0; n < 5; n++) {
      const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: n % 3 } });
      made.push(forkThread.thread.id);
      await sleep(3); // distinct createdAt: the order is the time, not the id
    }
    await a.execute(
      'mutation($id: ID!) { updateThread(input: { id: $id, archived: true }) { thread { id } } }',
      { id: made[1] },
    );
    // A fork of a fork is not a fork of the source.
    await a.execute(FORK, { input: { threadId: made[0]!, atSeq: 0 } });
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const data: ResultOf<typeof FORKS> = await a.execute(FORKS, { id: source, first: 2, after });
      const forks = data.thread!.forks;
      expect(forks.totalCount).toBe(5);
      seen.push(...forks.edges.map((e) => e.node.id));
      for (const edge of forks.edges) expect(edge.node.forkedFrom?.threadId).toBe(source);
      expect(forks.pageInfo.hasNextPage).toBe(page < 2);
      after = forks.pageInfo.endCursor ?? null;
    }
    expect(seen).toEqual([...made].reverse());
    // A thread without forks has an empty list; bad page arguments are BAD_USER_INPUT.
    const none = await a.execute(FORKS, { id: made[4]! });
    expect(none.thread!.forks).toMatchObject({ totalCount: 0, edges: [] });
    const bad = await a.expectError(FORKS, { id: source, first: -1 });
    expect(bad.code).toBe('BAD_USER_INPUT');
    const cursor = await a.expectError(FORKS, { id: source, after: 'nope' });
    expect(cursor.code).toBe('BAD_USER_INPUT');
  });

  it('a fork is announced to thread list followers (threadEvents CREATED) after it commits', async () => {
    const source = await create(a);
    await append(a, source, messages(1));
    const sub: Subscription = wsSubscribe(
      port,
      authA,
      'subscription { threadEvents(agentId: "forker") { type threadId thread { forkedFrom { threadId } } } }',
    );
    try {
      await untilLive(
        sub,
        () => create(a, { id: newId('probe') }),
        () => sub.results.length > 0,
      );
      const { forkThread } = await a.execute(FORK, { input: { threadId: source, atSeq: 0 } });
      const fork = forkThread.thread.id;
      const event = () =>
        sub.results.find((r) => (r.threadEvents as { threadId: string }).threadId === fork)
          ?.threadEvents;
      await until(() => event() !== undefined, [sub], 'the CREATED event of the fork');
      expect(event()).toEqual({
        type: 'CREATED',
        threadId: fork,
        thread: { forkedFrom: { threadId: source } },
      });
    } finally {
      await sub.close();
    }
  });
});

describe('forkThread refuses', () => {
  it('an atSeq that is negative or past lastSeq, and a source with no items, writing nothing', async () => {
    const source = await create(a);
    await append(a, source, messages(3));
    const empty = await create(a);
    for (const [threadId, atSeq] of [
      [source, -1],
      [source, 3],
      [source, 2 ** 31 - 1],
      [empty, 0],
    ] as const) {
      const id = newId('refused');
      const error = await a.expectError(FORK, { input: { threadId, atSeq, id } });
      expect(error.code, error.message).toBe('BAD_USER_INPUT');
      expect(error.message).toMatch(/atSeq/);
      expect(await a.execute(THREAD, { id })).toEqual({ thread: null });
    }
    const forks = await a.execute(FORKS, { id: source });
    expect(forks.thread!.forks.totalCount).toBe(0);
  });

  it('an id that is taken, was used by a deleted thread, or is malformed', async () => {
    const source = await create(a);
    await append(a, source, messages(2));
    const taken = await create(a);
    const deleted = await create(a);
    await a.execute(DELETE, { input: { id: deleted } });
    for (const [id, code] of [
      [taken, 'CONFLICT'],
      [deleted, 'CONFLICT'],
      [source, 'CONFLICT'],
      ['not a valid id!', 'BAD_USER_INPUT'],
    ] as const) {
      const error = await a.expectError(FORK, { input: { threadId: source, atSeq: 1, id } });
      expect(error.code, error.message).toBe(code);
    }
    expect(await a.execute(THREAD, { id: deleted })).toEqual({ thread: null });
    const takenNow = await read(a, taken);
    expect(takenNow).toMatchObject({ itemCount: 0, nextSeq: 0, forkedFrom: null });
    const forks = await a.execute(FORKS, { id: source });
    expect(forks.thread!.forks.totalCount).toBe(0);
  });

  it("another tenant's thread: NOT_FOUND, and its forks never show in a list", async () => {
    // Both tenants hold a thread with the same id.
    const shared = newId('shared');
    await create(a, { id: shared });
    await append(a, shared, messages(2, 'a'));
    await create(b, { id: shared });
    await append(b, shared, messages(5, 'b'));
    const onlyB = await create(b);
    await append(b, onlyB, messages(2));

    const notFound = await a.expectError(FORK, { input: { threadId: onlyB, atSeq: 0 } });
    expect(notFound.code).toBe('NOT_FOUND');
    // atSeq 4 exists in B's thread, not in A's: A forks its own.
    const past = await a.expectError(FORK, { input: { threadId: shared, atSeq: 4 } });
    expect(past.code).toBe('BAD_USER_INPUT');
    const forkB = await b.execute(FORK, { input: { threadId: shared, atSeq: 4 } });
    const forkA = await a.execute(FORK, { input: { threadId: shared, atSeq: 1 } });
    const listA = await a.execute(FORKS, { id: shared });
    expect(listA.thread!.forks.edges.map((e) => e.node.id)).toEqual([forkA.forkThread.thread.id]);
    expect(listA.thread!.forks.totalCount).toBe(1);
    const listB = await b.execute(FORKS, { id: shared });
    expect(listB.thread!.forks.edges.map((e) => e.node.id)).toEqual([forkB.forkThread.thread.id]);
    const copiedA = await read(a, forkA.forkThread.thread.id);
    expect(copiedA!.items.edges.map((e) => (e.node.data as { content: string }).content)).toEqual([
      'a0',
      'a1',
    ]);
    // B's fork is not A's to read; a cursor of B's list is refused in A's.
    expect(await a.execute(THREAD, { id: forkB.forkThread.thread.id })).toEqual({ thread: null });
    const pageB = await b.execute(FORKS, { id: shared, first: 1 });
    const foreign = await a.expectError(FORKS, {
      id: shared,
      after: pageB.thread!.forks.pageInfo.endCursor,
    });
    expect(foreign.code).toBe('BAD_USER_INPUT');
    // Deleting A's source does not touch B's thread of the same id, nor B's fork's origin.
    await a.execute(DELETE, { input: { id: shared } });
    const originB = await read(b, forkB.forkThread.thread.id);
    expect(originB!.forkedFrom).toMatchObject({ threadId: shared, thread: { id: shared } });
  });

  it('without threads:write (FORBIDDEN)', async () => {
    const source = await create(a);
    await append(a, source, messages(1));
    const reader = t.as(
      `Bearer ${await new SignJWT({ tenant: 'forks-a', scope: 'threads:read' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode(SECRET))}`,
    );
    const error = await reader.expectError(FORK, { input: { threadId: source, atSeq: 0 } });
    expect(error.code).toBe('FORBIDDEN');
  });
});

describe('statements', () => {
  it('a fork runs the same number of statements for 10 items as for 2,000', async () => {
    const count = async (n: number) => {
      const source = await create(a);
      for (let start = 0; start < n; start += 500) {
        await append(a, source, messages(Math.min(500, n - start)));
      }
      await a.execute(COMPACT, {
        input: { threadId: source, startSeq: 0, endSeq: 4, summary: 's' },
      });
      const counted = await t.countStatements(() =>
        a.execute(FORK, { input: { threadId: source, atSeq: n } }),
      );
      return counted;
    };
    const small = await count(10);
    const large = await count(2000);
    expect(large.count, large.log.join('\n')).toBe(small.count);
    // Read the source (FOR SHARE on PostgreSQL), insert the thread, check the tombstone, copy
    // the items, copy the records, set itemCount and the usage totals, write the webhook
    // outbox's THREAD_CREATED; then the payload's forkedFrom.thread.
    expect(large.count, large.log.join('\n')).toBeLessThanOrEqual(8);
    expect(large.log.filter((sql) => /INSERT INTO "Item"/i.test(sql))).toHaveLength(1);
  });
});

describe('a fork with usage and expiry (issue 14, points 3 and 4)', () => {
  const USAGE = `query ForksUsage($id: ID!) {
    thread(id: $id) { usage { inputTokens outputTokens totalTokens messagesWithUsage } }
  }`;

  it("starts with the usage totals of the items it copied; the source's stay its own", async () => {
    const source = newId('usage');
    await a.execute(CREATE, { input: { id: source, agentId: 'agent-u' } });
    const turn = (n: number): NewItem => ({
      message: {
        role: 'assistant',
        content: `answer ${n}`,
        usage: { inputTokens: 2_000_000_000, outputTokens: 7 * n },
      },
    });
    await a.execute(APPEND, { input: { threadId: source, items: [turn(1), turn(2), turn(3)] } });
    await a.execute(APPEND, {
      input: { threadId: source, items: [{ message: { role: 'user', content: 'no usage' } }] },
    });
    const fork = newId('usage-fork');
    await a.execute(FORK, { input: { threadId: source, atSeq: 1, id: fork } });
    const of = async (id: string) =>
      (await a.execute<{ thread: { usage: Record<string, number> } }>(USAGE, { id })).thread.usage;
    // 4e9 is past 2^31: SafeInt, not Int.
    expect(await of(fork)).toEqual({
      inputTokens: 4_000_000_000,
      outputTokens: 21,
      totalTokens: 4_000_000_021,
      messagesWithUsage: 2,
    });
    expect(await of(source)).toEqual({
      inputTokens: 6_000_000_000,
      outputTokens: 42,
      totalTokens: 6_000_000_042,
      messagesWithUsage: 3,
    });
    await a.execute(APPEND, { input: { threadId: fork, items: [turn(10)] } });
    expect((await of(fork)).messagesWithUsage).toBe(3);
    expect((await of(source)).messagesWithUsage).toBe(3);
  });

  it('an expired source cannot be forked (NOT_FOUND), before the expiry job has run', async () => {
    const source = newId('expiring');
    await a.execute(CREATE, {
      input: {
        id: source,
        agentId: 'agent-u',
        expiresAt: new Date(Date.now() + 800).toISOString(),
      },
    });
    await a.execute(APPEND, {
      input: { threadId: source, items: [{ message: { role: 'user', content: 'hi' } }] },
    });
    await sleep(900);
    const refused = await a.expectError(FORK, {
      input: { threadId: source, atSeq: 0, id: newId('late-fork') },
    });
    expect(refused.code).toBe('NOT_FOUND');
  });
});
