/**
 * Storage of threads: every SQL statement and Prisma call on the Thread table, rows parsed
 * into ThreadRecords here and nowhere else. Reads are raw statements (Prisma's per-call query
 * compilation was most of a read's CPU, bench S5); writes use Prisma's model API, but for the
 * seq counter on the append path. No rules: callers (thread.service.ts, and the
 * item log for the seq counter) validate first and decide what a missing row means.
 */

import { readInChunks } from '../db/chunks.js';
import type { Database } from '../db/client.js';
import { dialectOf } from '../db/dialect.js';
import { isRecordNotFound } from '../db/errors.js';
import { queryRows } from '../db/raw.js';
import type { Executor } from '../db/transaction.js';
import { Prisma, type Thread } from '../generated/prisma/client.js';
import type { UsageTotals } from '../items/item-types.js';

/** A stored thread. Times are Dates; metadata is kept as JSON text (parse on read). */
export interface ThreadRecord {
  tenantId: string;
  id: string;
  agentId: string;
  name: string | null;
  /** The name case-folded for nameContains (thread.service.ts, foldCase). */
  nameFolded: string | null;
  archived: boolean;
  metadataJson: string;
  /** Canonical JSON of the metadata, for metadata filters. */
  metadataCanonical: string;
  createdAt: Date;
  updatedAt: Date;
  /** Seq the next appended item gets. */
  nextSeq: number;
  /** Items currently stored. */
  itemCount: number;
  /** Sums of the usage of the stored message items (contract: Thread.usage). */
  usage: UsageTotals;
  /** When the thread expires; null: kept until deleted. */
  expiresAt: Date | null;
  /** The thread this one was forked from (forkThread; the source may be deleted since). */
  forkedFromId: string | null;
  /** The last seq the fork copied from forkedFromId; null when forkedFromId is. */
  forkedFromSeq: number | null;
}

/**
 * A new thread row, as thread.service.ts (newThreadRow) builds it; a fork (fork.service.ts)
 * also sets its origin and starts its seq counter past the copied seqs.
 */
export type NewThreadRow = Omit<
  ThreadRecord,
  'nextSeq' | 'itemCount' | 'archived' | 'usage' | 'forkedFromId' | 'forkedFromSeq'
> &
  Partial<Pick<ThreadRecord, 'nextSeq' | 'forkedFromId' | 'forkedFromSeq'>>;

/** The largest usage total a thread may reach (contract: SafeInt). */
export const MAX_USAGE_TOTAL = Number.MAX_SAFE_INTEGER;

/**
 * The condition that a thread has not expired at `now` (ms precision, as stored): an expired
 * thread is gone for every read and write before the expiry job deletes it. `alias` is the
 * table alias with its dot, or ''.
 */
export function notExpired(now: Date, alias = ''): Prisma.Sql {
  const column = Prisma.raw(`${alias}"expiresAt"`);
  return Prisma.sql`(${column} IS NULL OR ${column} > ${now})`;
}

/**
 * The condition that the thread of a row of `table` (an item or compaction record, with
 * "tenantId" and "threadId") exists and has not expired at `now`: for reads by id that do not
 * go through the thread (Query.item, node), so an expired thread's rows are gone with it.
 */
export function threadNotExpired(table: 'Item' | 'Compaction', now: Date): Prisma.Sql {
  const row = Prisma.raw(`"${table}"`);
  return Prisma.sql`EXISTS (SELECT 1 FROM "Thread" x
    WHERE x."tenantId" = ${row}."tenantId" AND x."id" = ${row}."threadId" AND ${notExpired(now, 'x.')})`;
}

