/**
 * Live thread lists (contract: Subscription.threadEvents): a tenant's thread changes as they
 * are published after each commit, optionally of one agent, with a bounded follower queue;
 * and the same events for changes other processes commit to a shared SQLite file.
 */
import type { ServiceContext } from '../context.js';
import type { Database } from '../db/client.js';
import { ThreadstoreError } from '../errors.js';
import { threadIdHash } from '../ids.js';
import { type EventBus, publishThreadEvent } from '../pubsub/bus.js';
import { closableStream, queueEvents } from '../pubsub/queue.js';
import type { ThreadEventPayload, ThreadEventType } from '../pubsub/topics.js';
import { selectThreadsChangedSince, selectTombstonesSince } from './thread.store.js';

/**
 * Live thread changes of the tenant, optionally of one agent, until the caller stops.
 * @throws ThreadstoreError RATE_LIMITED when more than limits.followerBufferEvents events wait unread
 */
export function followThreadEvents(
  ctx: ServiceContext,
  agentId?: string | null,
): AsyncGenerator<ThreadEventPayload> {
  const queue = queueEvents(ctx.events, 'thread-events', ctx.tenantId, {
    limit: ctx.limits.followerBufferEvents,
    overflow: () =>
      new ThreadstoreError(
        'RATE_LIMITED',
        `This subscription fell more than ${ctx.limits.followerBufferEvents} events behind and was ended; resubscribe and reload the list.`,
      ),
    accept: (event) => agentId == null || event.agentId === agentId,
  });
  async function* events(): AsyncGenerator<ThreadEventPayload> {
    try {
      for (;;) {
        const event = await queue.take();
        if (event === null) return;
        yield event;
      }
    } finally {
      queue.close();
    }
  }
  return closableStream(queue, events());
}

/**
 * How far back a check reads, in ms. A writer stamps updatedAt when its transaction starts and
 * commits a little later; a change is found if it commits within this time of its stamp.
 */
const WINDOW_MS = 10_000;
/** Threads whose ids are remembered for DELETED events (the most recently seen ones). */
const REMEMBERED_IDS = 10_000;

/** Thread events for the changes other processes commit to the same SQLite file. */
export interface OtherWritersThreadEvents {
  /**
   * Reads what changed in the tenants that have threadEvents followers here and publishes it
   * (two statements; none when nobody follows a thread list). Call it when another process
   * committed (src/db/commit-watch.ts), or with `after` (default now) when events committed
   * after it may have been missed (Redis was down).
   */
  check(after?: Date): Promise<void>;
  /**
   * `bus`, noting the thread events this process publishes or its followers receive (from
   * other instances, through Redis), so check() does not repeat them.
   */
  observe(bus: EventBus): EventBus;
}

/**
 * Thread events for other processes' writes (a second server, the importer), which reach this
 * process only through the database: a thread whose updatedAt moved is CREATED when it is new
 * (created within the window and not seen before: created, or imported with its items) and
 * UPDATED otherwise (an append, an update, a compaction or a purge look alike from here); a deleted
 * thread is DELETED when this process knows its id (its tombstone keeps only a hash: a thread
 * this process never saw written since it started gets no DELETED event; its threadItems
 * followers end all the same). Delivery is at least once: a follower may get an event twice.
 */
export function otherWritersThreadEvents(db: Database, bus: EventBus): OtherWritersThreadEvents {
  // updatedAt (ms) last published per thread, within the window; ids by hash for deletes.
  const stamps = new Map<string, number>();
  const ids = new Map<string, { id: string; agentId: string }>();
  const remember = (tenantId: string, id: string, agentId: string) => {
    const key = `${tenantId}/${threadIdHash(id)}`;
    ids.delete(key);
    ids.set(key, { id, agentId });
    if (ids.size > REMEMBERED_IDS) ids.delete(ids.keys().next().value as string);
  };
  const prune = (before: number) => {
    for (const [key, at] of stamps) if (at <= before) stamps.delete(key);
  };
  const publish = (
    type: ThreadEventType,
    tenantId: string,
    id: string,
    agentId: string,
    at: Date,
  ) => publishThreadEvent(bus, tenantId, type, { id, agentId }, at);

  return {
    async check(after = new Date()) {
      const tenants = bus.listenedKeys('thread-events');
      if (tenants.length === 0) return;
      const since = new Date(after.getTime() - WINDOW_MS);
      prune(since.getTime());
      for (const row of await selectThreadsChangedSince(db.prisma, tenants, since)) {
        const key = `${row.tenantId}/${row.id}`;
        const at = row.updatedAt.getTime();
        const last = stamps.get(key);
        if (last !== undefined && last >= at) continue;
        stamps.set(key, at);
        remember(row.tenantId, row.id, row.agentId);
        const created = last === undefined && row.createdAt >= since;
        publish(created ? 'CREATED' : 'UPDATED', row.tenantId, row.id, row.agentId, row.updatedAt);
      }
      if (ids.size === 0) return;
      for (const tombstone of await selectTombstonesSince(db.prisma, tenants, since)) {
        const key = `${tombstone.tenantId}/${tombstone.idHash}`;
        const thread = ids.get(key);
        if (!thread) continue;
        ids.delete(key);
        stamps.delete(`${tombstone.tenantId}/${thread.id}`);
        publish('DELETED', tombstone.tenantId, thread.id, thread.agentId, tombstone.deletedAt);
      }
    },
    observe(inner) {
      let notes = 0;
      const note = (event: ThreadEventPayload) => {
        if (event.type === 'DELETED') {
          ids.delete(`${event.tenantId}/${threadIdHash(event.threadId)}`);
          stamps.delete(`${event.tenantId}/${event.threadId}`);
          return;
        }
        stamps.set(`${event.tenantId}/${event.threadId}`, Date.parse(event.at));
        remember(event.tenantId, event.threadId, event.agentId);
        if (++notes % 1_000 === 0) prune(Date.now() - WINDOW_MS);
      };
      return {
        ...inner,
        publish(topic, key, payload) {
          inner.publish(topic, key, payload);
          if (topic === 'thread-events') note(payload as ThreadEventPayload);
        },
        // Events other instances published (through Redis) are noted as they arrive.
        listen(topic, key, handler) {
          if (topic !== 'thread-events') return inner.listen(topic, key, handler);
          return inner.listen(topic, key, (payload) => {
            note(payload as ThreadEventPayload);
            handler(payload);
          });
        },
      };
    },
  };
}
