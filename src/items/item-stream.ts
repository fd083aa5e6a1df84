/**
 * Following a thread live with gapless resume (contract: Subscription.threadItems;
 * ARCHITECTURE.md, "Pub/sub and subscriptions"): listen first, then replay stored items after
 * `afterSeq`, then emit live items, skipping any seq already emitted. When a live event does
 * not continue from the last seq emitted (an event lost by pub/sub), or the bus says events may
 * have been lost (Redis reconnected), the missing range is read from the database before going
 * on, so delivery stays gapless. Live items come in the event itself: no SQL per follower per
 * event unless there is a gap.
 */
import type { ServiceContext } from '../context.js';
import { ThreadstoreError, threadNotFound } from '../errors.js';
import { closableStream, queueEvents } from '../pubsub/queue.js';
import { threadKey } from '../pubsub/topics.js';
import { findThread } from '../threads/thread.service.js';
import { type ItemRecord, selectItemRange } from './item.store.js';
import { fromItemEventData } from './item-events.js';

const REPLAY_PAGE = 500;

/** Ends a follower whose buffer overflowed (limits.followerBufferEvents). */
export class FollowerTooSlowError extends ThreadstoreError {
  constructor(limit: number) {
    super(
      'RATE_LIMITED',
      `This follower fell more than ${limit} events behind and was ended; resubscribe with afterSeq set to the last seq received.`,
    );
  }
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

/** Reads stored items with lower < seq <= upper in seq order, a page at a time. */
async function* readRange(
  ctx: ServiceContext,
  threadId: string,
  lower: number,
  upper: number,
): AsyncGenerator<ItemRecord> {
  let after = lower;
  while (after < upper) {
    const items = await selectItemRange(ctx.db.prisma, ctx.tenantId, threadId, {
      after,
      upTo: upper,
      limit: REPLAY_PAGE,
    });
    yield* items;
    if (items.length < REPLAY_PAGE) return;
    after = items.at(-1)!.seq;
  }
}

/**
 * The items of one thread in seq order: with `afterSeq`, every stored item with seq > afterSeq
 * first (-1 replays from the first item), then live ones; without it, live ones only. Ends
 * when the thread is deleted.
 * @throws NotFoundError when the thread does not exist
 * @throws FollowerTooSlowError when more than limits.followerBufferEvents events wait unread
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
    overflow: () => new FollowerTooSlowError(ctx.limits.followerBufferEvents),
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
  }

  async function* guarded(): AsyncGenerator<ItemRecord> {
    try {
      yield* follow();
    } finally {
      queue.close();
    }
  }
  return closableStream(queue, guarded());
}
