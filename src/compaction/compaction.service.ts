/**
 * Compaction records: LLM summaries standing in for a range of raw items, their marker items,
 * and the assembled context (contract: AddCompactionInput, ClearCompactionsInput,
 * Thread.compactions, Thread.context).
 */
import type { ServiceContext } from '../context.js';
import { type Executor, transaction } from '../db/transaction.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  threadNotFound,
} from '../errors.js';
import { assertThreadId, compactionId } from '../ids.js';
import { reserveSeqs } from '../items/item.service.js';
import {
  hasItemNotOfType,
  type ItemRecord,
  insertItems,
  type PreparedItem,
  selectResponseItems,
  selectToolItems,
} from '../items/item.store.js';
import { publishAppended } from '../items/item-events.js';
import { jsonBytes } from '../json.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { type ReadSubject, readBudget } from '../read-budget.js';
import { selectThread, type ThreadRecord, touchThread } from '../threads/thread.store.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { compactionEvent } from '../webhooks/webhook-events.js';
import {
  type CompactionRecord,
  deleteCompactionRows,
  insertCompaction,
  selectCompactions,
  selectCompactionsByMarker,
  selectOverlapping,
  selectUncoveredItems,
} from './compaction.store.js';
import {
  assembleContext,
  pairToolCalls,
  type ResponseItemRef,
  separatedPair,
  splitResponse,
  type ToolItemRef,
} from './context.js';

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
 * Checks what can be checked without the database and serialises the marker's data (also
 * for the transcript importer, which writes records of a new thread).
 * @returns the marker's data as JSON text
 * @throws BadUserInputError, PayloadTooLargeError (see addCompaction)
 */
