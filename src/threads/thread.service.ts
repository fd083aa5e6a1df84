/**
 * Threads: create, read, list with filters and keyset pagination, update, delete.
 * Rules from contract.graphql (Thread, ThreadFilter, ThreadOrderBy, the thread mutations).
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { transaction } from '../db/transaction.js';
import { readInChunks } from '../db/chunks.js';
import { isRecordNotFound, isUniqueViolation } from '../db/errors.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  ThreadstoreError,
  threadNotFound,
} from '../errors.js';
import { Prisma, type Thread } from '../generated/prisma/client.js';
import { filterableJson, isJsonObject, jsonBytes, jsonDepth, MAX_JSON_DEPTH } from '../json.js';
import {
  type Connection,
  type ConnectionArgs,
  decodeCursor,
  encodeCursor,
  pageRequest,
  toConnection,
} from '../pagination.js';
import { closableStream, queueEvents } from '../pubsub/queue.js';
import { type ThreadEventPayload, threadKey } from '../pubsub/topics.js';

export type ThreadRow = Thread;

/** Thread ids: 1-128 chars of [A-Za-z0-9._-] (contract: Thread.id). */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const MAX_AGENT_ID_LENGTH = 256;
const MAX_NAME_LENGTH = 1024;

/**
 * Case-folds text for case-insensitive matching across all of Unicode: NFC, then upper then
 * lower case, which maps ß to ss and É to é the same way for stored names and queries. Final
 * sigma is folded to σ: toLowerCase picks ς or σ from the surrounding letters, so a needle
 * ending in Σ ("ΦΙΛΟΣ" -> "φιλος") would otherwise miss the same letters inside a word.
 */
export function foldCase(text: string): string {
  // NFC, not NFKC: compatibility forms (𝔸, ｆｕｌｌ-width) are other letters, not other cases.
  return text.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC').replace(/ς/g, 'σ');
}

const MAX_METADATA_FILTER_KEYS = 50;

/** @throws BadUserInputError when `id` is not a valid thread id */
export function assertThreadId(id: string, field = 'id'): void {
  if (!THREAD_ID_PATTERN.test(id)) {
    throw new BadUserInputError(
      `${field}: "${id.slice(0, 140)}" is not a valid thread id; use 1-128 characters of A-Z, a-z, 0-9, ".", "_" and "-".`,
      { field },
    );
  }
}

function checkAgentId(agentId: string): void {
  assertNoNul(agentId, 'agentId');
  if (agentId.length === 0 || agentId.length > MAX_AGENT_ID_LENGTH) {
    throw new BadUserInputError(`agentId must be 1 to ${MAX_AGENT_ID_LENGTH} characters.`, {
      field: 'agentId',
    });
  }
}

function checkName(name: string | null | undefined): void {
  assertNoNul(name, 'name');
  if (name != null && name.length > MAX_NAME_LENGTH) {
    throw new BadUserInputError(`name must be at most ${MAX_NAME_LENGTH} characters.`, {
      field: 'name',
    });
  }
}

/** Serialises metadata, which must be a JSON object within the item size limit. */
function metadataText(ctx: ServiceContext, metadata: unknown): string {
  if (!isJsonObject(metadata)) {
    throw new BadUserInputError('metadata must be a JSON object, such as {} or {"key": "value"}.', {
      field: 'metadata',
    });
  }
  if (jsonDepth(metadata) > MAX_JSON_DEPTH) {
    throw new BadUserInputError(`metadata is nested more than ${MAX_JSON_DEPTH} levels deep.`, {
      field: 'metadata',
    });
  }
  const text = JSON.stringify(metadata);
  if (jsonBytes(text) > ctx.limits.maxItemBytes) {
    throw new PayloadTooLargeError(
      `metadata is ${jsonBytes(text)} bytes of JSON; the limit is ${ctx.limits.maxItemBytes}.`,
      { field: 'metadata' },
    );
  }
  return text;
}

/** Seq of the newest item ever appended; null when none was (contract: Thread.lastSeq). */
export function lastSeqOf(thread: ThreadRow): number | null {
  return thread.nextSeq > 0 ? thread.nextSeq - 1 : null;
}

/** Parsed metadata of a thread row. */
export function threadMetadata(thread: ThreadRow): Record<string, unknown> {
  return JSON.parse(thread.metadataJson) as Record<string, unknown>;
}

