/**
 * Objects by node id (contract: Query.node, Query.nodes): threads, items and compaction
 * records, looked up in one statement per kind through each module's service, and API keys
 * and webhooks (for callers with the admin scope), one statement per kind.
 */
import { findCompactions } from '../compaction/compaction.service.js';
import type { CompactionRecord } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { BadUserInputError } from '../errors.js';
import { findApiKeys } from '../identity/api-key.service.js';
import type { ApiKeyRecord } from '../identity/api-key.store.js';
import { parseNodeId } from '../ids.js';
import type { ItemRecord } from '../items/item.store.js';
import { findItems } from '../items/item-history.service.js';
import { findThreads } from '../threads/thread.service.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import { findWebhooks } from '../webhooks/webhook.service.js';
import type { WebhookRecord } from '../webhooks/webhook.store.js';

/** Ids one `nodes` call takes at most (issue 10: a long list is a cheap amplifier). */
export const MAX_NODE_IDS = 100;

/**
 * Refuses a `nodes` id list longer than MAX_NODE_IDS, before any database work.
 * @throws BadUserInputError naming the count and the limit
 */
export function assertNodeIdCount(count: number): void {
  if (count > MAX_NODE_IDS) {
    throw new BadUserInputError(
      `nodes takes at most ${MAX_NODE_IDS} ids; got ${count}. Split the list into several requests.`,
      { argument: 'ids', limit: MAX_NODE_IDS },
    );
  }
}

/** Any object with a node id. */
export type NodeRecord =
  | ThreadRecord
  | ItemRecord
  | CompactionRecord
  | ApiKeyRecord
  | WebhookRecord;

/**
 * Resolves node ids in the order asked: one statement per kind of node, null for unknown or
 * malformed ids (never an error for them).
 */
export async function findNodes(
  ctx: ServiceContext,
  ids: readonly string[],
): Promise<(NodeRecord | null)[]> {
  const parsed = ids.map(parseNodeId);
  const threadIds: string[] = [];
  const itemKeys: { threadId: string; seq: number }[] = [];
  const compactionKeys: { threadId: string; markerSeq: number }[] = [];
  const keyIds: string[] = [];
  const webhookIds: string[] = [];
  // API keys are visible to admins only (contract part identity); to others they are unknown ids.
  const admin = ctx.identity.scopes.has('admin');
  for (const p of parsed) {
    if (p?.kind === 'thread') threadIds.push(p.threadId);
    else if (p?.kind === 'item') itemKeys.push(p);
    else if (p?.kind === 'compaction') compactionKeys.push(p);
    else if (p?.kind === 'apiKey' && admin) keyIds.push(p.keyId);
    else if (p?.kind === 'webhook' && admin) webhookIds.push(p.webhookId);
  }
  const [threads, items, compactions, keys, webhooks] = await Promise.all([
    threadIds.length ? findThreads(ctx, threadIds) : [],
    findItems(ctx, itemKeys),
    findCompactions(ctx, compactionKeys),
    findApiKeys(ctx.db, ctx.tenantId, keyIds),
    webhookIds.length ? findWebhooks(ctx, webhookIds) : [],
  ]);
  const next = { thread: 0, item: 0, compaction: 0, apiKey: 0, webhook: 0 };
  return parsed.map((p): NodeRecord | null => {
    if (!p) return null;
    if (p.kind === 'apiKey') return admin ? (keys[next.apiKey++] ?? null) : null;
    if (p.kind === 'webhook') return admin ? (webhooks[next.webhook++] ?? null) : null;
    if (p.kind === 'thread') return threads[next.thread++] ?? null;
    if (p.kind === 'item') return items[next.item++] ?? null;
    return compactions[next.compaction++] ?? null;
  });
}
