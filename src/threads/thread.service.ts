/**
 * Threads: create, read, list with filters and keyset pagination, update, delete.
 * Rules from contract.graphql (Thread, ThreadFilter, ThreadOrderBy, the thread mutations).
 */
import { randomUUID } from 'node:crypto';
import { countCompactionsByThread, deleteCompactionRows } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import type { Database } from '../db/client.js';
import { dialectOf } from '../db/dialect.js';
import { isUniqueViolation } from '../db/errors.js';
import { type Executor, transaction } from '../db/transaction.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  threadNotFound,
} from '../errors.js';
import { assertThreadId, isThreadId, threadIdHash } from '../ids.js';
import { deleteIdempotencyKeys, deleteThreadItems } from '../items/item.store.js';
import {
  filterableJson,
  isJsonObject,
  isStorableDate,
  jsonBytes,
  jsonProblem,
  MAX_JSON_DEPTH,
} from '../json.js';
import { type EventBus, publishThreadEvent } from '../pubsub/bus.js';
import { threadKey } from '../pubsub/topics.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { threadEvent } from '../webhooks/webhook-events.js';
import {
  deleteExpiredThreadRows,
  deleteThreadRow,
  insertThread,
  insertTombstone,
  type NewThreadRow,
  selectExpiredThreads,
  selectThread,
  selectThreads,
  type ThreadChanges,
  type ThreadRecord,
  takeTransactionLock,
  tombstoneExists,
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
  const problem = jsonProblem(metadata, { maxDepth: MAX_JSON_DEPTH });
  if (problem) {
    const at = problem.at ? ` at ${problem.at}` : '';
    throw new BadUserInputError(`metadata${at}: ${problem.reason}.`, { field: 'metadata' });
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
  /** Left out: now + RETENTION_DAYS (or never without it); null: never. */
  expiresAt?: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * Checks an expiresAt given on create or update: a storable time after `now` (an expired
 * thread would vanish as the mutation returns it; deleteThread deletes at once).
 * @throws BadUserInputError
 */
function checkExpiresAt(expiresAt: Date, now: Date): void {
  if (!isStorableDate(expiresAt)) {
    throw new BadUserInputError('expiresAt must be between years 0001 and 9999.', {
      field: 'expiresAt',
    });
  }
  if (expiresAt.getTime() <= now.getTime()) {
    throw new BadUserInputError(
      `expiresAt must be in the future; got ${expiresAt.toISOString()}, now is ${now.toISOString()}. To delete a thread now, use deleteThread; for no expiry, pass null.`,
      { field: 'expiresAt' },
    );
  }
}

/**
 * The expiresAt of a new thread (README, RETENTION_DAYS): the input's when given (null: never),
 * else `now` + RETENTION_DAYS days, else null.
 * @throws BadUserInputError for a time not after `now`
 */
function newExpiresAt(ctx: ServiceContext, input: CreateThreadInput, now: Date): Date | null {
  if (input.expiresAt === null) return null;
  if (input.expiresAt !== undefined) {
    checkExpiresAt(input.expiresAt, now);
    return input.expiresAt;
  }
  return defaultExpiresAt(ctx, now);
}

/**
 * When a thread created at `from` without an expiresAt expires: `from` + RETENTION_DAYS days,
 * or null (kept until deleted) when RETENTION_DAYS is unset.
 */
export function defaultExpiresAt(ctx: ServiceContext, from: Date): Date | null {
  const days = ctx.limits.retentionDays;
  return days == null ? null : new Date(from.getTime() + days * DAY_MS);
}

/**
 * Checks a new thread and builds the row to insert (a missing id gets a random UUID), for
 * createThread and for writers that insert a thread inside their own transaction (the
 * transcript importer).
 * @param now createdAt and updatedAt of the row; expiresAt without one given is now +
 *   RETENTION_DAYS
 * @throws BadUserInputError for an invalid id, agentId, name, metadata or expiresAt
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
  const expiresAt = newExpiresAt(ctx, input, now);
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
    expiresAt,
  };
}

/**
 * Inserts a new thread inside the caller's transaction: the one way a thread row is created
 * (createThread, the transcript importer).
 *
 * An id is never used twice in a tenant, also after its thread was deleted (the contract's
 * CreateThreadInput.id): the tombstone is read after the insert, in the same transaction, so a
 * delete racing this insert cannot be missed. On PostgreSQL the insert waits for a delete of
 * the same id that is in flight (the unique index holds the row it is deleting) and the next
 * statement sees what it committed, tombstone included; on SQLite writers take turns.
 * @throws ConflictError when a thread with this id exists, or existed and was deleted
 */
export async function insertNewThread(tx: Executor, row: NewThreadRow): Promise<ThreadRecord> {
  let thread: ThreadRecord;
  try {
    thread = await insertThread(tx, row);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new ConflictError(
        `A thread with id "${row.id}" already exists; pick another id, or leave id out to get a generated one.`,
        { threadId: row.id },
      );
    }
    throw error;
  }
  if (await tombstoneExists(tx, row.tenantId, threadIdHash(row.id))) {
    throw new ConflictError(
      `The thread with id "${row.id}" was deleted; thread ids are never reused, pick another id (or leave id out to get a generated one).`,
      { threadId: row.id },
    );
  }
  return thread;
}

/**
 * Creates a thread. A missing id gets a random UUID.
 * @throws BadUserInputError for an invalid id, agentId, name or metadata
 * @throws ConflictError when the id is taken in this tenant, or was used by a deleted thread
 */
export async function createThread(
  ctx: ServiceContext,
  input: CreateThreadInput,
): Promise<ThreadRecord> {
  const now = new Date();
  const row = newThreadRow(ctx, input, now);
  const thread = await transaction(ctx.db, async (tx) => {
    const created = await insertNewThread(tx, row);
    await recordWebhookEvent(tx, threadEvent('THREAD_CREATED', created, now));
    return created;
  });
  publishThreadEvent(ctx.events, ctx.tenantId, 'CREATED', thread, now);
  wakeWebhookWorkers();
  return thread;
}

/** The thread with this id in the tenant, or null (also for a malformed id or an expired thread). */
export async function findThread(ctx: ServiceContext, id: string): Promise<ThreadRecord | null> {
  if (!isThreadId(id)) return null;
  return selectThread(ctx.db.prisma, ctx.tenantId, id);
}

/** Threads by id in one statement, in the order asked; null for unknown ids and expired threads. */
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
  /** null: kept until deleted. */
  expiresAt?: Date | null;
}

