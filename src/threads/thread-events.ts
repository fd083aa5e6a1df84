/**
 * Live thread lists (contract: Subscription.threadEvents): a tenant's thread changes as they
 * are published after each commit, optionally of one agent, with a bounded follower queue.
 */
import type { ServiceContext } from '../context.js';
import { ThreadstoreError } from '../errors.js';
import { closableStream, queueEvents } from '../pubsub/queue.js';
import type { ThreadEventPayload } from '../pubsub/topics.js';

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
