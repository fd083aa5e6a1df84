/**
 * Storage of compaction records: every SQL statement and Prisma call on the Compaction table,
 * rows parsed into CompactionRecords here and nowhere else, and the context read (items left
 * uncovered by every record). Reads are raw statements, writes Prisma's model API, as in the
 * other stores. No rules: compaction.service.ts holds them.
 */
import { readInChunks } from '../db/chunks.js';
import { copyThreadRows } from '../db/copy.js';
import type { Executor } from '../db/transaction.js';
import { type Compaction, Prisma } from '../generated/prisma/client.js';
import { compactionId } from '../ids.js';
import {
  type ItemRecord,
  inChunksWithinBudget,
  itemSizeSql,
  selectWithinBudget,
} from '../items/item.store.js';
import { type SizedRows, withinBudget } from '../read-budget.js';
import { threadNotExpired } from '../threads/thread.store.js';

/** A stored compaction record; `id` is "<threadId>:compaction:<markerSeq>". */
export interface CompactionRecord {
  id: string;
  tenantId: string;
  threadId: string;
  /** First seq summarized. */
  startSeq: number;
  /** Last seq summarized (inclusive). */
  endSeq: number;
  summary: string;
  createdAt: Date;
  createdBy: string | null;
  /** Seq of the marker item written with the record. */
  markerSeq: number;
}

/** Parses a row: raw statements return driver types (bigint, text times). */
export function toCompactionRecord(row: Compaction): CompactionRecord {
  const markerSeq = Number(row.markerSeq);
  return {
    id: compactionId(row.threadId, markerSeq),
    tenantId: row.tenantId,
    threadId: row.threadId,
    startSeq: Number(row.startSeq),
    endSeq: Number(row.endSeq),
    summary: row.summary,
    createdAt: new Date(row.createdAt),
    createdBy: row.createdBy,
    markerSeq,
  };
}

/** A record of the thread whose range shares a seq with startSeq..endSeq, or null. */
export async function selectOverlapping(
  tx: Executor,
  tenantId: string,
  threadId: string,
  range: { startSeq: number; endSeq: number },
): Promise<CompactionRecord | null> {
  const [row] = await tx.$queryRaw<Compaction[]>`
    SELECT * FROM "Compaction"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId}
      AND "startSeq" <= ${range.endSeq} AND "endSeq" >= ${range.startSeq}
    LIMIT 1`;
  return row ? toCompactionRecord(row) : null;
}

/** Inserts a record. */
export async function insertCompaction(
  tx: Executor,
  row: Omit<CompactionRecord, 'id'>,
): Promise<CompactionRecord> {
  return toCompactionRecord(await tx.compaction.create({ data: row }));
}

/**
 * Copies the records of thread `from` that lie wholly inside seqs 0..`atSeq` to thread `to`,
 * in one INSERT ... SELECT: the range summarized (endSeq <= atSeq) and the marker item
 * written with it (markerSeq <= atSeq), since the marker seq names the record
 * ("<threadId>:compaction:<markerSeq>") and the fork hands out the seqs after atSeq again.
 * The thread `to` must exist (the foreign key).
 * @returns how many records were copied
 */
export async function copyCompactions(
  tx: Executor,
  tenantId: string,
  from: string,
  to: string,
  atSeq: number,
): Promise<number> {
  return copyThreadRows(
    tx,
    'Compaction',
    Prisma.CompactionScalarFieldEnum,
    { tenantId, from, to },
    Prisma.sql`"endSeq" <= ${atSeq} AND "markerSeq" <= ${atSeq}`,
  );
}

/** Deletes every record of a thread; returns how many. */
export async function deleteCompactionRows(
  tx: Executor,
  tenantId: string,
  threadId: string,
): Promise<number> {
  const { count } = await tx.compaction.deleteMany({ where: { tenantId, threadId } });
  return count;
}

/**
 * How many compaction records each of these threads has, keyed "<tenantId>/<threadId>"
 * (threads without records are absent): one grouped statement per chunk of threads, for the
 * expiry sweep's THREAD_DELETED webhook events.
 */
export async function countCompactionsByThread(
  db: Executor,
  threads: readonly { tenantId: string; id: string }[],
): Promise<Map<string, number>> {
  const rows = await readInChunks(threads, 2, (chunk) => {
    const keys = Prisma.join(chunk.map((t) => Prisma.sql`(${t.tenantId}, ${t.id})`));
    return db.$queryRaw<{ tenantId: string; threadId: string; n: number | bigint }[]>`
      SELECT "tenantId", "threadId", COUNT(*) AS "n" FROM "Compaction"
      WHERE ("tenantId", "threadId") IN (${keys}) GROUP BY "tenantId", "threadId"`;
  });
  return new Map(rows.map((r) => [`${r.tenantId}/${r.threadId}`, Number(r.n)]));
}

