/**
 * Follower queues: a bounded buffer of one topic's events per consumer, and the stream
 * wrapper that frees it as soon as the consumer goes away.
 */
import type { EventBus } from './bus.js';
import type { Topics } from './topics.js';

/** A bounded queue of one topic's events for one consumer (a follower). */
export interface EventQueue<T> {
  /**
   * The next event, waiting for one if needed; null once closed.
   * @throws the overflow error once more than `limit` events, or more than `maxBytes` bytes
   *   of them, waited unread
   */
  take(): Promise<T | null>;
  /** Stops listening and wakes a pending take() with null. Idempotent. */
  close(): void;
}

/** Which bound a follower passed: FOLLOWER_BUFFER_EVENTS or FOLLOWER_BUFFER_BYTES. */
export type OverflowReason = 'events' | 'bytes';

/** Which bound one more event (bringing the queue to `bytes`) would pass, or null. */
function overflowOf(
  length: number,
  bytes: number,
  limit: number,
  maxBytes: number,
): OverflowReason | null {
  if (length >= limit) return 'events';
  // An event alone in the queue is always taken, whatever its size.
  return length > 0 && bytes > maxBytes ? 'bytes' : null;
}

/**
 * Starts listening at once (before anything is read from the database, which is what makes
 * resume gapless) and buffers at most `limit` events and at most `maxBytes` bytes of them
 * (`sizeOf` tells an event's size; an event alone in the queue is always taken, so one larger
 * than `maxBytes` still reaches a follower that keeps up); `resync` is queued whenever the bus
 * says events may have been lost.
 */
export function queueEvents<T extends keyof Topics, R = never>(
  bus: EventBus,
  topic: T,
  key: string,
  options: {
    limit: number;
    overflow: (reason: OverflowReason) => Error;
    maxBytes?: number;
    sizeOf?: (payload: Topics[T]) => number;
    resync?: R;
    accept?: (payload: Topics[T]) => boolean;
  },
): EventQueue<Topics[T] | R> {
  const buffer: { value: Topics[T] | R; bytes: number }[] = [];
  let bytes = 0;
  let waiter: (() => void) | null = null;
  let overflowed: OverflowReason | null = null;
  let closed = false;
  // An unread resync already covers every loss until it is read (it re-reads the database
  // then): one more would only fill the queue of a client that stopped reading during an outage.
  let resyncQueued = false;
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  // Frees the buffer and stops listening: on close, and on overflow (the error stays to tell).
  const release = () => {
    bus.queued(-buffer.length);
    buffer.length = 0;
    bytes = 0;
    stopListening();
    stopResync();
  };
  const push = (value: Topics[T] | R, size: number) => {
    if (closed || overflowed) return;
    const full = overflowOf(buffer.length, bytes + size, options.limit, maxBytes);
    if (!full) {
      buffer.push({ value, bytes: size });
      bytes += size;
      bus.queued(1);
    } else {
      // A consumer this far behind (a client that stopped reading) is cut off at once: its
      // listener goes now, its memory stays bounded, and its next take() ends it with the error.
      overflowed = full;
      release();
    }
    waiter?.();
  };
  const stopListening = bus.listen(topic, key, (payload) => {
    if (!options.accept || options.accept(payload)) push(payload, options.sizeOf?.(payload) ?? 0);
  });
  const stopResync: () => void =
    options.resync === undefined ? () => {} : bus.onResync(() => queueResync());
  const queueResync = () => {
    if (resyncQueued) return;
    resyncQueued = true;
    push(options.resync as R, 0);
  };
  const stopOnClose = bus.onClose(() => queue.close());
  const queue: EventQueue<Topics[T] | R> = {
    async take() {
      for (;;) {
        if (closed) return null;
        if (overflowed) throw options.overflow(overflowed);
        const first = buffer.shift();
        if (first) {
          if (first.value === options.resync) resyncQueued = false;
          bytes -= first.bytes;
          bus.queued(-1);
          return first.value;
        }
        await new Promise<void>((resolve) => {
          waiter = resolve;
        });
        waiter = null;
      }
    },
    close() {
      if (closed) return;
      closed = true;
      release();
      stopOnClose();
      waiter?.();
    },
  };
  return queue;
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