export function checkCompactionInput(ctx: ServiceContext, input: AddCompactionInput): string {
  assertThreadId(input.threadId, 'threadId');
  const { startSeq, endSeq } = input;
  if (startSeq < 0)
    throw new BadUserInputError('startSeq must be 0 or more.', { field: 'startSeq' });
  if (startSeq > endSeq) {
    throw new BadUserInputError(
      `The range is reversed: startSeq ${startSeq} is after endSeq ${endSeq}.`,
      {
        field: 'endSeq',
      },
    );
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
  return markerJson;
}

/** An item as the range rules see it (a stored item, an import's draft, a dump's line). */
export type RangeItem = ToolItemRef & ResponseItemRef;

/**
 * The range rules that look at the items (ARCHITECTURE.md, "What the data means"; the one
 * place they are written, for addCompaction, the importer and dump restores):
 * - a range separates no tool call from its result (contract: AddCompactionInput);
 * - a range cuts no response apart (items sharing a responseId): providers refuse a replayed
 *   response that lost some of its items (Anthropic: a thinking block separated from the text
 *   and tool_use of its turn).
 * @param items the thread's items (tool items all of them; response items at least those
 *   sharing a responseId with an item in the range), in seq order
 * @returns the message and error details of the first rule broken, or null
 */
export function rangeRuleProblem(
  items: readonly RangeItem[],
  range: { startSeq: number; endSeq: number },
): { message: string; details: Record<string, unknown> } | null {
  const { startSeq, endSeq } = range;
  const pair = separatedPair(pairToolCalls(items), startSeq, endSeq);
  if (pair) {
    return {
      message: `The range ${startSeq}..${endSeq} separates the tool call at seq ${pair.callSeq} from its result at seq ${pair.resultSeq}; include both or neither.`,
      details: { callSeq: pair.callSeq, resultSeq: pair.resultSeq },
    };
  }
  const split = splitResponse(items, startSeq, endSeq);
  if (split) {
    return {
      message: `The range ${startSeq}..${endSeq} cuts response ${JSON.stringify(split.responseId)} apart (its item at seq ${split.insideSeq} inside, at seq ${split.outsideSeq} outside); a provider refuses a replayed response missing some of its items (Anthropic: thinking without its text and tool_use). Include all of the response's items or none.`,
      details: { ...split },
    };
  }
  return null;
}

/**
 * The compaction rule, checked inside the transaction that holds the thread's row: the range
 * ends at or before `lastSeq`, overlaps no record, holds a stored item other than markers,
 * and breaks no rule of rangeRuleProblem (tool pairs, responses).
 * @throws BadUserInputError, ConflictError (see addCompaction)
 */
async function checkRange(
  tx: Executor,
  tenantId: string,
  threadId: string,
  range: { startSeq: number; endSeq: number },
  lastSeq: number,
): Promise<void> {
  const { startSeq, endSeq } = range;
  if (endSeq > lastSeq) {
    throw new BadUserInputError(
      lastSeq < 0
        ? 'The thread has no items to compact yet.'
        : `endSeq ${endSeq} is past the thread's last seq ${lastSeq}.`,
      { field: 'endSeq', lastSeq },
    );
  }
  const overlapping = await selectOverlapping(tx, tenantId, threadId, range);
  if (overlapping) {
    throw new ConflictError(
      `The range ${startSeq}..${endSeq} overlaps the compaction of ${overlapping.startSeq}..${overlapping.endSeq}; clear compactions or pick a range outside it.`,
      { startSeq: overlapping.startSeq, endSeq: overlapping.endSeq },
    );
  }
  if (!(await hasItemNotOfType(tx, tenantId, threadId, range, 'compaction'))) {
    throw new BadUserInputError(
      `The range ${startSeq}..${endSeq} holds no stored item other than compaction markers.`,
      { field: 'startSeq' },
    );
  }
  const tools = await selectToolItems(tx, tenantId, threadId);
  const responses = await selectResponseItems(tx, tenantId, threadId, range);
  const bySeq = new Map<number, RangeItem>();
  for (const item of tools) bySeq.set(item.seq, { ...item, responseId: null });
  for (const item of responses) bySeq.set(item.seq, item);
  const items = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  const problem = rangeRuleProblem(items, range);
  if (problem) throw new BadUserInputError(problem.message, problem.details);
}

/**
 * Records a summary of items startSeq..endSeq and appends its compaction marker, with the
 * COMPACTION_ADDED webhook event, in one transaction that first takes the thread's row (so concurrent compactions of one thread
 * serialise).
 * @throws BadUserInputError reversed range, negative start, past lastSeq, no stored item
 *   other than markers, a tool call separated from its result, a response cut apart,
 *   createdBy over 256 chars
 * @throws PayloadTooLargeError when the marker's data would be over the item size limit
 * @throws ConflictError overlap with an existing record
 * @throws NotFoundError unknown thread
 */
export async function addCompaction(
  ctx: ServiceContext,
  input: AddCompactionInput,
): Promise<{ compaction: CompactionRecord; marker: ItemRecord; thread: ThreadRecord }> {
  const markerJson = checkCompactionInput(ctx, input);
  const { threadId, startSeq, endSeq } = input;
  const createdBy = input.createdBy ?? null;
  const now = new Date();
  const { tenantId } = ctx;
  const result = await transaction(ctx.db, async (tx) => {
    const thread = await reserveSeqs(tx, tenantId, threadId, 1, now);
    const markerSeq = thread.nextSeq - 1;
    await checkRange(tx, tenantId, threadId, { startSeq, endSeq }, markerSeq - 1);
    const compaction = await insertCompaction(tx, {
      tenantId,
      threadId,
      startSeq,
      endSeq,
      summary: input.summary,
      createdAt: now,
      createdBy,
      markerSeq,
    });
    const marker: PreparedItem = {
      type: 'compaction',
      status: 'COMPLETED',
      responseId: null,
      createdBy,
      createdAt: now,
      callId: null,
      dataJson: markerJson,
      rawJson: null,
      rawFormat: null,
    };
    const [written] = await insertItems(tx, tenantId, threadId, markerSeq, [marker], now);
    await recordWebhookEvent(tx, compactionEvent(compaction, now));
    return { compaction, marker: written!, thread };
  });
  publishAppended(ctx, result.thread, [result.marker], now, 'COMPACTED');
  wakeWebhookWorkers();
  return result;
}

/**
 * Deletes a thread's compaction records; their markers stay in the log.
 * @throws NotFoundError
 */
export async function clearCompactions(
  ctx: ServiceContext,
  threadId: string,
): Promise<{ thread: ThreadRecord; compactionsDeleted: number }> {
  assertThreadId(threadId, 'threadId');
  const now = new Date();
  const { tenantId } = ctx;
  const result = await transaction(ctx.db, async (tx) => {
    if (!(await selectThread(tx, tenantId, threadId))) throw threadNotFound(threadId);
    const compactionsDeleted = await deleteCompactionRows(tx, tenantId, threadId);
    const thread = await touchThread(tx, tenantId, threadId, now);
    if (!thread) throw threadNotFound(threadId);
    return { thread, compactionsDeleted };
  });
  publishThreadEvent(ctx.events, tenantId, 'COMPACTED', result.thread, now);
  return result;
}

const SUMMARIES: ReadSubject = {
  what: 'These compaction summaries',
  advice: 'ask for fewer threads or ids per request.',
};
const CONTEXT: ReadSubject = {
  what: "This thread's context (summaries and uncovered items)",
  advice: 'read it with Thread.items in pages (first/last), or compact the thread.',
};

/** The compaction records of several threads in one statement, each list in startSeq order. */
export async function compactionsOf(
  ctx: ServiceContext,
  threadIds: readonly string[],
): Promise<CompactionRecord[][]> {
  const byThread = new Map<string, CompactionRecord[]>();
  const records = await readBudget(ctx).read(SUMMARIES, (left) =>
    selectCompactions(ctx.db.prisma, ctx.tenantId, threadIds, left),
  );
  for (const record of records) {
    const list = byThread.get(record.threadId) ?? [];
    list.push(record);
    byThread.set(record.threadId, list);
  }
  return threadIds.map((id) => byThread.get(id) ?? []);
}

/** Compaction records by (threadId, markerSeq), in the order asked; null where missing. */
export async function findCompactions(
  ctx: ServiceContext,
  keys: readonly { threadId: string; markerSeq: number }[],
): Promise<(CompactionRecord | null)[]> {
  const records = await readBudget(ctx).read(SUMMARIES, (left) =>
    selectCompactionsByMarker(ctx.db.prisma, ctx.tenantId, keys, left),
  );
  const byId = new Map(records.map((record) => [record.id, record]));
  return keys.map((k) => byId.get(compactionId(k.threadId, k.markerSeq)) ?? null);
}

/** One entry of a thread's context: a record or an uncovered item. */
export type ContextEntry = CompactionRecord | ItemRecord;

/**
 * What an agent sends to its model: each record in place of its range, then every uncovered
 * item, in seq order; markers left out (contract: Thread.context). Two statements.
 */
export async function threadContext(
  ctx: ServiceContext,
  thread: ThreadRecord,
): Promise<ContextEntry[]> {
  const budget = readBudget(ctx);
  const [records, items] = await Promise.all([
    budget.read(CONTEXT, (left) =>
      selectCompactions(ctx.db.prisma, ctx.tenantId, [thread.id], left),
    ),
    budget.read(CONTEXT, (left) =>
      selectUncoveredItems(ctx.db.prisma, ctx.tenantId, thread.id, left),
    ),
  ]);
  return assembleContext(records, items);
}

/** True when a context entry is a compaction record. */
export function isCompactionRecord(entry: ContextEntry): entry is CompactionRecord {
  return 'markerSeq' in entry;
}
