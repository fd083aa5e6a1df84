/**
 * Following a thread live with gapless resume (contract: Subscription.threadItems;
 * ARCHITECTURE.md, "Pub/sub and subscriptions"): listen first, then replay stored items after
 * `afterSeq`, then emit live items, skipping any seq already emitted. When a live event does
 * not continue from the last seq emitted (an event lost by pub/sub), the missing range is read
 * from the database before going on, so delivery stays gapless.
 */
import type { ServiceContext } from '../context.js';
import { ThreadstoreError, threadNotFound } from '../errors.js';
import { type ThreadItemsPayload, threadKey } from '../pubsub.js';
import { findThread } from '../threads/thread.service.js';
import { fromItemEventData, type ItemRecord, toItemRecord } from './item.service.js';

/** Live events a slow follower may have waiting before its subscription is ended. */
export const FOLLOWER_BUFFER_LIMIT = 10_000;
const REPLAY_PAGE = 500;

/** Ends a follower whose buffer overflowed. */
export class FollowerTooSlowError extends ThreadstoreError {
  constructor() {
    super(
      'RATE_LIMITED',
      `This follower fell more than ${FOLLOWER_BUFFER_LIMIT} events behind and was ended; resubscribe with afterSeq set to the last seq received.`,
    );
  }
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
    const rows = await ctx.db.prisma.item.findMany({
      where: { tenantId: ctx.tenantId, threadId, seq: { gt: after, lte: upper } },
      orderBy: { seq: 'asc' },
      take: REPLAY_PAGE,
    });
    for (const row of rows) yield toItemRecord(row);
    if (rows.length < REPLAY_PAGE) return;
    after = Number(rows.at(-1)!.seq);
  }
}

/**
 * The items of one thread in seq order: with `afterSeq`, every stored item with seq > afterSeq
 * first (-1 replays from the first item), then live ones; without it, live ones only. Ends
 * when the thread is deleted.
 * @throws NotFoundError when the thread does not exist
 * @throws FollowerTooSlowError when more than FOLLOWER_BUFFER_LIMIT events wait unread
 */
export async function* followThreadItems(
  ctx: ServiceContext,
  threadId: string,
  afterSeq: number | null | undefined,
): AsyncGenerator<ItemRecord> {
  const queue: ThreadItemsPayload[] = [];
  let wake: (() => void) | null = null;
  let overflowed = false;
  const stop = ctx.events.listen('thread-items', threadKey(ctx.tenantId, threadId), (payload) => {
    if (queue.length >= FOLLOWER_BUFFER_LIMIT) overflowed = true;
    else queue.push(payload);
    wake?.();
  });
  try {
    // Listening started before this read, so nothing committed after it can be missed.
    const thread = await findThread(ctx, threadId);
    if (!thread) throw threadNotFound(threadId);
    let last = afterSeq == null ? thread.nextSeq - 1 : Math.max(afterSeq, -1);
    for await (const item of readRange(ctx, threadId, last, thread.nextSeq - 1)) {
      yield item;
      last = item.seq;
    }
    last = Math.max(last, thread.nextSeq - 1);
    for (;;) {
      if (overflowed) throw new FollowerTooSlowError();
      const payload = queue.shift();
      if (!payload) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      if (payload.kind === 'deleted') return;
      if (payload.lastSeq <= last) continue;
      if (payload.firstSeq > last + 1) {
        // A gap: events were lost (or arrived out of order); the database has them.
        for await (const item of readRange(ctx, threadId, last, payload.firstSeq - 1)) {
          yield item;
          last = item.seq;
        }
        last = payload.firstSeq - 1;
      }
      for (const data of payload.items) {
        if (data.seq <= last) continue;
        yield fromItemEventData(ctx.tenantId, threadId, data);
        last = data.seq;
      }
    }
  } finally {
    stop();
  }
}
