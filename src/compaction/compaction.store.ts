/**
 * Storage of compaction records: every SQL statement and Prisma call on the Compaction table,
 * rows parsed into CompactionRecords here and nowhere else, and the context read (items left
 * uncovered by every record). Reads are raw statements, writes Prisma's model API, as in the
 * other stores. No rules: compaction.service.ts holds them.
 */
import { readInChunks } from '../db/chunks.js';
import type { Executor } from '../db/transaction.js';
import { type Compaction, type Item, Prisma } from '../generated/prisma/client.js';
import { compactionId } from '../ids.js';
import { type ItemRecord, toItemRecord } from '../items/item.store.js';

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

/** Deletes every record of a thread; returns how many. */
export async function deleteCompactionRows(
  tx: Executor,
  tenantId: string,
  threadId: string,
): Promise<number> {
  const { count } = await tx.compaction.deleteMany({ where: { tenantId, threadId } });
  return count;
}

/** The records of several threads, by thread, then startSeq; one statement per chunk. */
export async function selectCompactions(
  db: Executor,
  tenantId: string,
  threadIds: readonly string[],
): Promise<CompactionRecord[]> {
  const rows = await readInChunks(
    threadIds,
    1,
    (chunk) => db.$queryRaw<Compaction[]>`
      SELECT * FROM "Compaction" WHERE "tenantId" = ${tenantId} AND "threadId" IN (${Prisma.join(chunk)})
      ORDER BY "threadId", "startSeq"`,
  );
  return rows.map(toCompactionRecord);
}

/** Records by (threadId, markerSeq), in chunks under SQLite's parameter cap; unordered. */
export async function selectCompactionsByMarker(
  db: Executor,
  tenantId: string,
  keys: readonly { threadId: string; markerSeq: number }[],
): Promise<CompactionRecord[]> {
  const rows = await readInChunks(
    keys,
    2,
    (chunk) => db.$queryRaw<Compaction[]>`
      SELECT * FROM "Compaction" WHERE "tenantId" = ${tenantId}
        AND ("threadId", "markerSeq") IN (${Prisma.join(chunk.map((k) => Prisma.sql`(${k.threadId}, ${k.markerSeq})`))})`,
  );
  return rows.map(toCompactionRecord);
}

/**
 * A thread's items that no record covers, markers left out, in seq order. Covered items are
 * left out in SQL, with a fixed number of parameters however many records the thread has.
 */
export async function selectUncoveredItems(
  db: Executor,
  tenantId: string,
  threadId: string,
): Promise<ItemRecord[]> {
  const rows = await db.$queryRaw<Item[]>`
    SELECT i.* FROM "Item" i
    WHERE i."tenantId" = ${tenantId} AND i."threadId" = ${threadId} AND i."type" <> 'compaction'
      AND NOT EXISTS (SELECT 1 FROM "Compaction" c
        WHERE c."tenantId" = i."tenantId" AND c."threadId" = i."threadId"
          AND i."seq" BETWEEN c."startSeq" AND c."endSeq")
    ORDER BY i."seq"`;
  return rows.map(toItemRecord);
}
