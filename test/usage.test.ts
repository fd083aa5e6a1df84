/**
 * Thread.usage (contract part beyond: UsageTotals, SafeInt): the sums of the stored message
 * items' usage, kept on the thread row by every writer of items (both append paths of
 * PostgreSQL, the importer, a restore) and by purges, read without a scan of the items; exact
 * past 2^31; refused when a total would pass 2^53-1, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { prepareConversation, writeConversation } from '../src/import/import.service.js';
import type { ItemDraft } from '../src/transcripts/types.js';
import { graphql } from './generated/gql.js';
import type { NewItem } from './generated/graphql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';

const USAGE = graphql(`
  query UsageOfThread($id: ID!) {
    thread(id: $id) {
      itemCount
      nextSeq
      usage {
        inputTokens
        outputTokens
        totalTokens
        messagesWithUsage
      }
    }
  }
`);

const USAGE_APPEND = graphql(`
  mutation UsageAppend($input: AppendItemsInput!) {
    appendItems(input: $input) {
      thread {
        usage {
          inputTokens
          outputTokens
          totalTokens
          messagesWithUsage
        }
      }
    }
  }
`);

const USAGE_PURGE = graphql(`
  mutation UsagePurge($id: ID!, $before: DateTime!) {
    purgeItems(input: { threadId: $id, before: $before }) {
      itemsDeleted
      thread {
        usage {
          inputTokens
          outputTokens
          totalTokens
          messagesWithUsage
        }
      }
    }
  }
`);

const USAGE_TRANSCRIPT = graphql(`
  query UsageTranscript($id: ID!) {
    thread(id: $id) {
      transcript(format: THREADSTORE_JSONL)
    }
  }
`);

const USAGE_IMPORT = graphql(`
  mutation UsageImport($input: ImportTranscriptInput!) {
    importTranscript(input: $input) {
      thread {
        id
        usage {
          inputTokens
          outputTokens
          totalTokens
          messagesWithUsage
        }
      }
    }
  }
`);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A message item reporting usage. */
function withUsage(
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number },
  extra: Partial<NewItem> = {},
): NewItem {
  return { message: { role: 'assistant', content: 'answer', usage }, ...extra };
}

async function usageOf(id: string) {
  const data = await t.execute(USAGE, { id });
  return data.thread?.usage;
}

const totals = (
  inputTokens: number,
  outputTokens: number,
  totalTokens: number,
  messagesWithUsage: number,
) => ({ inputTokens, outputTokens, totalTokens, messagesWithUsage });

