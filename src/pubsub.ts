/**
 * Every pub/sub topic and payload type in one place, and the event bus services publish to
 * after their transaction commits. One instance dispatches on an in-process EventTarget;
 * several instances pass a Redis event target (same interface) so every instance hears every
 * event.
 */
import { setMaxListeners } from 'node:events';

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
  /**
   * Calls `handler` whenever events may have been lost (the Redis connection came back), so
   * followers re-read what they may have missed. Returns the function that stops it.
   */
  onResync(handler: () => void): () => void;
  /** Tells every onResync handler that events may have been lost. */
  resync(): void;
}

/** The part of EventTarget the bus uses; yoga's Redis event target has the same shape. */
export interface BusEventTarget {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
}

/** An event bus over an EventTarget (in-process by default). */
export function createEventBus(target: BusEventTarget = unboundedEventTarget()): EventBus {
  let listeners = 0;
  const resyncHandlers = new Set<() => void>();
  return {
    onResync(handler) {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
    resync() {
      for (const handler of resyncHandlers) handler();
    },
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

/** An in-process EventTarget without Node's "possible leak" warning past 10 listeners:
 * hundreds of followers of one thread are normal here. */
function unboundedEventTarget(): EventTarget {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target;
}

/** The key of a thread's item topic. */
export function threadKey(tenantId: string, threadId: string): string {
  return `${tenantId}/${threadId}`;
}

/** A bounded queue of one topic's events for one consumer (a follower). */
export interface EventQueue<T> {
  /**
   * The next event, waiting for one if needed; null once closed.
   * @throws the overflow error once more than `limit` events waited unread
   */
  take(): Promise<T | null>;
  /** Stops listening and wakes a pending take() with null. Idempotent. */
  close(): void;
}

/**
 * Starts listening at once (before anything is read from the database, which is what makes
 * resume gapless) and buffers at most `limit` events; `resync` is queued whenever the bus
 * says events may have been lost.
 */
export function queueEvents<T extends keyof Topics, R = never>(
  bus: EventBus,
  topic: T,
  key: string,
  options: { limit: number; overflow: () => Error; resync?: R; accept?: (payload: Topics[T]) => boolean },
): EventQueue<Topics[T] | R> {
  const buffer: (Topics[T] | R)[] = [];
  let waiter: (() => void) | null = null;
  let overflowed = false;
  let closed = false;
  const push = (value: Topics[T] | R) => {
    if (closed || overflowed) return;
    if (buffer.length < options.limit) {
      buffer.push(value);
    } else {
      // A consumer this far behind (a client that stopped reading) is cut off at once: its
      // listener goes now, its memory stays bounded, and its next take() ends it with the error.
      overflowed = true;
      buffer.length = 0;
      stopListening();
      stopResync();
    }
    waiter?.();
  };
  const stopListening = bus.listen(topic, key, (payload) => {
    if (!options.accept || options.accept(payload)) push(payload);
  });
  const stopResync: () => void =
    options.resync === undefined ? () => {} : bus.onResync(() => push(options.resync as R));
  return {
    async take() {
      for (;;) {
        if (closed) return null;
        if (overflowed) throw options.overflow();
        const next = buffer.shift();
        if (next !== undefined) return next;
        await new Promise<void>((resolve) => {
          waiter = resolve;
        });
        waiter = null;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      stopListening();
      stopResync();
      waiter?.();
    },
  };
}

/**
 * Wraps an async generator that reads from `queue` so that return() (a client unsubscribing,
 * or its socket dropping) closes the queue at once, even while the generator waits for an
 * event: a generator cannot be returned while it awaits, so its listener would otherwise stay
 * until the next event.
 */
export function closableStream<T>(
  queue: EventQueue<unknown>,
  inner: AsyncGenerator<T>,
): AsyncGenerator<T> {
  const stream: AsyncGenerator<T> = {
    next: () => inner.next(),
    return: (value?: unknown) => {
      queue.close();
      return inner.return(value as T);
    },
    throw: (error?: unknown) => {
      queue.close();
      return inner.throw(error);
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
