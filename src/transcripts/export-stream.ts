/**
 * A stored thread as a transcript, read page by page: the shared engine of Thread.transcript
 * (all pages, within the operation's read budget), `npm run export` and
 * `GET /threads/<id>/export` (pages written as they come, so memory holds one page and the
 * items of one unfinished run, not the thread).
 *
 * Chunking: the codecs encode item lists (consecutive items of one response make one message),
 * so a stream encodes one run of whole messages at a time, with one EncodeState for the thread
 * (tool_use ids given out and calls waiting for a result, Claude Code compact boundaries), so
 * its chunks together equal one whole encode. It cuts (see `cutIndex`) where no tool call waits
 * for its result and the target format's encoder surely starts a new value with the next item
 * (TranscriptCodec.startsValue: the codec says, as it knows which items it groups; e.g.
 * CLAUDE_CODE_JSONL puts the blocks of a split Anthropic record into one line, so it never
 * starts a line with the second block). A buffer longer than MAX_TURN_ITEMS without such a place is cut where
 * the responseId changes. What a stream cannot reproduce exactly, compared with one whole
 * encode (test/transcripts-export.test.ts compares every fixture in every format, cut into
 * many chunks): a system text after the first chunk (ANTHROPIC_MESSAGES puts every system text
 * at the top, CLAUDE_CODE_JSONL in one system line per run of converted items; listed as
 * dropped for ANTHROPIC_MESSAGES); and, only after a turn longer than MAX_TURN_ITEMS was cut
 * between tool calls and their results, an AI SDK tool result whose call went in an earlier
 * chunk (listed as dropped).
 */
import { selectCompactions } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { type ItemRecord, selectItemPage } from '../items/item.store.js';
import { isJsonObject, type JsonValue } from '../json.js';
import type { SizedRows } from '../read-budget.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import { selectItemsAfter } from './export.store.js';
import { CODECS } from './index.js';
import {
  type CompactionLine,
  type ItemLine,
  THREADSTORE_JSONL_VERSION,
  type ThreadLine,
} from './threadstore-jsonl.js';
import {
  type CompactionRecord,
  type Dropped,
  type EncodeState,
  type JsonObject,
  newEncodeState,
  type StoredItem,
  type TranscriptFormat,
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
 * The thread's items in seq order, one page (`pageItems`) per statement: within the
 * operation's budget (selectItemPage's running sum), or, for a stream (`unbudgeted`), by a
 * plain LIMIT page (selectItemsAfter), which a stream can afford as it holds one page at a time.
 */
export async function* itemPages(
  ctx: ServiceContext,
  threadId: string,
  read: BudgetedRead,
  pageItems = EXPORT_PAGE_ITEMS,
): AsyncGenerator<ItemRecord[]> {
  let lower = -1;
  for (;;) {
    const page =
      read === unbudgeted
        ? await selectItemsAfter(ctx.db.prisma, ctx.tenantId, threadId, lower, pageItems)
        : await read((left) =>
            selectItemPage(
              ctx.db.prisma,
              {
                provider: ctx.db.provider,
                tenantId: ctx.tenantId,
                threadId,
                lower,
                upper: null,
                types: null,
                forward: true,
                limit: pageItems,
              },
              left,
            ),
          );
    if (page.length === 0) return;
    yield page;
    if (page.length < pageItems) return;
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
    ...(thread.forkedFromId !== null && thread.forkedFromSeq !== null
      ? { forkedFrom: { threadId: thread.forkedFromId, seq: thread.forkedFromSeq } }
      : {}),
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

/** Tool calls not answered yet, by callId (a count: callIds are re-used). */
type OpenCalls = Map<string, number>;

/** Counts a tool call as open and a tool result as answering one. */
function track(open: OpenCalls, item: StoredItem): void {
  if (item.type !== 'tool_call' && item.type !== 'tool_result') return;
  const callId = isJsonObject(item.data) ? item.data.callId : undefined;
  if (typeof callId !== 'string') return;
  const n = open.get(callId) ?? 0;
  if (item.type === 'tool_call') open.set(callId, n + 1);
  else if (n <= 1) open.delete(callId);
  else open.set(callId, n - 1);
}

/**
 * Where to cut `items` (an index > 0), or 0 for nowhere yet: the last place where no tool call
 * waits for its result (calls still open from earlier chunks in `open`) and the format's encoder
 * surely starts a new value (its codec's startsValue: it groups nothing before with the item). A buffer longer than `maxTurnItems` without such a place is cut
 * where the responseId changes: where no call waits if there is such a place, else anywhere
 * (an AI SDK tool result cut from its call is then listed as dropped).
 */
function cutIndex(
  items: readonly StoredItem[],
  format: TranscriptFormat,
  open: OpenCalls,
  maxTurnItems: number,
): number {
  const codec = CODECS[format]!;
  const calls = new Map(open);
  let cut = 0;
  let calm = 0;
  let forced = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (i > 0) {
      const starts = codec.startsValue(item);
      const change = starts || item.responseId !== items[i - 1]!.responseId;
      if (calls.size === 0 && starts) cut = i;
      if (calls.size === 0 && change) calm = i;
      if (change) forced = i;
    }
    track(calls, item);
  }
  if (cut > 0) return cut;
  if (items.length <= maxTurnItems) return 0;
  return calm || forced;
}

/** Encodes a run of whole turns, carrying the codec's state to the next. */
function encodeChunk(
  format: TranscriptFormat,
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[],
  first: boolean,
  state: EncodeState,
): ExportChunk {
  const { value, dropped } = CODECS[format]!.encode(items, compactions, state);
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

/** Chunk sizes of a stream; tests make them small to get many chunks. */
export interface ExportOptions {
  /** Items read per statement (default EXPORT_PAGE_ITEMS). */
  pageItems?: number;
  /** Items a buffer may hold before it is cut without a safe place (default MAX_TURN_ITEMS). */
  maxTurnItems?: number;
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
  options: ExportOptions = {},
): AsyncGenerator<ExportChunk> {
  const pageItems = options.pageItems ?? EXPORT_PAGE_ITEMS;
  const maxTurnItems = options.maxTurnItems ?? MAX_TURN_ITEMS;
  if (format === 'THREADSTORE_JSONL') {
    yield { values: [threadLine(thread) as unknown as JsonValue], dropped: [] };
    for await (const page of itemPages(ctx, thread.id, read, pageItems)) {
      yield { values: page.map((i) => itemLine(i) as unknown as JsonValue), dropped: [] };
    }
    const records = await threadCompactions(ctx, thread.id, read);
    yield { values: records.map((r) => compactionLine(r) as unknown as JsonValue), dropped: [] };
    return;
  }
  const compactions = codecCompactions(await threadCompactions(ctx, thread.id, read));
  const state = newEncodeState();
  const open: OpenCalls = new Map();
  let buffer: StoredItem[] = [];
  let first = true;
  for await (const page of itemPages(ctx, thread.id, read, pageItems)) {
    buffer.push(...page.map(storedItem));
    const cut = cutIndex(buffer, format, open, maxTurnItems);
    if (cut === 0) continue;
    const run = buffer.slice(0, cut);
    for (const item of run) track(open, item);
    yield encodeChunk(format, run, compactions, first, state);
    first = false;
    buffer = buffer.slice(cut);
  }
  if (buffer.length > 0 || first) yield encodeChunk(format, buffer, compactions, first, state);
}
