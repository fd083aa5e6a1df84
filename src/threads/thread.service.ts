/**
 * Threads: create, read, list with filters and keyset pagination, update, delete.
 * Rules from contract.graphql (Thread, ThreadFilter, ThreadOrderBy, the thread mutations).
 */
import { randomUUID } from 'node:crypto';
import { deleteCompactionRows } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
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
import { filterableJson, isJsonObject, jsonBytes, jsonProblem, MAX_JSON_DEPTH } from '../json.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { threadKey } from '../pubsub/topics.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { threadEvent } from '../webhooks/webhook-events.js';
import {
  deleteThreadRow,
  insertThread,
  insertTombstone,
  type NewThreadRow,
  selectThread,
  selectThreads,
  type ThreadChanges,
  type ThreadRecord,
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

/** The thread with this id in the tenant, or null (also for a malformed id). */
export async function findThread(ctx: ServiceContext, id: string): Promise<ThreadRecord | null> {
  if (!isThreadId(id)) return null;
  return selectThread(ctx.db.prisma, ctx.tenantId, id);
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
 * changes. Bumps updatedAt. One transaction with the THREAD_UPDATED webhook event.
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
