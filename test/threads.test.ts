/**
 * Threads through the GraphQL endpoint: create, update, delete, the thread list (filters,
 * order, keyset pages, Relay page info), node/nodes, statement counts and text round trips.
 * One app per run on a fresh database of the run's provider (SQLite file or PostgreSQL); list
 * tests scope themselves with a unique agentId. Direct SQL (RawDb) only checks what is stored
 * and bulk-loads rows with identical timestamps.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameSearchTuning } from '../src/threads/thread.store.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';

/** Direct access to the app's database, beside the API: to check rows and to bulk-load. */
interface RawDb {
  /** Rows of `table` whose `column` equals `value`; every row when column is null. */
  count(table: string, column: string | null, value?: string): Promise<number>;
  /** Inserts threads of tenant 'local' with the given times (ms since the epoch). */
  insertThreads(
    rows: { id: string; agentId: string; createdAt: number; updatedAt: number }[],
  ): Promise<void>;
  /** VACUUM: on SQLite it may renumber the implicit rowids of Thread. */
  vacuum(): Promise<void>;
  close(): Promise<void>;
}

function sqliteDb(url: string): RawDb {
  const db = new Database(url.replace(/^file:/, ''), { timeout: 10_000 });
  // Timestamps are stored as ISO text with an explicit offset, as Prisma writes them.
  const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
  return {
    async count(table, column, value) {
      const where = column === null ? '' : ` WHERE "${column}" = ?`;
      const row = db
        .prepare(`SELECT COUNT(*) AS n FROM "${table}"${where}`)
        .get(...(column === null ? [] : [value]));
      return (row as { n: number }).n;
    },
    async insertThreads(rows) {
      const insert =
        db.prepare(`INSERT INTO "Thread" ("tenantId", "id", "agentId", "archived", "metadataJson",
        "metadataCanonical", "createdAt", "updatedAt", "nextSeq", "itemCount")
        VALUES ('local', ?, ?, 0, '{}', '{}', ?, ?, 0, 0)`);
      db.transaction(() => {
        for (const r of rows) insert.run(r.id, r.agentId, iso(r.createdAt), iso(r.updatedAt));
      })();
    },
    async vacuum() {
      db.exec('VACUUM');
    },
    async close() {
      db.close();
    },
  };
}

async function postgresDb(url: string): Promise<RawDb> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async count(table, column, value) {
      const where = column === null ? '' : ` WHERE "${column}" = $1`;
      const result = await client.query(
        `SELECT COUNT(*)::int AS n FROM "${table}"${where}`,
        column === null ? [] : [value],
      );
      return (result.rows[0] as { n: number }).n;
    },
    async insertThreads(rows) {
      const iso = (ms: number) => new Date(ms).toISOString();
      await client.query(
        `INSERT INTO "Thread" ("tenantId", "id", "agentId", "archived", "metadataJson", "metadataCanonical",
           "createdAt", "updatedAt", "nextSeq", "itemCount")
         SELECT 'local', r.id, r.agent, false, '{}', '{}', r.c, r.u, 0, 0
         FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS r(id, agent, c, u)`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.agentId),
          rows.map((r) => iso(r.createdAt)),
          rows.map((r) => iso(r.updatedAt)),
        ],
      );
    },
    async vacuum() {
      await client.query('VACUUM "Thread"');
    },
    async close() {
      await client.end();
    },
  };
}

let t: TestApp;
let raw: RawDb;

beforeAll(async () => {
  t = await buildTestApp();
  raw = t.url.startsWith('file:') ? sqliteDb(t.url) : await postgresDb(t.url);
});

afterAll(async () => {
  await raw?.close();
  await t?.close();
});

const ISO_MS_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ORDERS = ['UPDATED_AT_DESC', 'UPDATED_AT_ASC', 'CREATED_AT_DESC', 'CREATED_AT_ASC'] as const;
type Order = (typeof ORDERS)[number];

const THREAD_FIELDS = `
  id agentId name archived metadata createdAt updatedAt nextSeq lastSeq itemCount
  lastItem { __typename }
  compactions { id }
`;

interface ThreadData {
  id: string;
  agentId: string;
  name: string | null;
  archived: boolean;
  metadata: unknown;
  createdAt: string;
  updatedAt: string;
  nextSeq: number;
  lastSeq: number | null;
  itemCount: number;
  lastItem: { __typename: string } | null;
  compactions: { id: string }[];
}

