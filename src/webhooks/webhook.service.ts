/**
 * Webhooks (contract part beyond: Webhook, createWebhook, webhooks, deleteWebhook) and the one
 * way a change is written to their outbox (recordWebhookEvent), inside the change's
 * transaction. Delivery is delivery.service.ts.
 *
 * Which mutations write which events (README, Webhooks): createThread THREAD_CREATED;
 * updateThread THREAD_UPDATED; deleteThread THREAD_DELETED; appendItems ITEMS_APPENDED;
 * addCompaction COMPACTION_ADDED (its marker item is not announced as ITEMS_APPENDED);
 * purgeItems ITEMS_PURGED; importTranscript THREAD_CREATED, ITEMS_APPENDED for the imported
 * items, then COMPACTION_ADDED per record; a restore THREAD_CREATED then ITEMS_APPENDED.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { dialectOf } from '../db/dialect.js';
import { type Executor, transaction } from '../db/transaction.js';
import { assertNoNul, BadUserInputError, NotFoundError, quote } from '../errors.js';
import { parseWebhookId, webhookNodeId } from '../ids.js';
import { urlProblem } from './address-check.js';
import {
  countWebhooks,
  deleteWebhookRow,
  insertOutboxRows,
  insertWebhook,
  lockTenantWebhooks,
  selectTenantWebhooks,
  selectWebhooks,
  type WebhookRecord,
} from './webhook.store.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhook-events.js';

/** Webhooks a tenant may have: each one is a row more in every write of the tenant. */
export const MAX_WEBHOOKS_PER_TENANT = 20;
const MAX_URL_LENGTH = 2048;

// Outbox rows were written by a transaction of this process since the workers last looked:
// wakeWebhookWorkers() (called after commit) then wakes them, so a delivery starts at once
// instead of at the next poll. A rolled-back write only costs one empty poll; a wake that
// comes before another transaction's commit leaves its rows to the next poll (WEBHOOK_POLL_MS).
let written = false;
const wakers = new Set<() => void>();

/**
 * Writes `event` to the outbox of every webhook of its tenant subscribed to its type, in the
 * caller's transaction (nothing when there is none). Call it after the statement that takes
 * the thread's row (an update, the seq counter), so a thread's events are numbered in the
 * order of its changes, and call wakeWebhookWorkers() after the commit.
 * @returns the outbox rows written
 */
export async function recordWebhookEvent(tx: Executor, event: WebhookEvent): Promise<number> {
  const rows = await insertOutboxRows(tx, randomUUID(), event);
  if (rows > 0) written = true;
  return rows;
}

/** Notes outbox rows written by a statement of the caller's (PostgreSQL's one-statement append). */
export function noteOutboxWritten(rows: number): void {
  if (rows > 0) written = true;
}

/** After a commit: wakes this process's delivery workers when outbox rows were written. */
export function wakeWebhookWorkers(): void {
  if (!written) return;
  written = false;
  for (const wake of wakers) wake();
}

/** Registers a worker's wake-up; returns the function that removes it. */
export function onOutboxWritten(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/**
 * Creates a webhook of the caller's tenant with a new signing secret.
 * @returns the webhook and its secret (shown only here)
 * @throws BadUserInputError for a URL that is not http(s), too long, with credentials, or
 *   naming a loopback/private address (unless WEBHOOKS_ALLOW_PRIVATE); for no events; when
 *   the tenant has MAX_WEBHOOKS_PER_TENANT webhooks (checked under a per-tenant lock, so
 *   concurrent creates cannot exceed it)
 */
export async function createWebhook(
  ctx: ServiceContext,
  input: { url: string; events: readonly string[] },
): Promise<{ webhook: WebhookRecord; secret: string }> {
  assertNoNul(input.url, 'url');
  const url = URL.canParse(input.url) ? new URL(input.url) : null;
  if (!url) {
    throw new BadUserInputError(
      `url: ${quote(input.url, 100)} is not a URL; pass an absolute http(s) URL such as https://hooks.example.com/threadstore.`,
      { field: 'url' },
    );
  }
  if (input.url.length > MAX_URL_LENGTH) {
    throw new BadUserInputError(`url must be at most ${MAX_URL_LENGTH} characters.`, {
      field: 'url',
    });
  }
  const problem = urlProblem(url, ctx.limits.webhooksAllowPrivate);
  if (problem) {
    throw new BadUserInputError(
      `url: ${problem}. Webhooks deliver to public http(s) addresses only (WEBHOOKS_ALLOW_PRIVATE=true lifts the address rule).`,
      { field: 'url' },
    );
  }
  const events = WEBHOOK_EVENTS.filter((e) => input.events.includes(e));
  if (events.length === 0) {
    throw new BadUserInputError(`events must name at least one of ${WEBHOOK_EVENTS.join(', ')}.`, {
      field: 'events',
    });
  }
  const secret = `whsec_${randomBytes(32).toString('hex')}`;
  // Count and insert in one transaction, serialised per tenant (PostgreSQL: an advisory lock
  // on the tenant; SQLite: the write transaction), so concurrent creates cannot pass the cap.
  const webhook = await transaction(ctx.db, async (tx) => {
    await lockTenantWebhooks(
      tx,
      dialectOf(ctx.db.provider).transactionLockOn(`webhooks:${ctx.tenantId}`),
    );
    const existing = await countWebhooks(tx, ctx.tenantId);
    if (existing >= MAX_WEBHOOKS_PER_TENANT) {
      throw new BadUserInputError(
        `A tenant may have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks; delete one first (deleteWebhook).`,
        { limit: MAX_WEBHOOKS_PER_TENANT },
      );
    }
    return insertWebhook(tx, {
      tenantId: ctx.tenantId,
      id: `w${randomBytes(9).toString('hex')}`,
      url: url.href,
      events: [...events],
      secret,
      createdAt: new Date(),
      failingSince: null,
    });
  });
  return { webhook, secret };
}

/** The caller's tenant's webhooks, oldest first. */
export function listWebhooks(ctx: ServiceContext): Promise<WebhookRecord[]> {
  return selectWebhooks(ctx.db.prisma, ctx.tenantId);
}

/** The tenant's webhooks by id, in the order asked; null for unknown ids. */
export async function findWebhooks(
  ctx: ServiceContext,
  ids: readonly string[],
): Promise<(WebhookRecord | null)[]> {
  const rows = await selectTenantWebhooks(ctx.db.prisma, ctx.tenantId, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * Deletes a webhook of the caller's tenant with its undelivered events.
 * @param id Webhook.id ("webhook:w...") or the bare id
 * @returns the deleted webhook's node id
 * @throws NotFoundError for an id that is not one of the tenant's webhooks
 */
export async function deleteWebhook(ctx: ServiceContext, id: string): Promise<string> {
  const webhookId = parseWebhookId(id);
  if (!webhookId || !(await deleteWebhookRow(ctx.db.prisma, ctx.tenantId, webhookId))) {
    throw new NotFoundError(`No webhook with id ${quote(id, 64)}; list them with webhooks.`, {
      id,
    });
  }
  return webhookNodeId(webhookId);
}
