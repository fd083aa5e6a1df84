/**
 * Restores a THREADSTORE_JSONL dump (line shapes: src/transcripts/threadstore-jsonl.ts) as a
 * new thread with the dump's seqs (gaps included), times, flags, items (raw kept), compaction
 * records and nextSeq, in one transaction, so dumping it again gives the same bytes. Items are
 * checked by appendItems' rules and written with their data verbatim.
 */
import { checkCompactionInput, rangeRuleProblem } from '../compaction/compaction.service.js';
import { insertCompaction } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { transaction } from '../db/transaction.js';
import { BadUserInputError, quote, wellFormed } from '../errors.js';
import { isSeq, isThreadId } from '../ids.js';
import { checkItemBytes, type NewItemInput, prepareItem } from '../items/item.service.js';
import {
  type ItemRecord,
  insertItems,
  type PreparedItem,
  usageOfItems,
} from '../items/item.store.js';
import { publishAppended } from '../items/item-events.js';
import { ITEM_KINDS, ITEM_STATUSES, type ItemStatus } from '../items/item-types.js';
import { isJsonObject, type JsonValue, jsonHash } from '../json.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { itemSearchText } from '../search/search-text.js';
import { defaultExpiresAt, insertNewThread, newThreadRow } from '../threads/thread.service.js';
import { MAX_USAGE_TOTAL } from '../threads/thread.store.js';
import { linesOf } from '../transcripts/claude-code.js';
import {
  type CompactionLine,
  type ItemLine,
  THREADSTORE_JSONL_VERSION,
  type ThreadLine,
} from '../transcripts/threadstore-jsonl.js';
import { TRANSCRIPT_FORMATS, TranscriptError } from '../transcripts/types.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { appendedEvent, threadEvent } from '../webhooks/webhook-events.js';
import {
  asUserError,
  type ConversationOptions,
  IMPORT_TRANSACTION_TIMEOUT_MS,
  type ImportResult,
  replayImport,
} from './import.service.js';
import { insertImportKey, setRestoredThread } from './import.store.js';

/** A dump's lines, checked for shape. */
export interface Dump {
  thread: ThreadLine;
  items: ItemLine[];
  compactions: CompactionLine[];
}

const fail = (line: number, reason: string) => new TranscriptError(`line ${line}`, reason);

/** An ISO-8601 time of a line, or a TranscriptError. */
function timeOf(value: unknown, line: number, key: string): Date {
  const t = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(t)) throw fail(line, `${key} must be an ISO-8601 time`);
  return new Date(t);
}

function checkThreadLine(value: JsonValue): ThreadLine {
  if (!isJsonObject(value) || value.kind !== 'thread') {
    throw fail(1, 'the first line must be the thread ({"kind":"thread",...})');
  }
  if (value.version !== THREADSTORE_JSONL_VERSION) {
    throw fail(1, `version ${JSON.stringify(value.version)} is not ${THREADSTORE_JSONL_VERSION}`);
  }
  for (const key of ['id', 'agentId'] as const) {
    if (typeof value[key] !== 'string') throw fail(1, `${key} must be a string`);
  }
  if (!Number.isInteger(value.nextSeq) || (value.nextSeq as number) < 0) {
    throw fail(1, 'nextSeq must be an integer, 0 or more');
  }
  if (value.forkedFrom !== undefined) {
    const origin = value.forkedFrom;
    if (
      !isJsonObject(origin) ||
      typeof origin.threadId !== 'string' ||
      !isThreadId(origin.threadId) ||
      !isSeq(origin.seq) ||
      (origin.seq as number) >= (value.nextSeq as number)
    ) {
      throw fail(
        1,
        'forkedFrom must be {"threadId": <a thread id>, "seq": <an integer from 0 to nextSeq - 1>}',
      );
    }
  }
  timeOf(value.createdAt, 1, 'createdAt');
  timeOf(value.updatedAt, 1, 'updatedAt');
  return value as unknown as ThreadLine;
}

/**
 * The lines of a dump (an array of values, or JSONL text), checked for shape and order.
 * @throws TranscriptError naming the line (1-based)
 */
export function parseDump(source: unknown): Dump {
  const lines = linesOf(source);
  if (lines.length === 0) throw new TranscriptError(null, 'the dump is empty');
  const thread = checkThreadLine(lines[0]!);
  const items: ItemLine[] = [];
  const compactions: CompactionLine[] = [];
  let lastSeq = -1;
  lines.slice(1).forEach((value, i) => {
    const n = i + 2;
    if (!isJsonObject(value)) throw fail(n, 'a line must be a JSON object');
    if (value.kind === 'item') {
      if (compactions.length > 0) throw fail(n, 'items come before compaction records');
      const seq = value.seq;
      if (
        !Number.isInteger(seq) ||
        (seq as number) <= lastSeq ||
        (seq as number) >= thread.nextSeq
      ) {
        throw fail(
          n,
          `seq must be an integer after ${lastSeq} and before nextSeq ${thread.nextSeq}`,
        );
      }
      lastSeq = seq as number;
      items.push(value as unknown as ItemLine);
    } else if (value.kind === 'compaction') {
      compactions.push(value as unknown as CompactionLine);
    } else {
      throw fail(n, `unknown kind ${JSON.stringify(value.kind ?? null)}`);
    }
  });
  return { thread, items, compactions };
}

