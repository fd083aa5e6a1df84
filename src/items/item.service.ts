/**
 * The append-only item log: appends with seq assignment, expectedSeq and idempotency keys;
 * pages of history; single items; the newest item of threads; retention purges.
 * Rules from contract.graphql (AppendItemsInput, NewItem, Thread.items, PurgeItemsInput)
 * and ARCHITECTURE.md (seq assignment).
 */
import type { ServiceContext } from '../context.js';
import { transaction } from '../db/transaction.js';
import { readInChunks } from '../db/chunks.js';
import { isUniqueViolation } from '../db/errors.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  threadNotFound,
} from '../errors.js';
import { type Item, Prisma, type Thread } from '../generated/prisma/client.js';
import { isStorableDate, jsonBytes, jsonDepth, jsonHash, MAX_JSON_DEPTH } from '../json.js';
import {
  type Connection,
  type ConnectionArgs,
  decodeCursor,
  encodeCursor,
  pageRequest,
  toConnection,
} from '../pagination.js';
import { type ItemEventData, threadKey } from '../pubsub/topics.js';
import { assertThreadId, normalizeThreadRow, THREAD_ID_PATTERN } from '../threads/thread.service.js';
import { BODY_FIELDS, type BodyField, bodySchemas, bodyToData, type ItemStatus, isSeq } from './item-types.js';

/** A stored item with its payload parsed. `id` is "<threadId>:<seq>". */
export interface ItemRecord {
  id: string;
  tenantId: string;
  threadId: string;
  seq: number;
  type: string;
  status: ItemStatus;
  responseId: string | null;
  createdAt: Date;
  createdBy: string | null;
  callId: string | null;
  data: unknown;
}

/** The stable id of an item (contract: ConversationItem.id). */
export function itemId(threadId: string, seq: number): string {
  return `${threadId}:${seq}`;
}

/** Converts a database row into an ItemRecord. */
export function toItemRecord(row: Item): ItemRecord {
  const seq = Number(row.seq);
  return {
    id: itemId(row.threadId, seq),
    tenantId: row.tenantId,
    threadId: row.threadId,
    seq,
    type: row.type,
    status: row.status as ItemStatus,
    responseId: row.responseId,
    createdAt: new Date(row.createdAt),
    createdBy: row.createdBy,
    callId: row.callId,
    data: JSON.parse(row.dataJson) as unknown,
  };
}

/** An item as carried in a live event. */
export function toItemEventData(item: ItemRecord): ItemEventData {
  return {
    seq: item.seq,
    type: item.type,
    status: item.status,
    responseId: item.responseId,
    createdAt: item.createdAt.toISOString(),
    createdBy: item.createdBy,
    callId: item.callId,
    data: item.data,
  };
}

/** An item from a live event, as the record a read would give. */
export function fromItemEventData(tenantId: string, threadId: string, e: ItemEventData): ItemRecord {
  return {
    id: itemId(threadId, e.seq),
    tenantId,
    threadId,
    seq: e.seq,
    type: e.type,
    status: e.status as ItemStatus,
    responseId: e.responseId,
    createdAt: new Date(e.createdAt),
    createdBy: e.createdBy,
    callId: e.callId,
    data: e.data,
  };
}

/** NewItem as GraphQL passes it: common fields plus exactly one body field. */
export type NewItemInput = {
  status?: ItemStatus | null;
  responseId?: string | null;
  createdBy?: string | null;
  createdAt?: Date | null;
} & { [K in BodyField]?: Record<string, unknown> | null };

/** An item checked and serialised, ready to get a seq. */
export interface PreparedItem {
  type: string;
  status: ItemStatus;
  responseId: string | null;
  createdBy: string | null;
  createdAt: Date | null;
  callId: string | null;
  dataJson: string;
}

const MAX_LABEL_LENGTH = 256;
const MAX_TYPES_FILTER = 100;

/**
 * Checks one NewItem and serialises its data.
 * @param path where the item is in the request, for messages ("items[3]")
 * @throws BadUserInputError (zero or several body fields, a rule of its type broken)
 * @throws PayloadTooLargeError when its data is over the item size limit
 */
