/**
 * Reading the item log: pages of history with cursors and seq bounds, items by id, and the
 * newest item of threads for list previews (contract: Thread.items, Query.item, Node,
 * Thread.lastItem). SQL is in item.store.ts.
 */
import type { ServiceContext } from '../context.js';
import { assertNoNul, BadUserInputError } from '../errors.js';
import { isSeq, isThreadId, itemId } from '../ids.js';
import {
  type Connection,
  type ConnectionArgs,
  decodeCursor,
  encodeCursor,
  pageRequest,
  toConnection,
} from '../pagination.js';
import { type ReadSubject, readBudget } from '../read-budget.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import {
  countItems,
  type ItemRecord,
  itemExists,
  selectItemPage,
  selectItems,
  selectNewestItems,
} from './item.store.js';

const MAX_TYPES_FILTER = 100;

const PAGE: ReadSubject = {
  what: "This page's items",
  advice: 'ask for fewer items with first/last, or leave data out of the selection.',
};
const BY_ID: ReadSubject = {
  what: 'These items',
  advice: 'ask for fewer ids (nodes), fewer threads (lastItem) or fewer aliases per request.',
};

export interface ItemPageArgs extends ConnectionArgs {
  afterSeq?: number | null;
  beforeSeq?: number | null;
  types?: string[] | null;
}

function parseItemCursor(
  tenantId: string,
  cursor: string,
  argument: string,
  threadId: string,
): number {
  const parsed = decodeCursor(tenantId, cursor, argument, (p) => {
    if (typeof p !== 'object' || p === null || Array.isArray(p)) return null;
    const c = p as { t?: unknown; s?: unknown };
    return typeof c.t === 'string' && isSeq(c.s) ? { threadId: c.t, seq: c.s } : null;
  });
  if (parsed.threadId !== threadId) {
    throw new BadUserInputError(`${argument}: the cursor belongs to another thread.`, { argument });
  }
  return parsed.seq;
}

/**
 * A page of a thread's log in seq order (contract: Thread.items). Cursors and afterSeq /
 * beforeSeq are exclusive bounds; the tighter one wins. totalCount counts items matching
 * `types` (the thread's itemCount when no types are given).
 * @throws BadUserInputError for bad page arguments, an empty types list, a malformed cursor
 *   or one from another thread
 */
export async function listItems(
  ctx: ServiceContext,
  thread: ThreadRecord,
  args: ItemPageArgs,
): Promise<Connection<ItemRecord>> {
  const request = pageRequest(args, ctx.limits.maxPageSize);
  for (const type of args.types ?? []) assertNoNul(type, 'types');
  if (args.types && args.types.length > MAX_TYPES_FILTER) {
    throw new BadUserInputError(`types may name at most ${MAX_TYPES_FILTER} item types.`, {
      argument: 'types',
    });
  }
  if (args.types && args.types.length === 0) {
    throw new BadUserInputError('types must name at least one item type, or be left out.', {
      argument: 'types',
    });
  }
  // Exclusive bounds; upper null = none. Every bound stays within 32 bits (PostgreSQL integer).
  // `!= null`: an empty string is a malformed cursor, not a missing one.
  let lower = -1;
  if (args.after != null)
    lower = Math.max(lower, parseItemCursor(ctx.tenantId, args.after, 'after', thread.id));
  if (args.afterSeq != null) lower = Math.max(lower, args.afterSeq);
  const uppers = [
    ...(args.before != null
      ? [parseItemCursor(ctx.tenantId, args.before, 'before', thread.id)]
      : []),
    ...(args.beforeSeq != null ? [args.beforeSeq] : []),
  ];
  const upper = uppers.length > 0 ? Math.min(...uppers) : null;

  const forward = request.direction === 'forward';
  const types = args.types ?? null;
  const db = ctx.db.prisma;
  const { tenantId } = ctx;
  const rows =
    // first/last 0 still reads one row, so hasNextPage/hasPreviousPage say whether items exist
    // (as the thread list does).
    upper !== null && upper <= lower + 1
      ? []
      : await readBudget(ctx).read(PAGE, (left) =>
          selectItemPage(
            db,
            {
              provider: ctx.db.provider,
              tenantId,
              threadId: thread.id,
              lower,
              upper,
              types,
              forward,
              limit: request.limit + 1,
            },
            left,
          ),
        );
  const otherSide = async (): Promise<boolean> =>
    forward
      ? lower >= 0 && itemExists(db, tenantId, thread.id, types, { atMost: lower })
      : upper !== null && itemExists(db, tenantId, thread.id, types, { atLeast: upper });
  const totalCount = types ? () => countItems(db, tenantId, thread.id, types) : thread.itemCount;
  return toConnection(
    rows,
    request,
    (item) => encodeCursor(tenantId, { t: thread.id, s: item.seq }),
    (item) => item,
    otherSide,
    totalCount,
  );
}

/** One item by thread and seq, or null. */
export async function findItem(
  ctx: ServiceContext,
  threadId: string,
  seq: number,
): Promise<ItemRecord | null> {
  if (!isThreadId(threadId) || !isSeq(seq)) return null;
  const [item] = await readBudget(ctx).read(BY_ID, (left) =>
    selectItems(ctx.db.prisma, ctx.tenantId, [{ threadId, seq }], left),
  );
  return item ?? null;
}

/** Items by (threadId, seq) in one statement, in the order asked; null where missing. */
export async function findItems(
  ctx: ServiceContext,
  keys: readonly { threadId: string; seq: number }[],
): Promise<(ItemRecord | null)[]> {
  // A seq outside 0..2^31-1 names no item (and would overflow PostgreSQL's integer).
  const valid = keys.filter((k) => isSeq(k.seq));
  if (valid.length === 0) return keys.map(() => null);
  const items = await readBudget(ctx).read(BY_ID, (left) =>
    selectItems(ctx.db.prisma, ctx.tenantId, valid, left),
  );
  const byId = new Map(items.map((item) => [item.id, item]));
  return keys.map((k) => byId.get(itemId(k.threadId, k.seq)) ?? null);
}

/**
 * The newest stored item of each thread, in one statement for the common case (the item at
 * nextSeq - 1); threads whose newest items were purged (imported items can be older than later
 * seqs) take one more statement, together.
 */
export async function lastItems(
  ctx: ServiceContext,
  threads: readonly ThreadRecord[],
): Promise<(ItemRecord | null)[]> {
  const candidates = threads.filter((t) => t.itemCount > 0);
  const found = await findItems(
    ctx,
    candidates.map((t) => ({ threadId: t.id, seq: t.nextSeq - 1 })),
  );
  const byThread = new Map<string, ItemRecord | null>();
  candidates.forEach((t, i) => {
    byThread.set(t.id, found[i] ?? null);
  });
  const purged = candidates.filter((t) => byThread.get(t.id) === null).map((t) => t.id);
  const newest = purged.length
    ? await readBudget(ctx).read(BY_ID, (left) =>
        selectNewestItems(ctx.db.prisma, ctx.tenantId, purged, left),
      )
    : [];
  for (const item of newest) {
    byThread.set(item.threadId, item);
  }
  return threads.map((t) => byThread.get(t.id) ?? null);
}
