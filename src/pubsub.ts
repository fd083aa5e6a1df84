/**
 * Every pub/sub topic and payload type in one place, and the event bus services publish to
 * after their transaction commits. One instance dispatches on an in-process EventTarget;
 * several instances pass a Redis event target (same interface) so every instance hears every
 * event.
 */

/** Kinds of thread change, as the contract's ThreadEventType. */
export type ThreadEventType =
  | 'CREATED'
  | 'UPDATED'
  | 'ITEMS_APPENDED'
  | 'COMPACTED'
  | 'PURGED'
  | 'DELETED';

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

/** Publish after commit; listen for live delivery. */
export interface EventBus {
  publish<T extends keyof Topics>(topic: T, key: string, payload: Topics[T]): void;
  /** Calls `handler` for every event of `topic` with `key`; returns the function that stops it. */
  listen<T extends keyof Topics>(topic: T, key: string, handler: (payload: Topics[T]) => void): () => void;
  /** Listeners currently registered (for leak checks). */
  listenerCount(): number;
}

/** The part of EventTarget the bus uses; yoga's Redis event target has the same shape. */
export interface BusEventTarget {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** An event bus over an EventTarget (in-process by default). */
export function createEventBus(target: BusEventTarget = new EventTarget()): EventBus {
  let listeners = 0;
  return {
    publish(topic, key, payload) {
      target.dispatchEvent(new CustomEvent(`${topic}:${key}`, { detail: payload }));
    },
    listen(topic, key, handler) {
      const listener = (event: Event) => handler((event as CustomEvent).detail);
      target.addEventListener(`${topic}:${key}`, listener);
      listeners += 1;
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners -= 1;
        target.removeEventListener(`${topic}:${key}`, listener);
      };
    },
    listenerCount: () => listeners,
  };
}

/** The key of a thread's item topic. */
export function threadKey(tenantId: string, threadId: string): string {
  return `${tenantId}/${threadId}`;
}
