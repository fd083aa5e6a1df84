/**
 * Items as live events carry them (JSON-safe: createdAt as ISO-8601), and the one place an
 * append is published: the items on the thread's `thread-items` topic and the change on the
 * tenant's `thread-events` topic. Called after the transaction commits.
 */
import type { ServiceContext } from '../context.js';
import { itemId } from '../ids.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { type ItemEventData, threadKey } from '../pubsub/topics.js';
import type { ItemRecord } from './item.store.js';
import type { ItemStatus } from './item-types.js';

/** An item as carried in a live event. */
export function toItemEventData(item: ItemRecord): ItemEventData {
  return {
    seq: item.seq,
    type: item.type,
    status: item.status,
    responseId: item.responseId,
    createdAt: item.createdAt.toISOString(),
    createdBy: item.createdBy,
    callId: item.callId,
    data: item.data,
    raw: item.raw,
    rawFormat: item.rawFormat,
  };
}

/** An item from a live event, as the record a read would give. */
export function fromItemEventData(
  tenantId: string,
  threadId: string,
  e: ItemEventData,
): ItemRecord {
  return {
    id: itemId(threadId, e.seq),
    tenantId,
    threadId,
    seq: e.seq,
    type: e.type,
    status: e.status as ItemStatus,
    responseId: e.responseId,
    createdAt: new Date(e.createdAt),
    createdBy: e.createdBy,
    callId: e.callId,
    data: e.data,
    // Events published by an instance of an older version carry neither.
    raw: e.raw ?? null,
    rawFormat: e.rawFormat ?? null,
  };
}

/**
 * Publishes items written to a thread (consecutive seqs) and the thread event: ITEMS_APPENDED,
 * or COMPACTED for a compaction marker.
 * @param items at least one item, in seq order
 */
export function publishAppended(
  ctx: ServiceContext,
  thread: { id: string; agentId: string },
  items: readonly ItemRecord[],
  at: Date,
  eventType: 'ITEMS_APPENDED' | 'COMPACTED' = 'ITEMS_APPENDED',
): void {
  ctx.events.publish('thread-items', threadKey(ctx.tenantId, thread.id), {
    kind: 'appended',
    tenantId: ctx.tenantId,
    threadId: thread.id,
    firstSeq: items[0]!.seq,
    lastSeq: items.at(-1)!.seq,
    items: items.map(toItemEventData),
  });
  publishThreadEvent(ctx.events, ctx.tenantId, eventType, thread, at);
}
