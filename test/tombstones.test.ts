/**
 * A deleted thread's id is never used again (contract: CreateThreadInput.id): createThread and
 * the importer answer CONFLICT for it, writes to it stay NOT_FOUND, node ids under it stay
 * null, and no interleaving of creates, deletes and appends brings a deleted thread back.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { ConflictError } from '../src/errors.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { prepareConversation, writeConversation } from '../src/import/import.service.js';
import { createThread as createThreadIn, deleteThread } from '../src/threads/thread.service.js';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';

const CREATE = graphql(`
  mutation TombstoneCreate($id: ID!) {
    createThread(input: { id: $id, agentId: "tomb" }) {
      thread {
        id
        nextSeq
      }
    }
  }
`);

const DELETE = graphql(`
  mutation TombstoneDelete($id: ID!) {
    deleteThread(input: { id: $id }) {
      deletedThreadId
      itemsDeleted
    }
  }
`);

const APPEND = graphql(`
  mutation TombstoneAppend($threadId: ID!, $content: String!) {
    appendItems(input: { threadId: $threadId, items: [{ message: { role: "user", content: $content } }] }) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

const COMPACT = graphql(`
  mutation TombstoneCompact($id: ID!) {
    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: "s" }) {
      compaction {
        id
      }
    }
  }
`);

const PURGE = graphql(`
  mutation TombstonePurge($id: ID!, $before: DateTime!) {
    purgeItems(input: { threadId: $id, before: $before }) {
      itemsDeleted
    }
  }
`);

const CLEAR = graphql(`
  mutation TombstoneClear($id: ID!) {
    clearCompactions(input: { threadId: $id }) {
      compactionsDeleted
    }
  }
`);

const UPDATE = graphql(`
  mutation TombstoneUpdate($id: ID!) {
    updateThread(input: { id: $id, name: "back?" }) {
      thread {
        id
      }
    }
  }
`);

const LOOK = graphql(`
  query TombstoneLook($id: ID!, $nodeIds: [ID!]!) {
    thread(id: $id) {
      id
      itemCount
    }
    nodes(ids: $nodeIds) {
      id
    }
  }
`);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Items stored for a thread id, read from the database itself. */
async function storedItems(threadId: string): Promise<number> {
  const [row] = await t.app.db.prisma.$queryRaw<{ n: number | bigint }[]>`
    SELECT COUNT(*) AS n FROM "Item" WHERE "threadId" = ${threadId}`;
  return Number(row?.n ?? 0);
}

/** What the API shows of a thread id and its first `seqs` item ids. */
async function look(id: string, seqs = 3) {
  const nodeIds = [id, ...Array.from({ length: seqs }, (_, seq) => `${id}:${seq}`)];
  return t.execute(LOOK, { id, nodeIds });
}

