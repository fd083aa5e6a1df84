/**
 * Storage of webhooks and their outbox: every SQL statement on the Webhook and
 * WebhookDelivery tables, rows parsed into typed records here and nowhere else. No rules:
 * webhook.service.ts and delivery.service.ts decide what is due, retried or given up.
 *
 * A webhook's `events` column is the subscribed names space-separated; "subscribed to X" is
 * `' ' || events || ' '` containing `' X '` (LIKE, the same on both databases).
 */
import { BACKGROUND_SQL, type Database } from '../db/client.js';
import { executeRows } from '../db/raw.js';
import type { Executor } from '../db/transaction.js';
import { Prisma } from '../generated/prisma/client.js';
import type { WebhookEvent, WebhookEventType } from './webhook-events.js';

/** Starts the worker's statements, which the statement counter leaves out (db/client.ts). */
const bg = Prisma.raw(BACKGROUND_SQL);

/** A stored webhook (the secret included: callers decide whom it is shown to). */
export interface WebhookRecord {
  tenantId: string;
  id: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  createdAt: Date;
  failingSince: Date | null;
}

interface WebhookRow {
  tenantId: string;
  id: string;
  url: string;
  events: string;
  secret: string;
  createdAt: Date | string;
  failingSince: Date | string | null;
}

function toWebhookRecord(row: WebhookRow): WebhookRecord {
  return {
    tenantId: row.tenantId,
    id: row.id,
    url: row.url,
    events: row.events.split(' ').filter(Boolean) as WebhookEventType[],
    secret: row.secret,
    createdAt: new Date(row.createdAt),
    failingSince: row.failingSince === null ? null : new Date(row.failingSince),
  };
}

/** Inserts a webhook. */
export async function insertWebhook(db: Executor, row: WebhookRecord): Promise<WebhookRecord> {
  const created = await db.webhook.create({ data: { ...row, events: row.events.join(' ') } });
  return toWebhookRecord(created);
}

/** The tenant's webhooks, oldest first. */
export async function selectWebhooks(db: Executor, tenantId: string): Promise<WebhookRecord[]> {
  const rows = await db.$queryRaw<WebhookRow[]>`
    SELECT * FROM "Webhook" WHERE "tenantId" = ${tenantId} ORDER BY "createdAt", "id"`;
  return rows.map(toWebhookRecord);
}

/** How many webhooks the tenant has. */
export async function countWebhooks(db: Executor, tenantId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>`
    SELECT COUNT(*) AS n FROM "Webhook" WHERE "tenantId" = ${tenantId}`;
  return Number(row?.n ?? 0);
}

/**
 * Runs `statement` (dialect.transactionLockOn) in the caller's transaction: returns once the
 * lock is the transaction's (nothing to run on SQLite).
 */
export async function lockTenantWebhooks(
  tx: Executor,
  statement: Prisma.Sql | null,
): Promise<void> {
  if (statement) await tx.$queryRaw(statement);
}

/** Webhooks by id, of any tenant (the delivery worker's look-up), in no particular order. */
export async function selectWebhooksByKey(
  db: Executor,
  keys: readonly { tenantId: string; id: string }[],
): Promise<WebhookRecord[]> {
  if (keys.length === 0) return [];
  const pairs = keys.map((k) => Prisma.sql`(${k.tenantId}, ${k.id})`);
  const rows = await db.$queryRaw<WebhookRow[]>`${bg}
    SELECT * FROM "Webhook" WHERE ("tenantId", "id") IN (${Prisma.join(pairs)})`;
  return rows.map(toWebhookRecord);
}

/** The tenant's webhooks with these ids, in no particular order. */
export async function selectTenantWebhooks(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<WebhookRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.$queryRaw<WebhookRow[]>`
    SELECT * FROM "Webhook" WHERE "tenantId" = ${tenantId} AND "id" IN (${Prisma.join(ids)})`;
  return rows.map(toWebhookRecord);
}

