/**
 * Storage of item search (contract: Query.searchItems): the one statement that finds matching
 * items through each database's full-text index (src/db/dialect.ts, itemSearch) with the
 * filters, in rank order with a keyset. No rules: search.service.ts parses the query and
 * decides the page. The index itself is kept by the Item table's writers (Item.searchText).
 */
import type { Database } from '../db/client.js';
import { dialectOf, type FullTextQuery } from '../db/dialect.js';
import { Prisma } from '../generated/prisma/client.js';

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
  const conditions: Prisma.Sql[] = [search.where, Prisma.sql`k."tenantId" = ${q.tenantId}`];
  if (!q.includeArchived) conditions.push(Prisma.sql`t."archived" = ${false}`);
  if (q.agentId !== null) conditions.push(Prisma.sql`t."agentId" = ${q.agentId}`);
  if (q.threadId !== null) conditions.push(Prisma.sql`k."threadId" = ${q.threadId}`);
  if (q.types !== null) conditions.push(Prisma.sql`i."type" IN (${Prisma.join(q.types)})`);
  if (q.createdAfter !== null) conditions.push(Prisma.sql`i."createdAt" > ${q.createdAfter}`);
  if (q.createdBefore !== null) conditions.push(Prisma.sql`i."createdAt" < ${q.createdBefore}`);
  const threadOrder = dialect.bytewise(Prisma.sql`h."threadId"`);
  let keyset = Prisma.empty;
  if (q.after) {
    const { rank, threadId, seq } = q.after;
    // The rank as the statement computed it (a float8 on PostgreSQL, a double on SQLite).
    const r = db.provider === 'postgresql' ? Prisma.sql`${rank}::float8` : Prisma.sql`${rank}`;
    keyset = Prisma.sql`WHERE h."rank" < ${r} OR (h."rank" = ${r} AND (${threadOrder} > ${threadId}
      OR (h."threadId" = ${threadId} AND h."seq" > ${seq})))`;
  }
  const rows = await db.prisma.$queryRaw<
    { threadId: string; seq: number | bigint; rank: number }[]
  >`
    SELECT h."threadId", h."seq", h."rank" FROM (
      SELECT k."threadId", k."seq", ${search.rank} AS "rank"
      FROM ${search.from}
        JOIN "Thread" t ON t."tenantId" = k."tenantId" AND t."id" = k."threadId"
      WHERE ${Prisma.join(conditions, ' AND ')}) h
    ${keyset}
    ORDER BY h."rank" DESC, ${threadOrder}, h."seq"
    LIMIT ${q.limit}`;
  return rows.map((r) => ({ threadId: r.threadId, seq: Number(r.seq), rank: Number(r.rank) }));
}
