/**
 * Full-text search over items (contract-parts/beyond.graphql, Query.searchItems): parses the
 * query (search-query.ts), finds matching items of the tenant through each database's index
 * (search.store.ts), best first, and makes a snippet of each (snippet.ts).
 *
 * Pages: keyset cursors over (rank, threadId, seq). The rank comes from the database (bm25 on
 * SQLite, ts_rank on PostgreSQL) and is carried in the cursor as computed, so a cursor is only
 * valid on the database that minted it; a write between two pages may re-rank items (both
 * ranks depend on the whole corpus), as in any search engine.
 */
import type { ServiceContext } from '../context.js';
import { assertNoNul, BadUserInputError } from '../errors.js';
import { isSeq, isThreadId } from '../ids.js';
import type { ItemRecord } from '../items/item.store.js';
import { findItems } from '../items/item-history.service.js';
import { decodeCursor, encodeCursor } from '../pagination.js';
import { findThreads } from '../threads/thread.service.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import { type SearchPosition, selectSearchHits } from './search.store.js';
import { parseSearchQuery, positiveTerms, toFullTextQuery } from './search-query.js';
import { itemText } from './search-text.js';
import { snippetOf } from './snippet.js';

/** Default and largest page (contract: Query.searchItems). */
export const SEARCH_DEFAULT_PAGE = 20;
export const SEARCH_MAX_PAGE = 100;
/** Characters of a query at most. */
export const MAX_QUERY_LENGTH = 1000;
const MAX_TYPES_FILTER = 100;

/** ItemSearchFilter as GraphQL passes it. */
export interface ItemSearchFilter {
  agentId?: string | null;
  threadId?: string | null;
  types?: readonly string[] | null;
  includeArchived?: boolean | null;
  createdAfter?: Date | null;
  createdBefore?: Date | null;
}

/** The arguments of Query.searchItems. */
export interface SearchItemsArgs {
  query: string;
  filter?: ItemSearchFilter | null;
  first?: number | null;
  after?: string | null;
}

/** One search result: the item, its thread and the snippet (HTML). */
export interface ItemSearchEdge {
  cursor: string;
  node: ItemRecord;
  thread: ThreadRecord;
  snippet: string;
}

/** A page of search results. */
export interface ItemSearchConnection {
  edges: ItemSearchEdge[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

const EMPTY: ItemSearchConnection = {
  edges: [],
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
};

function parseSearchCursor(tenantId: string, cursor: string): SearchPosition {
  return decodeCursor(tenantId, cursor, 'after', (p) => {
    const c = p as { r?: unknown; t?: unknown; s?: unknown };
    return typeof c.r === 'number' &&
      Number.isFinite(c.r) &&
      typeof c.t === 'string' &&
      isThreadId(c.t) &&
      isSeq(c.s)
      ? { rank: c.r, threadId: c.t, seq: c.s }
      : null;
  });
}

/**
 * Checks the page arguments and filter.
 * @throws BadUserInputError for first outside 0..100, a query over MAX_QUERY_LENGTH
 *   characters, an empty or too long types list, a malformed cursor
 */
function checkArgs(ctx: ServiceContext, args: SearchItemsArgs): void {
  if (args.first != null && (args.first < 0 || args.first > SEARCH_MAX_PAGE)) {
    throw new BadUserInputError(
      `first must be between 0 and ${SEARCH_MAX_PAGE}; got ${args.first}.`,
      { argument: 'first' },
    );
  }
  if (args.query.length > MAX_QUERY_LENGTH) {
    throw new BadUserInputError(
      `query is ${args.query.length} characters; the limit is ${MAX_QUERY_LENGTH}. Search for fewer or shorter words.`,
      { argument: 'query' },
    );
  }
  const types = args.filter?.types;
  if (types && (types.length === 0 || types.length > MAX_TYPES_FILTER)) {
    throw new BadUserInputError(
      `filter.types must name 1 to ${MAX_TYPES_FILTER} item types, or be left out.`,
      { argument: 'filter.types' },
    );
  }
  for (const type of types ?? []) assertNoNul(type, 'filter.types');
  assertNoNul(args.filter?.agentId, 'filter.agentId');
  if (args.after != null) parseSearchCursor(ctx.tenantId, args.after);
}

/**
 * Items of the tenant whose text matches `query` (syntax: search-query.ts), best first.
 * Archived threads are left out unless filter.includeArchived. A query with nothing to match
 * (empty, punctuation, only exclusions) gives an empty page; a malformed one never errors.
 * @throws BadUserInputError for bad arguments (checkArgs)
 * @throws PayloadTooLargeError when the page's items pass the read budget
 */
export async function searchItems(
  ctx: ServiceContext,
  args: SearchItemsArgs,
): Promise<ItemSearchConnection> {
  checkArgs(ctx, args);
  const filter = args.filter ?? {};
  const parsed = parseSearchQuery(args.query);
  const query = toFullTextQuery(parsed);
  // An invalid thread id names no thread of the tenant: nothing matches.
  if (query === null || (filter.threadId != null && !isThreadId(filter.threadId))) return EMPTY;
  const limit = args.first ?? SEARCH_DEFAULT_PAGE;
  const after = args.after != null ? parseSearchCursor(ctx.tenantId, args.after) : null;
  const hits = await selectSearchHits(ctx.db, {
    tenantId: ctx.tenantId,
    query,
    agentId: filter.agentId ?? null,
    threadId: filter.threadId ?? null,
    types: filter.types ?? null,
    includeArchived: filter.includeArchived ?? false,
    createdAfter: filter.createdAfter ?? null,
    createdBefore: filter.createdBefore ?? null,
    after,
    limit: limit + 1,
  });
  const page = hits.slice(0, limit);
  const [items, threads] = await Promise.all([
    findItems(ctx, page),
    findThreads(ctx, [...new Set(page.map((h) => h.threadId))]),
  ]);
  const threadById = new Map(threads.flatMap((t) => (t ? [[t.id, t] as const] : [])));
  const terms = positiveTerms(parsed);
  const edges: ItemSearchEdge[] = [];
  page.forEach((hit, i) => {
    const node = items[i];
    const thread = threadById.get(hit.threadId);
    // Deleted between the two reads: left out.
    if (!node || !thread) return;
    edges.push({
      cursor: encodeCursor(ctx.tenantId, { r: hit.rank, t: hit.threadId, s: hit.seq }),
      node,
      thread,
      snippet: snippetOf(itemText(node.type, node.data), terms),
    });
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: hits.length > limit,
      hasPreviousPage: after !== null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