/** Deletes a webhook and (cascade) its outbox rows; false when the tenant has no such one. */
export async function deleteWebhookRow(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<boolean> {
  const count = await db.$executeRaw`
    DELETE FROM "Webhook" WHERE "tenantId" = ${tenantId} AND "id" = ${id}`;
  return count > 0;
}

/** `w` (a Webhook alias) subscribes to `type`. */
function subscribed(type: WebhookEventType): Prisma.Sql {
  return Prisma.sql`(' ' || w."events" || ' ') LIKE ${`% ${type} %`}`;
}

/**
 * Writes an event to the outbox: one row per webhook of the tenant subscribed to its type, in
 * one INSERT ... SELECT (nothing when there is none). Call it inside the change's transaction,
 * after the statement that takes the thread's row, so rows of one thread are numbered in the
 * order of the changes.
 * @returns the rows written
 */
export async function insertOutboxRows(
  tx: Executor,
  eventId: string,
  event: WebhookEvent,
): Promise<number> {
  return executeRows(
    tx,
    Prisma.sql`
    INSERT INTO "WebhookDelivery" ("tenantId", "webhookId", "threadId", "eventId", "type", "dataJson", "createdAt", "status", "attempts", "nextAttemptAt")
    SELECT w."tenantId", w."id", ${event.threadId}, ${eventId}, ${event.type}, ${JSON.stringify(event.data)}, ${event.at}, 'PENDING', 0, ${event.at}
    FROM "Webhook" w WHERE w."tenantId" = ${event.tenantId} AND ${subscribed(event.type)}`,
  );
}

/**
 * A column expression counting the tenant's webhooks subscribed to `type`, for a statement
 * that runs anyway to return it (SQLite's append: the seq counter's UPDATE ... RETURNING), so
 * a tenant without webhooks costs no statement more.
 * @param tenantId the SQL of the tenant id (a column of the statement's row)
 */
export function subscriberCount(tenantId: Prisma.Sql, type: WebhookEventType): Prisma.Sql {
  return Prisma.sql`(SELECT COUNT(*) FROM "Webhook" w WHERE w."tenantId" = ${tenantId} AND ${subscribed(type)})`;
}

/**
 * PostgreSQL's one-statement append (item.store.ts, appendInOneStatement): a CTE named `o`
 * writing ITEMS_APPENDED to the outbox from the CTE `t` (the thread as updated), with the data
 * text of webhook-events.ts (appendedData) built in SQL, since the seqs are known only there.
 * The statement's result gains `(SELECT COUNT(*) FROM o)` through `outboxCount`.
 */
export function appendedOutboxCte(eventId: string, n: number, at: Date): Prisma.Sql {
  const first = Prisma.sql`(t."nextSeq" - ${n}::int)`;
  const data = Prisma.sql`'{"firstSeq":' || ${first}::text || ',"lastSeq":' || (t."nextSeq" - 1)::text || ',"count":' || ${n}::int::text || '}'`;
  const type: WebhookEventType = 'ITEMS_APPENDED';
  return Prisma.sql`o AS (
    INSERT INTO "WebhookDelivery" ("tenantId", "webhookId", "threadId", "eventId", "type", "dataJson", "createdAt", "status", "attempts", "nextAttemptAt")
    SELECT w."tenantId", w."id", t."id", ${eventId}, ${type}, ${data}, ${at}::timestamptz, 'PENDING', 0, ${at}::timestamptz
    FROM t JOIN "Webhook" w ON w."tenantId" = t."tenantId" WHERE ${subscribed(type)}
    RETURNING 1)`;
}

/** An outbox row a worker claimed. */
export interface DeliveryRecord {
  id: number;
  tenantId: string;
  webhookId: string;
  threadId: string;
  eventId: string;
  type: WebhookEventType;
  dataJson: string;
  createdAt: Date;
  attempts: number;
  /** The claim's lease end, which is also its token: marks apply only while it is current. */
  leaseUntil: Date;
}

interface DeliveryRow {
  id: number | bigint;
  tenantId: string;
  webhookId: string;
  threadId: string;
  eventId: string;
  type: string;
  dataJson: string;
  createdAt: Date | string;
  attempts: number | bigint;
}

function toDeliveryRecord(row: DeliveryRow, leaseUntil: Date): DeliveryRecord {
  return {
    id: Number(row.id),
    tenantId: row.tenantId,
    webhookId: row.webhookId,
    threadId: row.threadId,
    eventId: row.eventId,
    type: row.type as WebhookEventType,
    dataJson: row.dataJson,
    createdAt: new Date(row.createdAt),
    attempts: Number(row.attempts),
    leaseUntil,
  };
}

/**
 * Claims up to `limit` due outbox rows for `leaseMs`, in one statement: PENDING, due
 * (nextAttemptAt <= now), not leased (or the lease ran out: its worker died), and the first
 * PENDING row of their (webhook, thread), so a thread's events go out one at a time and in
 * order. Fair across webhooks: a webhook gets at most `perWebhook` rows in flight (leased by
 * any instance, these included), and the rows are taken round-robin (each webhook's first
 * row, then each one's second, ...), so one webhook with a backlog or a slow receiver cannot
 * take every slot. PostgreSQL skips rows another worker is claiming (FOR UPDATE SKIP LOCKED)
 * and rechecks the lease on the rows it locks, so several instances claim each row once;
 * SQLite's writers take turns.
 * @returns the rows, oldest first; each one's `leaseUntil` is its lease token
 */
export async function claimDeliveries(
  db: Database,
  now: Date,
  leaseMs: number,
  limit: number,
  perWebhook: number,
): Promise<DeliveryRecord[]> {
  if (limit <= 0) return [];
  const lock =
    db.provider === 'postgresql' ? Prisma.sql`FOR UPDATE OF d SKIP LOCKED` : Prisma.empty;
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const rows = await db.prisma.$queryRaw<DeliveryRow[]>`${bg}
    UPDATE "WebhookDelivery" SET "leaseUntil" = ${leaseUntil}
    WHERE "id" IN (
      SELECT d."id" FROM "WebhookDelivery" d
      WHERE d."id" IN (
        SELECT c."id" FROM (
          SELECT h."id", h."tenantId", h."webhookId",
            ROW_NUMBER() OVER (PARTITION BY h."tenantId", h."webhookId" ORDER BY h."id") AS rn
          FROM "WebhookDelivery" h
          WHERE h."status" = 'PENDING' AND h."nextAttemptAt" <= ${now}
            AND (h."leaseUntil" IS NULL OR h."leaseUntil" < ${now})
            AND NOT EXISTS (
              SELECT 1 FROM "WebhookDelivery" e
              WHERE e."tenantId" = h."tenantId" AND e."webhookId" = h."webhookId"
                AND e."threadId" = h."threadId" AND e."id" < h."id" AND e."status" = 'PENDING')
        ) c
        WHERE c.rn + (
          SELECT COUNT(*) FROM "WebhookDelivery" l
          WHERE l."tenantId" = c."tenantId" AND l."webhookId" = c."webhookId"
            AND l."status" = 'PENDING' AND l."leaseUntil" >= ${now}) <= ${perWebhook}
        ORDER BY c.rn, c."id" LIMIT ${limit})
      AND d."status" = 'PENDING' AND (d."leaseUntil" IS NULL OR d."leaseUntil" < ${now})
      ${lock})
    RETURNING "id", "tenantId", "webhookId", "threadId", "eventId", "type", "dataJson", "createdAt", "attempts"`;
  return rows.map((row) => toDeliveryRecord(row, leaseUntil)).sort((a, b) => a.id - b.id);
}

/**
 * A delivered row: deleted, and its webhook healthy again (failingSince cleared), if the row
 * is still leased with `d.leaseUntil` (the caller's lease).
 * @returns false when the lease was lost (ran out, and another worker claimed the row): nothing
 *   is written
 */
export async function markDelivered(db: Database, d: DeliveryRecord): Promise<boolean> {
  return db.prisma.$transaction(async (tx) => {
    const deleted = await tx.$executeRaw`${bg}
      DELETE FROM "WebhookDelivery" WHERE "id" = ${d.id} AND "leaseUntil" = ${d.leaseUntil}`;
    if (deleted === 0) return false;
    await tx.$executeRaw`${bg}
      UPDATE "Webhook" SET "failingSince" = NULL
      WHERE "tenantId" = ${d.tenantId} AND "id" = ${d.webhookId} AND "failingSince" IS NOT NULL`;
    return true;
  });
}

/**
 * A failed attempt: counted, the lease released, the next attempt at `nextAttemptAt` (null:
 * given up, the row becomes DEAD), and the webhook failing since now unless it already was;
 * only if the row is still leased with `d.leaseUntil` (the caller's lease).
 * @returns false when the lease was lost: nothing is written
 */
export async function markFailed(
  db: Database,
  d: DeliveryRecord,
  now: Date,
  nextAttemptAt: Date | null,
  error: string,
): Promise<boolean> {
  const status = nextAttemptAt === null ? 'DEAD' : 'PENDING';
  return db.prisma.$transaction(async (tx) => {
    const updated = await tx.$executeRaw`${bg}
      UPDATE "WebhookDelivery"
      SET "attempts" = "attempts" + 1, "leaseUntil" = NULL, "status" = ${status},
        "nextAttemptAt" = ${nextAttemptAt ?? now}, "lastError" = ${error.slice(0, 1000)}
      WHERE "id" = ${d.id} AND "leaseUntil" = ${d.leaseUntil}`;
    if (updated === 0) return false;
    await tx.$executeRaw`${bg}
      UPDATE "Webhook" SET "failingSince" = ${now}
      WHERE "tenantId" = ${d.tenantId} AND "id" = ${d.webhookId} AND "failingSince" IS NULL`;
    return true;
  });
}

/**
 * Gives a claimed row back unattempted (the server is stopping): its lease is released, if
 * it is still the caller's.
 */
export async function releaseDelivery(db: Database, d: DeliveryRecord): Promise<void> {
  await db.prisma.$executeRaw`${bg}
    UPDATE "WebhookDelivery" SET "leaseUntil" = NULL
    WHERE "id" = ${d.id} AND "leaseUntil" = ${d.leaseUntil}`;
}

/** Deletes DEAD rows whose event is older than `before`; returns how many. */
export async function deleteDeadDeliveries(db: Database, before: Date): Promise<number> {
  return db.prisma.$executeRaw`${bg}
    DELETE FROM "WebhookDelivery" WHERE "status" = 'DEAD' AND "createdAt" < ${before}`;
}