/** Parses a row: raw statements return driver types (0/1, bigint, text times). */
export function toThreadRecord(row: Thread): ThreadRecord {
  return {
    tenantId: row.tenantId,
    id: row.id,
    agentId: row.agentId,
    name: row.name,
    nameFolded: row.nameFolded,
    archived: Boolean(row.archived),
    metadataJson: row.metadataJson,
    metadataCanonical: row.metadataCanonical,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    nextSeq: Number(row.nextSeq),
    itemCount: Number(row.itemCount),
    // int8 comes back as bigint (or text); totals stay below 2^53 (MAX_USAGE_TOTAL).
    usage: {
      inputTokens: Number(row.inputTokens ?? 0),
      outputTokens: Number(row.outputTokens ?? 0),
      totalTokens: Number(row.totalTokens ?? 0),
      messagesWithUsage: Number(row.messagesWithUsage ?? 0),
    },
    expiresAt: row.expiresAt == null ? null : new Date(row.expiresAt),
    forkedFromId: row.forkedFromId ?? null,
    forkedFromSeq: row.forkedFromSeq == null ? null : Number(row.forkedFromSeq),
  };
}

/** Inserts a thread. @throws Prisma's unique violation (P2002) when the id is taken */
export async function insertThread(db: Executor, row: NewThreadRow): Promise<ThreadRecord> {
  return toThreadRecord(await db.thread.create({ data: row }));
}