export function prepareItem(ctx: ServiceContext, input: NewItemInput, path: string): PreparedItem {
  const given = BODY_FIELDS.filter((f) => input[f] != null);
  if (given.length !== 1) {
    throw new BadUserInputError(
      `${path}: set exactly one body field (${BODY_FIELDS.join(', ')}); got ${given.length === 0 ? 'none' : given.join(' and ')}.`,
      { field: path },
    );
  }
  const field = given[0] as BodyField;
  const parsed = bodySchemas[field].safeParse(input[field]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = [path, field, ...(issue?.path ?? [])].join('.');
    throw new BadUserInputError(`${where} ${issue?.message ?? 'is invalid'}.`, { field: where });
  }
  for (const label of ['responseId', 'createdBy'] as const) {
    const value = input[label];
    assertNoNul(value, `${path}.${label}`);
    if (value != null && value.length > MAX_LABEL_LENGTH) {
      throw new BadUserInputError(`${path}.${label} must be at most ${MAX_LABEL_LENGTH} characters.`, {
        field: `${path}.${label}`,
      });
    }
  }
  const { type, data, callId } = bodyToData(field, parsed.data as Record<string, unknown>);
  assertNoNul(callId, `${path}.${field}.callId`);
  if (input.createdAt != null && !isStorableDate(input.createdAt)) {
    throw new BadUserInputError(`${path}.createdAt must be between years 0001 and 9999.`, {
      field: `${path}.createdAt`,
    });
  }
  if (jsonDepth(data) > MAX_JSON_DEPTH) {
    throw new BadUserInputError(`${path}: its data is nested more than ${MAX_JSON_DEPTH} levels deep.`, {
      field: path,
    });
  }
  const dataJson = JSON.stringify(data);
  const bytes = jsonBytes(dataJson);
  if (bytes > ctx.limits.maxItemBytes) {
    throw new PayloadTooLargeError(
      `${path}: its data is ${bytes} bytes of JSON; the limit is ${ctx.limits.maxItemBytes} bytes per item.`,
      { field: path, bytes, limit: ctx.limits.maxItemBytes },
    );
  }
  return {
    type,
    status: input.status ?? 'COMPLETED',
    responseId: input.responseId ?? null,
    createdBy: input.createdBy ?? null,
    createdAt: input.createdAt ?? null,
    callId,
    dataJson,
  };
}

/**
 * Writes prepared items at firstSeq.. inside a transaction; returns them as records.
 * Raw multi-row INSERTs rather than createMany: appends are the hot path, and CPU profiles
 * (bench/) show Prisma's query compilation dominating createMany; a raw statement skips it.
 * At most ITEMS_PER_INSERT rows per statement (10 parameters a row, under SQLite's cap).
 */
const ITEMS_PER_INSERT = 90;

export async function insertItems(
  tx: Prisma.TransactionClient,
  tenantId: string,
  threadId: string,
  firstSeq: number,
  items: PreparedItem[],
  now: Date,
): Promise<ItemRecord[]> {
  const rows: Item[] = items.map((item, i) => ({
    tenantId,
    threadId,
    seq: firstSeq + i,
    type: item.type,
    status: item.status,
    responseId: item.responseId,
    createdAt: item.createdAt ?? now,
    createdBy: item.createdBy,
    callId: item.callId,
    dataJson: item.dataJson,
  }));
  for (let start = 0; start < rows.length; start += ITEMS_PER_INSERT) {
    const values = rows
      .slice(start, start + ITEMS_PER_INSERT)
      .map(
        (r) =>
          Prisma.sql`(${r.tenantId}, ${r.threadId}, ${r.seq}, ${r.type}, ${r.status}, ${r.responseId}, ${r.createdAt}, ${r.createdBy}, ${r.callId}, ${r.dataJson})`,
      );
    await tx.$executeRaw`INSERT INTO "Item" ("tenantId", "threadId", "seq", "type", "status", "responseId", "createdAt", "createdBy", "callId", "dataJson") VALUES ${Prisma.join(values)}`;
  }
  return rows.map(toItemRecord);
}

/**
 * Advances a thread's seq counter by `count` inside a transaction (the row lock that
 * serialises appends to one thread on PostgreSQL) and returns the thread as updated.
 * @throws NotFoundError when the thread does not exist
 * @throws ConflictError when expectedSeq is given and is not the thread's nextSeq
 */
export async function reserveSeqs(
  tx: Prisma.TransactionClient,
  tenantId: string,
  threadId: string,
  count: number,
  now: Date,
  expectedSeq?: number | null,
): Promise<Thread> {
  // Raw for the same reason as insertItems: one UPDATE ... RETURNING, no query compilation.
  const updated = await tx.$queryRaw<Thread[]>`
    UPDATE "Thread" SET "nextSeq" = "nextSeq" + ${count}, "itemCount" = "itemCount" + ${count}, "updatedAt" = ${now}
    WHERE "tenantId" = ${tenantId} AND "id" = ${threadId}
    ${expectedSeq != null ? Prisma.sql`AND "nextSeq" = ${expectedSeq}` : Prisma.empty}
    RETURNING *`;
  if (updated[0]) return normalizeThreadRow(updated[0]);
  // No row updated: the thread is missing, or expectedSeq did not match.
  const thread = await tx.thread.findUnique({ where: { tenantId_id: { tenantId, id: threadId } } });
  if (!thread) throw threadNotFound(threadId);
  throw new ConflictError(
    `expectedSeq is ${expectedSeq} but the thread's next seq is ${thread.nextSeq}; read the new items and retry.`,
    { threadId, expectedSeq, nextSeq: thread.nextSeq },
  );
}

