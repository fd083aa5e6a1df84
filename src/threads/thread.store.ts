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
import type { Executor } from '../db/transaction.js';
import { Prisma, type Thread } from '../generated/prisma/client.js';

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
}

/** A new thread row, as thread.service.ts (newThreadRow) builds it. */
export type NewThreadRow = Omit<ThreadRecord, 'nextSeq' | 'itemCount' | 'archived'>;

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
  };
}

/** Inserts a thread. @throws Prisma's unique violation (P2002) when the id is taken */
export async function insertThread(db: Executor, row: NewThreadRow): Promise<ThreadRecord> {
  return toThreadRecord(await db.thread.create({ data: row }));
}

/** One thread, or null. */
export async function selectThread(
  db: Executor,
  tenantId: string,
  id: string,
): Promise<ThreadRecord | null> {
  const rows = await db.$queryRaw<Thread[]>`
    SELECT * FROM "Thread" WHERE "tenantId" = ${tenantId} AND "id" = ${id}`;
  return rows[0] ? toThreadRecord(rows[0]) : null;
}

/** Threads by id, in chunks under SQLite's parameter cap; in no particular order. */
export async function selectThreads(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ThreadRecord[]> {
  const rows = await readInChunks(
    ids,
    1,
    (chunk) => db.$queryRaw<Thread[]>`
      SELECT * FROM "Thread" WHERE "tenantId" = ${tenantId} AND "id" IN (${Prisma.join(chunk)})`,
  );
  return rows.map(toThreadRecord);
}

/** The columns of a thread an update may change. */
export type ThreadChanges = Partial<
  Pick<ThreadRecord, 'name' | 'nameFolded' | 'archived' | 'metadataJson' | 'metadataCanonical'>
> & { updatedAt: Date };

/** Updates a thread in one statement; null when it does not exist. */
export async function updateThreadRow(
  db: Executor,
  tenantId: string,
  id: string,
  changes: ThreadChanges,
): Promise<ThreadRecord | null> {
  try {
    return toThreadRecord(
      await db.thread.update({ where: { tenantId_id: { tenantId, id } }, data: changes }),
    );
  } catch (error) {
    if (isRecordNotFound(error)) return null;
    throw error;
  }
}

/**
 * Advances the seq counter by `count` (and itemCount with it), bumps updatedAt, and returns
 * the thread as updated; null when no row matched (missing thread, or `expectedNextSeq`
 * given and different). On PostgreSQL the UPDATE takes the row lock that serialises appends
 * to one thread. Raw: one UPDATE ... RETURNING, no query compilation (bench S1).
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
  probe?: Prisma.Sql,
): Promise<(ThreadRecord & { probe?: number }) | null> {
  const updated = await tx.$queryRaw<(Thread & { probe?: number | bigint })[]>`
    UPDATE "Thread" SET "nextSeq" = "nextSeq" + ${count}, "itemCount" = "itemCount" + ${count}, "updatedAt" = ${now}
    WHERE "tenantId" = ${tenantId} AND "id" = ${threadId}
    ${expectedNextSeq != null ? Prisma.sql`AND "nextSeq" = ${expectedNextSeq}` : Prisma.empty}
    RETURNING *${probe ? Prisma.sql`, ${probe} AS "probe"` : Prisma.empty}`;
  const row = updated[0];
  if (!row) return null;
  return probe ? { ...toThreadRecord(row), probe: Number(row.probe ?? 0) } : toThreadRecord(row);
}

/**
 * Bumps updatedAt and subtracts `removedItems` from itemCount (purges), in one statement that
 * takes the row lock as appends do; null when the thread does not exist.
 */
export async function touchThread(
  tx: Executor,
  tenantId: string,
  id: string,
  now: Date,
  removedItems = 0,
): Promise<ThreadRecord | null> {
  const data =
    removedItems === 0
      ? { updatedAt: now }
      : { updatedAt: now, itemCount: { decrement: removedItems } };
  try {
    return toThreadRecord(
      await tx.thread.update({ where: { tenantId_id: { tenantId, id } }, data }),
    );
  } catch (error) {
    if (isRecordNotFound(error)) return null;
    throw error;
  }
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
  const rows = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM "ThreadTombstone" WHERE "tenantId" = ${tenantId} AND "idHash" = ${idHash}`;
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
  const rows = await db.$queryRaw<{ tenantId: string; idHash: string; deletedAt: Date }[]>`
    SELECT "tenantId", "idHash", "deletedAt" FROM "ThreadTombstone"
    WHERE "tenantId" IN (${Prisma.join(tenantIds)}) AND "deletedAt" > ${since}`;
  return rows.map((row) => ({ ...row, deletedAt: new Date(row.deletedAt) }));
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
  const rows = await db.$queryRaw<ThreadStamp[]>`
    SELECT "tenantId", "id", "agentId", "createdAt", "updatedAt" FROM "Thread"
    WHERE "tenantId" IN (${Prisma.join(tenantIds)}) AND "updatedAt" > ${since}`;
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
  if (query.agentId != null) conditions.push(Prisma.sql`"agentId" = ${query.agentId}`);
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
        const scanned = await db.prisma.$queryRaw<Thread[]>`
          SELECT * FROM (
            SELECT * FROM "Thread" WHERE ${inRange} ${orderBy} LIMIT ${window}
          ) AS "Thread" WHERE ${name.scan} ${orderBy} LIMIT ${limit}`;
        if (scanned.length === limit) return scanned.map(toThreadRecord);
        const [counted] = await db.prisma.$queryRaw<{ n: number | bigint }[]>`
          SELECT COUNT(*) AS n FROM (
            SELECT 1 FROM "Thread" WHERE ${inRange} ${orderBy} LIMIT ${window})`;
        if (Number(counted?.n ?? 0) < window) return scanned.map(toThreadRecord);
      }
      const rows = await db.prisma.$queryRaw<Thread[]>`
        SELECT * FROM "Thread" WHERE ${where(extra)} ${orderBy} LIMIT ${limit}`;
      return rows.map(toThreadRecord);
    },
    async existsUpTo(edge, forward) {
      const found = await db.prisma.$queryRaw<unknown[]>`
        SELECT 1 FROM "Thread" WHERE ${where([upTo(edge, forward)])} LIMIT 1`;
      return found.length > 0;
    },
    // COUNT(*) over the filter: linear in the matching rows, read from the covering index
    // (tenantId, archived, agentId) when the filter has no name or metadata.
    async count() {
      const [row] = await db.prisma.$queryRaw<{ n: number | bigint }[]>`
        SELECT COUNT(*) AS n FROM "Thread" WHERE ${where([])}`;
      return Number(row?.n ?? 0);
    },
  };
}