/**
 * A dumped item checked by appendItems' rules (body, labels, size, raw) and serialised with
 * its data verbatim (a restore must give the same bytes back, whatever the rules would
 * normalise).
 * @throws BadUserInputError, PayloadTooLargeError naming "line N"
 */
function prepareDumpedItem(ctx: ServiceContext, item: ItemLine, line: number): PreparedItem {
  const path = `transcript: line ${line}`;
  const createdAt = timeOf(item.createdAt, line, 'createdAt');
  if (!(ITEM_STATUSES as readonly string[]).includes(item.status)) {
    throw new BadUserInputError(`${path}: status must be one of ${ITEM_STATUSES.join(', ')}.`);
  }
  if (item.rawFormat !== null && !TRANSCRIPT_FORMATS.includes(item.rawFormat)) {
    throw new BadUserInputError(
      `${path}: rawFormat must be one of ${TRANSCRIPT_FORMATS.join(', ')}.`,
    );
  }
  const dataJson = JSON.stringify(item.data);
  const common = {
    status: item.status as ItemStatus,
    responseId: item.responseId,
    createdBy: item.createdBy,
    createdAt,
    raw: item.raw,
    rawFormat: item.rawFormat,
  };
  if (item.type === 'compaction') {
    const d = isJsonObject(item.data) ? item.data : {};
    if (
      typeof d.summary !== 'string' ||
      !Number.isInteger(d.startSeq) ||
      !Number.isInteger(d.endSeq)
    ) {
      throw new BadUserInputError(
        `${path}: a compaction marker's data is {summary, startSeq, endSeq}.`,
      );
    }
    // The other rules through an item of the same labels, raw and size.
    const check = prepareItem(ctx, { ...common, other: { type: 'marker', data: item.data } }, path);
    return { ...check, type: 'compaction', callId: null, dataJson };
  }
  const kind = ITEM_KINDS.find((k) => k.type === item.type);
  const input: NewItemInput = kind?.bodyField
    ? { ...common, [kind.bodyField]: item.data as Record<string, unknown> }
    : { ...common, other: { type: item.type, data: item.data } };
  const prepared = prepareItem(ctx, input, path);
  // The data written is the dump's, not the one prepareItem normalised: checked again.
  checkItemBytes(ctx, dataJson, prepared.rawJson, path);
  return {
    ...prepared,
    type: item.type,
    dataJson,
    searchText: itemSearchText(item.type, item.data),
  };
}

/** Runs of consecutive seqs: [firstSeq, items][]. */
function runs(seqs: readonly number[], items: PreparedItem[]): [number, PreparedItem[]][] {
  const out: [number, PreparedItem[]][] = [];
  seqs.forEach((seq, i) => {
    const last = out.at(-1);
    if (last && last[0] + last[1].length === seq) last[1].push(items[i]!);
    else out.push([seq, [items[i]!]]);
  });
  return out;
}

/** The dump's compaction records as rows, checked by the compaction rules (line numbers). */
function compactionRows(ctx: ServiceContext, dump: Dump, lineOf: (i: number) => number) {
  const { thread: t, items, compactions } = dump;
  const rangeItems = items.map((item) => {
    const data = isJsonObject(item.data) ? item.data : {};
    const callId = typeof data.callId === 'string' ? data.callId : null;
    return { seq: item.seq, type: item.type, callId, responseId: item.responseId ?? null };
  });
  return compactions.map((c, i) => {
    const line = lineOf(items.length + i);
    checkCompactionInput(ctx, { threadId: t.id, ...c });
    // addCompaction's rules on the dump's items (purged ones are not there, as in the store).
    const rule = rangeRuleProblem(rangeItems, c);
    if (rule) {
      throw new BadUserInputError(`transcript: line ${line}: ${rule.message}`, rule.details);
    }
    return {
      tenantId: ctx.tenantId,
      startSeq: c.startSeq,
      endSeq: c.endSeq,
      summary: c.summary,
      createdAt: timeOf(c.createdAt, line, 'createdAt'),
      createdBy: c.createdBy,
      markerSeq: c.markerSeq,
    };
  });
}

