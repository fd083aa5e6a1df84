/**
 * Following a thread live with gapless resume (contract: Subscription.threadItems;
 * ARCHITECTURE.md, "Pub/sub and subscriptions"): listen first, then replay stored items after
 * `afterSeq`, then emit live items, skipping any seq already emitted. When a live event does
 * not continue from the last seq emitted (an event lost by pub/sub), or the bus says events may
 * have been lost (Redis reconnected), the missing range is read from the database before going
 * on, so delivery stays gapless. Live items come in the event itself: no SQL per follower per
 * event unless there is a gap.
 */
import type { Limits, ServiceContext } from '../context.js';
import { ThreadstoreError, threadNotFound } from '../errors.js';
import { closableStream, type OverflowReason, queueEvents } from '../pubsub/queue.js';
import { type ThreadItemsPayload, threadKey } from '../pubsub/topics.js';
import { findThread } from '../threads/thread.service.js';
import { type ItemRecord, selectItemRange } from './item.store.js';
import { fromItemEventData } from './item-events.js';

/** Items per replay page at most, and on the first page (then sized to the items seen). */
const REPLAY_PAGE = 500;
const FIRST_REPLAY_PAGE = 16;
/** An item's fields besides its data (ids, seq, type, times), in bytes, roughly. */
const ITEM_OVERHEAD_BYTES = 256;

/**
 * Ends a follower whose unread backlog passed limits.followerBufferEvents events or
 * limits.followerBufferBytes bytes (a client that stopped reading, or reads slower than the
 * thread is written).
 */
export class FollowerTooSlowError extends ThreadstoreError {
  constructor(reason: OverflowReason, limits: Limits) {
    const behind =
      reason === 'bytes'
        ? `${limits.followerBufferBytes} bytes (FOLLOWER_BUFFER_BYTES)`
        : `${limits.followerBufferEvents} events (FOLLOWER_BUFFER_EVENTS)`;
    super(
      'RATE_LIMITED',
      `This follower fell more than ${behind} behind and was ended; resubscribe with afterSeq set to the last seq received.`,
      { limit: reason === 'bytes' ? 'FOLLOWER_BUFFER_BYTES' : 'FOLLOWER_BUFFER_EVENTS' },
    );
  }
}

/**
 * About the size of a JSON value in bytes: its strings' lengths (UTF-16 code units) plus a few
 * bytes per value and key. Walks values without copying or stringifying: an event of 16 MB of
 * text in a few strings costs a few steps.
 */
export function approximateJsonBytes(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (Array.isArray(v)) {
      total += 2;
      for (const entry of v) stack.push(entry);
    } else if (v !== null && typeof v === 'object') {
      total += 2;
      for (const [key, entry] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(entry);
      }
    } else total += 8;
  }
  return total;
}

/** An item's size for the follower bounds: its data and its other fields. */
function itemBytes(item: { data: unknown }): number {
  return approximateJsonBytes(item.data) + ITEM_OVERHEAD_BYTES;
}

// One event object reaches every local follower of the thread: size it once.
const sizes = new WeakMap<object, number>();

/** The size of a thread-items event (its items), computed once per event. */
function eventBytes(event: ThreadItemsPayload): number {
  if (event.kind !== 'appended') return 0;
  let size = sizes.get(event);
  if (size === undefined) {
    size = event.items.reduce((sum, item) => sum + itemBytes(item), 0);
    sizes.set(event, size);
  }
  return size;
}

// One event object reaches every local follower of the thread: convert its items once.
const converted = new WeakMap<object, ItemRecord[]>();

/** The records of an appended event, built once per event however many followers read it. */
function recordsOf(
  event: { threadId: string; items: Parameters<typeof fromItemEventData>[2][] },
  tenantId: string,
): ItemRecord[] {
  let records = converted.get(event);
  if (!records) {
    records = event.items.map((data) => fromItemEventData(tenantId, event.threadId, data));
    converted.set(event, records);
  }
  return records;
}

/** The longest delay setTimeout takes (about 24.8 days); a later expiry re-arms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Reads stored items with lower < seq <= upper in seq order, a page at a time. A page is held
 * until the follower has taken it, so its size follows the items seen: about
 * limits.followerBufferBytes (16 items first; at most 500).
 */
