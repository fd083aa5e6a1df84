/**
 * Threads: create, read, list with filters and keyset pagination, update, delete.
 * Rules from contract.graphql (Thread, ThreadFilter, ThreadOrderBy, the thread mutations).
 */
import { randomUUID } from 'node:crypto';
import { deleteCompactionRows } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { transaction } from '../db/transaction.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  threadNotFound,
} from '../errors.js';
import { assertThreadId, isThreadId } from '../ids.js';
import { deleteIdempotencyKeys, deleteThreadItems } from '../items/item.store.js';
import { filterableJson, isJsonObject, jsonBytes, jsonDepth, MAX_JSON_DEPTH } from '../json.js';
import {
  type Connection,
  type ConnectionArgs,
  decodeCursor,
  encodeCursor,
  pageRequest,
  toConnection,
} from '../pagination.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { threadKey } from '../pubsub/topics.js';
import {
  deleteThreadRow,
  insertThread,
  type NewThreadRow,
  selectThread,
  selectThreads,
  type ThreadChanges,
  type ThreadListQuery,
  type ThreadPosition,
  type ThreadRecord,
  threadLister,
  touchThread,
  updateThreadRow,
} from './thread.store.js';

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
export function lastSeqOf(thread: ThreadRecord): number | null {
  return thread.nextSeq > 0 ? thread.nextSeq - 1 : null;
}

/** Parsed metadata of a thread row. */
export function threadMetadata(thread: ThreadRecord): Record<string, unknown> {
  return JSON.parse(thread.metadataJson) as Record<string, unknown>;
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
): NewThreadRow {
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
export async function createThread(
  ctx: ServiceContext,
  input: CreateThreadInput,
): Promise<ThreadRecord> {
  const now = new Date();
  const row = newThreadRow(ctx, input, now);
  let thread: ThreadRecord;
  try {
    thread = await insertThread(ctx.db.prisma, row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(`A thread with id "${row.id}" already exists.`, { threadId: row.id });
    }
    throw error;
  }
  publishThreadEvent(ctx.events, ctx.tenantId, 'CREATED', thread, now);
  return thread;
}

/** The thread with this id in the tenant, or null (also for a malformed id). */
export async function findThread(ctx: ServiceContext, id: string): Promise<ThreadRecord | null> {
  if (!isThreadId(id)) return null;
  return selectThread(ctx.db.prisma, ctx.tenantId, id);
}

/** @throws NotFoundError when the thread does not exist */
export async function getThread(ctx: ServiceContext, id: string): Promise<ThreadRecord> {
  const thread = await findThread(ctx, id);
  if (!thread) throw threadNotFound(id);
  return thread;
}

/** Threads by id in one statement, in the order asked; null for unknown ids. */
export async function findThreads(
  ctx: ServiceContext,
  ids: readonly string[],
): Promise<(ThreadRecord | null)[]> {
  const rows = await selectThreads(ctx.db.prisma, ctx.tenantId, ids.filter(isThreadId));
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
export async function updateThread(
  ctx: ServiceContext,
  input: UpdateThreadInput,
): Promise<ThreadRecord> {
  assertThreadId(input.id);
  const now = new Date();
  const changes: ThreadChanges = { updatedAt: now };
  if ('name' in input && input.name !== undefined) {
    checkName(input.name);
    changes.name = input.name;
    changes.nameFolded = input.name === null ? null : foldCase(input.name);
  }
  if ('archived' in input && input.archived !== undefined) {
    if (input.archived === null) {
      throw new BadUserInputError('archived cannot be null; pass true or false, or leave it out.', {
        field: 'archived',
      });
    }
    changes.archived = input.archived;
  }
  if ('metadata' in input && input.metadata !== undefined) {
    changes.metadataJson = metadataText(ctx, input.metadata);
    changes.metadataCanonical = filterableJson(input.metadata);
  }
  const thread = await updateThreadRow(ctx.db.prisma, ctx.tenantId, input.id, changes);
  if (!thread) throw threadNotFound(input.id);
  publishThreadEvent(ctx.events, ctx.tenantId, 'UPDATED', thread, now);
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
  const { tenantId } = ctx;
  const result = await transaction(ctx.db, async (tx) => {
    // Take the thread's row first (as appends do), so an append in flight either commits
    // before the delete counts its items or finds the thread gone.
    const thread = await touchThread(tx, tenantId, id, new Date());
    if (!thread) throw threadNotFound(id);
    const itemsDeleted = await deleteThreadItems(tx, tenantId, id);
    const compactionsDeleted = await deleteCompactionRows(tx, tenantId, id);
    await deleteIdempotencyKeys(tx, tenantId, id);
    await deleteThreadRow(tx, tenantId, id);
    return { thread, itemsDeleted, compactionsDeleted };
  });
  publishThreadEvent(ctx.events, tenantId, 'DELETED', result.thread, new Date());
  ctx.events.publish('thread-items', threadKey(tenantId, id), {
    kind: 'deleted',
    tenantId,
    threadId: id,
  });
  return {
    deletedThreadId: id,
    itemsDeleted: result.itemsDeleted,
    compactionsDeleted: result.compactionsDeleted,
  };
}

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

/**
 * Cursor times (ms since the epoch) stay within years 0000-9999: a Date and every database's
 * timestamp type hold them, so a forged time cannot fail the query as an internal error.
 */
const MIN_CURSOR_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_CURSOR_MS = Date.parse('9999-12-31T23:59:59.999Z');

interface ThreadCursor extends ThreadPosition {
  order: ThreadOrder;
}

function threadCursor(order: ThreadOrder, thread: ThreadRecord): string {
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
 * @throws BadUserInputError for bad page arguments, a malformed cursor or filter
 */
export async function listThreads(
  ctx: ServiceContext,
  args: ConnectionArgs & { filter?: ThreadFilter | null; orderBy?: ThreadOrder | null },
): Promise<Connection<ThreadRecord>> {
  const order = args.orderBy ?? 'UPDATED_AT_DESC';
  const request = pageRequest(args, ctx.limits.maxPageSize);
  const lister = threadLister(ctx.db, listQuery(ctx, args.filter ?? {}, order));
  // != null: an empty string is a malformed cursor, not a missing one.
  const after = args.after != null ? parseThreadCursor(args.after, 'after', order) : null;
  const before = args.before != null ? parseThreadCursor(args.before, 'before', order) : null;
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