export interface AppendItemsInput {
  threadId: string;
  items: NewItemInput[];
  expectedSeq?: number | null;
  idempotencyKey?: string | null;
}

export interface AppendItemsResult {
  thread: Thread;
  items: ItemRecord[];
  replayed: boolean;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * Appends 1..maxAppendItems items all-or-nothing with consecutive seqs, in one transaction;
 * publishes after commit. With an idempotency key, a retry with deep-equal items returns the
 * first result (replayed: true) and writes nothing.
 * @throws BadUserInputError, PayloadTooLargeError (nothing written)
 * @throws NotFoundError for an unknown thread
 * @throws ConflictError for an expectedSeq mismatch or a key reused with other items
 */
export async function appendItems(ctx: ServiceContext, input: AppendItemsInput): Promise<AppendItemsResult> {
  assertThreadId(input.threadId, 'threadId');
  const max = ctx.limits.maxAppendItems;
  if (input.items.length < 1 || input.items.length > max) {
    throw new BadUserInputError(`items must hold 1 to ${max} items; got ${input.items.length}.`, {
      field: 'items',
    });
  }
  if (input.expectedSeq != null && input.expectedSeq < 0) {
    throw new BadUserInputError('expectedSeq must be 0 or more.', { field: 'expectedSeq' });
  }
  const key = input.idempotencyKey;
  assertNoNul(key, 'idempotencyKey');
  if (key != null && (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw new BadUserInputError(
      `idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      { field: 'idempotencyKey' },
    );
  }
  const prepared = input.items.map((item, i) => prepareItem(ctx, item, `items[${i}]`));
  const requestHash = key == null ? '' : requestHashOf(prepared);

  for (let attempt = 0; ; attempt++) {
    if (key != null) {
      const replay = await replayAppend(ctx, input.threadId, key, requestHash);
      if (replay) return replay;
    }
    const now = new Date();
    try {
      const result = await transaction(ctx.db, async (tx) => {
        const thread = await reserveSeqs(
          tx,
          ctx.tenantId,
          input.threadId,
          prepared.length,
          now,
          input.expectedSeq,
        );
        const firstSeq = thread.nextSeq - prepared.length;
        const items = await insertItems(tx, ctx.tenantId, input.threadId, firstSeq, prepared, now);
        if (key != null) {
          await tx.idempotencyKey.create({
            data: {
              tenantId: ctx.tenantId,
              threadId: input.threadId,
              key,
              requestHash,
              firstSeq,
              itemCount: prepared.length,
              createdAt: now,
            },
          });
        }
        return { thread, items, replayed: false };
      });
      publishAppended(ctx, result.thread, result.items, now);
      return result;
    } catch (error) {
      // A concurrent append with the same key committed first: answer as its replay.
      if (key != null && isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

/**
 * The hash an idempotency key is stored with. It covers the parsed data, not its JSON text, so
 * a retry that sends deep-equal items with object keys in another order is still a replay.
 */
function requestHashOf(prepared: PreparedItem[]): string {
  return jsonHash(
    prepared.map(({ dataJson, ...rest }) => ({ ...rest, data: JSON.parse(dataJson) as unknown })),
  );
}

/** The first result of an append made with this key, or null when the key is new. */
async function replayAppend(
  ctx: ServiceContext,
  threadId: string,
  key: string,
  requestHash: string,
): Promise<AppendItemsResult | null> {
  const record = await ctx.db.prisma.idempotencyKey.findUnique({
    where: { tenantId_threadId_key: { tenantId: ctx.tenantId, threadId, key } },
    include: { thread: true },
  });
  if (!record) return null;
  if (record.requestHash !== requestHash) {
    throw new ConflictError(
      `idempotencyKey "${key}" was already used on this thread with different items; use a new key for a new append.`,
      { threadId, idempotencyKey: key },
    );
  }
  const rows = await ctx.db.prisma.item.findMany({
    where: {
      tenantId: ctx.tenantId,
      threadId,
      seq: { gte: record.firstSeq, lt: record.firstSeq + record.itemCount },
    },
    orderBy: { seq: 'asc' },
  });
  return { thread: record.thread, items: rows.map(toItemRecord), replayed: true };
}

/** Publishes ITEMS_APPENDED on the thread's item topic and the tenant's thread events. */
export function publishAppended(
  ctx: ServiceContext,
  thread: Thread,
  items: ItemRecord[],
  at: Date,
  eventType: 'ITEMS_APPENDED' | 'COMPACTED' = 'ITEMS_APPENDED',
): void {
  ctx.events.publish('thread-items', threadKey(ctx.tenantId, thread.id), {
    kind: 'appended',
    tenantId: ctx.tenantId,
    threadId: thread.id,
    firstSeq: items[0]!.seq,
    lastSeq: items.at(-1)!.seq,
    items: items.map(toItemEventData),
  });
  ctx.events.publish('thread-events', ctx.tenantId, {
    type: eventType,
    tenantId: ctx.tenantId,
    threadId: thread.id,
    agentId: thread.agentId,
    at: at.toISOString(),
  });
}

export interface ItemPageArgs extends ConnectionArgs {
  afterSeq?: number | null;
  beforeSeq?: number | null;
  types?: string[] | null;
}

function parseItemCursor(cursor: string, argument: string, threadId: string): number {
  const parsed = decodeCursor(cursor, argument, (p) => {
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
  thread: Thread,
  args: ItemPageArgs,
): Promise<Connection<ItemRecord>> {
  const request = pageRequest(args, ctx.limits.maxPageSize);
  for (const type of args.types ?? []) assertNoNul(type, 'types');
  if (args.types && args.types.length > MAX_TYPES_FILTER) {
    throw new BadUserInputError(`types may name at most ${MAX_TYPES_FILTER} item types.`, { argument: 'types' });
  }
  if (args.types && args.types.length === 0) {
    throw new BadUserInputError('types must name at least one item type, or be left out.', {
      argument: 'types',
    });
  }
  // Exclusive bounds; upper null = none. Every bound stays within 32 bits (PostgreSQL integer).
  // `!= null`: an empty string is a malformed cursor, not a missing one.
  let lower = -1;
  if (args.after != null) lower = Math.max(lower, parseItemCursor(args.after, 'after', thread.id));
  if (args.afterSeq != null) lower = Math.max(lower, args.afterSeq);
  const uppers = [
    ...(args.before != null ? [parseItemCursor(args.before, 'before', thread.id)] : []),
    ...(args.beforeSeq != null ? [args.beforeSeq] : []),
  ];
  const upper = uppers.length > 0 ? Math.min(...uppers) : null;

  const base: Prisma.ItemWhereInput = {
    tenantId: ctx.tenantId,
    threadId: thread.id,
    ...(args.types ? { type: { in: args.types } } : {}),
  };
  const forward = request.direction === 'forward';
  const rows =
    // first/last 0 still reads one row, so hasNextPage/hasPreviousPage say whether items exist
    // (as the thread list does).
    upper !== null && upper <= lower + 1
      ? []
      : // Raw, like the append path: a history page is a hot read, and Prisma's query
        // compilation per call was most of its CPU (bench S5).
        await ctx.db.prisma.$queryRaw<Item[]>`
          SELECT * FROM "Item"
          WHERE "tenantId" = ${ctx.tenantId} AND "threadId" = ${thread.id} AND "seq" > ${lower}
            ${upper === null ? Prisma.empty : Prisma.sql`AND "seq" < ${upper}`}
            ${args.types ? Prisma.sql`AND "type" IN (${Prisma.join(args.types)})` : Prisma.empty}
          ORDER BY "seq" ${Prisma.raw(forward ? 'ASC' : 'DESC')}
          LIMIT ${request.limit + 1}`;
  const exists = async (seq: Prisma.IntFilter): Promise<boolean> =>
    (await ctx.db.prisma.item.findFirst({ where: { ...base, seq }, select: { seq: true } })) !== null;
  const otherSide = async (): Promise<boolean> =>
    forward
      ? lower >= 0 && exists({ lte: lower })
      : upper !== null && exists({ gte: upper });
  const totalCount = args.types
    ? async () => ctx.db.prisma.item.count({ where: base })
    : thread.itemCount;
  return toConnection(
    rows,
    request,
    (row) => encodeCursor({ t: thread.id, s: Number(row.seq) }),
    toItemRecord,
    otherSide,
    totalCount,
  );
}

/** One item by thread and seq, or null. */
export async function findItem(ctx: ServiceContext, threadId: string, seq: number): Promise<ItemRecord | null> {
  if (!THREAD_ID_PATTERN.test(threadId) || !isSeq(seq)) return null;
  const row = await ctx.db.prisma.item.findUnique({
    where: { tenantId_threadId_seq: { tenantId: ctx.tenantId, threadId, seq } },
  });
  return row ? toItemRecord(row) : null;
}

/** Items by (threadId, seq) in one statement, in the order asked; null where missing. */
export async function findItems(
  ctx: ServiceContext,
  keys: readonly { threadId: string; seq: number }[],
): Promise<(ItemRecord | null)[]> {
  // A seq outside 0..2^31-1 names no item (and would overflow PostgreSQL's integer).
  const valid = keys.filter((k) => isSeq(k.seq));
  if (valid.length === 0) return keys.map(() => null);
  const rows = await readInChunks(valid, 3, (chunk) =>
    ctx.db.prisma.item.findMany({
      where: { OR: chunk.map((k) => ({ tenantId: ctx.tenantId, threadId: k.threadId, seq: k.seq })) },
    }),
  );
  const byId = new Map(rows.map((row) => [itemId(row.threadId, Number(row.seq)), toItemRecord(row)]));
  return keys.map((k) => byId.get(itemId(k.threadId, k.seq)) ?? null);
}

/**
 * The newest stored item of each thread, in one statement for the common case (the item at
 * nextSeq - 1); threads whose newest items were purged take one more statement, together.
 */
export async function lastItems(ctx: ServiceContext, threads: readonly Thread[]): Promise<(ItemRecord | null)[]> {
  const candidates = threads.filter((t) => t.itemCount > 0);
  const found = await findItems(
    ctx,
    candidates.map((t) => ({ threadId: t.id, seq: t.nextSeq - 1 })),
  );
  const byThread = new Map<string, ItemRecord | null>();
  candidates.forEach((t, i) => byThread.set(t.id, found[i] ?? null));
  // Threads whose newest item was purged (imported items can be older than later seqs): one
  // more statement for all of them, the max seq per thread through the primary key.
  const purged = candidates.filter((t) => byThread.get(t.id) === null).map((t) => t.id);
  const rows = await readInChunks(
    purged,
    1,
    (chunk) => ctx.db.prisma.$queryRaw<Item[]>`
      SELECT i.* FROM "Item" i
      JOIN (SELECT "threadId", MAX("seq") AS "maxSeq" FROM "Item"
            WHERE "tenantId" = ${ctx.tenantId} AND "threadId" IN (${Prisma.join(chunk)})
            GROUP BY "threadId") m
        ON i."threadId" = m."threadId" AND i."seq" = m."maxSeq"
      WHERE i."tenantId" = ${ctx.tenantId}`,
  );
  for (const row of rows) byThread.set(row.threadId, toItemRecord(row));
  return threads.map((t) => byThread.get(t.id) ?? null);
}

/**
 * Deletes the items created before `before` (retention) in one transaction. Seqs are not
 * reused; compaction records stay.
 * @throws NotFoundError
 */
export async function purgeItems(
  ctx: ServiceContext,
  input: { threadId: string; before: Date },
): Promise<{ thread: Thread; itemsDeleted: number }> {
  assertThreadId(input.threadId, 'threadId');
  if (!isStorableDate(input.before)) {
    throw new BadUserInputError('before must be between years 0001 and 9999.', { field: 'before' });
  }
  const now = new Date();
  const result = await transaction(ctx.db, async (tx) => {
    const exists = await tx.thread.findUnique({
      where: { tenantId_id: { tenantId: ctx.tenantId, id: input.threadId } },
      select: { id: true },
    });
    if (!exists) throw threadNotFound(input.threadId);
    const { count } = await tx.item.deleteMany({
      where: { tenantId: ctx.tenantId, threadId: input.threadId, createdAt: { lt: input.before } },
    });
    const thread = await tx.thread.update({
      where: { tenantId_id: { tenantId: ctx.tenantId, id: input.threadId } },
      data: { itemCount: { decrement: count }, updatedAt: now },
    });
    return { thread, itemsDeleted: count };
  });
  ctx.events.publish('thread-events', ctx.tenantId, {
    type: 'PURGED',
    tenantId: ctx.tenantId,
    threadId: input.threadId,
    agentId: result.thread.agentId,
    at: now.toISOString(),
  });
  return result;
}

/**
 * Deletes idempotency keys older than `ttlHours` across all tenants (the contract keeps them
 * at least 24 hours). Run periodically by the app.
 * @returns how many keys were deleted
 */
export async function pruneIdempotencyKeys(db: ServiceContext['db'], ttlHours: number): Promise<number> {
  const { count } = await db.prisma.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - ttlHours * 3_600_000) } },
  });
  return count;
}