interface PageData {
  totalCount: number;
  edges: { cursor: string; node: { id: string } }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { ${THREAD_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateThreadInput!) { updateThread(input: $input) { thread { ${THREAD_FIELDS} } } }`;
const DELETE = `mutation($input: DeleteThreadInput!) {
  deleteThread(input: $input) { deletedThreadId itemsDeleted compactionsDeleted }
}`;
const GET = `query($id: ID!) { thread(id: $id) { ${THREAD_FIELDS} } }`;
const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $filter: ThreadFilter, $orderBy: ThreadOrderBy) {
  threads(first: $first, after: $after, last: $last, before: $before, filter: $filter, orderBy: $orderBy) {
    totalCount
    edges { cursor node { id } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;
const ADD_COMPACTION = `mutation($input: AddCompactionInput!) {
  addCompaction(input: $input) { compaction { id startSeq endSeq markerSeq } marker { id seq } }
}`;

let unique = 0;
/** A name unique in this file, for thread ids and agent ids. */
function fresh(prefix: string): string {
  unique += 1;
  return `${prefix}-${unique}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function create(input: Record<string, unknown>): Promise<ThreadData> {
  const data = await t.execute<{ createThread: { thread: ThreadData } }>(CREATE, { input });
  return data.createThread.thread;
}

async function update(input: Record<string, unknown>): Promise<ThreadData> {
  const data = await t.execute<{ updateThread: { thread: ThreadData } }>(UPDATE, { input });
  return data.updateThread.thread;
}

async function get(id: string): Promise<ThreadData | null> {
  const data = await t.execute<{ thread: ThreadData | null }>(GET, { id });
  return data.thread;
}

async function page(variables: Record<string, unknown>): Promise<PageData> {
  const data = await t.execute<{ threads: PageData }>(PAGE, variables);
  const p = data.threads;
  // startCursor/endCursor are the first and last edge cursors (null on an empty page).
  expect(p.pageInfo.startCursor).toBe(p.edges[0]?.cursor ?? null);
  expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
  return p;
}

async function ids(
  filter: Record<string, unknown>,
  orderBy: Order = 'CREATED_AT_ASC',
): Promise<string[]> {
  const p = await page({ first: 500, filter, orderBy });
  expect(p.totalCount).toBe(p.edges.length);
  return p.edges.map((e) => e.node.id);
}

function threadRows(): Promise<number> {
  return raw.count('Thread', null);
}

function cursorOf(payload: unknown): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/**
 * Runs a name search twice, through the trigram index alone (SQLite: no ordered scan first)
 * and as shipped (SQLite scans the first rows in list order first), and expects one answer.
 */
async function bothPaths<T>(search: () => Promise<T>): Promise<T> {
  const shipped = nameSearchTuning.nameScanWindow;
  nameSearchTuning.nameScanWindow = 0;
  let indexed: T;
  try {
    indexed = await search();
  } finally {
    nameSearchTuning.nameScanWindow = shipped;
  }
  expect(await search()).toEqual(indexed);
  return indexed;
}

/** Code-unit order, which is byte order for the ASCII of thread ids (SQLite BINARY). */
function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('createThread', () => {
  it('creates a thread with the given id and the documented defaults', async () => {
    const before = Date.now();
    const thread = await create({ id: 'Given_id.1-x', agentId: 'agent-create' });
    const after = Date.now();
    expect(thread).toEqual({
      id: 'Given_id.1-x',
      agentId: 'agent-create',
      name: null,
      archived: false,
      metadata: {},
      createdAt: expect.stringMatching(ISO_MS_UTC),
      updatedAt: thread.createdAt,
      nextSeq: 0,
      lastSeq: null,
      itemCount: 0,
      lastItem: null,
      compactions: [],
    });
    const createdAt = Date.parse(thread.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
    expect(await get('Given_id.1-x')).toEqual(thread);
  });

  it('generates a valid, distinct id when none is given', async () => {
    const a = await create({ agentId: 'agent-gen', name: 'generated' });
    const b = await create({ agentId: 'agent-gen', id: null });
    expect(a.id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(b.id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(a.id).not.toBe(b.id);
    expect((await get(a.id))?.name).toBe('generated');
    expect((await get(b.id))?.agentId).toBe('agent-gen');
  });

  it('accepts 1 and 128 character ids', async () => {
    const long = 'L'.repeat(128);
    expect((await create({ id: long, agentId: 'a' })).id).toBe(long);
    expect((await create({ id: 'q', agentId: 'a' })).id).toBe('q');
  });

  it('keeps the given metadata and defaults a missing or null one to {}', async () => {
    expect((await create({ agentId: 'a', metadata: { k: 'v', n: [1, 2] } })).metadata).toEqual({
      k: 'v',
      n: [1, 2],
    });
    expect((await create({ agentId: 'a', metadata: null })).metadata).toEqual({});
    expect((await create({ agentId: 'a', metadata: {} })).metadata).toEqual({});
  });

  it('requires agentId', async () => {
    const rows = await threadRows();
    const missing = await t.expectError(CREATE, { input: { id: 'no-agent' } });
    expect(missing.code).toBe('BAD_USER_INPUT');
    expect(missing.message).toContain('agentId');
    const inline = await t.expectError(
      'mutation { createThread(input: { id: "no-agent" }) { thread { id } } }',
    );
    expect(inline.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await t.expectError(CREATE, { input: { id: 'no-agent', agentId: null } })).code).toBe(
      'BAD_USER_INPUT',
    );
    expect((await t.expectError(CREATE, { input: { id: 'no-agent', agentId: '' } })).code).toBe(
      'BAD_USER_INPUT',
    );
    expect(await get('no-agent')).toBeNull();
    expect(await threadRows()).toBe(rows);
  });

  it('rejects metadata that is not an object and writes nothing', async () => {
    const rows = await threadRows();
    for (const metadata of [[], [1, { a: 2 }], 'text', '{"a":1}', 42, true]) {
      const error = await t.expectError(CREATE, {
        input: { id: 'bad-meta', agentId: 'a', metadata },
      });
      expect(error.code, JSON.stringify(metadata)).toBe('BAD_USER_INPUT');
      expect(error.message).toContain('metadata');
    }
    expect(await get('bad-meta')).toBeNull();
    expect(await threadRows()).toBe(rows);
  });

  it('rejects invalid ids with BAD_USER_INPUT and writes nothing', async () => {
    const rows = await threadRows();
    for (const id of [
      '',
      'a b',
      'a/b',
      'a:b',
      'été',
      'tab\t',
      'x'.repeat(129),
      'semi;colon',
      'a\u0000b',
    ]) {
      const error = await t.expectError(CREATE, { input: { id, agentId: 'a' } });
      expect(error.code, JSON.stringify(id)).toBe('BAD_USER_INPUT');
    }
    expect(await threadRows()).toBe(rows);
  });

  it('answers CONFLICT for a taken id and leaves the existing thread alone', async () => {
    const original = await create({
      id: 'dup-1',
      agentId: 'first',
      name: 'original',
      metadata: { v: 1 },
    });
    const rows = await threadRows();
    const error = await t.expectError(CREATE, {
      input: { id: 'dup-1', agentId: 'second', name: 'copy', metadata: { v: 2 } },
    });
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain('dup-1');
    expect(await threadRows()).toBe(rows);
    expect(await get('dup-1')).toEqual(original);
  });
});

describe('thread fields', () => {
  it('tracks nextSeq, lastSeq, itemCount and lastItem, and bumps updatedAt on every write', async () => {
    const id = fresh('counters');
    const created = await create({ id, agentId: 'counter' });
    await sleep(3);
    await append(t, id, [
      message('one'),
      { reasoning: { text: 'hmm' } },
      message('three', 'assistant'),
    ]);
    const appended = (await get(id)) as ThreadData;
    expect(appended).toMatchObject({
      nextSeq: 3,
      lastSeq: 2,
      itemCount: 3,
      lastItem: { __typename: 'MessageItem' },
    });
    expect(Date.parse(appended.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    await sleep(3);

    await t.execute(ADD_COMPACTION, {
      input: { threadId: id, startSeq: 0, endSeq: 1, summary: 'one, hmm' },
    });
    const compacted = (await get(id)) as ThreadData;
    expect(compacted).toMatchObject({
      nextSeq: 4,
      lastSeq: 3,
      itemCount: 4,
      lastItem: { __typename: 'CompactionItem' },
    });
    expect(compacted.compactions).toEqual([{ id: `${id}:compaction:3` }]);
    expect(Date.parse(compacted.updatedAt)).toBeGreaterThan(Date.parse(appended.updatedAt));
    await sleep(3);

    const purged = await t.execute<{ purgeItems: { itemsDeleted: number } }>(
      'mutation($input: PurgeItemsInput!) { purgeItems(input: $input) { itemsDeleted } }',
      { input: { threadId: id, before: new Date(Date.now() + 60_000).toISOString() } },
    );
    expect(purged.purgeItems.itemsDeleted).toBe(4);
    const empty = (await get(id)) as ThreadData;
    // Seqs are not reused: nextSeq and lastSeq stay; nothing is stored any more.
    expect(empty).toMatchObject({ nextSeq: 4, lastSeq: 3, itemCount: 0, lastItem: null });
    expect(empty.compactions).toHaveLength(1);
    expect(Date.parse(empty.updatedAt)).toBeGreaterThan(Date.parse(compacted.updatedAt));
    expect(empty.createdAt).toBe(created.createdAt);
  });

  it('answers thread(id) with null for unknown and malformed ids', async () => {
    for (const id of ['no-such', '', 'a b', 'x'.repeat(129), 't:0']) {
      const response = await t.request<{ thread: unknown }>(GET, { id });
      expect(response.errors, id).toBeUndefined();
      expect(response.data?.thread, id).toBeNull();
    }
  });

  it('enforces the agentId, name and metadata size limits', async () => {
    const rows = await threadRows();
    expect((await t.expectError(CREATE, { input: { agentId: 'a'.repeat(257) } })).code).toBe(
      'BAD_USER_INPUT',
    );
    expect(
      (await t.expectError(CREATE, { input: { agentId: 'a', name: 'n'.repeat(1025) } })).code,
    ).toBe('BAD_USER_INPUT');
    const big = { blob: 'x'.repeat(1024 * 1024) };
    expect((await t.expectError(CREATE, { input: { agentId: 'a', metadata: big } })).code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    expect(await threadRows()).toBe(rows);
    const ok = await create({ agentId: 'a'.repeat(256), name: 'n'.repeat(1024) });
    expect(ok.name).toHaveLength(1024);
    expect((await t.expectError(UPDATE, { input: { id: ok.id, metadata: big } })).code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
    expect(
      (await t.expectError(UPDATE, { input: { id: ok.id, name: 'n'.repeat(1025) } })).code,
    ).toBe('BAD_USER_INPUT');
    expect(await get(ok.id)).toEqual(ok);
  });
});

describe('updateThread', () => {
  it('changes only the given keys, never agentId, and bumps updatedAt', async () => {
    const id = fresh('upd');
    const created = await create({ id, agentId: 'owner', name: 'start', metadata: { a: 1 } });
    await sleep(5);

    const renamed = await update({ id, name: 'renamed' });
    expect(renamed).toEqual({ ...created, name: 'renamed', updatedAt: renamed.updatedAt });
    expect(renamed.updatedAt).toMatch(ISO_MS_UTC);
    expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    await sleep(5);

    const archived = await update({ id, archived: true });
    expect(archived).toEqual({ ...renamed, archived: true, updatedAt: archived.updatedAt });
    expect(Date.parse(archived.updatedAt)).toBeGreaterThan(Date.parse(renamed.updatedAt));

    const unarchived = await update({ id, archived: false });
    expect(unarchived.archived).toBe(false);
    expect(unarchived.name).toBe('renamed');
    expect(Date.parse(unarchived.updatedAt)).toBeGreaterThanOrEqual(Date.parse(archived.updatedAt));

    const remeta = await update({ id, metadata: { b: { c: [1, 2] } } });
    expect(remeta).toEqual({
      ...unarchived,
      metadata: { b: { c: [1, 2] } },
      updatedAt: remeta.updatedAt,
    });

    const cleared = await update({ id, name: null });
    expect(cleared.name).toBeNull();
    expect(cleared.metadata).toEqual({ b: { c: [1, 2] } });

    const touched = await update({ id });
    expect(touched).toEqual({ ...cleared, updatedAt: touched.updatedAt });
    expect(Date.parse(touched.updatedAt)).toBeGreaterThanOrEqual(Date.parse(cleared.updatedAt));

    expect(touched.createdAt).toBe(created.createdAt);
    expect(touched.agentId).toBe('owner');
    expect(await get(id)).toEqual(touched);
  });

  it('replaces metadata whole; {} empties it', async () => {
    const id = fresh('meta');
    await create({ id, agentId: 'a', metadata: { keep: 1, nested: { x: 1, y: 2 } } });
    expect((await update({ id, metadata: { nested: { y: 3 } } })).metadata).toEqual({
      nested: { y: 3 },
    });
    expect((await update({ id, metadata: {} })).metadata).toEqual({});
    expect((await get(id))?.metadata).toEqual({});
  });

  it('has no agentId input field, so agentId cannot change', async () => {
    const id = fresh('agent-fixed');
    await create({ id, agentId: 'owner' });
    const fields = await t.execute<{ __type: { inputFields: { name: string }[] } }>(
      '{ __type(name: "UpdateThreadInput") { inputFields { name } } }',
    );
    expect(fields.__type.inputFields.map((f) => f.name).sort()).toEqual([
      'archived',
      'expiresAt',
      'id',
      'metadata',
      'name',
    ]);
    expect((await t.expectError(UPDATE, { input: { id, agentId: 'thief' } })).code).toBe(
      'BAD_USER_INPUT',
    );
    const inline = await t.expectError(
      `mutation { updateThread(input: { id: "${id}", agentId: "thief" }) { thread { id } } }`,
    );
    expect(inline.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await get(id))?.agentId).toBe('owner');
  });

  it('rejects metadata that is not an object and null flags, changing nothing', async () => {
    const id = fresh('upd-bad');
    const created = await create({ id, agentId: 'a', name: 'n', metadata: { a: 1 } });
    for (const metadata of [[], 'x', 3, false, null]) {
      const error = await t.expectError(UPDATE, { input: { id, name: 'changed', metadata } });
      expect(error.code, JSON.stringify(metadata)).toBe('BAD_USER_INPUT');
    }
    expect(
      (await t.expectError(UPDATE, { input: { id, name: 'changed', archived: null } })).code,
    ).toBe('BAD_USER_INPUT');
    expect(await get(id)).toEqual(created);
  });

  it('answers NOT_FOUND for an unknown thread and creates nothing', async () => {
    const rows = await threadRows();
    const error = await t.expectError(UPDATE, { input: { id: 'no-such-thread', name: 'x' } });
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('no-such-thread');
    expect(await threadRows()).toBe(rows);
    expect((await t.expectError(UPDATE, { input: { id: 'bad id', name: 'x' } })).code).toBe(
      'BAD_USER_INPUT',
    );
  });
});

describe('deleteThread', () => {
  async function rowsOf(threadId: string): Promise<Record<string, number>> {
    return {
      Thread: await raw.count('Thread', 'id', threadId),
      Item: await raw.count('Item', 'threadId', threadId),
      Compaction: await raw.count('Compaction', 'threadId', threadId),
      IdempotencyKey: await raw.count('IdempotencyKey', 'threadId', threadId),
    };
  }

  it('deletes the thread with every item, compaction record and idempotency key', async () => {
    const id = fresh('del');
    const other = fresh('del-other');
    await createThread(t, { id, agentId: 'deleter' });
    await createThread(t, { id: other, agentId: 'deleter' });
    expect(await append(t, id, [message('a'), message('b')], { idempotencyKey: 'key-1' })).toEqual([
      0, 1,
    ]);
    expect(await append(t, id, [message('c')])).toEqual([2]);
    await append(t, other, [message('other')], { idempotencyKey: 'key-1' });
    const added = await t.execute<{ addCompaction: { compaction: { markerSeq: number } } }>(
      ADD_COMPACTION,
      {
        input: { threadId: id, startSeq: 0, endSeq: 1, summary: 'a and b' },
      },
    );
    expect(added.addCompaction.compaction.markerSeq).toBe(3);
    expect(await rowsOf(id)).toEqual({ Thread: 1, Item: 4, Compaction: 1, IdempotencyKey: 1 });

    const result = await t.execute<{ deleteThread: Record<string, unknown> }>(DELETE, {
      input: { id },
    });
    expect(result.deleteThread).toEqual({
      deletedThreadId: id,
      itemsDeleted: 4,
      compactionsDeleted: 1,
    });
    expect(await rowsOf(id)).toEqual({ Thread: 0, Item: 0, Compaction: 0, IdempotencyKey: 0 });
    expect(await rowsOf(other)).toEqual({ Thread: 1, Item: 1, Compaction: 0, IdempotencyKey: 1 });
    expect(await get(id)).toBeNull();

    const again = await t.expectError(DELETE, { input: { id } });
    expect(again.code).toBe('NOT_FOUND');
    // The id is never used again (test/tombstones.test.ts has the rest).
    const reborn = await t.expectError(CREATE, { input: { id, agentId: 'deleter' } });
    expect(reborn.code).toBe('CONFLICT');
  });

  it('deletes an empty thread and answers NOT_FOUND for an unknown one', async () => {
    const id = fresh('del-empty');
    await createThread(t, { id });
    const result = await t.execute<{ deleteThread: Record<string, unknown> }>(DELETE, {
      input: { id },
    });
    expect(result.deleteThread).toEqual({
      deletedThreadId: id,
      itemsDeleted: 0,
      compactionsDeleted: 0,
    });
    const rows = await threadRows();
    const error = await t.expectError(DELETE, { input: { id: 'never-existed' } });
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('never-existed');
    expect(await threadRows()).toBe(rows);
  });
});

describe('threads filters', () => {
  it('leaves archived threads out unless includeArchived is true', async () => {
    const agentId = fresh('arch');
    const live = await createThread(t, { agentId, id: fresh('live') });
    const gone = await createThread(t, { agentId, id: fresh('gone') });
    await update({ id: gone, archived: true });
    expect(await ids({ agentId })).toEqual([live]);
    expect(await ids({ agentId, includeArchived: false })).toEqual([live]);
    expect(await ids({ agentId, includeArchived: true })).toEqual([live, gone]);
    await update({ id: gone, archived: false });
    expect(await ids({ agentId })).toEqual([live, gone]);
  });

  it('filters by agentId', async () => {
    const a = fresh('agent-a');
    const b = fresh('agent-b');
    const a1 = await createThread(t, { agentId: a });
    const b1 = await createThread(t, { agentId: b });
    const a2 = await createThread(t, { agentId: a });
    expect(await ids({ agentId: a })).toEqual([a1, a2]);
    expect(await ids({ agentId: b })).toEqual([b1]);
    expect(await ids({ agentId: `${a}x` })).toEqual([]);
  });

  it('matches nameContains case-insensitively across Unicode, literally', async () => {
    const agentId = fresh('names');
    const names: Record<string, string> = {};
    for (const name of [
      'été en France',
      'ÉTÉ 2026',
      'e\u0301te\u0301 decomposed',
      'Straße',
      'ΟΔΟΣ ΣΟΦΙΑΣ',
      'ΦΙΛΟΣΟΦΙΑ',
      '50% off',
      '500 items',
      'snake_case',
      'snakeXcase',
      'Istanbul',
      'Ünïcödé',
    ]) {
      names[name] = await createThread(t, { agentId, name });
    }
    await createThread(t, { agentId, name: null });
    const match = async (needle: string) =>
      (await bothPaths(() => ids({ agentId, nameContains: needle }))).map((id) =>
        Object.keys(names).find((n) => names[n] === id),
      );
    const summer = ['été en France', 'ÉTÉ 2026', 'e\u0301te\u0301 decomposed'];
    expect(await match('ÉTÉ')).toEqual(summer);
    expect(await match('été')).toEqual(summer);
    expect(await match('e\u0301te\u0301')).toEqual(summer);
    expect(await match('Été')).toEqual(summer);
    expect(await match('en fr')).toEqual(['été en France']);
    expect(await match('STRASSE')).toEqual(['Straße']);
    expect(await match('straße')).toEqual(['Straße']);
    expect(await match('οδος σοφιας')).toEqual(['ΟΔΟΣ ΣΟΦΙΑΣ']);
    expect(await match('σοφ')).toEqual(['ΟΔΟΣ ΣΟΦΙΑΣ', 'ΦΙΛΟΣΟΦΙΑ']);
    expect(await match('οδοσ')).toEqual(['ΟΔΟΣ ΣΟΦΙΑΣ']);
    // Σ lower-cases to ς at the end of a word and to σ inside one: both must match.
    expect(await match('ΦΙΛΟΣ')).toEqual(['ΦΙΛΟΣΟΦΙΑ']);
    expect(await match('φιλος')).toEqual(['ΦΙΛΟΣΟΦΙΑ']);
    expect(await match('ΟΣ')).toEqual(['ΟΔΟΣ ΣΟΦΙΑΣ', 'ΦΙΛΟΣΟΦΙΑ']);
    expect(await match('ÜNÏCÖDÉ')).toEqual(['Ünïcödé']);
    expect(await match('50%')).toEqual(['50% off']);
    expect(await match('%')).toEqual(['50% off']);
    expect(await match('0 ')).toEqual(['500 items']);
    expect(await match('snake_')).toEqual(['snake_case']);
    expect(await match('_')).toEqual(['snake_case']);
    expect(await match('istan')).toEqual(['Istanbul']);
    expect(await match('no such name')).toEqual([]);
  });

  it('matches needles of 3+ characters through the trigram index exactly as the scan', async () => {
    // Needles of 3 or more characters use the name index (pg_trgm LIKE, SQLite FTS5 trigram),
    // shorter ones a scan: both must give the same literal, case-folded substring matches.
    const agentId = fresh('trgm');
    const names: Record<string, string> = {};
    for (const name of [
      '100% pure',
      '100 percent',
      'a_b_c',
      'aXbXc',
      'back\\slash',
      'backslash',
      "it's o'clock",
      'its oclock',
      'say "hi" twice',
      'ΣΊΣΥΦΟΣ myth',
      'naïve café',
      'Ünïcödé',
      '日本語のスレッド',
    ]) {
      names[name] = await createThread(t, { agentId, name });
    }
    await createThread(t, { agentId, name: null });
    const match = async (needle: string) =>
      (await bothPaths(() => ids({ agentId, nameContains: needle }))).map((id) =>
        Object.keys(names).find((n) => names[n] === id),
      );
    expect(await match('0% p')).toEqual(['100% pure']);
    expect(await match('100')).toEqual(['100% pure', '100 percent']);
    expect(await match('%%%')).toEqual([]);
    expect(await match('% p')).toEqual(['100% pure']);
    expect(await match('a_b')).toEqual(['a_b_c']);
    expect(await match('_b_')).toEqual(['a_b_c']);
    expect(await match('___')).toEqual([]);
    expect(await match('k\\s')).toEqual(['back\\slash']);
    expect(await match('\\sl')).toEqual(['back\\slash']);
    expect(await match('ksl')).toEqual(['backslash']);
    expect(await match("T'S")).toEqual(["it's o'clock"]);
    expect(await match("'s o'")).toEqual(["it's o'clock"]);
    expect(await match('"hi"')).toEqual(['say "hi" twice']);
    expect(await match('"h')).toEqual(['say "hi" twice']);
    expect(await match('"""')).toEqual([]);
    expect(await match('σίσυφος')).toEqual(['ΣΊΣΥΦΟΣ myth']);
    expect(await match('ΥΦΟΣ M')).toEqual(['ΣΊΣΥΦΟΣ myth']);
    expect(await match('CAFÉ')).toEqual(['naïve café']);
    expect(await match('ïve')).toEqual(['naïve café']);
    expect(await match('ÏCÖ')).toEqual(['Ünïcödé']);
    expect(await match('本語の')).toEqual(['日本語のスレッド']);
    expect(await match('スレ')).toEqual(['日本語のスレッド']);
    expect(await match('c AND d')).toEqual([]);
    expect(await match('NEAR(a b)')).toEqual([]);
    // Short needles (no trigram): the scan.
    expect(await match('%')).toEqual(['100% pure']);
    expect(await match('_')).toEqual(['a_b_c']);
    expect(await match('\\')).toEqual(['back\\slash']);
    expect(await match("'")).toEqual(["it's o'clock"]);
    expect(await match('"')).toEqual(['say "hi" twice']);
    expect(await match('é')).toEqual(['naïve café', 'Ünïcödé']);
    expect(await match('Σ ')).toEqual(['ΣΊΣΥΦΟΣ myth']);
  });

  it('forgets renamed and deleted threads in name search, also after VACUUM', async () => {
    const agentId = fresh('trgm-life');
    const found = (needle: string) => bothPaths(() => ids({ agentId, nameContains: needle }));
    const a = await createThread(t, { agentId, name: 'Alpha Quartz' });
    const b = await createThread(t, { agentId, name: 'alpha quartz two' });
    const c = await createThread(t, { agentId });
    expect(await found('quartz')).toEqual([a, b]);
    await update({ id: a, name: 'Beta Onyx' });
    expect(await found('quartz')).toEqual([b]);
    expect(await found('onyx')).toEqual([a]);
    await update({ id: a, name: null });
    expect(await found('onyx')).toEqual([]);
    await update({ id: c, name: 'gamma quartz' });
    expect(await found('quartz')).toEqual([b, c]);
    // An update that leaves the name as it was keeps it findable.
    await update({ id: c, archived: false, name: 'gamma quartz' });
    expect(await found('quartz')).toEqual([b, c]);
    await t.execute(DELETE, { input: { id: b } });
    expect(await found('quartz')).toEqual([c]);

    // Rows deleted before a VACUUM let SQLite renumber what follows them.
    const doomed: string[] = [];
    for (let i = 0; i < 20; i++)
      doomed.push(await createThread(t, { agentId, name: `doomed ${i}` }));
    const d = await createThread(t, { agentId, name: 'delta quartz' });
    for (const id of doomed) await t.execute(DELETE, { input: { id } });
    await raw.vacuum();
    expect(await found('quartz')).toEqual([c, d]);
    expect(await found('doomed')).toEqual([]);
    await update({ id: d, name: 'delta opal' });
    expect(await found('quartz')).toEqual([c]);
    expect(await found('opal')).toEqual([d]);
    await t.execute(DELETE, { input: { id: c } });
    expect(await found('quartz')).toEqual([]);
    const e = await createThread(t, { agentId, name: 'epsilon quartz' });
    expect(await found('quartz')).toEqual([e]);
  });

  it('pages a name search by cursor in every order, matching the unfiltered list', async () => {
    const agentId = fresh('trgm-page');
    const wanted: string[] = [];
    for (let i = 0; i < 9; i++) {
      if (i % 3 !== 1) await createThread(t, { agentId, name: `noise ${i}` });
      wanted.push(await createThread(t, { agentId, name: `Page Needle ${i}` }));
    }
    for (const orderBy of ORDERS) {
      const all = (await ids({ agentId }, orderBy)).filter((id) => wanted.includes(id));
      for (const needle of ['needle', 'NE']) {
        const filter = { agentId, nameContains: needle };
        const seen = await bothPaths(async () => {
          const got: string[] = [];
          let after: string | null = null;
          for (;;) {
            const p = await page({ first: 2, after, filter, orderBy });
            expect(p.totalCount).toBe(9);
            got.push(...p.edges.map((edge) => edge.node.id));
            if (!p.pageInfo.hasNextPage) break;
            after = p.pageInfo.endCursor;
          }
          return got;
        });
        expect(seen, `${orderBy} ${needle}`).toEqual(all);
        const last = await bothPaths(() => page({ last: 4, filter, orderBy }));
        expect(last.edges.map((edge) => edge.node.id)).toEqual(all.slice(-4));
        expect(last.pageInfo.hasPreviousPage).toBe(true);
      }
    }
  });

  it('matches metadata: every key equal, nested values whole, null vs missing', async () => {
    const agentId = fresh('metaf');
    const m1 = await createThread(t, {
      agentId,
      metadata: {
        env: 'prod',
        n: 1,
        on: true,
        cfg: { a: 1, b: { c: [1, 2] } },
        tags: ['x', 'y'],
        gone: null,
      },
    });
    const m2 = await createThread(t, {
      agentId,
      metadata: { env: 'prod', n: 2, on: false, cfg: { a: 1 }, tags: ['y', 'x'] },
    });
    const m3 = await createThread(t, {
      agentId,
      metadata: {
        env: 'dev',
        n: 1.5,
        big: 9007199254740991,
        neg: -42,
        tiny: 1e-7,
        empty: '',
        nul: 'a\u0000b',
      },
    });
    const m4 = await createThread(t, {
      agentId,
      metadata: { env: 'prod', n: '1', on: 'true', gone: 'null' },
    });
    const m5 = await createThread(t, { agentId });
    const q = (metadata: unknown) => ids({ agentId, metadata });

    expect(await q({})).toEqual([m1, m2, m3, m4, m5]);
    expect(await q({ env: 'prod' })).toEqual([m1, m2, m4]);
    expect(await q({ env: 'prod', n: 1 })).toEqual([m1]);
    expect(await q({ n: 1 })).toEqual([m1]);
    expect(await q({ n: '1' })).toEqual([m4]);
    expect(await q({ n: 1.5 })).toEqual([m3]);
    expect(await q({ on: true })).toEqual([m1]);
    expect(await q({ on: false })).toEqual([m2]);
    expect(await q({ on: 'true' })).toEqual([m4]);
    expect(await q({ gone: null })).toEqual([m1]);
    expect(await q({ gone: 'null' })).toEqual([m4]);
    expect(await q({ cfg: { b: { c: [1, 2] }, a: 1 } })).toEqual([m1]);
    expect(await q({ cfg: { a: 1 } })).toEqual([m2]);
    expect(await q({ cfg: { b: { c: [2, 1] }, a: 1 } })).toEqual([]);
    expect(await q({ tags: ['x', 'y'] })).toEqual([m1]);
    expect(await q({ tags: ['y', 'x'] })).toEqual([m2]);
    expect(await q({ big: 9007199254740991 })).toEqual([m3]);
    expect(await q({ big: 9007199254740990 })).toEqual([]);
    expect(await q({ neg: -42 })).toEqual([m3]);
    expect(await q({ tiny: 1e-7 })).toEqual([m3]);
    expect(await q({ empty: '' })).toEqual([m3]);
    expect(await q({ nul: 'a\u0000b' })).toEqual([m3]);
    expect(await q({ nul: 'a' })).toEqual([]);
    expect(await q({ env: 'prod', missing: 1 })).toEqual([]);
    expect(await q({ env: 'dev', n: 1 })).toEqual([]);
    expect(await q(null)).toEqual([m1, m2, m3, m4, m5]);

    for (const metadata of [[], ['env'], 'prod', 1, true]) {
      const error = await t.expectError(PAGE, { filter: { agentId, metadata } });
      expect(error.code, JSON.stringify(metadata)).toBe('BAD_USER_INPUT');
      expect(error.message).toContain('metadata');
    }
  });

  it('combines filters; totalCount honours the filter and ignores cursors', async () => {
    const agentId = fresh('count');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await createThread(t, { agentId, name: i % 2 ? 'odd one' : 'even one', metadata: { i } }),
      );
    }
    await update({ id: made[4], archived: true });
    const filter = { agentId, nameContains: 'EVEN' };
    const first = await page({ first: 1, filter, orderBy: 'CREATED_AT_ASC' });
    expect(first.totalCount).toBe(2);
    expect(first.edges.map((e) => e.node.id)).toEqual([made[0]]);
    const second = await page({
      first: 1,
      after: first.pageInfo.endCursor,
      filter,
      orderBy: 'CREATED_AT_ASC',
    });
    expect(second.totalCount).toBe(2);
    expect(second.edges.map((e) => e.node.id)).toEqual([made[2]]);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const back = await page({
      last: 1,
      before: second.pageInfo.startCursor,
      filter,
      orderBy: 'CREATED_AT_ASC',
    });
    expect(back.totalCount).toBe(2);
    expect(
      (await page({ first: 0, filter: { ...filter, includeArchived: true } })).totalCount,
    ).toBe(3);
    expect((await page({ first: 0, filter: { agentId, metadata: { i: 3 } } })).totalCount).toBe(1);
    expect((await page({ first: 0, filter: { agentId, metadata: { i: 4 } } })).totalCount).toBe(0);
  });
});

describe('threads order', () => {
  it('orders threads with distinct times by the chosen column', async () => {
    const agentId = fresh('order');
    const a = await createThread(t, { agentId, id: fresh('z-a') });
    await sleep(3);
    const b = await createThread(t, { agentId, id: fresh('y-b') });
    await sleep(3);
    const c = await createThread(t, { agentId, id: fresh('x-c') });
    await sleep(3);
    await update({ id: a, name: 'touched' });
    await sleep(3);
    await append(t, b, [message('bump')]);
    const order = async (orderBy: Order) =>
      (await page({ filter: { agentId }, orderBy })).edges.map((e) => e.node.id);
    expect(await order('CREATED_AT_ASC')).toEqual([a, b, c]);
    expect(await order('CREATED_AT_DESC')).toEqual([c, b, a]);
    expect(await order('UPDATED_AT_ASC')).toEqual([c, a, b]);
    expect(await order('UPDATED_AT_DESC')).toEqual([b, a, c]);
    // UPDATED_AT_DESC is the default.
    expect((await page({ filter: { agentId } })).edges.map((e) => e.node.id)).toEqual([b, a, c]);
  });
});

describe('keyset pagination over 1,000 threads with one timestamp', () => {
  const agentId = 'bulk-agent';
  const T = Date.parse('2026-01-02T03:04:05.678Z');
  let tied: string[] = [];
  let expected: Record<Order, string[]>;

  beforeAll(async () => {
    // Pseudo-random ids over the whole id alphabet, so byte order ('-' < '.' < digits <
    // upper case < '_' < lower case) matters; inserted in random order.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-';
    let seed = 12345;
    const rand = (n: number) => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    const set = new Set<string>();
    for (let guard = 0; set.size < 1000 && guard < 100_000; guard++) {
      let id = 'B';
      for (let i = rand(8) + 1; i > 0; i--) id += alphabet[rand(alphabet.length)];
      set.add(id);
    }
    tied = [...set];
    expect(tied).toHaveLength(1000);
    await raw.insertThreads([
      ...tied.map((id) => ({ id, agentId, createdAt: T, updatedAt: T })),
      // Two more outside the tie, created and updated in opposite order.
      { id: 'zz-early-created', agentId, createdAt: T - 1, updatedAt: T + 1 },
      { id: 'AA-late-created', agentId, createdAt: T + 1, updatedAt: T - 1 },
    ]);
    const sorted = [...tied].sort(byId);
    expected = {
      CREATED_AT_ASC: ['zz-early-created', ...sorted, 'AA-late-created'],
      CREATED_AT_DESC: ['AA-late-created', ...sorted, 'zz-early-created'],
      UPDATED_AT_ASC: ['AA-late-created', ...sorted, 'zz-early-created'],
      UPDATED_AT_DESC: ['zz-early-created', ...sorted, 'AA-late-created'],
    };
  });

  it.each(ORDERS)(
    'pages forward with first: 100 in %s, every thread once, ties by id',
    async (orderBy) => {
      const seen: string[] = [];
      let after: string | null = null;
      for (let n = 0; ; n++) {
        const p: PageData = await page({ first: 100, after, filter: { agentId }, orderBy });
        expect(p.totalCount).toBe(1002);
        expect(p.pageInfo.hasPreviousPage).toBe(n > 0);
        seen.push(...p.edges.map((e) => e.node.id));
        if (!p.pageInfo.hasNextPage) break;
        expect(p.edges).toHaveLength(100);
        after = p.pageInfo.endCursor;
        expect(n).toBeLessThan(11);
      }
      expect(seen).toEqual(expected[orderBy]);
    },
  );

  it.each(ORDERS)(
    'pages backward with last: 100 in %s, every thread once, ties by id',
    async (orderBy) => {
      const pages: string[][] = [];
      let before: string | null = null;
      for (let n = 0; ; n++) {
        const p: PageData = await page({ last: 100, before, filter: { agentId }, orderBy });
        expect(p.pageInfo.hasNextPage).toBe(n > 0);
        pages.unshift(p.edges.map((e) => e.node.id));
        if (!p.pageInfo.hasPreviousPage) break;
        expect(p.edges).toHaveLength(100);
        before = p.pageInfo.startCursor;
        expect(n).toBeLessThan(11);
      }
      expect(pages.flat()).toEqual(expected[orderBy]);
    },
  );

  it('uses a default page size of 50 and allows 500', async () => {
    const p = await page({ filter: { agentId }, orderBy: 'CREATED_AT_ASC' });
    expect(p.edges.map((e) => e.node.id)).toEqual(expected.CREATED_AT_ASC.slice(0, 50));
    expect(p.pageInfo.hasNextPage).toBe(true);
    const big = await page({ first: 500, filter: { agentId }, orderBy: 'CREATED_AT_ASC' });
    expect(big.edges.map((e) => e.node.id)).toEqual(expected.CREATED_AT_ASC.slice(0, 500));
    const lastBig = await page({ last: 500, filter: { agentId }, orderBy: 'CREATED_AT_ASC' });
    expect(lastBig.edges.map((e) => e.node.id)).toEqual(expected.CREATED_AT_ASC.slice(-500));
  });

  it('pages between two cursors inside the tie', async () => {
    const all = await page({ first: 500, filter: { agentId }, orderBy: 'UPDATED_AT_DESC' });
    const after = all.edges[100]?.cursor;
    const before = all.edges[110]?.cursor;
    const between = await page({
      first: 100,
      after,
      before,
      filter: { agentId },
      orderBy: 'UPDATED_AT_DESC',
    });
    expect(between.edges.map((e) => e.node.id)).toEqual(expected.UPDATED_AT_DESC.slice(101, 110));
    const lastBetween = await page({
      last: 3,
      after,
      before,
      filter: { agentId },
      orderBy: 'UPDATED_AT_DESC',
    });
    expect(lastBetween.edges.map((e) => e.node.id)).toEqual(
      expected.UPDATED_AT_DESC.slice(107, 110),
    );
  });
});

describe('threads page info', () => {
  const agentId = 'relay-agent';
  let all: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) {
      all.push(await createThread(t, { agentId, id: `relay-${i}` }));
      await sleep(2);
    }
    all = all.reverse(); // UPDATED_AT_DESC, the default order
  });

  const filter = { agentId };
  const idsOf = (p: PageData) => p.edges.map((e) => e.node.id);

  it('pages forward with first/after', async () => {
    const p1 = await page({ first: 2, filter });
    expect(idsOf(p1)).toEqual(all.slice(0, 2));
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = await page({ first: 2, after: p1.pageInfo.endCursor, filter });
    expect(idsOf(p2)).toEqual(all.slice(2, 4));
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await page({ first: 2, after: p2.pageInfo.endCursor, filter });
    expect(idsOf(p3)).toEqual(all.slice(4));
    expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const exact = await page({ first: 5, filter });
    expect(idsOf(exact)).toEqual(all);
    expect(exact.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    // Each edge cursor continues right after its edge.
    const mid = await page({ first: 1, after: exact.edges[2]?.cursor, filter });
    expect(idsOf(mid)).toEqual([all[3]]);
  });

  it('pages backward with last/before', async () => {
    const p1 = await page({ last: 2, filter });
    expect(idsOf(p1)).toEqual(all.slice(3));
    expect(p1.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const p2 = await page({ last: 2, before: p1.pageInfo.startCursor, filter });
    expect(idsOf(p2)).toEqual(all.slice(1, 3));
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const p3 = await page({ last: 2, before: p2.pageInfo.startCursor, filter });
    expect(idsOf(p3)).toEqual(all.slice(0, 1));
    expect(p3.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const exact = await page({ last: 5, filter });
    expect(idsOf(exact)).toEqual(all);
    expect(exact.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const more = await page({ last: 50, filter });
    expect(idsOf(more)).toEqual(all);
    expect(more.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('gives empty pages null cursors', async () => {
    const none = await page({ first: 10, filter: { agentId: 'nobody-here' } });
    expect(none).toEqual({
      totalCount: 0,
      edges: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
    const lastNone = await page({ last: 10, filter: { agentId: 'nobody-here' } });
    expect(lastNone.pageInfo).toEqual(none.pageInfo);

    const full = await page({ first: 5, filter });
    const pastEnd = await page({ first: 2, after: full.pageInfo.endCursor, filter });
    expect(pastEnd.edges).toEqual([]);
    expect(pastEnd.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: null,
      endCursor: null,
    });
    const beforeStart = await page({ last: 2, before: full.pageInfo.startCursor, filter });
    expect(beforeStart.edges).toEqual([]);
    expect(beforeStart.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
  });

  it('answers first: 0 and last: 0 with no edges and the right flags', async () => {
    const zero = await page({ first: 0, filter });
    expect(zero.totalCount).toBe(5);
    expect(zero.edges).toEqual([]);
    expect(zero.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });
    const lastZero = await page({ last: 0, filter });
    expect(lastZero.edges).toEqual([]);
    expect(lastZero.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: null,
      endCursor: null,
    });
    const emptyZero = await page({ first: 0, filter: { agentId: 'nobody-here' } });
    expect(emptyZero.pageInfo.hasNextPage).toBe(false);
  });

  it('rejects bad page sizes with BAD_USER_INPUT', async () => {
    for (const args of [
      { first: 501 },
      { last: 501 },
      { first: -1 },
      { last: -1 },
      { first: 1, last: 1 },
      { first: 0, last: 0 },
    ]) {
      const error = await t.expectError(PAGE, { ...args, filter });
      expect(error.code, JSON.stringify(args)).toBe('BAD_USER_INPUT');
    }
    expect((await t.expectError(PAGE, { first: 2 ** 31 })).code).toBe('BAD_USER_INPUT');
    expect((await t.expectError(PAGE, { orderBy: 'NAME_ASC' })).code).toBe('BAD_USER_INPUT');
  });

  it('rejects malformed cursors with BAD_USER_INPUT, never an internal error', async () => {
    const malformed = [
      '',
      'not a cursor',
      '!!!',
      'abc',
      'e30',
      cursorOf(null),
      cursorOf([]),
      cursorOf(1),
      cursorOf('UPDATED_AT_DESC'),
      cursorOf({}),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 'x', i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 1e20, i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 8.64e15 + 1, i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 8.64e15, i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: -8.64e15, i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 1.5, i: 'relay-1' }),
      cursorOf({ o: 'UPDATED_AT_DESC', t: 0, i: 5 }),
      cursorOf({ o: 'SOMETHING', t: 0, i: 'x' }),
      `${cursorOf({ o: 'UPDATED_AT_DESC', t: 0, i: 'x' })}=`,
    ];
    for (const cursor of malformed) {
      for (const args of [
        { first: 2, after: cursor },
        { last: 2, before: cursor },
      ]) {
        const response = await t.request(PAGE, { ...args, filter });
        expect(response.errors?.[0]?.extensions?.code, JSON.stringify({ cursor, response })).toBe(
          'BAD_USER_INPUT',
        );
      }
    }
  });

  it('rejects a cursor made for another orderBy', async () => {
    for (const made of ORDERS) {
      const p = await page({ first: 1, filter, orderBy: made });
      for (const used of ORDERS.filter((o) => o !== made)) {
        const after = await t.expectError(PAGE, {
          first: 1,
          after: p.pageInfo.endCursor,
          filter,
          orderBy: used,
        });
        expect(after.code).toBe('BAD_USER_INPUT');
        expect(after.message).toContain(made);
        const before = await t.expectError(PAGE, {
          last: 1,
          before: p.pageInfo.endCursor,
          filter,
          orderBy: used,
        });
        expect(before.code).toBe('BAD_USER_INPUT');
      }
    }
  });

  it('rejects an item cursor', async () => {
    const id = all[0] as string;
    await append(t, id, [message('one'), message('two')]);
    const data = await t.execute<{ thread: { items: { edges: { cursor: string }[] } } }>(
      'query($id: ID!) { thread(id: $id) { items(first: 1) { edges { cursor } } } }',
      { id },
    );
    const cursor = data.thread.items.edges[0]?.cursor;
    expect(cursor).toBeTypeOf('string');
    expect((await t.expectError(PAGE, { first: 1, after: cursor })).code).toBe('BAD_USER_INPUT');
  });
});

describe('node and nodes', () => {
  const NODE = `query($id: ID!) {
    node(id: $id) {
      __typename id
      ... on Thread { agentId }
      ... on ConversationItem { seq threadId }
      ... on CompactionRecord { startSeq endSeq markerSeq threadId }
    }
  }`;
  const NODES = `query($ids: [ID!]!) {
    nodes(ids: $ids) {
      __typename id
      ... on ConversationItem { seq }
    }
  }`;
  let compactionId = '';

  beforeAll(async () => {
    await createThread(t, { id: 't', agentId: 'node-agent' });
    await createThread(t, { id: 'x', agentId: 'node-agent' });
    await append(t, 't', [
      message('hello'),
      { toolCall: { callId: 'c1', name: 'ls', arguments: { path: '/' } } },
      { toolResult: { callId: 'c1', output: 'ok' } },
      { other: { type: 'custom_event', data: { k: 1 } } },
    ]);
    await append(t, 'x', [message('x0')]);
    const added = await t.execute<{
      addCompaction: { compaction: { id: string; markerSeq: number } };
    }>(ADD_COMPACTION, {
      input: { threadId: 't', startSeq: 0, endSeq: 2, summary: 'hello and ls' },
    });
    compactionId = added.addCompaction.compaction.id;
    expect(added.addCompaction.compaction.markerSeq).toBe(4);
  });

  const node = async (id: string) => {
    const response = await t.request<{ node: Record<string, unknown> | null }>(NODE, { id });
    expect(response.errors).toBeUndefined();
    return response.data?.node;
  };

  it('resolves threads, items of each type and compaction records', async () => {
    expect(await node('t')).toEqual({ __typename: 'Thread', id: 't', agentId: 'node-agent' });
    expect(await node('t:0')).toEqual({
      __typename: 'MessageItem',
      id: 't:0',
      seq: 0,
      threadId: 't',
    });
    expect(await node('t:1')).toMatchObject({ __typename: 'ToolCallItem', id: 't:1', seq: 1 });
    expect(await node('t:2')).toMatchObject({ __typename: 'ToolResultItem', id: 't:2', seq: 2 });
    expect(await node('t:3')).toMatchObject({ __typename: 'OtherItem', id: 't:3', seq: 3 });
    expect(await node('t:4')).toMatchObject({ __typename: 'CompactionItem', id: 't:4', seq: 4 });
    expect(await node('x:0')).toMatchObject({
      __typename: 'MessageItem',
      id: 'x:0',
      threadId: 'x',
    });
    expect(await node(compactionId)).toEqual({
      __typename: 'CompactionRecord',
      id: compactionId,
      threadId: 't',
      startSeq: 0,
      endSeq: 2,
      markerSeq: 4,
    });
  });

  it('answers null, not an error, for unknown and malformed ids', async () => {
    for (const id of [
      '',
      'a b',
      'x:y',
      't:-1',
      't:5',
      't:00',
      't:+1',
      't:1.0',
      't:',
      ':0',
      'nope',
      'nope:0',
      't:compaction:0',
      't:compaction:x',
      't:0:0',
      'x'.repeat(129),
      't:2147483647',
      't:2147483648',
      't:compaction:2147483648',
      't:9999999999',
      't:9007199254740991',
      't:99999999999999999',
      't:compaction:9999999999',
    ]) {
      expect(await node(id), JSON.stringify(id)).toBeNull();
    }
  });

  it('keeps the order of nodes and gives null where nothing matches', async () => {
    const asked = [
      't:2',
      '',
      'x',
      'a b',
      compactionId,
      'x:y',
      't:-1',
      'nope',
      't',
      't:99',
      'x:0',
      't:2',
    ];
    const data = await t.execute<{ nodes: ({ __typename: string; id: string } | null)[] }>(NODES, {
      ids: asked,
    });
    expect(data.nodes.map((n) => n && `${n.__typename} ${n.id}`)).toEqual([
      'ToolResultItem t:2',
      null,
      'Thread x',
      null,
      `CompactionRecord ${compactionId}`,
      null,
      null,
      null,
      'Thread t',
      null,
      'MessageItem x:0',
      'ToolResultItem t:2',
    ]);
    expect((await t.execute<{ nodes: unknown[] }>(NODES, { ids: [] })).nodes).toEqual([]);
  });

  it('loads nodes of every kind with one statement per kind', async () => {
    const { count, log } = await t.countStatements(() =>
      t.execute(NODES, { ids: ['t', 'x', 't:0', 'x:0', 't:3', compactionId, 'nope', 'nope:1'] }),
    );
    expect(count, log.join('\n')).toBeLessThanOrEqual(3);
  });
});

describe('statement counts of the thread list', () => {
  const LIST = `query($agentId: String) {
    threads(first: 50, filter: { agentId: $agentId }) {
      edges { node { id lastItem { __typename } itemCount compactions { id } } }
    }
  }`;

  async function seed(agentId: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      const id = await createThread(t, { agentId });
      await append(t, id, [message(`q${i}`), message(`a${i}`, 'assistant')]);
      if (i % 3 === 0) {
        await t.execute(ADD_COMPACTION, {
          input: { threadId: id, startSeq: 0, endSeq: 1, summary: 's' },
        });
      }
    }
  }

  it('is the same for 5 threads as for 50', async () => {
    await seed('count-5', 5);
    await seed('count-50', 50);
    type List = {
      threads: {
        edges: { node: { itemCount: number; compactions: unknown[]; lastItem: unknown } }[];
      };
    };
    let five: List | undefined;
    let fifty: List | undefined;
    const small = await t.countStatements(async () => {
      five = await t.execute<List>(LIST, { agentId: 'count-5' });
    });
    const large = await t.countStatements(async () => {
      fifty = await t.execute<List>(LIST, { agentId: 'count-50' });
    });
    expect(five?.threads.edges).toHaveLength(5);
    expect(fifty?.threads.edges).toHaveLength(50);
    for (const edge of fifty?.threads.edges ?? []) {
      expect(edge.node.lastItem).not.toBeNull();
      expect(edge.node.itemCount).toBeGreaterThanOrEqual(2);
    }
    expect(fifty?.threads.edges.filter((e) => e.node.compactions.length === 1)).toHaveLength(17);
    expect(large.count, large.log.join('\n')).toBe(small.count);
    expect(large.count, large.log.join('\n')).toBeLessThanOrEqual(3);
  });
});

describe('text round trip', () => {
  const names = [
    'Emoji 🧵👩🏽‍💻🇫🇷 done ✅',
    '会話の記録 中文对话 한국어 대화',
    'مرحبا بالعالم — עברית שלום',
    '\u202Eright-to-left override\u202C and \u200F mark',
    'Zalgo Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͓ and e\u0301 vs \u00e9',
    'Ａ full width ｶﾀｶﾅ ﬁ ligature ①',
    '  spaces around  ',
    'quotes \' " ` and \\ backslash',
    'line\nbreak\ttab',
    '',
  ];

  it('returns names exactly as written', async () => {
    const agentId = fresh('text');
    const made: Record<string, string> = {};
    for (const name of names) {
      const thread = await create({ agentId, name });
      expect(thread.name).toBe(name);
      made[thread.id] = name;
    }
    for (const [id, name] of Object.entries(made)) expect((await get(id))?.name).toBe(name);
    const listed = await t.execute<{
      threads: { edges: { node: { id: string; name: string } }[] };
    }>(
      'query($agentId: String) { threads(filter: { agentId: $agentId }) { edges { node { id name } } } }',
      { agentId },
    );
    expect(listed.threads.edges).toHaveLength(names.length);
    for (const { node } of listed.threads.edges) expect(node.name).toBe(made[node.id]);
    const renamed = await update({ id: Object.keys(made)[0] as string, name: names[1] });
    expect(renamed.name).toBe(names[1]);
  });

  it('returns metadata deep-equal through every read path', async () => {
    const metadata = {
      nested: { deeper: { deepest: [1, { x: null }] }, empty: {}, list: [] },
      none: null,
      maxSafe: 9007199254740991,
      minSafe: -9007199254740991,
      negative: -17,
      zero: 0,
      float: 0.1,
      tiny: 1e-7,
      huge: 1.5e300,
      empty: '',
      nul: 'before\u0000after',
      controls: '\u0001\u001f\u007f',
      unicode: '🧵 été 中文 עברית',
      'key with spaces and ünïcode': true,
      '': 'empty key',
      flag: false,
    };
    const agentId = fresh('json');
    const created = await create({ agentId, metadata });
    expect(created.metadata).toStrictEqual(metadata);
    expect((await get(created.id))?.metadata).toStrictEqual(metadata);
    const listed = await t.execute<{ threads: { edges: { node: { metadata: unknown } }[] } }>(
      'query($agentId: String) { threads(filter: { agentId: $agentId }) { edges { node { metadata } } } }',
      { agentId },
    );
    expect(listed.threads.edges[0]?.node.metadata).toStrictEqual(metadata);
    const viaNode = await t.execute<{ node: { metadata: unknown } }>(
      'query($id: ID!) { node(id: $id) { ... on Thread { metadata } } }',
      { id: created.id },
    );
    expect(viaNode.node.metadata).toStrictEqual(metadata);
    const updated = await update({ id: created.id, metadata: { ...metadata, added: 1 } });
    expect(updated.metadata).toStrictEqual({ ...metadata, added: 1 });
    expect(
      await ids({ agentId, metadata: { nested: metadata.nested, nul: metadata.nul } }),
    ).toEqual([created.id]);
  });

  it('returns createdAt and updatedAt as UTC ISO strings with milliseconds', async () => {
    const thread = await create({ agentId: 'time' });
    const listed = await t.execute<{
      threads: { edges: { node: { createdAt: string; updatedAt: string } }[] };
    }>(
      '{ threads(first: 3, filter: { agentId: "time" }) { edges { node { createdAt updatedAt } } } }',
    );
    for (const value of [
      thread.createdAt,
      thread.updatedAt,
      listed.threads.edges[0]?.node.createdAt,
      listed.threads.edges[0]?.node.updatedAt,
    ]) {
      expect(value).toMatch(ISO_MS_UTC);
    }
    expect(listed.threads.edges[0]?.node.createdAt).toBe(thread.createdAt);
    expect(new Date(thread.createdAt).toISOString()).toBe(thread.createdAt);
  });
});
