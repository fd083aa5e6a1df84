/**
 * The webhook event types (contract part beyond: WebhookEvent), written once: the GraphQL enum,
 * the stored names and the TypeScript type derive from this list. Also the shape of each
 * event's `data` (README, Webhooks), built here so that every writer sends the same shape.
 */
import type { CompactionRecord } from '../compaction/compaction.store.js';
import { compactionId } from '../ids.js';
import type { ThreadRecord } from '../threads/thread.store.js';

export const WEBHOOK_EVENTS = [
  'THREAD_CREATED',
  'THREAD_UPDATED',
  'THREAD_DELETED',
  'ITEMS_APPENDED',
  'COMPACTION_ADDED',
  'ITEMS_PURGED',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** One change as the outbox records it (one row per subscribed webhook). */
export interface WebhookEvent {
  tenantId: string;
  threadId: string;
  type: WebhookEventType;
  /** When the change happened (the body's "at"). */
  at: Date;
  /** The body's "data" (small: consumers read the rest through the API). */
  data: Record<string, unknown>;
}

/**
 * `data` of THREAD_CREATED and THREAD_UPDATED: the thread's fields without its metadata (which
 * may be up to MAX_ITEM_BYTES; read it through the API).
 */
export function threadData(thread: ThreadRecord): Record<string, unknown> {
  return {
    thread: {
      id: thread.id,
      agentId: thread.agentId,
      name: thread.name,
      archived: thread.archived,
      createdAt: thread.createdAt.toISOString(),
      updatedAt: thread.updatedAt.toISOString(),
      lastSeq: thread.nextSeq > 0 ? thread.nextSeq - 1 : null,
      itemCount: thread.itemCount,
      expiresAt: thread.expiresAt?.toISOString() ?? null,
      forkedFrom:
        thread.forkedFromId == null
          ? null
          : { threadId: thread.forkedFromId, seq: thread.forkedFromSeq },
    },
  };
}

/** A thread event (created, updated) of `thread` at `at`. */
export function threadEvent(
  type: 'THREAD_CREATED' | 'THREAD_UPDATED',
  thread: ThreadRecord,
  at: Date,
): WebhookEvent {
  return { tenantId: thread.tenantId, threadId: thread.id, type, at, data: threadData(thread) };
}

/**
 * `data` of ITEMS_APPENDED: the seqs firstSeq..lastSeq and how many items were written (their
 * ids are "<threadId>:<seq>"). Key order is fixed: PostgreSQL's one-statement append writes
 * the same text in SQL (webhook.store.ts, appendedOutboxCte).
 */
export function appendedData(firstSeq: number, lastSeq: number, count: number) {
  return { firstSeq, lastSeq, count };
}

/**
 * COMPACTION_ADDED of a record written at `at`: its id (as CompactionRecord.id), range and
 * marker seq (the summary itself: read it through the API).
 */
export function compactionEvent(
  record: Pick<CompactionRecord, 'tenantId' | 'threadId' | 'startSeq' | 'endSeq' | 'markerSeq'>,
  at: Date,
): WebhookEvent {
  return {
    tenantId: record.tenantId,
    threadId: record.threadId,
    type: 'COMPACTION_ADDED',
    at,
    data: {
      compactionId: compactionId(record.threadId, record.markerSeq),
      startSeq: record.startSeq,
      endSeq: record.endSeq,
      markerSeq: record.markerSeq,
    },
  };
}

/** ITEMS_APPENDED of items firstSeq..lastSeq (`count` of them) of a thread, at `at`. */
export function appendedEvent(
  tenantId: string,
  threadId: string,
  range: { firstSeq: number; lastSeq: number; count: number },
  at: Date,
): WebhookEvent {
  return {
    tenantId,
    threadId,
    type: 'ITEMS_APPENDED',
    at,
    data: appendedData(range.firstSeq, range.lastSeq, range.count),
  };
}
