/**
 * Thread expiry (contract part beyond: Thread.expiresAt, CreateThreadInput.expiresAt,
 * UpdateThreadInput.expiresAt; README: RETENTION_DAYS, EXPIRY_SWEEP_INTERVAL_MS): an expired
 * thread is gone from every read and write at once, before the job runs; the job deletes it
 * with its items, records and keys and leaves a tombstone, so a late append is NOT_FOUND and
 * the id is never used again.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { ConfigError, parseEnv } from '../src/env.js';
import { Prisma } from '../src/generated/prisma/client.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import {
  createThread as createThreadIn,
  sweepExpiredThreads,
} from '../src/threads/thread.service.js';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { until } from './testkit/faults.js';
import { append, createThread, message } from './testkit/seed.js';
import { follow, wsClient } from './testkit/ws.js';

const EXPIRY_CREATE = graphql(`
  mutation ExpiryCreate($input: CreateThreadInput!) {
    createThread(input: $input) {
      thread {
        id
        createdAt
        expiresAt
      }
    }
  }
`);

const EXPIRY_UPDATE = graphql(`
  mutation ExpiryUpdate($input: UpdateThreadInput!) {
    updateThread(input: $input) {
      thread {
        id
        expiresAt
      }
    }
  }
`);

const EXPIRY_LOOK = graphql(`
  query ExpiryLook($id: ID!, $nodeIds: [ID!]!, $agentId: String!, $name: String!) {
    thread(id: $id) {
      id
      expiresAt
      items {
        totalCount
      }
    }
    nodes(ids: $nodeIds) {
      id
    }
    item(threadId: $id, seq: 0) {
      ... on ConversationItem {
        seq
      }
    }
    threads(filter: { agentId: $agentId }) {
      totalCount
      edges {
        node {
          id
        }
      }
    }
    named: threads(filter: { nameContains: $name }) {
      edges {
        node {
          id
        }
      }
    }
  }
`);

const EXPIRY_APPEND = graphql(`
  mutation ExpiryAppend($threadId: ID!, $key: String) {
    appendItems(
      input: { threadId: $threadId, idempotencyKey: $key, items: [{ message: { role: "user", content: "late" } }] }
    ) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

const EXPIRY_COMPACT = graphql(`
  mutation ExpiryCompact($id: ID!) {
    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: "s" }) {
      compaction {
        id
      }
    }
  }
`);

const EXPIRY_PURGE = graphql(`
  mutation ExpiryPurge($id: ID!) {
    purgeItems(input: { threadId: $id, before: "2030-01-01T00:00:00.000Z" }) {
      itemsDeleted
    }
  }
`);

const EXPIRY_DELETE = graphql(`
  mutation ExpiryDelete($id: ID!) {
    deleteThread(input: { id: $id }) {
      deletedThreadId
    }
  }
`);

const EXPIRY_IMPORT = graphql(`
  mutation ExpiryImport($transcript: JSON!) {
    importTranscript(input: { agentId: "importer", format: OPENAI_CHAT, transcript: $transcript }) {
      thread {
        createdAt
        expiresAt
      }
    }
  }
`);

const EXPIRY_IMPORT_KEYED = graphql(`
  mutation ExpiryImportKeyed($key: String!) {
    importTranscript(
      input: {
        agentId: "importer"
        format: OPENAI_CHAT
        idempotencyKey: $key
        transcript: { messages: [{ role: "user", content: "keyed" }] }
      }
    ) {
      replayed
      thread {
        id
      }
    }
  }
`);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const DAY_MS = 86_400_000;

/** Moves a thread's expiresAt into the past, as if its time had come (no waiting). */
async function expire(app: TestApp, id: string): Promise<void> {
  const past = new Date(Date.now() - 1000);
  await app.app.db.prisma.$executeRaw`UPDATE "Thread" SET "expiresAt" = ${past} WHERE "id" = ${id}`;
}

/** Rows of a table holding `threadId`, read from the database itself. */
async function rows(
  app: TestApp,
  table: 'Thread' | 'Item' | 'Compaction' | 'IdempotencyKey',
  threadId: string,
): Promise<number> {
  const column = Prisma.raw(table === 'Thread' ? '"id"' : '"threadId"');
  const [row] = await app.app.db.prisma.$queryRaw<{ n: number | bigint }[]>`
    SELECT COUNT(*) AS n FROM ${Prisma.raw(`"${table}"`)} WHERE ${column} = ${threadId}`;
  return Number(row?.n ?? 0);
}

async function tombstoned(app: TestApp, id: string): Promise<boolean> {
  const found = await app.app.db.prisma.$queryRaw<unknown[]>`
    SELECT 1 FROM "ThreadTombstone" WHERE "idHash" = ${sha256(id)}`;
  return found.length > 0;
}

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1' });
  port = await t.app.start(0);
});
afterAll(() => t.close());