/**
 * Restores a dump as a new thread. The thread's id, name and metadata are the dump's unless
 * `options` give others; its agentId and everything else are the dump's (contract: a dump
 * "restores byte-identical"). An agentId in `options` (the mutation requires one) must be the
 * dump's: the agent a thread belongs to is part of what was dumped, and no identity rule
 * lets a caller claim or change it (agentId is a label, not a principal: src/identity), so a
 * different one is refused rather than silently replaced or silently ignored. To restore a
 * dump as another agent's, edit its thread line.
 * @throws BadUserInputError naming the line, or the agentId that differs; ConflictError (id
 *   taken or deleted, key reused)
 */
export async function restoreDump(
  ctx: ServiceContext,
  source: unknown,
  options: Partial<ConversationOptions>,
): Promise<ImportResult> {
  let dump: Dump;
  try {
    dump = parseDump(source);
  } catch (error) {
    throw asUserError(error);
  }
  const { thread: t, items } = dump;
  if (options.agentId != null && options.agentId !== t.agentId) {
    throw new BadUserInputError(
      `agentId: a restore keeps the dump's agentId ${quote(t.agentId, 64)} (line 1); send agentId ${quote(t.agentId, 64)}, or change the thread line's agentId to restore it as another agent's.`,
      { field: 'agentId', dumpAgentId: wellFormed(t.agentId, 64) },
    );
  }
  const lineOf = (i: number) => i + 2;
  const prepared = items.map((item, i) => prepareDumpedItem(ctx, item, lineOf(i)));
  const records = compactionRows(ctx, dump, lineOf);
  const usage = usageOfItems(prepared);
  // As appends (reserveSeqs): a total past 2^53-1 could not be read back as a SafeInt.
  for (const total of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
    if (usage[total] > MAX_USAGE_TOTAL) {
      throw new BadUserInputError(
        `transcript: the messages' usage adds up to more than 2^53-1 ${total}; a thread's usage totals must stay below it.`,
        { field: 'transcript' },
      );
    }
  }
  const row = newThreadRow(
    ctx,
    {
      id: options.threadId ?? t.id,
      agentId: t.agentId,
      name: options.name === undefined || options.name === null ? t.name : options.name,
      metadata: options.metadata ?? t.metadata,
      // RETENTION_DAYS counts from the restore: from the dump's createdAt, an old dump would
      // come back already expired.
      expiresAt: defaultExpiresAt(ctx, new Date()),
    },
    new Date(t.createdAt),
  );
  const key = options.idempotencyKey ?? null;
  const requestHash = jsonHash({ dump, thread: { id: row.id, agentId: row.agentId } });
  const now = new Date();
  for (let attempt = 0; ; attempt++) {
    const replay = await replayImport(ctx, { key, requestHash });
    if (replay) return replay;
    try {
      const written = await transaction(
        ctx.db,
        async (tx) => {
          await insertNewThread(tx, row);
          const written: ItemRecord[] = [];
          for (const [firstSeq, run] of runs(
            items.map((i) => i.seq),
            prepared,
          )) {
            written.push(...(await insertItems(tx, ctx.tenantId, row.id, firstSeq, run, now)));
          }
          for (const r of records) await insertCompaction(tx, { ...r, threadId: row.id });
          const thread = await setRestoredThread(tx, ctx.tenantId, row.id, {
            archived: t.archived === true,
            nextSeq: t.nextSeq,
            itemCount: written.length,
            usage,
            updatedAt: new Date(t.updatedAt),
            forkedFromId: t.forkedFrom?.threadId ?? null,
            forkedFromSeq: t.forkedFrom?.seq ?? null,
          });
          await recordWebhookEvent(tx, threadEvent('THREAD_CREATED', thread, now));
          if (written.length > 0) {
            const range = {
              firstSeq: written[0]!.seq,
              lastSeq: written[written.length - 1]!.seq,
              count: written.length,
            };
            await recordWebhookEvent(tx, appendedEvent(ctx.tenantId, row.id, range, now));
          }
          if (key !== null) {
            await insertImportKey(tx, {
              tenantId: ctx.tenantId,
              key,
              requestHash,
              threadId: row.id,
              itemCount: written.length,
              compactionCount: records.length,
              createdAt: now,
            });
          }
          return { thread, written };
        },
        { timeoutMs: IMPORT_TRANSACTION_TIMEOUT_MS },
      );
      publishThreadEvent(ctx.events, ctx.tenantId, 'CREATED', written.thread, now);
      if (written.written.length > 0) publishAppended(ctx, written.thread, written.written, now);
      wakeWebhookWorkers();
      return {
        thread: written.thread,
        itemsImported: written.written.length,
        compactionsImported: records.length,
        replayed: false,
      };
    } catch (error) {
      if (key !== null && isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}
