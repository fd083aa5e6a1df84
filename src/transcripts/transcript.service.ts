/**
 * A stored thread as a transcript (Thread.transcript) and as a model request
 * (Thread.modelContext), through the codecs in this folder. Both read within the operation's
 * byte budget (MAX_RESPONSE_BYTES, src/read-budget.ts): a thread larger than that is
 * PAYLOAD_TOO_LARGE here and is exported with `GET /threads/<id>/export` or `npm run export`
 * (export-stream.ts), which stream it.
 */

import { isCompactionRecord, threadContext } from '../compaction/compaction.service.js';
import type { CompactionRecord as StoredCompaction } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { BadUserInputError } from '../errors.js';
import type { ItemRecord } from '../items/item.store.js';
import type { JsonValue } from '../json.js';
import { type ReadSubject, readBudget } from '../read-budget.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import {
  type BudgetedRead,
  codecCompactions,
  compactionLine,
  itemLine,
  itemPages,
  storedItem,
  threadCompactions,
  threadLine,
} from './export-stream.js';
import { CODECS, type ContextFormat, modelContext } from './index.js';
import type { Dropped, Encoded, ModelContext, TranscriptFormat } from './types.js';

const TRANSCRIPT: ReadSubject = {
  what: "This thread's items",
  advice:
    'export it with GET /threads/<id>/export?format=<format> or npm run export, which stream it.',
};

/** The operation's budgeted reads for a transcript. */
function budgeted(ctx: ServiceContext): BudgetedRead {
  return (read) => readBudget(ctx).read(TRANSCRIPT, read);
}

/** The formats Thread.modelContext speaks. */
export const CONTEXT_FORMATS: readonly TranscriptFormat[] = [
  'OPENAI_CHAT',
  'OPENAI_RESPONSES',
  'ANTHROPIC_MESSAGES',
];

const droppedByOperation = new WeakMap<object, Dropped[]>();

/**
 * Notes what an operation's transcript or model context left out, for the response's
 * extensions.transcriptDropped (src/server/transcript-dropped.ts adds it).
 */
export function noteDropped(ctx: object, dropped: readonly Dropped[]): void {
  if (dropped.length === 0) return;
  const list = droppedByOperation.get(ctx) ?? [];
  list.push(...dropped);
  droppedByOperation.set(ctx, list);
}

/** What the operation of `ctx` left out so far (empty when nothing). */
export function droppedOf(ctx: object): Dropped[] {
  return droppedByOperation.get(ctx) ?? [];
}

/**
 * The whole stored log of a thread in `format` (contract: Thread.transcript): compaction
 * records are not applied; line formats as an array of one value per line.
 * @returns the value and what the format could not carry (for extensions.transcriptDropped)
 * @throws PayloadTooLargeError when the thread's items pass the operation's read budget
 */
export async function threadTranscript(
  ctx: ServiceContext,
  thread: ThreadRecord,
  format: TranscriptFormat,
): Promise<Encoded> {
  const read = budgeted(ctx);
  const records: ItemRecord[] = [];
  for await (const page of itemPages(ctx, thread.id, read)) records.push(...page);
  const compactions: StoredCompaction[] = await threadCompactions(ctx, thread.id, read);
  if (format === 'THREADSTORE_JSONL') {
    const lines = [
      threadLine(thread),
      ...records.map(itemLine),
      ...compactions.map(compactionLine),
    ];
    return { value: lines as unknown as JsonValue[], dropped: [] };
  }
  return CODECS[format]!.encode(records.map(storedItem), codecCompactions(compactions));
}

/**
 * A thread's compacted context (Thread.context's assembly: each compaction record in place of
 * the items it covers) as a provider request (contract: Thread.modelContext).
 * @throws BadUserInputError for a format that is not a provider request shape;
 *   PayloadTooLargeError when the context passes the operation's read budget
 */
export async function threadModelContext(
  ctx: ServiceContext,
  thread: ThreadRecord,
  format: TranscriptFormat,
): Promise<ModelContext> {
  if (!CONTEXT_FORMATS.includes(format)) {
    throw new BadUserInputError(
      `format: ${format} is a transcript format, not a model request; modelContext speaks ${CONTEXT_FORMATS.join(', ')}.`,
      { argument: 'format' },
    );
  }
  const entries = await threadContext(ctx, thread);
  const items = entries.filter((e): e is ItemRecord => !isCompactionRecord(e)).map(storedItem);
  const records = entries.filter(isCompactionRecord);
  return modelContext(format as ContextFormat, items, codecCompactions(records));
}