describe('expiresAt on create and update', () => {
  it('is kept as given, null without RETENTION_DAYS, and refused when not in the future', async () => {
    const at = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const given = await t.execute(EXPIRY_CREATE, { input: { agentId: 'exp', expiresAt: at } });
    expect(given.createThread.thread.expiresAt).toBe(at);
    const none = await t.execute(EXPIRY_CREATE, { input: { agentId: 'exp' } });
    expect(none.createThread.thread.expiresAt).toBeNull();
    const past = new Date(Date.now() - 1000).toISOString();
    const error = await t.expectError(EXPIRY_CREATE, {
      input: { id: 'exp-past', agentId: 'exp', expiresAt: past },
    });
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(error.message).toMatch(/expiresAt must be in the future/);
    const look = await t.execute(EXPIRY_LOOK, {
      id: 'exp-past',
      nodeIds: [],
      agentId: 'exp',
      name: 'zzz',
    });
    expect(look.thread).toBeNull();
  });

  it('is changed by updateThread; null keeps the thread; a past time is refused', async () => {
    const id = await createThread(t, { agentId: 'exp' });
    const at = new Date(Date.now() + DAY_MS).toISOString();
    const set = await t.execute(EXPIRY_UPDATE, { input: { id, expiresAt: at } });
    expect(set.updateThread.thread.expiresAt).toBe(at);
    const other = await t.execute(EXPIRY_UPDATE, { input: { id, name: 'renamed' } });
    expect(other.updateThread.thread.expiresAt).toBe(at);
    const cleared = await t.execute(EXPIRY_UPDATE, { input: { id, expiresAt: null } });
    expect(cleared.updateThread.thread.expiresAt).toBeNull();
    const error = await t.expectError(EXPIRY_UPDATE, {
      input: { id, expiresAt: new Date(Date.now() - 1).toISOString() },
    });
    expect(error.code).toBe('BAD_USER_INPUT');
    const look = await t.execute(EXPIRY_LOOK, { id, nodeIds: [], agentId: 'exp', name: 'zzz' });
    expect(look.thread).toMatchObject({ id, expiresAt: null });
  });
});