async function* readRange(
  ctx: ServiceContext,
  threadId: string,
  lower: number,
  upper: number,
): AsyncGenerator<ItemRecord> {
  let after = lower;
  let limit = FIRST_REPLAY_PAGE;
  while (after < upper) {
    const items = await selectItemRange(ctx.db.prisma, ctx.tenantId, threadId, {
      after,
      upTo: upper,
      limit,
    });
    if (items.length === 0) return;
    const average = items.reduce((sum, item) => sum + itemBytes(item), 0) / items.length;
    yield* items;
    if (items.length < limit) return;
    after = items.at(-1)!.seq;
    const fit = Math.floor(ctx.limits.followerBufferBytes / average);
    limit = Math.min(REPLAY_PAGE, Math.max(1, fit));
  }
}

/**
 * The items of one thread in seq order: with `afterSeq`, every stored item with seq > afterSeq
 * first (-1 replays from the first item), then live ones; without it, live ones only. Ends
 * when the thread is deleted, or when it expires (its expiresAt passes).
 * @throws NotFoundError when the thread does not exist
 * @throws FollowerTooSlowError (from the stream) when more than limits.followerBufferEvents
 *   events, or limits.followerBufferBytes bytes of them, wait unread
 */
export async function followThreadItems(
  ctx: ServiceContext,
  threadId: string,
  afterSeq: number | null | undefined,
): Promise<AsyncGenerator<ItemRecord>> {
  // Listening starts now, before the thread is read, so nothing committed after the read
  // can be missed.
  const queue = queueEvents(ctx.events, 'thread-items', threadKey(ctx.tenantId, threadId), {
    limit: ctx.limits.followerBufferEvents,
    maxBytes: ctx.limits.followerBufferBytes,
    sizeOf: eventBytes,
    overflow: (reason) => new FollowerTooSlowError(reason, ctx.limits),
    resync: { kind: 'resync' as const },
  });

  // Checked before the stream is handed out, so a missing thread fails the subscribe itself.
  const thread = await findThread(ctx, threadId).catch((error: unknown) => {
    queue.close();
    throw error;
  });
  if (!thread) {
    queue.close();
    throw threadNotFound(threadId);
  }
  const start = thread;

  // An expired thread is gone at once (contract: Thread.expiresAt), so its stream ends at that
  // time, as on a delete, not when the expiry job deletes it later. The timer re-reads the
  // thread: a later expiresAt (updateThread) re-arms it; a failed read retries in a second.
  let expiryTimer: NodeJS.Timeout | undefined;
  let ended = false;
  const watchExpiry = (expiresAt: Date | null, retryMs?: number) => {
    if (expiresAt == null || ended) return;
    const delay = retryMs ?? Math.min(MAX_TIMER_MS, Math.max(0, expiresAt.getTime() - Date.now()));
    expiryTimer = setTimeout(() => {
      findThread(ctx, threadId).then(
        (current) => (current ? watchExpiry(current.expiresAt) : queue.close()),
        () => watchExpiry(expiresAt, 1_000),
      );
    }, delay);
    expiryTimer.unref();
  };
  watchExpiry(start.expiresAt);

  // One generator with its cleanup (not a wrapper delegating with yield*): each live item
  // passes one generator fewer on its way to each follower.
  async function* follow(): AsyncGenerator<ItemRecord> {
    // An afterSeq at or past the end replays nothing and live items follow from the end.
    let last =
      afterSeq == null ? start.nextSeq - 1 : Math.min(Math.max(afterSeq, -1), start.nextSeq - 1);
    /** Stored items after `last` up to `upper`, from the database; then `last` is `upper`. */
    async function* catchUp(upper: number): AsyncGenerator<ItemRecord> {
      for await (const item of readRange(ctx, threadId, last, upper)) {
        yield item;
        last = item.seq;
      }
      last = Math.max(last, upper);
    }
    try {
      yield* catchUp(start.nextSeq - 1);
      for (;;) {
        const event = await queue.take();
        if (event === null || event.kind === 'deleted') return;
        if (event.kind === 'resync') {
          const current = await findThread(ctx, threadId);
          if (!current) return;
          yield* catchUp(current.nextSeq - 1);
          continue;
        }
        if (event.lastSeq <= last) continue;
        // A gap: events were lost (or arrived out of order); the database has them.
        if (event.firstSeq > last + 1) yield* catchUp(event.firstSeq - 1);
        for (const item of recordsOf(event, ctx.tenantId)) {
          if (item.seq <= last) continue;
          yield item;
          last = item.seq;
        }
      }
    } finally {
      ended = true;
      clearTimeout(expiryTimer);
      queue.close();
    }
  }

  return closableStream(queue, follow());
}