describe('a deleted thread id', () => {
  it('is refused by createThread with CONFLICT, and its node ids stay null', async () => {
    const id = 'tomb-once';
    await createThread(t, { id });
    await append(t, id, [message('first life')]);
    expect((await look(id)).nodes[1]).toEqual({ id: `${id}:0` });
    await t.execute(DELETE, { id });

    const again = await t.request(CREATE, { id });
    expect(again.data).toBeNull();
    expect(again.errors).toHaveLength(1);
    expect(again.errors![0]!.extensions).toMatchObject({ code: 'CONFLICT', threadId: id });
    expect(again.errors![0]!.message).toBe(
      `The thread with id "${id}" was deleted; thread ids are never reused, pick another id (or leave id out to get a generated one).`,
    );
    expect(await look(id)).toEqual({ thread: null, nodes: [null, null, null, null] });
    expect(await storedItems(id)).toBe(0);
  });

  it('keeps only the tenant, the SHA-256 of the id and the time', async () => {
    const id = 'tomb-row';
    await createThread(t, { id });
    const before = Date.now();
    await t.execute(DELETE, { id });
    const rows = await t.app.db.prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT * FROM "ThreadTombstone" WHERE "idHash" = ${sha256(id)}`;
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(['deletedAt', 'idHash', 'tenantId']);
    expect(rows[0]!.tenantId).toBe('local');
    const deletedAt = new Date(rows[0]!.deletedAt as string).getTime();
    expect(deletedAt).toBeGreaterThanOrEqual(before - 5);
    expect(deletedAt).toBeLessThanOrEqual(Date.now() + 5);
  });

  it('stays NOT_FOUND for appends, compactions, purges, updates and deletes', async () => {
    const id = 'tomb-writes';
    await createThread(t, { id });
    await append(t, id, [message('a'), message('b')]);
    await t.execute(DELETE, { id });
    const before = new Date().toISOString();
    const errors = [
      await t.expectError(APPEND, { threadId: id, content: 'late' }),
      await t.expectError(COMPACT, { id }),
      await t.expectError(PURGE, { id, before }),
      await t.expectError(CLEAR, { id }),
      await t.expectError(UPDATE, { id }),
      await t.expectError(DELETE, { id }),
    ];
    expect(errors.map((e) => e.code)).toEqual(Array(6).fill('NOT_FOUND'));
    expect(await look(id)).toEqual({ thread: null, nodes: [null, null, null, null] });
  });

  it('is refused by the importer too', async () => {
    const ctx: ServiceContext = {
      db: t.app.db,
      identity: anonymousIdentity('local'),
      tenantId: 'local',
      events: t.app.events,
      limits: limitsFromEnv(parseEnv({})),
    };
    const id = 'tomb-import';
    await createThread(t, { id });
    await t.execute(DELETE, { id });
    const prepared = prepareConversation(
      ctx,
      {
        index: 0,
        meta: {},
        compactions: [],
        items: [
          {
            responseId: null,
            createdBy: null,
            createdAt: null,
            message: { role: 'user', content: 'hi' },
            raw: null,
            rawFormat: 'OPENAI_CHAT',
          },
        ],
      },
      { agentId: 'importer', threadId: id },
    );
    await expect(writeConversation(ctx, prepared)).rejects.toThrow(ConflictError);
    expect(await look(id)).toEqual({ thread: null, nodes: [null, null, null, null] });
  });

  it('belongs to its tenant: another tenant may still use the same id', async () => {
    // Tenants are not selectable through the API yet: the services, with two tenant ids.
    const base = { db: t.app.db, events: t.app.events, limits: limitsFromEnv(parseEnv({})) };
    const a: ServiceContext = {
      ...base,
      identity: anonymousIdentity('tenant-a'),
      tenantId: 'tenant-a',
    };
    const b: ServiceContext = {
      ...base,
      identity: anonymousIdentity('tenant-b'),
      tenantId: 'tenant-b',
    };
    const id = 'tomb-tenants';
    await createThreadIn(a, { id, agentId: 'x' });
    await deleteThread(a, id);
    await expect(createThreadIn(a, { id, agentId: 'x' })).rejects.toThrow(/was deleted/);
    const other = await createThreadIn(b, { id, agentId: 'y' });
    expect(other).toMatchObject({ tenantId: 'tenant-b', id, nextSeq: 0 });
    await deleteThread(b, id);
    await expect(createThreadIn(b, { id, agentId: 'y' })).rejects.toThrow(/was deleted/);
  });
});

interface Outcome {
  kind: 'create' | 'delete' | 'append';
  ok: boolean;
  code: string | null;
  /** When the request was sent and when its answer came, in ms (performance.now). */
  sent: number;
  answered: number;
  seq?: number;
}

/** Sends one operation on `id` and records its outcome. */
async function run(kind: Outcome['kind'], id: string, n: number): Promise<Outcome> {
  await new Promise((r) => setTimeout(r, Math.random() * 8));
  const sent = performance.now();
  const result =
    kind === 'create'
      ? await t.request(CREATE, { id })
      : kind === 'delete'
        ? await t.request(DELETE, { id })
        : await t.request(APPEND, { threadId: id, content: `write ${n}` });
  const error = result.errors?.[0];
  const data = result.data as { appendItems?: { items: { seq: number }[] } } | null;
  return {
    kind,
    ok: !error,
    code: error ? String(error.extensions?.code) : null,
    sent,
    answered: performance.now(),
    seq: data?.appendItems?.items[0]?.seq,
  };
}

describe('creates, deletes and appends racing on one id', () => {
  it('never bring a deleted thread back, nor leave an item of it readable', async () => {
    for (let round = 0; round < 12; round++) {
      const id = `tomb-race-${round}`;
      // Even rounds start from an existing thread; odd ones race its creation too.
      if (round % 2 === 0) await createThread(t, { id, agentId: 'tomb' });
      const kinds = [
        ...Array<Outcome['kind']>(4).fill('create'),
        ...Array<Outcome['kind']>(3).fill('delete'),
        ...Array<Outcome['kind']>(12).fill('append'),
      ].sort(() => Math.random() - 0.5);
      const outcomes = await Promise.all(kinds.map((kind, n) => run(kind, id, n)));
      for (const o of outcomes) {
        if (!o.ok) {
          const expected = o.kind === 'create' ? 'CONFLICT' : 'NOT_FOUND';
          expect(o.code, `${o.kind} in round ${round}`).toBe(expected);
        }
      }
      const created = outcomes.filter((o) => o.kind === 'create' && o.ok);
      const deleted = outcomes.filter((o) => o.kind === 'delete' && o.ok);
      expect(created.length + (round % 2 === 0 ? 1 : 0)).toBeLessThanOrEqual(1);
      expect(deleted.length).toBeLessThanOrEqual(1);
      const seqs = outcomes.flatMap((o) => (o.kind === 'append' && o.ok ? [o.seq!] : []));
      const after = await look(id, 14);
      if (deleted.length === 1) {
        const done = deleted[0]!.answered;
        // Nothing sent after the delete was answered succeeds on the id.
        for (const o of outcomes.filter((x) => x.sent > done)) expect(o.ok).toBe(false);
        expect(after).toEqual({ thread: null, nodes: Array(15).fill(null) });
        expect(await storedItems(id)).toBe(0);
        expect((await t.request(CREATE, { id })).errors?.[0]?.extensions?.code).toBe('CONFLICT');
      } else {
        // Not deleted (created after every delete failed, or never): all appends are there.
        const exists = round % 2 === 0 || created.length === 1;
        expect(after.thread).toEqual(exists ? { id, itemCount: seqs.length } : null);
        expect(await storedItems(id)).toBe(seqs.length);
      }
    }
  });
});
