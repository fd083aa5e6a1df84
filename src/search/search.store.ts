/**
 * Storage of item search (contract: Query.searchItems): the one statement that finds matching
 * items through each database's full-text index (src/db/dialect.ts, itemSearch) with the
 * filters, in rank order with a keyset. No rules: search.service.ts parses the query and
 * decides the page. The index itself is kept by the Item table's writers (Item.searchText).
 */
import type { Database } from '../db/client.js';
import { dialectOf, type FullTextQuery } from '../db/dialect.js';
import { Prisma } from '../generated/prisma/client.js';
import { notExpired } from '../threads/thread.store.js';

/** A position in rank order: rank descending, then threadId (bytewise) and seq ascending. */
export interface SearchPosition {
  rank: number;
  threadId: string;
  seq: number;
}

/** A matching item: its key and rank (higher is better; the value differs per database). */
export type SearchHit = SearchPosition;

/** What to search: the rendered query, the filters (null: none) and the page. */
export interface SearchHitQuery {
  tenantId: string;
  query: FullTextQuery;
  agentId: string | null;
  threadId: string | null;
  types: readonly string[] | null;
  includeArchived: boolean;
  /** Exclusive bounds on Item.createdAt. */
  createdAfter: Date | null;
  createdBefore: Date | null;
  /** Hits strictly after this position; null: from the best. */
  after: SearchPosition | null;
  limit: number;
}

/** Up to `limit` matching items of the tenant, best first (ties by threadId, then seq). */
export async function selectSearchHits(db: Database, q: SearchHitQuery): Promise<SearchHit[]> {
  const dialect = dialectOf(db.provider);
  const withItem = q.types !== null || q.createdAfter !== null || q.createdBefore !== null;
  const search = dialect.itemSearch(q.query, withItem);
  const matchConditions: Prisma.Sql[] = [search.where, Prisma.sql`k."tenantId" = ${q.tenantId}`];
  if (q.threadId !== null) matchConditions.push(Prisma.sql`k."threadId" = ${q.threadId}`);
  if (q.types !== null) matchConditions.push(Prisma.sql`i."type" IN (${Prisma.join(q.types)})`);
  if (q.createdAfter !== null) matchConditions.push(Prisma.sql`i."createdAt" > ${q.createdAfter}`);
  if (q.createdBefore !== null) {
    matchConditions.push(Prisma.sql`i."createdAt" < ${q.createdBefore}`);
  }
  // Expired threads are gone at once (contract: Thread.expiresAt), before the sweep.
  const threadConditions: Prisma.Sql[] = [notExpired(new Date(), 't.')];
  if (!q.includeArchived) threadConditions.push(Prisma.sql`t."archived" = ${false}`);
  if (q.agentId !== null) threadConditions.push(Prisma.sql`t."agentId" = ${q.agentId}`);
  const threadOrder = dialect.bytewise(Prisma.sql`h."threadId"`);
  if (q.after) {
    const { rank, threadId, seq } = q.after;
    // The rank as the statement computed it (a float8 on PostgreSQL, a double on SQLite).
    const r = db.provider === 'postgresql' ? Prisma.sql`${rank}::float8` : Prisma.sql`${rank}`;
    threadConditions.push(Prisma.sql`(h."rank" < ${r} OR (h."rank" = ${r} AND (${threadOrder} > ${threadId}
      OR (h."threadId" = ${threadId} AND h."seq" > ${seq}))))`);
  }
  // The matches first, on their own (MATERIALIZED): PostgreSQL otherwise planned a loop over
  // the tenant's threads with a GIN scan per thread (57 ms for one match in 100k items).
  const rows = await db.prisma.$queryRaw<
    { threadId: string; seq: number | bigint; rank: number }[]
  >`
    WITH h AS MATERIALIZED (
      SELECT k."tenantId", k."threadId", k."seq", ${search.rank} AS "rank"
      FROM ${search.from}
      WHERE ${Prisma.join(matchConditions, ' AND ')})
    SELECT h."threadId", h."seq", h."rank"
    FROM h JOIN "Thread" t ON t."tenantId" = h."tenantId" AND t."id" = h."threadId"
    WHERE ${Prisma.join(threadConditions, ' AND ')}
    ORDER BY h."rank" DESC, ${threadOrder}, h."seq"
    LIMIT ${q.limit}`;
  return rows.map((r) => ({ threadId: r.threadId, seq: Number(r.seq), rank: Number(r.rank) }));
}

/** An item row read for (re)indexing: its key, type and data. */
export interface UnindexedItem {
  tenantId: string;
  threadId: string;
  seq: number;
  type: string;
  dataJson: string;
}

/**
 * Up to `limit` items of `types` without searchText after the key `after` (every tenant), in
 * key order: the items stored before search existed (search-reindex.ts).
 */
export async function selectUnindexedItems(
  db: Database,
  types: readonly string[],
  after: { tenantId: string; threadId: string; seq: number } | null,
  limit: number,
): Promise<UnindexedItem[]> {
  const dialect = dialectOf(db.provider);
  const [tenant, thread] = [
    dialect.bytewise(Prisma.sql`"tenantId"`),
    dialect.bytewise(Prisma.sql`"threadId"`),
  ];
  const bound = after
    ? Prisma.sql`AND (${tenant} > ${after.tenantId} OR ("tenantId" = ${after.tenantId}
        AND (${thread} > ${after.threadId} OR ("threadId" = ${after.threadId} AND "seq" > ${after.seq}))))`
    : Prisma.empty;
  const rows = await db.prisma.$queryRaw<(Omit<UnindexedItem, 'seq'> & { seq: number | bigint })[]>`
    SELECT "tenantId", "threadId", "seq", "type", "dataJson" FROM "Item"
    WHERE "searchText" IS NULL AND "type" IN (${Prisma.join(types)}) ${bound}
    ORDER BY ${tenant}, ${thread}, "seq"
    LIMIT ${limit}`;
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

/** Sets the searchText of items (the search indexes follow: triggers, expression index). */
export async function updateSearchTexts(
  db: Database,
  rows: readonly { tenantId: string; threadId: string; seq: number; searchText: string }[],
): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    for (const r of rows) {
      await tx.$executeRaw`UPDATE "Item" SET "searchText" = ${r.searchText}
        WHERE "tenantId" = ${r.tenantId} AND "threadId" = ${r.threadId} AND "seq" = ${r.seq}`;
    }
  });
}
