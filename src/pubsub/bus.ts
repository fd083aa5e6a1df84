/**
 * The event bus services publish to after their transaction commits. One instance dispatches
 * on an in-process EventTarget; several instances pass a Redis event target (same interface,
 * src/pubsub/redis.ts: dispatches here at once and relays to the other instances) so every
 * instance hears every event.
 */
import { setMaxListeners } from 'node:events';
import type { ThreadEventType, Topics } from './topics.js';

/** Publish after commit; listen for live delivery. */
export interface EventBus {
  publish<T extends keyof Topics>(topic: T, key: string, payload: Topics[T]): void;
  /**
   * Dispatches to this process's listeners only, never to other instances: for events each
   * instance rebuilds from the database for itself (src/threads/thread-events.ts).
   */
  publishLocal<T extends keyof Topics>(topic: T, key: string, payload: Topics[T]): void;
  /** Calls `handler` for every event of `topic` with `key`; returns the function that stops it. */
  listen<T extends keyof Topics>(
    topic: T,
    key: string,
    handler: (payload: Topics[T]) => void,
  ): () => void;
  /** Listeners currently registered (for leak checks). */
  listenerCount(): number;
  /** The keys of `topic` that have at least one listener in this process. */
  listenedKeys(topic: keyof Topics): string[];
  /** Follower queues report events they start (+n) or stop (-n) holding. */
  queued(delta: number): void;
  /** Events waiting unread in all follower queues of this process (the queue depth metric). */
  queuedEvents(): number;
  /**
   * Calls `handler` whenever events may have been lost (the Redis connection came back), so
   * followers re-read what they may have missed. Returns the function that stops it.
   */
  onResync(handler: () => void): () => void;
  /** Tells every onResync handler that events may have been lost. */
  resync(): void;
  /**
   * Calls `handler` once when the bus closes (the server stops): follower queues end, so live
   * subscriptions complete and their responses (SSE, graphql-ws) finish. Returns the function
   * that stops it.
   */
  onClose(handler: () => void): () => void;
  /** Closes the bus: every onClose handler runs once. */
  close(): void;
}

/** The part of EventTarget the bus uses; yoga's Redis event target has the same shape. */
export interface BusEventTarget {
  addEventListener(type: string, listener: (event: Event) => void): void;
  removeEventListener(type: string, listener: (event: Event) => void): void;
  dispatchEvent(event: Event): boolean;
  /** Dispatches to this process's listeners only (default: dispatchEvent). */
  dispatchLocalEvent?(event: Event): boolean;
}

/** An event bus over an EventTarget (in-process by default). */
export function createEventBus(target: BusEventTarget = unboundedEventTarget()): EventBus {
  let listeners = 0;
  let queued = 0;
  // Listeners per topic and key, for listenedKeys.
  const byTopic = new Map<string, Map<string, number>>();
  const count = (topic: string, key: string, delta: number) => {
    const keys = byTopic.get(topic) ?? new Map<string, number>();
    byTopic.set(topic, keys);
    const n = (keys.get(key) ?? 0) + delta;
    if (n > 0) keys.set(key, n);
    else keys.delete(key);
  };
  const resyncHandlers = new Set<() => void>();
  const closeHandlers = new Set<() => void>();
  return {
    onResync(handler) {
      resyncHandlers.add(handler);
      return () => resyncHandlers.delete(handler);
    },
    resync() {
      for (const handler of resyncHandlers) handler();
    },
    onClose(handler) {
      closeHandlers.add(handler);
      return () => closeHandlers.delete(handler);
    },
    close() {
      for (const handler of [...closeHandlers]) handler();
      closeHandlers.clear();
    },
    publish(topic, key, payload) {
      target.dispatchEvent(new CustomEvent(`${topic}:${key}`, { detail: payload }));
    },
    publishLocal(topic, key, payload) {
      const event = new CustomEvent(`${topic}:${key}`, { detail: payload });
      if (target.dispatchLocalEvent) target.dispatchLocalEvent(event);
      else target.dispatchEvent(event);
    },
    listen(topic, key, handler) {
      const listener = (event: Event) => handler((event as CustomEvent).detail);
      target.addEventListener(`${topic}:${key}`, listener);
      listeners += 1;
      count(topic, key, 1);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        listeners -= 1;
        count(topic, key, -1);
        target.removeEventListener(`${topic}:${key}`, listener);
      };
    },
    listenerCount: () => listeners,
    listenedKeys: (topic) => [...(byTopic.get(topic)?.keys() ?? [])],
    queued(delta) {
      queued += delta;
    },
    queuedEvents: () => queued,
  };
}

/** An in-process EventTarget without Node's "possible leak" warning past 10 listeners:
 * hundreds of followers of one thread are normal here. */
export function unboundedEventTarget(): EventTarget {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target;
}

/**
 * Publishes a change of one thread on its tenant's `thread-events` topic. Call it after the
 * transaction that made the change committed.
 * @param at the commit time
 */
export function publishThreadEvent(
  bus: EventBus,
  tenantId: string,
  type: ThreadEventType,
  thread: { id: string; agentId: string },
  at: Date,
): void {
  bus.publish('thread-events', tenantId, {
    type,
    tenantId,
    threadId: thread.id,
    agentId: thread.agentId,
    at: at.toISOString(),
  });
}
