/**
 * Compaction records: LLM summaries standing in for a range of raw items, their marker items,
 * and the assembled context (contract: AddCompactionInput, ClearCompactionsInput,
 * Thread.compactions, Thread.context).
 */
import type { ServiceContext } from '../context.js';
import { transaction } from '../db/transaction.js';
import { readInChunks } from '../db/chunks.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  threadNotFound,
} from '../errors.js';
import type { Compaction, Item, Thread } from '../generated/prisma/client.js';
import {
  type ItemRecord,
  insertItems,
  publishAppended,
  reserveSeqs,
  toItemRecord,
} from '../items/item.service.js';
import { jsonBytes } from '../json.js';
import { assertThreadId } from '../threads/thread.service.js';
import { assembleContext, pairToolCalls, separatedPair } from './context.js';

/** A stored compaction record; `id` is "<threadId>:compaction:<markerSeq>". */
export interface CompactionRecord extends Compaction {
  id: string;
}

/** The stable id of a compaction record: its marker seq never changes and is never reused. */
export function compactionId(threadId: string, markerSeq: number): string {
  return `${threadId}:compaction:${markerSeq}`;
}

function toRecord(row: Compaction): CompactionRecord {
  const markerSeq = Number(row.markerSeq);
  return {
    ...row,
    startSeq: Number(row.startSeq),
    endSeq: Number(row.endSeq),
    markerSeq,
    createdAt: new Date(row.createdAt),
    id: compactionId(row.threadId, markerSeq),
  };
}

/** Longest createdBy accepted, as for appended items. */
const MAX_LABEL_LENGTH = 256;

export interface AddCompactionInput {
  threadId: string;
  startSeq: number;
  endSeq: number;
  summary: string;
  createdBy?: string | null;
}

/**
 * Records a summary of items startSeq..endSeq and appends its compaction marker, in one
 * transaction that first takes the thread's row (so concurrent compactions of one thread
 * serialise).
 * @throws BadUserInputError reversed range, negative start, past lastSeq, no stored item
 *   other than markers, a tool call separated from its result, createdBy over 256 chars
 * @throws PayloadTooLargeError when the marker's data would be over the item size limit
 * @throws ConflictError overlap with an existing record
 * @throws NotFoundError unknown thread
 */
export async function addCompaction(
  ctx: ServiceContext,
  input: AddCompactionInput,
): Promise<{ compaction: CompactionRecord; marker: ItemRecord; thread: Thread }> {
  assertThreadId(input.threadId, 'threadId');
  const { threadId, startSeq, endSeq } = input;
  if (startSeq < 0) throw new BadUserInputError('startSeq must be 0 or more.', { field: 'startSeq' });
  if (startSeq > endSeq) {
    throw new BadUserInputError(`The range is reversed: startSeq ${startSeq} is after endSeq ${endSeq}.`, {
      field: 'endSeq',
    });
  }
  assertNoNul(input.summary, 'summary');
  assertNoNul(input.createdBy, 'createdBy');
  if (input.createdBy != null && input.createdBy.length > MAX_LABEL_LENGTH) {
    // The same limit appendItems puts on an item's createdBy: the marker is an item.
    throw new BadUserInputError(`createdBy must be at most ${MAX_LABEL_LENGTH} characters.`, {
      field: 'createdBy',
    });
  }
  // The limit is on the marker's data (summary plus range), not the summary alone: an item's
  // data is at most maxItemBytes of JSON, whoever writes it.
  const markerJson = JSON.stringify({ summary: input.summary, startSeq, endSeq });
  const markerBytes = jsonBytes(markerJson);
  if (markerBytes > ctx.limits.maxItemBytes) {
    throw new PayloadTooLargeError(
      `summary makes the marker's data ${markerBytes} bytes of JSON; ` +
        `the limit is ${ctx.limits.maxItemBytes} bytes per item.`,
      { field: 'summary', bytes: markerBytes, limit: ctx.limits.maxItemBytes },
    );
  }
  const now = new Date();
  const tenantId = ctx.tenantId;
  const result = await transaction(ctx.db, async (tx) => {
    const thread = await reserveSeqs(tx, tenantId, threadId, 1, now);
    const markerSeq = thread.nextSeq - 1;
    const lastSeq = markerSeq - 1; // before this marker
    if (endSeq > lastSeq) {
      throw new BadUserInputError(
        lastSeq < 0
          ? 'The thread has no items to compact yet.'
          : `endSeq ${endSeq} is past the thread's last seq ${lastSeq}.`,
        { field: 'endSeq', lastSeq },
      );
    }
    const overlapping = await tx.compaction.findFirst({
      where: { tenantId, threadId, startSeq: { lte: endSeq }, endSeq: { gte: startSeq } },
    });
    if (overlapping) {
      throw new ConflictError(
        `The range ${startSeq}..${endSeq} overlaps the compaction of ${overlapping.startSeq}..${overlapping.endSeq}; clear compactions or pick a range outside it.`,
        { startSeq: overlapping.startSeq, endSeq: overlapping.endSeq },
      );
    }
    const covered = await tx.item.findFirst({
      where: { tenantId, threadId, seq: { gte: startSeq, lte: endSeq }, type: { not: 'compaction' } },
      select: { seq: true },
    });
    if (!covered) {
      throw new BadUserInputError(
        `The range ${startSeq}..${endSeq} holds no stored item other than compaction markers.`,
        { field: 'startSeq' },
      );
    }
    const toolItems = await tx.item.findMany({
      where: { tenantId, threadId, type: { in: ['tool_call', 'tool_result'] } },
      select: { seq: true, type: true, callId: true },
      orderBy: { seq: 'asc' },
    });
    const split = separatedPair(
      pairToolCalls(toolItems.map((t) => ({ ...t, seq: Number(t.seq) }))),
      startSeq,
      endSeq,
    );
    if (split) {
      throw new BadUserInputError(
        `The range ${startSeq}..${endSeq} separates the tool call at seq ${split.callSeq} from its result at seq ${split.resultSeq}; include both or neither.`,
        { callSeq: split.callSeq, resultSeq: split.resultSeq },
      );
    }
    const compaction = await tx.compaction.create({
      data: {
        tenantId,
        threadId,
        startSeq,
        endSeq,
        summary: input.summary,
        createdAt: now,
        createdBy: input.createdBy ?? null,
        markerSeq,
      },
    });
    const [marker] = await insertItems(
      tx,
      tenantId,
      threadId,
      markerSeq,
      [
        {
          type: 'compaction',
          status: 'COMPLETED',
          responseId: null,
          createdBy: input.createdBy ?? null,
          createdAt: now,
          callId: null,
          dataJson: markerJson,
        },
      ],
      now,
    );
    return { compaction: toRecord(compaction), marker: marker!, thread };
  });
  publishAppended(ctx, result.thread, [result.marker], now, 'COMPACTED');
  return result;
}