/**
 * Changes only the keys present in `input` (`name: null` clears the name, `expiresAt: null`
 * keeps the thread until it is deleted); agentId never changes. Bumps updatedAt. An expired
 * thread is NOT_FOUND: expiry cannot be undone. One transaction with the THREAD_UPDATED
 * webhook event.
 * @throws NotFoundError, BadUserInputError (null archived or metadata, metadata not an object,
 *   expiresAt not in the future)
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
  if ('expiresAt' in input && input.expiresAt !== undefined) {
    if (input.expiresAt !== null) checkExpiresAt(input.expiresAt, now);
    changes.expiresAt = input.expiresAt;
  }
  const thread = await transaction(ctx.db, async (tx) => {
    const updated = await updateThreadRow(tx, ctx.tenantId, input.id, changes);
    if (!updated) throw threadNotFound(input.id);
    await recordWebhookEvent(tx, threadEvent('THREAD_UPDATED', updated, now));
    return updated;
  });
  publishThreadEvent(ctx.events, ctx.tenantId, 'UPDATED', thread, now);
  wakeWebhookWorkers();
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
 * in one transaction that also writes the id's tombstone, so the id is never used again
 * (insertNewThread). Live followers of the thread are ended.
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
    const deletedAt = new Date();
    await insertTombstone(tx, tenantId, threadIdHash(id), deletedAt);
    await recordWebhookEvent(tx, {
      tenantId,
      threadId: id,
      type: 'THREAD_DELETED',
      at: deletedAt,
      data: { thread: { id, agentId: thread.agentId }, itemsDeleted, compactionsDeleted },
    });
    return { thread, itemsDeleted, compactionsDeleted };
  });
  publishThreadEvent(ctx.events, tenantId, 'DELETED', result.thread, new Date());
  wakeWebhookWorkers();
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

/** Threads one sweep transaction deletes at most. */
export const EXPIRY_BATCH_SIZE = 500;