function publishThreadEvent(
  ctx: ServiceContext,
  type: 'CREATED' | 'UPDATED' | 'DELETED',
  thread: ThreadRow,
  at: Date,
): void {
  ctx.events.publish('thread-events', ctx.tenantId, {
    type,
    tenantId: ctx.tenantId,
    threadId: thread.id,
    agentId: thread.agentId,
    at: at.toISOString(),
  });
}

export interface CreateThreadInput {
  id?: string | null;
  agentId: string;
  name?: string | null;
  metadata?: unknown;
}

/**
 * Checks a new thread and builds the row to insert (a missing id gets a random UUID), for
 * createThread and for writers that insert a thread inside their own transaction (the
 * transcript importer).
 * @param now createdAt and updatedAt of the row
 * @throws BadUserInputError for an invalid id, agentId, name or metadata
 * @throws PayloadTooLargeError when the metadata is over the item size limit
 */
export function newThreadRow(
  ctx: ServiceContext,
  input: CreateThreadInput,
  now: Date,
): Prisma.ThreadUncheckedCreateInput & { id: string } {
  const id = input.id ?? randomUUID();
  assertThreadId(id);
  checkAgentId(input.agentId);
  checkName(input.name);
  const metadataJson = metadataText(ctx, input.metadata ?? {});
  return {
    tenantId: ctx.tenantId,
    id,
    agentId: input.agentId,
    name: input.name ?? null,
    nameFolded: input.name == null ? null : foldCase(input.name),
    metadataJson,
    metadataCanonical: filterableJson(JSON.parse(metadataJson)),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Creates a thread. A missing id gets a random UUID.
 * @throws BadUserInputError for an invalid id, agentId, name or metadata
 * @throws ConflictError when the id is taken in this tenant
 */
export async function createThread(ctx: ServiceContext, input: CreateThreadInput): Promise<ThreadRow> {
  const now = new Date();
  const data = newThreadRow(ctx, input, now);
  const id = data.id;
  let thread: ThreadRow;
  try {
    thread = await ctx.db.prisma.thread.create({ data });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(`A thread with id "${id}" already exists.`, { threadId: id });
    }
    throw error;
  }
  publishThreadEvent(ctx, 'CREATED', thread, now);
  return thread;
}

/** The thread with this id in the tenant, or null (also for a malformed id). */
export async function findThread(ctx: ServiceContext, id: string): Promise<ThreadRow | null> {
  if (!THREAD_ID_PATTERN.test(id)) return null;
  // Raw: every read of a thread starts here, and a raw statement skips Prisma's per-call
  // query compilation (bench S5).
  const rows = await ctx.db.prisma.$queryRaw<ThreadRow[]>`
    SELECT * FROM "Thread" WHERE "tenantId" = ${ctx.tenantId} AND "id" = ${id}`;
  return rows[0] ? normalizeThreadRow(rows[0]) : null;
}

/** @throws NotFoundError when the thread does not exist */
export async function getThread(ctx: ServiceContext, id: string): Promise<ThreadRow> {
  const thread = await findThread(ctx, id);
  if (!thread) throw threadNotFound(id);
  return thread;
}

/** Threads by id in one statement, in the order asked; null for unknown ids. */
export async function findThreads(ctx: ServiceContext, ids: readonly string[]): Promise<(ThreadRow | null)[]> {
  const valid = ids.filter((id) => THREAD_ID_PATTERN.test(id));
  const rows = await readInChunks(valid, 1, (chunk) =>
    ctx.db.prisma.thread.findMany({ where: { tenantId: ctx.tenantId, id: { in: chunk } } }),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

export interface UpdateThreadInput {
  id: string;
  name?: string | null;
  archived?: boolean | null;
  metadata?: unknown;
}

/**
 * Changes only the keys present in `input` (`name: null` clears the name); agentId never
 * changes. Bumps updatedAt.
 * @throws NotFoundError, BadUserInputError (null archived or metadata, metadata not an object)
 */
export async function updateThread(ctx: ServiceContext, input: UpdateThreadInput): Promise<ThreadRow> {
  assertThreadId(input.id);
  const data: Prisma.ThreadUpdateInput = {};
  if ('name' in input && input.name !== undefined) {
    checkName(input.name);
    data.name = input.name;
    data.nameFolded = input.name === null ? null : foldCase(input.name);
  }
  if ('archived' in input && input.archived !== undefined) {
    if (input.archived === null) {
      throw new BadUserInputError('archived cannot be null; pass true or false, or leave it out.', {
        field: 'archived',
      });
    }
    data.archived = input.archived;
  }
  if ('metadata' in input && input.metadata !== undefined) {
    data.metadataJson = metadataText(ctx, input.metadata);
    data.metadataCanonical = filterableJson(input.metadata);
  }
  const now = new Date();
  data.updatedAt = now;
  let thread: ThreadRow;
  try {
    thread = await ctx.db.prisma.thread.update({
      where: { tenantId_id: { tenantId: ctx.tenantId, id: input.id } },
      data,
    });
  } catch (error) {
    if (isRecordNotFound(error)) throw threadNotFound(input.id);
    throw error;
  }
  publishThreadEvent(ctx, 'UPDATED', thread, now);
  return thread;
}

/** What deleteThread removed. */
export interface DeleteThreadResult {
  deletedThreadId: string;
  itemsDeleted: number;
  compactionsDeleted: number;
}

/**
 * Deletes a thread with every item, compaction record and idempotency key (right to erasure),
 * in one transaction. Live followers of the thread are ended.
 * @throws NotFoundError
 */
export async function deleteThread(ctx: ServiceContext, id: string): Promise<DeleteThreadResult> {
  assertThreadId(id);
  const where = { tenantId: ctx.tenantId, threadId: id };
  const result = await transaction(ctx.db, async (tx) => {
    // Take the thread's row first (as appends do), so an append in flight either commits
    // before the delete counts its items or finds the thread gone.
    const thread = await tx.thread
      .update({ where: { tenantId_id: { tenantId: ctx.tenantId, id } }, data: { updatedAt: new Date() } })
      .catch((error: unknown) => {
        throw isRecordNotFound(error) ? threadNotFound(id) : error;
      });
    const items = await tx.item.deleteMany({ where });
    const compactions = await tx.compaction.deleteMany({ where });
    await tx.idempotencyKey.deleteMany({ where });
    await tx.thread.delete({ where: { tenantId_id: { tenantId: ctx.tenantId, id } } });
    return { thread, itemsDeleted: items.count, compactionsDeleted: compactions.count };
  });
  const now = new Date();
  publishThreadEvent(ctx, 'DELETED', result.thread, now);
  ctx.events.publish('thread-items', threadKey(ctx.tenantId, id), {
    kind: 'deleted',
    tenantId: ctx.tenantId,
    threadId: id,
  });
  return {
    deletedThreadId: id,
    itemsDeleted: result.itemsDeleted,
    compactionsDeleted: result.compactionsDeleted,
  };
}

/** ThreadOrderBy values; ties are broken by id ascending. */
export type ThreadOrder = 'UPDATED_AT_DESC' | 'UPDATED_AT_ASC' | 'CREATED_AT_DESC' | 'CREATED_AT_ASC';

export interface ThreadFilter {
  agentId?: string | null;
  includeArchived?: boolean | null;
  nameContains?: string | null;
  metadata?: unknown;
}

const THREAD_ORDERS: readonly ThreadOrder[] = [
  'UPDATED_AT_DESC',
  'UPDATED_AT_ASC',
  'CREATED_AT_DESC',
  'CREATED_AT_ASC',
];
/**
 * Cursor times (ms since the epoch) stay within years 0000-9999: a Date and every database's
 * timestamp type hold them, so a forged time cannot fail the query as an internal error.
 */
const MIN_CURSOR_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_CURSOR_MS = Date.parse('9999-12-31T23:59:59.999Z');

interface ThreadCursor {
  order: ThreadOrder;
  at: number;
  id: string;
}

function threadCursor(order: ThreadOrder, thread: ThreadRow): string {
  const at = order.startsWith('UPDATED') ? thread.updatedAt : thread.createdAt;
  return encodeCursor({ o: order, t: at.getTime(), i: thread.id });
}

function parseThreadCursor(cursor: string, argument: string, order: ThreadOrder): ThreadCursor {
  const parsed = decodeCursor(cursor, argument, (p) => {
    const c = p as { o?: unknown; t?: unknown; i?: unknown };
    return THREAD_ORDERS.includes(c.o as ThreadOrder) &&
      Number.isSafeInteger(c.t) &&
      (c.t as number) >= MIN_CURSOR_MS &&
      (c.t as number) <= MAX_CURSOR_MS &&
      typeof c.i === 'string' &&
      THREAD_ID_PATTERN.test(c.i)
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
 * One top-level metadata key equal to a JSON value. Objects and arrays are compared as
 * canonical JSON text (keys sorted at every depth, written on every metadata change), so
 * nested values are compared whole and key order does not matter.
 */
function metadataCondition(ctx: ServiceContext, key: string, value: unknown): Prisma.Sql {
  const wanted = filterableJson(value);
  const mappedKey = JSON.parse(filterableJson({ [key]: 0 })) as Record<string, number>;
  key = Object.keys(mappedKey)[0] ?? key;
  if (ctx.db.provider === 'postgresql') {
    // jsonb equality: deep, key order ignored, numbers compared as numbers (as SQLite's atom).
    return Prisma.sql`("metadataCanonical"::jsonb -> ${key}::text) = ${wanted}::jsonb`;
  }
  const member = (test: Prisma.Sql) =>
    Prisma.sql`EXISTS (SELECT 1 FROM json_each("metadataCanonical") AS m WHERE m.key = ${key} AND ${test})`;
  if (value === null) return member(Prisma.sql`m.type = 'null'`);
  if (value === true) return member(Prisma.sql`m.type = 'true'`);
  if (value === false) return member(Prisma.sql`m.type = 'false'`);
  if (typeof value === 'number') {
    return member(Prisma.sql`m.type IN ('integer', 'real') AND m.atom = ${value}`);
  }
  if (typeof value === 'string') {
    return member(Prisma.sql`m.type = 'text' AND m.atom = ${JSON.parse(wanted) as string}`);
  }
  return member(Prisma.sql`m.type IN ('object', 'array') AND m.value = json(${wanted})`);
}

/** The SQL conditions of a filter (tenant included), shared by the page and the count. */
function filterConditions(ctx: ServiceContext, filter: ThreadFilter): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [Prisma.sql`"tenantId" = ${ctx.tenantId}`];
  assertNoNul(filter.agentId, 'filter.agentId');
  assertNoNul(filter.nameContains, 'filter.nameContains');
  if (filter.agentId != null) conditions.push(Prisma.sql`"agentId" = ${filter.agentId}`);
  if (!filter.includeArchived) conditions.push(Prisma.sql`"archived" = ${false}`);
  if (filter.nameContains != null && filter.nameContains !== '') {
    const needle = foldCase(filter.nameContains);
    // replace(): rows folded before final sigma was folded may still hold ς.
    conditions.push(
      ctx.db.provider === 'sqlite'
        ? Prisma.sql`instr(replace("nameFolded", 'ς', 'σ'), ${needle}) > 0`
        : Prisma.sql`strpos(replace("nameFolded", 'ς', 'σ'), ${needle}) > 0`,
    );
  }
  if (filter.metadata != null) {
    if (!isJsonObject(filter.metadata)) {
      throw new BadUserInputError('filter.metadata must be a JSON object of the keys to match.', {
        field: 'filter.metadata',
      });
    }
    // Compared as canonical JSON text (keys sorted at every depth), so nested values are
    // compared whole and key order does not matter.
    const entries = Object.entries(filter.metadata);
    if (entries.length > MAX_METADATA_FILTER_KEYS) {
      throw new BadUserInputError(
        `filter.metadata may hold at most ${MAX_METADATA_FILTER_KEYS} keys; got ${entries.length}.`,
        { field: 'filter.metadata' },
      );
    }
    for (const [key, value] of entries) {
      conditions.push(metadataCondition(ctx, key, value));
    }
  }
  return conditions;
}

/**
 * Lists threads: keyset pages ordered by the chosen time, ties by id ascending.
 * totalCount and the far-side page flag are computed only when asked for.
 * @throws BadUserInputError for bad page arguments, a malformed cursor or filter
 */
export async function listThreads(
  ctx: ServiceContext,
  args: ConnectionArgs & { filter?: ThreadFilter | null; orderBy?: ThreadOrder | null },
): Promise<Connection<ThreadRow>> {
  const order = args.orderBy ?? 'UPDATED_AT_DESC';
  const request = pageRequest(args, ctx.limits.maxPageSize);
  const conditions = filterConditions(ctx, args.filter ?? {});
  const column = Prisma.raw(order.startsWith('UPDATED') ? '"updatedAt"' : '"createdAt"');
  const descending = order.endsWith('DESC');
  const idOrder = ctx.db.provider === 'postgresql' ? Prisma.raw('"id" COLLATE "C"') : Prisma.raw('"id"');

  /** Rows strictly after (forward) or before (backward) a cursor in list order. */
  const beyond = (c: ThreadCursor, forward: boolean): Prisma.Sql => {
    const at = new Date(c.at);
    const later = forward !== descending; // list order moves to later times
    return later
      ? Prisma.sql`(${column} > ${at} OR (${column} = ${at} AND ${idOrder} ${Prisma.raw(forward ? '>' : '<')} ${c.id}))`
      : Prisma.sql`(${column} < ${at} OR (${column} = ${at} AND ${idOrder} ${Prisma.raw(forward ? '>' : '<')} ${c.id}))`;
  };
  // != null: an empty string is a malformed cursor, not a missing one.
  const after = args.after != null ? parseThreadCursor(args.after, 'after', order) : null;
  const before = args.before != null ? parseThreadCursor(args.before, 'before', order) : null;
  const pageConditions = [...conditions];
  if (after) pageConditions.push(beyond(after, true));
  if (before) pageConditions.push(beyond(before, false));

  const readForward = request.direction === 'forward';
  const sortDir = Prisma.raw(readForward === descending ? 'DESC' : 'ASC');
  const idDir = Prisma.raw(readForward ? 'ASC' : 'DESC');
  // limit + 1 also for first/last: 0, whose one extra row answers hasNextPage/hasPreviousPage.
  const rows = await ctx.db.prisma.$queryRaw<ThreadRow[]>`
    SELECT * FROM "Thread" WHERE ${Prisma.join(pageConditions, ' AND ')}
    ORDER BY ${column} ${sortDir}, ${idOrder} ${idDir} LIMIT ${request.limit + 1}`;
  const normalized = rows.map(normalizeThreadRow);

  const exists = async (extra: Prisma.Sql): Promise<boolean> => {
    const found = await ctx.db.prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM "Thread" WHERE ${Prisma.join([...conditions, extra], ' AND ')} LIMIT 1`;
    return found.length > 0;
  };
  // The side the read did not look at: rows before `after` (forward) or after `before` (backward).
  const otherSide = async (): Promise<boolean> => {
    const edge = readForward ? after : before;
    if (!edge) return false;
    // Rows at or before the cursor = not beyond it in the read direction.
    return exists(Prisma.sql`NOT ${beyond(edge, readForward)}`);
  };
  const totalCount = async (): Promise<number> => {
    const [row] = await ctx.db.prisma.$queryRaw<{ n: number | bigint }[]>`
      SELECT COUNT(*) AS n FROM "Thread" WHERE ${Prisma.join(conditions, ' AND ')}`;
    return Number(row?.n ?? 0);
  };
  return toConnection(
    normalized,
    request,
    (t) => threadCursor(order, t),
    (t) => t,
    otherSide,
    totalCount,
  );
}

/** Raw rows come back with driver types; make them match Prisma's model types. */
export function normalizeThreadRow(row: ThreadRow): ThreadRow {
  return {
    ...row,
    archived: Boolean(row.archived),
    nextSeq: Number(row.nextSeq),
    itemCount: Number(row.itemCount),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}

/**
 * Live thread changes of the tenant, optionally of one agent, until the caller stops.
 * @throws ThreadstoreError RATE_LIMITED when more than limits.followerBufferEvents events wait unread
 */
export function followThreadEvents(
  ctx: ServiceContext,
  agentId?: string | null,
): AsyncGenerator<ThreadEventPayload> {
  const queue = queueEvents(ctx.events, 'thread-events', ctx.tenantId, {
    limit: ctx.limits.followerBufferEvents,
    overflow: () =>
      new ThreadstoreError(
        'RATE_LIMITED',
        `This subscription fell more than ${ctx.limits.followerBufferEvents} events behind and was ended; resubscribe and reload the list.`,
      ),
    accept: (event) => agentId == null || event.agentId === agentId,
  });
  async function* events(): AsyncGenerator<ThreadEventPayload> {
    try {
      for (;;) {
        const event = await queue.take();
        if (event === null) return;
        yield event;
      }
    } finally {
      queue.close();
    }
  }
  return closableStream(queue, events());
}