describe('Thread.usage', () => {
  it('starts at zero and sums message usage; a total left out is input + output', async () => {
    const id = await createThread(t);
    expect(await usageOf(id)).toEqual(totals(0, 0, 0, 0));
    await append(t, id, [
      withUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 20 }),
      withUsage({ inputTokens: 7, outputTokens: 3 }),
      withUsage({ outputTokens: 4 }),
      withUsage({ totalTokens: 100 }),
      message('no usage'),
      { toolCall: { callId: 'c1', name: 'f', arguments: {} } },
      { other: { type: 'usage_report', data: { usage: { inputTokens: 999 } } } },
    ]);
    // 20 as reported; 7 + 3; 4 alone; 100 as reported. Only message items count.
    expect(await usageOf(id)).toEqual(totals(17, 12, 134, 4));
  });

  it('is exact above 2^31 (SafeInt) and answers on the append payload', async () => {
    const id = await createThread(t);
    const big = 2_000_000_000;
    const data = await t.execute(USAGE_APPEND, {
      input: {
        threadId: id,
        items: [
          withUsage({ inputTokens: big, outputTokens: big }),
          withUsage({ inputTokens: big, outputTokens: 1, totalTokens: big }),
        ],
      },
    });
    expect(data.appendItems.thread.usage).toEqual(totals(2 * big, big + 1, 3 * big, 2));
    await append(t, id, [withUsage({ inputTokens: big })]);
    expect(await usageOf(id)).toEqual(totals(3 * big, big + 1, 4 * big, 3));
  });

  it('adds up on both append paths (PostgreSQL: one statement, and the transaction for over 100 items)', async () => {
    const id = await createThread(t);
    await append(t, id, [withUsage({ inputTokens: 1, outputTokens: 2 })]);
    const many = Array.from({ length: 150 }, (_, i) =>
      i % 3 === 0 ? message(`m${i}`) : withUsage({ inputTokens: i, outputTokens: 1 }),
    );
    await append(t, id, many);
    let input = 1;
    let count = 1;
    for (let i = 0; i < 150; i++) {
      if (i % 3 !== 0) {
        input += i;
        count += 1;
      }
    }
    const output = 2 + (count - 1);
    expect(await usageOf(id)).toEqual(totals(input, output, input + output, count));
    // Checked against the item rows themselves.
    const [row] = await t.app.db.prisma.$queryRaw<{ n: unknown; s: unknown }[]>`
      SELECT COUNT("totalTokens") AS n, SUM("totalTokens") AS s FROM "Item" WHERE "threadId" = ${id}`;
    expect([Number(row?.n), Number(row?.s)]).toEqual([count, input + output]);
  });

  it('is read from the thread row: no statement reads the items', async () => {
    const id = await createThread(t);
    await append(t, id, [withUsage({ inputTokens: 3, outputTokens: 4 })]);
    const { log } = await t.countStatements(() => t.execute(USAGE, { id }));
    expect(log.join('\n')).not.toMatch(/"Item"/);
    expect(await usageOf(id)).toEqual(totals(3, 4, 7, 1));
  });

  it('drops what a purge deletes', async () => {
    const id = await createThread(t);
    const old = (days: number) => new Date(Date.UTC(2026, 0, days)).toISOString();
    await append(t, id, [
      withUsage({ inputTokens: 100, outputTokens: 10 }, { createdAt: old(1) }),
      withUsage({ inputTokens: 200, outputTokens: 20, totalTokens: 250 }, { createdAt: old(2) }),
      { ...message('plain'), createdAt: old(2) },
      withUsage({ inputTokens: 1, outputTokens: 2 }, { createdAt: old(20) }),
    ]);
    expect(await usageOf(id)).toEqual(totals(301, 32, 363, 3));
    const purged = await t.execute(USAGE_PURGE, { id, before: old(10) });
    expect(purged.purgeItems.itemsDeleted).toBe(3);
    expect(purged.purgeItems.thread.usage).toEqual(totals(1, 2, 3, 1));
    expect(await usageOf(id)).toEqual(totals(1, 2, 3, 1));
    // Appends after the purge add to what is left.
    await append(t, id, [withUsage({ totalTokens: 7 })]);
    expect(await usageOf(id)).toEqual(totals(1, 2, 10, 2));
  });

  it('is refused with BAD_USER_INPUT when a total would pass 2^53-1, writing nothing', async () => {
    for (const size of [1, 120]) {
      const id = await createThread(t);
      await append(t, id, [withUsage({ inputTokens: 5, outputTokens: 5 })]);
      // Near the limit without 4 million appends: the stored total moved by hand.
      const near = BigInt(Number.MAX_SAFE_INTEGER) - 50n;
      await t.app.db.prisma.$executeRaw`
        UPDATE "Thread" SET "totalTokens" = ${near} WHERE "id" = ${id}`;
      const items = Array.from({ length: size }, () => withUsage({ totalTokens: 51 }));
      const error = await t.expectError(USAGE_APPEND, { input: { threadId: id, items } });
      expect(error.code).toBe('BAD_USER_INPUT');
      expect(error.message).toMatch(/totalTokens would pass 2\^53-1/);
      const after = await t.execute(USAGE, { id });
      expect(after.thread).toMatchObject({ itemCount: 1, nextSeq: 1 });
      expect(after.thread?.usage.totalTokens).toBe(Number(near));
      // Up to the limit is fine.
      await append(t, id, [withUsage({ totalTokens: 50 })]);
      expect((await usageOf(id))?.totalTokens).toBe(Number.MAX_SAFE_INTEGER);
    }
  });

  it('counts imported conversations', async () => {
    const ctx: ServiceContext = {
      db: t.app.db,
      identity: anonymousIdentity('local'),
      tenantId: 'local',
      events: t.app.events,
      limits: limitsFromEnv(parseEnv({})),
    };
    const draft = (usage?: {
      inputTokens?: number;
      outputTokens?: number;
      totalTokens?: number;
    }): ItemDraft => ({
      responseId: null,
      createdBy: null,
      createdAt: null,
      message: { role: 'assistant', content: 'hi', ...(usage ? { usage } : {}) },
      raw: null,
      rawFormat: 'OPENAI_CHAT',
    });
    const prepared = prepareConversation(
      ctx,
      {
        index: 0,
        meta: {},
        compactions: [],
        items: [
          draft({ inputTokens: 3_000_000_000, outputTokens: 2 }),
          draft(),
          draft({ totalTokens: 9 }),
        ],
      },
      { agentId: 'importer', threadId: 'usage-import' },
    );
    const result = await writeConversation(ctx, prepared);
    expect(result.thread.usage).toEqual(totals(3_000_000_000, 2, 3_000_000_011, 2));
    expect(await usageOf('usage-import')).toEqual(totals(3_000_000_000, 2, 3_000_000_011, 2));
  });

  it('comes back whole from a THREADSTORE_JSONL dump restored (purged items stay out)', async () => {
    const id = await createThread(t);
    await append(t, id, [
      withUsage({ inputTokens: 40, outputTokens: 2 }, { createdAt: '2026-01-01T00:00:00.000Z' }),
      withUsage({ inputTokens: 11, outputTokens: 22, totalTokens: 40 }),
      message('plain'),
    ]);
    await t.execute(USAGE_PURGE, { id, before: '2026-01-02T00:00:00.000Z' });
    const dump = await t.execute(USAGE_TRANSCRIPT, { id });
    const restored = await t.execute(USAGE_IMPORT, {
      input: {
        agentId: 'agent-1',
        format: 'THREADSTORE_JSONL',
        transcript: dump.thread?.transcript,
        threadId: `${id}-restored`,
      },
    });
    expect(restored.importTranscript.thread.usage).toEqual(totals(11, 22, 40, 1));
    expect(await usageOf(`${id}-restored`)).toEqual(await usageOf(id));
  });

  it('refuses a restore whose usage would add up past 2^53-1, writing nothing', async () => {
    const id = await createThread(t);
    await append(t, id, [withUsage({ inputTokens: 123_456, outputTokens: 654_321 })]);
    const dump = JSON.stringify((await t.execute(USAGE_TRANSCRIPT, { id })).thread?.transcript);
    // Each count is a SafeInt, their sum (the message's total) is not.
    const text = dump.replace(/123456/g, '9007199254740991').replace(/654321/g, '9007199254740991');
    expect(text).not.toBe(dump);
    const huge = JSON.parse(text);
    const refused = await t.expectError(USAGE_IMPORT, {
      input: {
        agentId: 'agent-1',
        format: 'THREADSTORE_JSONL',
        transcript: huge,
        threadId: `${id}-huge`,
      },
    });
    expect(refused.code).toBe('BAD_USER_INPUT');
    expect(refused.message).toMatch(/2\^53-1/);
    expect(await usageOf(`${id}-huge`)).toBeUndefined();
  });

  it('refuses token counts that are not whole numbers from 0 up', async () => {
    const id = await createThread(t);
    const error = await t.expectError(USAGE_APPEND, {
      input: { threadId: id, items: [withUsage({ inputTokens: -1 })] },
    });
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(await usageOf(id)).toEqual(totals(0, 0, 0, 0));
  });
});
