/**
 * A stored thread as a transcript, read page by page: the shared engine of Thread.transcript
 * (all pages, within the operation's read budget), `npm run export` and
 * `GET /threads/<id>/export` (pages written as they come, so memory holds one page and the
 * items of one unfinished user turn, not the thread).
 *
 * Chunking: the codecs encode whole item lists (consecutive items of one response make one
 * message), so a stream encodes one run of whole user turns at a time: it cuts only before a
 * user message that starts a source record (see `startsTurn`), where no codec carries state
 * over. A turn longer than MAX_TURN_ITEMS is cut where the responseId changes. What a stream
 * cannot reproduce exactly, compared with one whole encode: a system text after the first chunk
 * (ANTHROPIC_MESSAGES puts every system text at the top; reported as dropped), callIds re-used
 * across chunks when converting into ANTHROPIC_MESSAGES (not suffixed), AI SDK tool results
 * whose call is in an earlier chunk (dropped, listed). Source-format exports of imported
 * transcripts are exact (test/transcripts-export.test.ts compares them).
 */
import { selectCompactions } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { type ItemRecord, selectItemPage } from '../items/item.store.js';
import { isJsonObject, type JsonValue } from '../json.js';
import type { SizedRows } from '../read-budget.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import { isEnvelope } from './envelope.js';
import { selectItemsAfter } from './export.store.js';
import { CODECS } from './index.js';
import {
  type CompactionLine,
  type ItemLine,
  THREADSTORE_JSONL_VERSION,
  type ThreadLine,
} from './threadstore-jsonl.js';
import type {
  CompactionRecord,
  Dropped,
  JsonObject,
  StoredItem,
  TranscriptFormat,
} from './types.js';

/** Items read per statement. */
export const EXPORT_PAGE_ITEMS = 500;
/** Items one unfinished turn may hold before a stream cuts it where the responseId changes. */
export const MAX_TURN_ITEMS = 5_000;

/** How a format's values are written: one a line, elements of an array, or {system?, messages}. */
export type ExportShape = 'lines' | 'array' | 'messages';

/** The shape of each format's export. */
export function shapeOf(format: TranscriptFormat): ExportShape {
  if (format === 'THREADSTORE_JSONL' || format === 'CLAUDE_CODE_JSONL') return 'lines';
  return format === 'ANTHROPIC_MESSAGES' ? 'messages' : 'array';
}

/** One piece of an export: values (lines, array elements or messages) and what was left out. */
export interface ExportChunk {
  values: JsonValue[];
  /** ANTHROPIC_MESSAGES only: the system prompt (first chunk). */
  system?: JsonValue;
  dropped: Dropped[];
}

/** Reads rows within a byte budget: the operation's (GraphQL) or none (streams). */
export type BudgetedRead = <T>(read: (left: number) => Promise<SizedRows<T>>) => Promise<T[]>;

/** No budget: a stream holds one page at a time, whatever the thread's size. */
export const unbudgeted: BudgetedRead = async (read) => (await read(Number.MAX_SAFE_INTEGER)).rows;

/** A stored item as the codecs take it. */
export function storedItem(record: ItemRecord): StoredItem {
  return {
    id: record.id,
    seq: record.seq,
    type: record.type,
    status: record.status,
    responseId: record.responseId,
    createdAt: record.createdAt.toISOString(),
    createdBy: record.createdBy,
    data: record.data as JsonValue,
    raw: record.raw as JsonValue,
    rawFormat: record.rawFormat as TranscriptFormat | null,
  };
}

/**
 * The thread's items in seq order, one page (EXPORT_PAGE_ITEMS) per statement: within the
 * operation's budget (selectItemPage's running sum), or, for a stream (`unbudgeted`), by a
 * plain LIMIT page (selectItemsAfter), which a stream can afford as it holds one page at a time.
 */
export async function* itemPages(
  ctx: ServiceContext,
  threadId: string,
  read: BudgetedRead,
): AsyncGenerator<ItemRecord[]> {
  let lower = -1;
  for (;;) {
    const page =
      read === unbudgeted
        ? await selectItemsAfter(ctx.db.prisma, ctx.tenantId, threadId, lower, EXPORT_PAGE_ITEMS)
        : await read((left) =>
            selectItemPage(
              ctx.db.prisma,
              {
                tenantId: ctx.tenantId,
                threadId,
                lower,
                upper: null,
                types: null,
                forward: true,
                limit: EXPORT_PAGE_ITEMS,
              },
              left,
            ),
          );
    if (page.length === 0) return;
    yield page;
    if (page.length < EXPORT_PAGE_ITEMS) return;
    lower = page[page.length - 1]!.seq;
  }
}

/** The thread's compaction records in startSeq order (summaries are bounded by their limit). */
export async function threadCompactions(ctx: ServiceContext, threadId: string, read: BudgetedRead) {
  return read((left) => selectCompactions(ctx.db.prisma, ctx.tenantId, [threadId], left));
}