/**
 * Items one sweep transaction deletes at most (but always one whole thread): a batch of long
 * threads would otherwise outlast the transaction's time limit, roll back and be retried
 * forever. The sweep's transactions get an import's time limit (SWEEP_TRANSACTION_TIMEOUT_MS).
 */
export const EXPIRY_BATCH_ITEMS = 50_000;

/** ms a sweep transaction may take (as an import's; on SQLite it then runs alone). */
const SWEEP_TRANSACTION_TIMEOUT_MS = 120_000;

/** The PostgreSQL advisory lock key of the expiry sweep ("tsexpi" in ASCII, as hex digits). */
export const EXPIRY_LOCK_KEY = 0x7473_6578_7069;

/**
 * The expiry job: deletes the threads of every tenant whose expiresAt has passed, in
 * transactions of up to `batchSize` threads and EXPIRY_BATCH_ITEMS items, until none is left. Each transaction deletes the
 * threads with their items, compaction records and keys (cascading) and writes their
 * tombstones (so a late append is NOT_FOUND and the id is never used again); the DELETED
 * events are published after it commits, and live followers of those threads are ended.
 * On PostgreSQL one instance sweeps at a time: each transaction first takes an advisory lock
 * and the sweep stops when another instance holds it. On SQLite the write transaction is the
 * lock; processes sharing the file delete idempotently.
 * @param options.now the time expiry is judged at (tests); options.batchSize threads per
 *   transaction; options.batchItems items per transaction; options.stopping ends the sweep between batches when it returns true
 * @returns how many threads were deleted
 */
export async function sweepExpiredThreads(
  db: Database,
  events: EventBus,
  options: {
    now?: () => Date;
    batchSize?: number;
    batchItems?: number;
    stopping?: () => boolean;
  } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? EXPIRY_BATCH_SIZE;
  const batchItems = options.batchItems ?? EXPIRY_BATCH_ITEMS;
  const lock = dialectOf(db.provider).tryTransactionLock(EXPIRY_LOCK_KEY);
  let deleted = 0;
  for (;;) {
    const now = options.now?.() ?? new Date();
    const batch = await transaction(
      db,
      async (tx) => {
        if (!(await takeTransactionLock(tx, lock))) return null;
        const selected = await selectExpiredThreads(tx, db.provider, now, batchSize);
        // Whole threads up to EXPIRY_BATCH_ITEMS items (the first one whatever its size); the
        // rest are the next batch's.
        const threads: ThreadRecord[] = [];
        let items = 0;
        for (const thread of selected) {
          items += thread.itemCount;
          if (threads.length > 0 && items > batchItems) break;
          threads.push(thread);
        }
        const more = selected.length === batchSize || threads.length < selected.length;
        if (threads.length === 0) return { threads, more };
        const keys = threads.map((t) => ({ ...t, idHash: threadIdHash(t.id) }));
        const compactions = await countCompactionsByThread(tx, threads);
        const deletedAt = new Date();
        await deleteExpiredThreadRows(tx, keys, now, deletedAt);
        // As deleteThread: THREAD_DELETED to the outbox in the deleting transaction.
        for (const thread of threads) {
          await recordWebhookEvent(tx, {
            tenantId: thread.tenantId,
            threadId: thread.id,
            type: 'THREAD_DELETED',
            at: deletedAt,
            data: {
              thread: { id: thread.id, agentId: thread.agentId },
              itemsDeleted: thread.itemCount,
              compactionsDeleted: compactions.get(`${thread.tenantId}/${thread.id}`) ?? 0,
              expired: true,
            },
          });
        }
        return { threads, more };
      },
      { timeoutMs: SWEEP_TRANSACTION_TIMEOUT_MS },
    );
    if (batch === null) return deleted;
    wakeWebhookWorkers();
    const at = new Date();
    for (const thread of batch.threads) {
      publishThreadEvent(events, thread.tenantId, 'DELETED', thread, at);
      events.publish('thread-items', threadKey(thread.tenantId, thread.id), {
        kind: 'deleted',
        tenantId: thread.tenantId,
        threadId: thread.id,
      });
    }
    deleted += batch.threads.length;
    if (!batch.more || options.stopping?.()) return deleted;
  }
}