/** A Compaction row with its summary's stored size and the running sum of sizes. */
type SizedCompactionRow = Compaction & { size: number | bigint; run: number | bigint | string };

/**
 * The records whose keys and sizes `sizes` selects ("threadId", "startSeq", "size"), in
 * (threadId, startSeq) order, until the running sum of summary sizes passes `budget` (the one
 * that passes comes without its summary; see selectWithinBudget in item.store.ts).
 */
async function compactionsWithinBudget(
  db: Executor,
  tenantId: string,
  sizes: Prisma.Sql,
  budget: number,
): Promise<SizedRows<CompactionRecord>> {
  const rows = await db.$queryRaw<SizedCompactionRow[]>`
    SELECT c."tenantId", c."threadId", c."startSeq", c."endSeq", c."createdAt", c."createdBy",
      c."markerSeq", CASE WHEN s."run" <= ${budget} THEN c."summary" END AS "summary",
      s."size", s."run"
    FROM (SELECT "threadId", "startSeq", "size",
            SUM("size") OVER (ORDER BY "threadId", "startSeq" ROWS UNBOUNDED PRECEDING) AS "run"
          FROM (${sizes}) p) s
    JOIN "Compaction" c
      ON c."tenantId" = ${tenantId} AND c."threadId" = s."threadId" AND c."startSeq" = s."startSeq"
    WHERE s."run" - s."size" <= ${budget}
    ORDER BY c."threadId", c."startSeq"`;
  return withinBudget(rows, budget, toCompactionRecord);
}

/**
 * The records of several threads, by thread, then startSeq; one statement per chunk; within
 * `budget` bytes of summaries (then `over`).
 */
export async function selectCompactions(
  db: Executor,
  tenantId: string,
  threadIds: readonly string[],
  budget: number,
): Promise<SizedRows<CompactionRecord>> {
  return inChunksWithinBudget(threadIds, 1, budget, (chunk, left) =>
    compactionsWithinBudget(
      db,
      tenantId,
      Prisma.sql`
        SELECT "threadId", "startSeq", octet_length("summary") AS "size" FROM "Compaction"
        WHERE "tenantId" = ${tenantId} AND "threadId" IN (${Prisma.join(chunk)})`,
      left,
    ),
  );
}

/**
 * Records by (threadId, markerSeq), in chunks under SQLite's parameter cap, in (threadId,
 * startSeq) order; within `budget` bytes of summaries (then `over`). Records of expired
 * threads are left out.
 */
export async function selectCompactionsByMarker(
  db: Executor,
  tenantId: string,
  keys: readonly { threadId: string; markerSeq: number }[],
  budget: number,
): Promise<SizedRows<CompactionRecord>> {
  const now = new Date();
  return inChunksWithinBudget(keys, 2, budget, (chunk, left) =>
    compactionsWithinBudget(
      db,
      tenantId,
      Prisma.sql`
        SELECT "threadId", "startSeq", octet_length("summary") AS "size" FROM "Compaction"
        WHERE "tenantId" = ${tenantId}
          AND ("threadId", "markerSeq") IN (${Prisma.join(chunk.map((k) => Prisma.sql`(${k.threadId}, ${k.markerSeq})`))})
          AND ${threadNotExpired('Compaction', now)}`,
      left,
    ),
  );
}

/**
 * A thread's items that no record covers, markers left out, in seq order, within `budget`
 * bytes of data (then `over`). Covered items are left out in SQL, with a fixed number of
 * parameters however many records the thread has.
 */
export async function selectUncoveredItems(
  db: Executor,
  tenantId: string,
  threadId: string,
  budget: number,
): Promise<SizedRows<ItemRecord>> {
  const sizes = Prisma.sql`
    SELECT i."threadId", i."seq", ${itemSizeSql('i.')} AS "size" FROM "Item" i
    WHERE i."tenantId" = ${tenantId} AND i."threadId" = ${threadId} AND i."type" <> 'compaction'
      AND NOT EXISTS (SELECT 1 FROM "Compaction" c
        WHERE c."tenantId" = i."tenantId" AND c."threadId" = i."threadId"
          AND i."seq" BETWEEN c."startSeq" AND c."endSeq")`;
  return selectWithinBudget(db, tenantId, sizes, Prisma.raw('ASC'), budget);
}