/** One thread, or null (also when it has expired). */
export async function selectThread(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ThreadRecord | null> {
  const rows = await queryRows<Thread>(
    db,
    Prisma.sql`
    SELECT * FROM "Thread"
    WHERE "tenantId" = ${tenantId} AND "id" = ${id} AND ${notExpired(new Date())}`,
  );
  return rows[0] ? toThreadRecord(rows[0]) : null;
}

/**
 * One thread that has not expired, or null, read inside a write transaction so that it stays as read until the
 * transaction ends: PostgreSQL takes a share lock on the row (appends, compactions, purges and
 * deletes of it wait; other readers and forks do not); SQLite's writers take turns anyway.
 */
export async function selectThreadShared(
  tx: Executor,
  provider: Database['provider'],
  tenantId: string,
  id: string,
): Promise<ThreadRecord | null> {
  const rows = await queryRows<Thread>(
    tx,
    Prisma.sql`
    SELECT * FROM "Thread" WHERE "tenantId" = ${tenantId} AND "id" = ${id} AND ${notExpired(new Date())}
    ${dialectOf(provider).lockShared}`,
  );
  return rows[0] ? toThreadRecord(rows[0]) : null;
}

/**
 * Sets the item count of a thread written by a bulk copy (a fork), and its usage totals as the
 * sums over its items (one UPDATE with aggregate subqueries: the copied items' token columns,
 * COUNT of totalTokens = messages that reported usage, as purges count them), and returns the
 * thread as updated; null when it does not exist.
 */
export async function setItemCount(
  tx: Executor,
  tenantId: string,
  id: string,
  itemCount: number,
): Promise<ThreadRecord | null> {
  const items = Prisma.sql`FROM "Item" WHERE "tenantId" = ${tenantId} AND "threadId" = ${id}`;
  const rows = await queryRows<Thread>(
    tx,
    Prisma.sql`
    UPDATE "Thread" SET "itemCount" = ${itemCount},
      "inputTokens" = (SELECT COALESCE(SUM("inputTokens"), 0) ${items}),
      "outputTokens" = (SELECT COALESCE(SUM("outputTokens"), 0) ${items}),
      "totalTokens" = (SELECT COALESCE(SUM("totalTokens"), 0) ${items}),
      "messagesWithUsage" = (SELECT COUNT("totalTokens") ${items})
    WHERE "tenantId" = ${tenantId} AND "id" = ${id}
    RETURNING *`,
  );
  return rows[0] ? toThreadRecord(rows[0]) : null;
}

/**
 * Threads by id, in chunks under SQLite's parameter cap; in no particular order. Expired
 * threads are left out.
 */
export async function selectThreads(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ThreadRecord[]> {
  const now = new Date();
  const rows = await readInChunks(ids, 1, (chunk) =>
    queryRows<Thread>(
      db,
      Prisma.sql`
      SELECT * FROM "Thread"
      WHERE "tenantId" = ${tenantId} AND "id" IN (${Prisma.join(chunk)}) AND ${notExpired(now)}`,
    ),
  );
  return rows.map(toThreadRecord);
}

/** The columns of a thread an update may change. */
export type ThreadChanges = Partial<
  Pick<
    ThreadRecord,
    'name' | 'nameFolded' | 'archived' | 'metadataJson' | 'metadataCanonical' | 'expiresAt'
  >
> & { updatedAt: Date };

/** Updates a thread in one statement; null when it does not exist (or has expired). */
export async function updateThreadRow(
  db: Executor,
  tenantId: string,
  id: string,
  changes: ThreadChanges,
): Promise<ThreadRecord | null> {
  const now = changes.updatedAt;
  try {
    return toThreadRecord(
      await db.thread.update({
        where: {
          tenantId_id: { tenantId, id },
          OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
        },
        data: changes,
      }),
    );
  } catch (error) {
    if (isRecordNotFound(error)) return null;
    throw error;
  }
}

/**
 * The SET assignments and WHERE conditions that add `usage` to a thread's totals, for the
 * UPDATEs that write items (advanceNextSeq, item.store.ts appendInOneStatement). The
 * conditions match no row when a total would pass MAX_USAGE_TOTAL (the caller tells why:
 * item.service.ts). Nothing when `usage` adds nothing.
 */
export function addUsageSql(usage: UsageTotals | null | undefined): {
  set: Prisma.Sql;
  where: Prisma.Sql;
} {
  if (!usage || usage.messagesWithUsage === 0) return { set: Prisma.empty, where: Prisma.empty };
  const max = Prisma.raw(String(MAX_USAGE_TOTAL));
  return {
    set: Prisma.sql`, "inputTokens" = "inputTokens" + ${usage.inputTokens},
      "outputTokens" = "outputTokens" + ${usage.outputTokens},
      "totalTokens" = "totalTokens" + ${usage.totalTokens},
      "messagesWithUsage" = "messagesWithUsage" + ${usage.messagesWithUsage}`,
    where: Prisma.sql`AND "inputTokens" <= ${max} - ${usage.inputTokens}
      AND "outputTokens" <= ${max} - ${usage.outputTokens}
      AND "totalTokens" <= ${max} - ${usage.totalTokens}`,
  };
}

/**
 * Advances the seq counter by `count` (and itemCount with it), adds the new items' `usage`
 * to the totals, bumps updatedAt, and returns the thread as updated; null when no row matched
 * (missing or expired thread, `expectedNextSeq` given and different, or a usage total that
 * would pass MAX_USAGE_TOTAL). On PostgreSQL the UPDATE takes the row lock that serialises
 * appends to one thread. Raw: one UPDATE ... RETURNING, no query compilation (bench S1).
 * @param probe a number-valued SQL expression returned with the row as `probe` (the append
 *   asks how many webhooks want its event: webhook.store.ts, subscriberCount), so that a
 *   question the write needs answered costs no statement of its own
 */
export async function advanceNextSeq(
  tx: Executor,
  tenantId: string,
  threadId: string,
  count: number,
  now: Date,
  expectedNextSeq?: number | null,
  usage?: UsageTotals | null,
  probe?: Prisma.Sql,
): Promise<(ThreadRecord & { probe?: number }) | null> {
  const add = addUsageSql(usage);
  const updated = await queryRows<Thread & { probe?: number | bigint }>(
    tx,
    Prisma.sql`
    UPDATE "Thread" SET "nextSeq" = "nextSeq" + ${count}, "itemCount" = "itemCount" + ${count}, "updatedAt" = ${now} ${add.set}
    WHERE "tenantId" = ${tenantId} AND "id" = ${threadId} AND ${notExpired(now)}
    ${expectedNextSeq != null ? Prisma.sql`AND "nextSeq" = ${expectedNextSeq}` : Prisma.empty}
    ${add.where}
    RETURNING *${probe ? Prisma.sql`, ${probe} AS "probe"` : Prisma.empty}`,
  );
  const row = updated[0];
  if (!row) return null;
  return probe ? { ...toThreadRecord(row), probe: Number(row.probe ?? 0) } : toThreadRecord(row);
}

/**
 * Bumps updatedAt and subtracts `removedItems` from itemCount and `removedUsage` from the usage
 * totals (purges), in one statement that takes the row lock as appends do; null when the
 * thread does not exist or has expired.
 */
export async function touchThread(
  tx: Executor,
  tenantId: string,
  id: string,
  now: Date,
  removedItems = 0,
  removedUsage?: UsageTotals | null,
): Promise<ThreadRecord | null> {
  const usage =
    removedUsage && removedUsage.messagesWithUsage > 0
      ? Prisma.sql`, "inputTokens" = "inputTokens" - ${removedUsage.inputTokens},
        "outputTokens" = "outputTokens" - ${removedUsage.outputTokens},
        "totalTokens" = "totalTokens" - ${removedUsage.totalTokens},
        "messagesWithUsage" = "messagesWithUsage" - ${removedUsage.messagesWithUsage}`
      : Prisma.empty;
  const [row] = await queryRows<Thread>(
    tx,
    Prisma.sql`
    UPDATE "Thread" SET "updatedAt" = ${now}, "itemCount" = "itemCount" - ${removedItems} ${usage}
    WHERE "tenantId" = ${tenantId} AND "id" = ${id} AND ${notExpired(now)}
    RETURNING *`,
  );
  return row ? toThreadRecord(row) : null;
}

/** Deletes the thread row (its items, records and keys go first: see thread.service.ts). */
export async function deleteThreadRow(tx: Executor, tenantId: string, id: string): Promise<void> {
  await tx.thread.delete({ where: { tenantId_id: { tenantId, id } } });
}

/**
 * Writes the tombstone of a deleted thread (or moves its time, should one exist), in the
 * delete's transaction. It keeps the tenant, the id's hash (ids.ts, threadIdHash) and the time.
 */
export async function insertTombstone(
  tx: Executor,
  tenantId: string,
  idHash: string,
  deletedAt: Date,
): Promise<void> {
  await tx.threadTombstone.upsert({
    where: { tenantId_idHash: { tenantId, idHash } },
    create: { tenantId, idHash, deletedAt },
    update: { deletedAt },
  });
}

/** True when the tenant has a tombstone with this id hash (the id was used and deleted). */
export async function tombstoneExists(
  db: Executor,
  tenantId: string,
  idHash: string,
): Promise<boolean> {
  const rows = await queryRows<unknown>(
    db,
    Prisma.sql`
    SELECT 1 FROM "ThreadTombstone" WHERE "tenantId" = ${tenantId} AND "idHash" = ${idHash}`,
  );
  return rows.length > 0;
}

/**
 * The tombstones of these tenants written after `since`, in one statement (it reads the
 * tenants' tombstones: there is no index on the time), for noticing other processes' deletes.
 */
export async function selectTombstonesSince(
  db: Executor,
  tenantIds: readonly string[],
  since: Date,
): Promise<{ tenantId: string; idHash: string; deletedAt: Date }[]> {
  if (tenantIds.length === 0) return [];
  const rows = await queryRows<{ tenantId: string; idHash: string; deletedAt: Date }>(
    db,
    Prisma.sql`
    SELECT "tenantId", "idHash", "deletedAt" FROM "ThreadTombstone"
    WHERE "tenantId" IN (${Prisma.join(tenantIds)}) AND "deletedAt" > ${since}`,
  );
  return rows.map((row) => ({ ...row, deletedAt: new Date(row.deletedAt) }));
}

/**
 * Up to `limit` threads of any tenant that expired at or before `now`, oldest expiry first
 * (the index on expiresAt), locked until the transaction ends on PostgreSQL (so an append
 * that took a thread's row lock before it expired commits first).
 */
export async function selectExpiredThreads(
  tx: Executor,
  provider: Database['provider'],
  now: Date,
  limit: number,
): Promise<ThreadRecord[]> {
  const rows = await queryRows<Thread>(
    tx,
    Prisma.sql`
    SELECT * FROM "Thread" WHERE "expiresAt" <= ${now}
    ORDER BY "expiresAt" LIMIT ${limit} ${dialectOf(provider).lockRows}`,
  );
  return rows.map(toThreadRecord);
}

/**
 * Deletes these threads (their items, compaction records and keys go with them: the foreign
 * keys cascade) and writes their tombstones with `deletedAt`, in the caller's transaction and
 * in chunks under SQLite's parameter cap. Only rows that expired at or before `now` go.
 */
export async function deleteExpiredThreadRows(
  tx: Executor,
  threads: readonly { tenantId: string; id: string; idHash: string }[],
  now: Date,
  deletedAt: Date,
): Promise<void> {
  await readInChunks(threads, 3, async (chunk) => {
    const keys = Prisma.join(chunk.map((t) => Prisma.sql`(${t.tenantId}, ${t.id})`));
    await tx.$executeRaw`
      DELETE FROM "Thread" WHERE ("tenantId", "id") IN (${keys}) AND "expiresAt" <= ${now}`;
    const tombstones = Prisma.join(
      chunk.map((t) => Prisma.sql`(${t.tenantId}, ${t.idHash}, ${deletedAt})`),
    );
    await tx.$executeRaw`
      INSERT INTO "ThreadTombstone" ("tenantId", "idHash", "deletedAt") VALUES ${tombstones}
      ON CONFLICT ("tenantId", "idHash") DO UPDATE SET "deletedAt" = excluded."deletedAt"`;
    return [];
  });
}

/**
 * Runs `statement` (dialect.tryTransactionLock) in the caller's transaction: true when the
 * lock is this transaction's now (or the database needs none).
 */
export async function takeTransactionLock(
  tx: Executor,
  statement: Prisma.Sql | null,
): Promise<boolean> {
  if (!statement) return true;
  const [row] = await tx.$queryRaw<{ locked: boolean }[]>(statement);
  return row?.locked === true;
}

/** What tells that a thread changed: its keys, owner and times. */
export type ThreadStamp = Pick<
  ThreadRecord,
  'tenantId' | 'id' | 'agentId' | 'createdAt' | 'updatedAt'
>;

/**
 * Threads of these tenants with updatedAt after `since`, in one statement (the index on
 * tenantId, updatedAt), for noticing what other processes wrote (threads/thread-events.ts).
 */
export async function selectThreadsChangedSince(
  db: Executor,
  tenantIds: readonly string[],
  since: Date,
): Promise<ThreadStamp[]> {
  if (tenantIds.length === 0) return [];
  const rows = await queryRows<ThreadStamp>(
    db,
    Prisma.sql`
    SELECT "tenantId", "id", "agentId", "createdAt", "updatedAt" FROM "Thread"
    WHERE "tenantId" IN (${Prisma.join(tenantIds)}) AND "updatedAt" > ${since}`,
  );
  return rows.map((row) => ({
    tenantId: row.tenantId,
    id: row.id,
    agentId: row.agentId,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  }));
}

/** Which list order: the time column and direction; ties by id ascending. */
export interface ThreadListOrder {
  column: 'updatedAt' | 'createdAt';
  descending: boolean;
}

/** A position in a list: the order's time (ms since the epoch) and the id. */
export interface ThreadPosition {
  at: number;
  id: string;
}

/** A thread list query, validated by thread.service.ts (listThreads). */
export interface ThreadListQuery {
  tenantId: string;
  agentId?: string | null;
  includeArchived: boolean;
  /** Case-folded substring of the name. */
  nameNeedle?: string | null;
  /** Only forks of this thread (Thread.forks; the index on tenantId, forkedFromId, createdAt). */
  forkedFromId?: string | null;
  /** Top-level metadata keys with their values and canonical JSON (json.ts, filterableJson). */
  metadata: { key: string; value: unknown; canonical: string }[];
  order: ThreadListOrder;
}

/** The statements of one list query: the page, the far-side check and the count. */
export interface ThreadLister {
  /** Up to `limit` rows after `after` and before `before`, in read order. */
  page(
    range: { after: ThreadPosition | null; before: ThreadPosition | null },
    forward: boolean,
    limit: number,
  ): Promise<ThreadRecord[]>;
  /** True when a row exists at or before `edge` as seen reading in direction `forward`. */
  existsUpTo(edge: ThreadPosition, forward: boolean): Promise<boolean>;
  /** Rows matching the filter. */
  count(): Promise<number>;
}

/** Needles this long (in code points) or longer can use the trigram indexes. */
export const TRIGRAM_MIN_NEEDLE = 3;

/**
 * nameScanWindow: rows of the list order SQLite reads before it asks the name index instead
 * (see page()); a needle in 1% of the names fills a 50-row page within 5,000. Mutable for
 * tests only (0 sends every search of 3+ characters to the index).
 */
export const nameSearchTuning = { nameScanWindow: 5000 };

/** The SQL of a nameContains filter: `indexed` for the WHERE, `scan` without the index. */
interface NameCondition {
  indexed: Prisma.Sql;
  scan: Prisma.Sql;
  /** SQLite with an FTS lookup in `indexed`: try a bounded scan in list order first. */
  windowed: boolean;
}

/**
 * The nameContains condition: the folded name (ς as σ: rows folded before final sigma was
 * folded may still hold ς) contains `needle`, exactly as a substring. Needles of 3 or more
 * code points go through the trigram index of the name (migration thread_list_indexes):
 * PostgreSQL's pg_trgm GIN index on that expression, matched with LIKE; SQLite's FTS5 trigram
 * table "ThreadNameSearch" (kept by triggers on Thread), with instr() as the exact check.
 * Shorter needles have no trigram to look up: they stay a scan of the tenant's rows in list
 * order (strpos/instr), which stops at the page's end.
 * @param needle case-folded (thread.service.ts, foldCase), not empty
 */
function nameContains(
  provider: Database['provider'],
  tenantId: string,
  needle: string,
): NameCondition {
  const folded = Prisma.sql`replace("nameFolded", 'ς', 'σ')`;
  const scan = dialectOf(provider).contains(folded, needle);
  if ([...needle].length < TRIGRAM_MIN_NEEDLE) return { indexed: scan, scan, windowed: false };
  if (provider === 'postgresql') {
    // LIKE (not strpos) is what the GIN index answers; \ is PostgreSQL's default LIKE escape.
    const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return { indexed: Prisma.sql`${folded} LIKE ${pattern}`, scan, windowed: false };
  }
  // An FTS5 string (double quotes doubled) is a phrase: with the trigram tokenizer, a substring.
  const phrase = `"${needle.replace(/"/g, '""')}"`;
  const indexed = Prisma.sql`"id" IN (
      SELECT k."id" FROM "ThreadNameSearch" s JOIN "ThreadNameKey" k ON k."key" = s."rowid"
      WHERE "ThreadNameSearch" MATCH ${phrase} AND k."tenantId" = ${tenantId})
    AND ${scan}`;
  return { indexed, scan, windowed: true };
}

/** Builds the statements of a thread list query (keyset pagination in list order). */
export function threadLister(db: Database, query: ThreadListQuery): ThreadLister {
  const dialect = dialectOf(db.provider);
  const conditions: Prisma.Sql[] = [Prisma.sql`"tenantId" = ${query.tenantId}`];
  // Expired threads are gone at once. Unindexed: the list's own indexes choose the plan, not
  // the expiry job's (expiresAt); the count's covering index still holds the column.
  const expiresAt = dialect.unindexed(Prisma.sql`"expiresAt"`);
  conditions.push(Prisma.sql`(${expiresAt} IS NULL OR ${expiresAt} > ${new Date()})`);
  if (query.agentId != null) conditions.push(Prisma.sql`"agentId" = ${query.agentId}`);
  if (query.forkedFromId != null) {
    conditions.push(Prisma.sql`"forkedFromId" = ${query.forkedFromId}`);
  }
  if (!query.includeArchived) {
    // Keeps the (tenantId, archived, agentId) count index out of list plans: SQLite without
    // ANALYZE statistics would pick it (two equalities) and sort the whole tenant.
    conditions.push(Prisma.sql`${dialect.unindexed(Prisma.sql`"archived"`)} = ${false}`);
  }
  for (const { key, value, canonical } of query.metadata) {
    conditions.push(
      dialect.jsonMemberEquals(Prisma.sql`"metadataCanonical"`, key, value, canonical),
    );
  }
  const column = Prisma.raw(`"${query.order.column}"`);
  const { descending } = query.order;
  const idOrder = dialect.bytewise(Prisma.sql`"id"`);

  /**
   * Rows past position `p` towards later (or earlier) times, ids compared with `idCmp` on ties.
   * The leading >= / <= is implied by the OR; it is there so that both databases start (or
   * end) the index range scan at the position instead of filtering every row before it.
   */
  const bound = (p: ThreadPosition, later: boolean, idCmp: string): Prisma.Sql => {
    const at = new Date(p.at);
    const [from, past] = later ? ['>=', '>'] : ['<=', '<'];
    return Prisma.sql`${column} ${Prisma.raw(from)} ${at} AND (${column} ${Prisma.raw(past)} ${at} OR ${idOrder} ${Prisma.raw(idCmp)} ${p.id})`;
  };
  /** Rows strictly after (forward) or before (backward) a position in list order. */
  const beyond = (p: ThreadPosition, forward: boolean) =>
    bound(p, forward !== descending, forward ? '>' : '<');
  /** Rows at or before a position, as seen reading in direction `forward` (NOT beyond). */
  const upTo = (p: ThreadPosition, forward: boolean) =>
    bound(p, forward === descending, forward ? '<=' : '>=');
  const name = query.nameNeedle
    ? nameContains(db.provider, query.tenantId, query.nameNeedle)
    : null;
  const where = (extra: Prisma.Sql[]) =>
    Prisma.join([...conditions, ...(name ? [name.indexed] : []), ...extra], ' AND ');

  return {
    async page(range, forward, limit) {
      const extra: Prisma.Sql[] = [];
      if (range.after) extra.push(beyond(range.after, true));
      if (range.before) extra.push(beyond(range.before, false));
      const sortDir = Prisma.raw(forward === descending ? 'DESC' : 'ASC');
      const idDir = Prisma.raw(forward ? 'ASC' : 'DESC');
      const orderBy = Prisma.sql`ORDER BY ${column} ${sortDir}, ${idOrder} ${idDir}`;
      if (name?.windowed) {
        // SQLite cannot weigh the FTS lookup against the ordered scan: a common needle
        // matches tens of thousands of rows to sort, yet fills a page within the first few
        // thousand rows in list order, and the FTS table holds every tenant's names. So:
        // the first nameScanWindow rows in list order, filtered; the page is exact if they
        // hold `limit` matches or are all the rows there are; else the index decides.
        const window = nameSearchTuning.nameScanWindow;
        const inRange = Prisma.join([...conditions, ...extra], ' AND ');
        const scanned = await queryRows<Thread>(
          db.prisma,
          Prisma.sql`
          SELECT * FROM (
            SELECT * FROM "Thread" WHERE ${inRange} ${orderBy} LIMIT ${window}
          ) AS "Thread" WHERE ${name.scan} ${orderBy} LIMIT ${limit}`,
        );
        if (scanned.length === limit) return scanned.map(toThreadRecord);
        const [counted] = await queryRows<{ n: number | bigint }>(
          db.prisma,
          Prisma.sql`
          SELECT COUNT(*) AS n FROM (
            SELECT 1 FROM "Thread" WHERE ${inRange} ${orderBy} LIMIT ${window})`,
        );
        if (Number(counted?.n ?? 0) < window) return scanned.map(toThreadRecord);
      }
      const rows = await queryRows<Thread>(
        db.prisma,
        Prisma.sql`
        SELECT * FROM "Thread" WHERE ${where(extra)} ${orderBy} LIMIT ${limit}`,
      );
      return rows.map(toThreadRecord);
    },
    async existsUpTo(edge, forward) {
      const found = await queryRows<unknown>(
        db.prisma,
        Prisma.sql`
        SELECT 1 FROM "Thread" WHERE ${where([upTo(edge, forward)])} LIMIT 1`,
      );
      return found.length > 0;
    },
    // COUNT(*) over the filter: linear in the matching rows, read from the covering index
    // (tenantId, archived, agentId) when the filter has no name or metadata.
    async count() {
      const [row] = await queryRows<{ n: number | bigint }>(
        db.prisma,
        Prisma.sql`
        SELECT COUNT(*) AS n FROM "Thread" WHERE ${where([])}`,
      );
      return Number(row?.n ?? 0);
    },
  };
}
