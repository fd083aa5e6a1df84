/**
 * The thread list (contract: Query.threads, ThreadFilter, ThreadOrderBy): filters checked and
 * case-folded, keyset cursors bound to an order, pages in list order with ties by id. SQL is in
 * thread.store.ts (threadLister).
 */
import type { ServiceContext } from '../context.js';
import { assertNoNul, BadUserInputError } from '../errors.js';
import { isThreadId } from '../ids.js';
import { filterableJson, isJsonObject } from '../json.js';
import {
  type Connection,
  type ConnectionArgs,
  decodeCursor,
  encodeCursor,
  isCursorTime,
  pageRequest,
  toConnection,
} from '../pagination.js';
import { foldCase } from './thread.service.js';
import {
  type ThreadListQuery,
  type ThreadPosition,
  type ThreadRecord,
  threadLister,
} from './thread.store.js';

const MAX_METADATA_FILTER_KEYS = 50;

/** ThreadOrderBy values (contract); the GraphQL enum derives from it. Ties: id ascending. */
export const THREAD_ORDERS = [
  'UPDATED_AT_DESC',
  'UPDATED_AT_ASC',
  'CREATED_AT_DESC',
  'CREATED_AT_ASC',
] as const;
export type ThreadOrder = (typeof THREAD_ORDERS)[number];

export interface ThreadFilter {
  agentId?: string | null;
  includeArchived?: boolean | null;
  nameContains?: string | null;
  metadata?: unknown;
}

interface ThreadCursor extends ThreadPosition {
  order: ThreadOrder;
}

function threadCursor(order: ThreadOrder, thread: ThreadRecord): string {
  const at = order.startsWith('UPDATED') ? thread.updatedAt : thread.createdAt;
  return encodeCursor(thread.tenantId, { o: order, t: at.getTime(), i: thread.id });
}

function parseThreadCursor(
  tenantId: string,
  cursor: string,
  argument: string,
  order: ThreadOrder,
): ThreadCursor {
  const parsed = decodeCursor(tenantId, cursor, argument, (p) => {
    const c = p as { o?: unknown; t?: unknown; i?: unknown };
    return THREAD_ORDERS.includes(c.o as ThreadOrder) &&
      isCursorTime(c.t) &&
      typeof c.i === 'string' &&
      isThreadId(c.i)
      ? { order: c.o as ThreadOrder, at: c.t as number, id: c.i }
      : null;
  });
  if (parsed.order !== order) {
    throw new BadUserInputError(
      `${argument}: the cursor was made for orderBy ${parsed.order}, not ${order}; start again from the first page.`,
      { argument },
    );
  }
  return parsed;
}

/**
 * Checks a filter and turns it into a list query: the name needle case-folded, each metadata
 * key with its canonical JSON (keys sorted at every depth, U+0000 mapped as in stored
 * metadata), so nested values compare whole and key order does not matter.
 * @throws BadUserInputError for U+0000 in text, metadata that is not an object or has too many keys
 */
function listQuery(ctx: ServiceContext, filter: ThreadFilter, order: ThreadOrder): ThreadListQuery {
  assertNoNul(filter.agentId, 'filter.agentId');
  assertNoNul(filter.nameContains, 'filter.nameContains');
  const metadata: ThreadListQuery['metadata'] = [];
  if (filter.metadata != null) {
    if (!isJsonObject(filter.metadata)) {
      throw new BadUserInputError('filter.metadata must be a JSON object of the keys to match.', {
        field: 'filter.metadata',
      });
    }
    const entries = Object.entries(filter.metadata);
    if (entries.length > MAX_METADATA_FILTER_KEYS) {
      throw new BadUserInputError(
        `filter.metadata may hold at most ${MAX_METADATA_FILTER_KEYS} keys; got ${entries.length}.`,
        { field: 'filter.metadata' },
      );
    }
    for (const [key, value] of entries) {
      const mappedKey = Object.keys(JSON.parse(filterableJson({ [key]: 0 })) as object)[0] ?? key;
      metadata.push({ key: mappedKey, value, canonical: filterableJson(value) });
    }
  }
  return {
    tenantId: ctx.tenantId,
    agentId: filter.agentId,
    includeArchived: filter.includeArchived === true,
    nameNeedle: filter.nameContains ? foldCase(filter.nameContains) : null,
    metadata,
    order: {
      column: order.startsWith('UPDATED') ? 'updatedAt' : 'createdAt',
      descending: order.endsWith('DESC'),
    },
  };
}

/**
 * Lists threads: keyset pages ordered by the chosen time, ties by id ascending.
 * totalCount and the far-side page flag are computed only when asked for.
 * @param args.forkedFromId only the forks of this thread (Thread.forks, fork.service.ts)
 * @throws BadUserInputError for bad page arguments, a malformed cursor or filter
 */
export async function listThreads(
  ctx: ServiceContext,
  args: ConnectionArgs & {
    filter?: ThreadFilter | null;
    orderBy?: ThreadOrder | null;
    forkedFromId?: string | null;
  },
): Promise<Connection<ThreadRecord>> {
  const order = args.orderBy ?? 'UPDATED_AT_DESC';
  const request = pageRequest(args, ctx.limits.maxPageSize);
  const query = listQuery(ctx, args.filter ?? {}, order);
  const lister = threadLister(ctx.db, { ...query, forkedFromId: args.forkedFromId ?? null });
  // != null: an empty string is a malformed cursor, not a missing one.
  const after =
    args.after != null ? parseThreadCursor(ctx.tenantId, args.after, 'after', order) : null;
  const before =
    args.before != null ? parseThreadCursor(ctx.tenantId, args.before, 'before', order) : null;
  const forward = request.direction === 'forward';
  // limit + 1 also for first/last: 0, whose one extra row answers hasNextPage/hasPreviousPage.
  const rows = await lister.page({ after, before }, forward, request.limit + 1);
  // The side the read did not look at: rows at or before `after` (forward) or `before`.
  const otherSide = async (): Promise<boolean> => {
    const edge = forward ? after : before;
    return edge ? lister.existsUpTo(edge, forward) : false;
  };
  return toConnection(
    rows,
    request,
    (t) => threadCursor(order, t),
    (t) => t,
    otherSide,
    () => lister.count(),
  );
}
