/**
 * Every pub/sub topic and payload type in one place, and the topic keys.
 */
/** Kinds of thread change (contract: ThreadEventType); the GraphQL enum derives from it. */
export const THREAD_EVENT_TYPES = [
  'CREATED',
  'UPDATED',
  'ITEMS_APPENDED',
  'COMPACTED',
  'PURGED',
  'DELETED',
] as const;
export type ThreadEventType = (typeof THREAD_EVENT_TYPES)[number];

/** A change to one thread; `at` is the commit time (ISO-8601). */
export interface ThreadEventPayload {
  type: ThreadEventType;
  tenantId: string;
  threadId: string;
  agentId: string;
  at: string;
}

/** An item as carried in an event: JSON-safe (createdAt as ISO-8601). */
export interface ItemEventData {
  seq: number;
  type: string;
  status: string;
  responseId: string | null;
  createdAt: string;
  createdBy: string | null;
  callId: string | null;
  data: unknown;
  /** The item's source record and its TranscriptFormat (null when written without one). */
  raw: unknown;
  rawFormat: string | null;
}

/** Items appended to one thread (seqs firstSeq..lastSeq, consecutive), or the thread deleted. */
export type ThreadItemsPayload =
  | {
      kind: 'appended';
      tenantId: string;
      threadId: string;
      firstSeq: number;
      lastSeq: number;
      items: ItemEventData[];
    }
  | { kind: 'deleted'; tenantId: string; threadId: string };

/** Topic name -> payload. Each topic is keyed (by tenant, or by tenant and thread). */
export interface Topics {
  /** Every thread change of a tenant; key: tenantId. */
  'thread-events': ThreadEventPayload;
  /** Items appended to one thread; key: threadKey(tenantId, threadId). */
  'thread-items': ThreadItemsPayload;
}

/** The key of a thread's item topic. */
export function threadKey(tenantId: string, threadId: string): string {
  return `${tenantId}/${threadId}`;
}