/** THREADSTORE_JSONL's first line (key order as ThreadLine lists them). */
export function threadLine(thread: ThreadRecord): ThreadLine {
  return {
    kind: 'thread',
    version: THREADSTORE_JSONL_VERSION,
    id: thread.id,
    agentId: thread.agentId,
    name: thread.name,
    archived: thread.archived,
    metadata: JSON.parse(thread.metadataJson) as JsonObject,
    createdAt: thread.createdAt.toISOString(),
    updatedAt: thread.updatedAt.toISOString(),
    nextSeq: thread.nextSeq,
  };
}

/** THREADSTORE_JSONL's line for an item. */
export function itemLine(item: ItemRecord): ItemLine {
  return {
    kind: 'item',
    seq: item.seq,
    type: item.type,
    status: item.status,
    responseId: item.responseId,
    createdAt: item.createdAt.toISOString(),
    createdBy: item.createdBy,
    data: item.data as JsonValue,
    raw: item.raw as JsonValue,
    rawFormat: item.rawFormat as TranscriptFormat | null,
  };
}

/** THREADSTORE_JSONL's line for a compaction record. */
export function compactionLine(record: {
  startSeq: number;
  endSeq: number;
  summary: string;
  createdAt: Date;
  createdBy: string | null;
  markerSeq: number;
}): CompactionLine {
  return {
    kind: 'compaction',
    startSeq: record.startSeq,
    endSeq: record.endSeq,
    summary: record.summary,
    createdAt: record.createdAt.toISOString(),
    createdBy: record.createdBy,
    markerSeq: record.markerSeq,
  };
}

/** Stored compaction records as the codecs take them. */
export function codecCompactions(
  records: readonly {
    startSeq: number;
    endSeq: number;
    summary: string;
    createdAt: Date;
    createdBy: string | null;
  }[],
): CompactionRecord[] {
  return records.map((r) => ({
    startSeq: r.startSeq,
    endSeq: r.endSeq,
    summary: r.summary,
    createdAt: r.createdAt.toISOString(),
    createdBy: r.createdBy,
  }));
}

/**
 * True when a stream may cut before this item: a user message that is a whole source record
 * (or no record of `format`), so no codec groups it with the items before it.
 */
export function startsTurn(item: StoredItem, format: TranscriptFormat): boolean {
  if (item.type !== 'message' || !isJsonObject(item.data) || item.data.role !== 'user') {
    return false;
  }
  const raw = item.raw;
  if (raw === null || item.rawFormat !== format || isEnvelope(raw)) return true;
  return isJsonObject(raw) && ('role' in raw || 'message' in raw);
}

/** Where to cut `items` (an index > 0), or 0 for nowhere yet. */
function cutIndex(items: readonly StoredItem[], format: TranscriptFormat): number {
  for (let i = items.length - 1; i > 0; i--) if (startsTurn(items[i]!, format)) return i;
  if (items.length <= MAX_TURN_ITEMS) return 0;
  for (let i = items.length - 1; i > 0; i--) {
    if (items[i]!.responseId !== items[i - 1]!.responseId) return i;
  }
  return 0;
}

/** Encodes a run of whole turns. */
function encodeChunk(
  format: TranscriptFormat,
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[],
  first: boolean,
): ExportChunk {
  const { value, dropped } = CODECS[format]!.encode(items, compactions);
  if (shapeOf(format) !== 'messages') return { values: value as JsonValue[], dropped };
  const { system, messages } = value as { system?: JsonValue; messages: JsonValue[] };
  if (system === undefined || first) return { values: messages, system, dropped };
  const why =
    'a streamed ANTHROPIC_MESSAGES export writes the system prompt of its first turn only; Thread.transcript has all of it';
  return {
    values: messages,
    dropped: [...dropped, { itemId: null, seq: null, what: 'system', why }],
  };
}

/**
 * The thread in `format`, chunk by chunk (see the module docstring). THREADSTORE_JSONL: the
 * thread line, one line per item, then one per compaction record.
 */
export async function* exportChunks(
  ctx: ServiceContext,
  thread: ThreadRecord,
  format: TranscriptFormat,
  read: BudgetedRead = unbudgeted,
): AsyncGenerator<ExportChunk> {
  if (format === 'THREADSTORE_JSONL') {
    yield { values: [threadLine(thread) as unknown as JsonValue], dropped: [] };
    for await (const page of itemPages(ctx, thread.id, read)) {
      yield { values: page.map((i) => itemLine(i) as unknown as JsonValue), dropped: [] };
    }
    const records = await threadCompactions(ctx, thread.id, read);
    yield { values: records.map((r) => compactionLine(r) as unknown as JsonValue), dropped: [] };
    return;
  }
  const compactions = codecCompactions(await threadCompactions(ctx, thread.id, read));
  let buffer: StoredItem[] = [];
  let first = true;
  for await (const page of itemPages(ctx, thread.id, read)) {
    buffer.push(...page.map(storedItem));
    const cut = cutIndex(buffer, format);
    if (cut === 0) continue;
    yield encodeChunk(format, buffer.slice(0, cut), compactions, first);
    first = false;
    buffer = buffer.slice(cut);
  }
  if (buffer.length > 0 || first) yield encodeChunk(format, buffer, compactions, first);
}