describe('an expired thread, before the job runs', () => {
  it('is gone from thread, threads, node, nodes, item and items at once', async () => {
    const agentId = 'exp-reads';
    const keep = await createThread(t, { agentId, name: 'expiring kept' });
    const id = await createThread(t, { agentId, name: 'expiring gone' });
    await append(t, id, [message('a'), message('b')]);
    const compaction = await t.execute(EXPIRY_COMPACT, { id });
    const nodeIds = [id, `${id}:0`, compaction.addCompaction.compaction.id];
    const before = await t.execute(EXPIRY_LOOK, { id, nodeIds, agentId, name: 'expiring' });
    expect(before.thread?.items.totalCount).toBe(3);
    expect(before.nodes.every((n) => n !== null)).toBe(true);
    expect(before.threads.totalCount).toBe(2);

    await expire(t, id);
    const after = await t.execute(EXPIRY_LOOK, { id, nodeIds, agentId, name: 'expiring' });
    expect(after.thread).toBeNull();
    expect(after.nodes).toEqual([null, null, null]);
    expect(after.item).toBeNull();
    expect(after.threads).toEqual({ totalCount: 1, edges: [{ node: { id: keep } }] });
    expect(after.named.edges.map((e) => e.node.id)).toEqual([keep]);
    // Still stored: only the job deletes.
    expect(await rows(t, 'Item', id)).toBe(3);
  });

  it('refuses every write with NOT_FOUND, and its id stays taken', async () => {
    const id = await createThread(t, { agentId: 'exp-writes' });
    await t.execute(EXPIRY_APPEND, { threadId: id, key: 'k1' });
    await expire(t, id);
    const errors = [
      await t.expectError(EXPIRY_APPEND, { threadId: id }),
      // A replay of a key recorded before the thread expired, too.
      await t.expectError(EXPIRY_APPEND, { threadId: id, key: 'k1' }),
      await t.expectError(EXPIRY_COMPACT, { id }),
      await t.expectError(EXPIRY_PURGE, { id }),
      await t.expectError(EXPIRY_UPDATE, { input: { id, expiresAt: null } }),
      await t.expectError(EXPIRY_DELETE, { id }),
    ];
    expect(errors.map((e) => e.code)).toEqual(Array(6).fill('NOT_FOUND'));
    const conflict = await t.expectError(EXPIRY_CREATE, { input: { id, agentId: 'exp-writes' } });
    expect(conflict.code).toBe('CONFLICT');
    expect(await rows(t, 'Item', id)).toBe(1);
  });

  it('is not answered by a replay of the import that made it', async () => {
    const first = await t.execute(EXPIRY_IMPORT_KEYED, { key: 'exp-import' });
    const again = await t.execute(EXPIRY_IMPORT_KEYED, { key: 'exp-import' });
    expect(again.importTranscript).toEqual({ ...first.importTranscript, replayed: true });
    await expire(t, first.importTranscript.thread.id);
    const error = await t.expectError(EXPIRY_IMPORT_KEYED, { key: 'exp-import' });
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toMatch(/expired/);
  });

  it('cannot be followed: threadItems ends with NOT_FOUND', async () => {
    const id = await createThread(t, { agentId: 'exp-live' });
    await expire(t, id);
    const client = wsClient(port);
    try {
      const error = (await follow(client, id, -1, () => {}).done.then(
        () => null,
        (e: unknown) => e,
      )) as { errors?: { extensions?: { code?: string } }[] } | null;
      expect(error?.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    } finally {
      await client.dispose();
    }
  });

  it('ends a follow opened before it expired when its time comes, before any sweep', async () => {
    const at = new Date(Date.now() + 600).toISOString();
    const created = await t.execute(EXPIRY_CREATE, { input: { agentId: 'exp', expiresAt: at } });
    const id = created.createThread.thread.id;
    await append(t, id, [message('before expiry')]);
    const client = wsClient(port);
    try {
      const seen: unknown[] = [];
      const followed = follow(client, id, -1, (item) => seen.push(item));
      const ended = await Promise.race([
        followed.done.then(
          () => 'completed',
          () => 'failed',
        ),
        new Promise((r) => setTimeout(() => r('still open'), 5_000)),
      ]);
      expect(ended).toBe('completed');
      expect(seen).toHaveLength(1);
    } finally {
      await client.dispose();
    }
  });

  it('vanishes when its time comes, without anything written', async () => {
    const at = new Date(Date.now() + 400).toISOString();
    const created = await t.execute(EXPIRY_CREATE, { input: { agentId: 'exp', expiresAt: at } });
    const id = created.createThread.thread.id;
    const look = () => t.execute(EXPIRY_LOOK, { id, nodeIds: [], agentId: 'exp', name: 'zzz' });
    expect((await look()).thread?.id).toBe(id);
    await until(async () => (await look()).thread === null, 'the thread to expire');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
  });
});

describe('the expiry job', () => {
  let j: TestApp;
  let jPort: number;
  beforeAll(async () => {
    j = await buildTestApp({
      HOST: '127.0.0.1',
      EXPIRY_SWEEP_INTERVAL_MS: '50',
      RETENTION_DAYS: '30',
    });
    jPort = await j.app.start(0);
  });
  afterAll(() => j.close());

  it('deletes expired threads with their items, records and keys, leaving tombstones', async () => {
    const id = await createThread(j, { agentId: 'sweep' });
    const kept = await createThread(j, { agentId: 'sweep' });
    await j.execute(EXPIRY_APPEND, { threadId: id, key: 'key-1' });
    await append(j, id, [message('b')]);
    await j.execute(EXPIRY_COMPACT, { id });
    await append(j, kept, [message('kept')]);
    const client = wsClient(jPort);
    const seen: number[] = [];
    const follower = follow(client, id, -1, (item) => seen.push(item.seq));
    try {
      await until(() => seen.length === 3, 'the follower to replay');
      await expire(j, id);
      await until(async () => (await rows(j, 'Thread', id)) === 0, 'the sweep');
      for (const table of ['Item', 'Compaction', 'IdempotencyKey'] as const) {
        expect([table, await rows(j, table, id)]).toEqual([table, 0]);
      }
      expect(await tombstoned(j, id)).toBe(true);
      // Live followers of the thread are ended, as by deleteThread.
      await follower.done;
    } finally {
      await client.dispose();
    }
    expect(await rows(j, 'Item', kept)).toBe(1);
    expect(await tombstoned(j, kept)).toBe(false);

    // A late write does not bring it back; the id is never used again.
    expect((await j.expectError(EXPIRY_APPEND, { threadId: id })).code).toBe('NOT_FOUND');
    const again = await j.expectError(EXPIRY_CREATE, { input: { id, agentId: 'sweep' } });
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toMatch(/was deleted/);
  });

  it('sweeps in batches until none is left, across tenants, sparing live threads', async () => {
    const base = { db: t.app.db, events: t.app.events, limits: limitsFromEnv(parseEnv({})) };
    const other: ServiceContext = {
      ...base,
      identity: anonymousIdentity('tenant-x'),
      tenantId: 'tenant-x',
    };
    const expired = [
      ...(await Promise.all(Array.from({ length: 6 }, () => createThread(t, { agentId: 'b' })))),
      (await createThreadIn(other, { agentId: 'b', id: 'other-tenant' })).id,
    ];
    const live = await createThread(t, {
      agentId: 'b',
      expiresAt: new Date(Date.now() + DAY_MS).toISOString(),
    });
    const forever = await createThread(t, { agentId: 'b' });
    for (const id of expired) await expire(t, id);
    const [due] = await t.app.db.prisma.$queryRaw<{ n: number | bigint }[]>`
      SELECT COUNT(*) AS n FROM "Thread" WHERE "expiresAt" <= ${new Date()}`;
    const deleted = await sweepExpiredThreads(t.app.db, t.app.events, { batchSize: 3 });
    expect(deleted).toBe(Number(due?.n));
    expect(deleted).toBeGreaterThanOrEqual(expired.length);
    for (const id of expired) expect([id, await rows(t, 'Thread', id)]).toEqual([id, 0]);
    expect(await rows(t, 'Thread', live)).toBe(1);
    expect(await rows(t, 'Thread', forever)).toBe(1);
    expect(await sweepExpiredThreads(t.app.db, t.app.events)).toBe(0);
  });

  it('bounds a batch by items too (whole threads), and goes on until none is left', async () => {
    const long = [];
    for (let i = 0; i < 3; i++) {
      const id = await createThread(t, { agentId: 'long' });
      await append(t, id, [message('a'), message('b'), message('c')]);
      await expire(t, id);
      long.push(id);
    }
    const [due] = await t.app.db.prisma.$queryRaw<{ n: number | bigint }[]>`
      SELECT COUNT(*) AS n FROM "Thread" WHERE "expiresAt" <= ${new Date()}`;
    // 4 items a batch: one 3-item thread each (a thread is never split), three transactions.
    const deleted = await sweepExpiredThreads(t.app.db, t.app.events, { batchItems: 4 });
    expect(deleted).toBe(Number(due?.n));
    for (const id of long) expect([id, await rows(t, 'Thread', id)]).toEqual([id, 0]);
    expect(await rows(t, 'Item', long[0]!)).toBe(0);
  });

  it('RETENTION_DAYS sets expiresAt of new threads; null and explicit times win; update to null keeps it', async () => {
    const made = await j.execute(EXPIRY_CREATE, { input: { agentId: 'ret' } });
    const { createdAt, expiresAt, id } = made.createThread.thread;
    expect(Date.parse(expiresAt ?? '') - Date.parse(createdAt)).toBe(30 * DAY_MS);
    const never = await j.execute(EXPIRY_CREATE, { input: { agentId: 'ret', expiresAt: null } });
    expect(never.createThread.thread.expiresAt).toBeNull();
    const at = new Date(Date.now() + 2 * DAY_MS).toISOString();
    const given = await j.execute(EXPIRY_CREATE, { input: { agentId: 'ret', expiresAt: at } });
    expect(given.createThread.thread.expiresAt).toBe(at);
    const cleared = await j.execute(EXPIRY_UPDATE, { input: { id, expiresAt: null } });
    expect(cleared.updateThread.thread.expiresAt).toBeNull();
    const look = await j.execute(EXPIRY_LOOK, { id, nodeIds: [], agentId: 'ret', name: 'zzz' });
    expect(look.thread?.expiresAt).toBeNull();
    // Imported threads are new threads too.
    const imported = await j.execute(EXPIRY_IMPORT, {
      transcript: { messages: [{ role: 'user', content: 'hi' }] },
    });
    const thread = imported.importTranscript.thread;
    expect(Date.parse(thread.expiresAt ?? '') - Date.parse(thread.createdAt)).toBe(30 * DAY_MS);
  });

  it('RETENTION_DAYS and EXPIRY_SWEEP_INTERVAL_MS are checked at start-up', () => {
    expect(() => parseEnv({ RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => parseEnv({ RETENTION_DAYS: 'a week' })).toThrow(/RETENTION_DAYS/);
    // Past year 9999 an expiry cannot be stored (reviewer: 3,000,000 days hid every new thread).
    expect(() => parseEnv({ RETENTION_DAYS: '3000000' })).toThrow(/RETENTION_DAYS/);
    expect(parseEnv({ RETENTION_DAYS: '36500' }).RETENTION_DAYS).toBe(36_500);
    expect(() => parseEnv({ EXPIRY_SWEEP_INTERVAL_MS: '1' })).toThrow(/EXPIRY_SWEEP_INTERVAL_MS/);
    expect(parseEnv({}).RETENTION_DAYS).toBeUndefined();
  });
});