/**
 * Deletes a thread's compaction records; their markers stay in the log.
 * @throws NotFoundError
 */
export async function clearCompactions(
  ctx: ServiceContext,
  threadId: string,
): Promise<{ thread: Thread; compactionsDeleted: number }> {
  assertThreadId(threadId, 'threadId');
  const now = new Date();
  const result = await transaction(ctx.db, async (tx) => {
    const exists = await tx.thread.findUnique({
      where: { tenantId_id: { tenantId: ctx.tenantId, id: threadId } },
      select: { id: true },
    });
    if (!exists) throw threadNotFound(threadId);
    const { count } = await tx.compaction.deleteMany({ where: { tenantId: ctx.tenantId, threadId } });
    const thread = await tx.thread.update({
      where: { tenantId_id: { tenantId: ctx.tenantId, id: threadId } },
      data: { updatedAt: now },
    });
    return { thread, compactionsDeleted: count };
  });
  ctx.events.publish('thread-events', ctx.tenantId, {
    type: 'COMPACTED',
    tenantId: ctx.tenantId,
    threadId,
    agentId: result.thread.agentId,
    at: now.toISOString(),
  });
  return result;
}

/** The compaction records of several threads in one statement, each list in startSeq order. */
export async function compactionsOf(
  ctx: ServiceContext,
  threadIds: readonly string[],
): Promise<CompactionRecord[][]> {
  const rows = await ctx.db.prisma.compaction.findMany({
    where: { tenantId: ctx.tenantId, threadId: { in: [...threadIds] } },
    orderBy: [{ threadId: 'asc' }, { startSeq: 'asc' }],
  });
  const byThread = new Map<string, CompactionRecord[]>();
  for (const row of rows) {
    const list = byThread.get(row.threadId) ?? [];
    list.push(toRecord(row));
    byThread.set(row.threadId, list);
  }
  return threadIds.map((id) => byThread.get(id) ?? []);
}

/** Compaction records by (threadId, markerSeq), in the order asked; null where missing. */
export async function findCompactions(
  ctx: ServiceContext,
  keys: readonly { threadId: string; markerSeq: number }[],
): Promise<(CompactionRecord | null)[]> {
  const rows = await readInChunks(keys, 3, (chunk) =>
    ctx.db.prisma.compaction.findMany({
      where: { OR: chunk.map((k) => ({ tenantId: ctx.tenantId, threadId: k.threadId, markerSeq: k.markerSeq })) },
    }),
  );
  const byId = new Map(rows.map((row) => [compactionId(row.threadId, Number(row.markerSeq)), toRecord(row)]));
  return keys.map((k) => byId.get(compactionId(k.threadId, k.markerSeq)) ?? null);
}

/** One entry of a thread's context: a record or an uncovered item. */
export type ContextEntry = CompactionRecord | ItemRecord;

/**
 * What an agent sends to its model: each record in place of its range, then every uncovered
 * item, in seq order; markers left out (contract: Thread.context). Two statements.
 */
export async function threadContext(ctx: ServiceContext, thread: Thread): Promise<ContextEntry[]> {
  const records = (
    await ctx.db.prisma.compaction.findMany({
      where: { tenantId: ctx.tenantId, threadId: thread.id },
      orderBy: { startSeq: 'asc' },
    })
  ).map(toRecord);
  // Covered items are left out in SQL, with a fixed number of parameters however many
  // records the thread has.
  const rows = await ctx.db.prisma.$queryRaw<Item[]>`
    SELECT i.* FROM "Item" i
    WHERE i."tenantId" = ${ctx.tenantId} AND i."threadId" = ${thread.id} AND i."type" <> 'compaction'
      AND NOT EXISTS (SELECT 1 FROM "Compaction" c
        WHERE c."tenantId" = i."tenantId" AND c."threadId" = i."threadId"
          AND i."seq" BETWEEN c."startSeq" AND c."endSeq")
    ORDER BY i."seq"`;
  return assembleContext(records, rows.map(toItemRecord));
}

/** True when a context entry is a compaction record. */
export function isCompactionRecord(entry: ContextEntry): entry is CompactionRecord {
  return 'markerSeq' in entry;
}
