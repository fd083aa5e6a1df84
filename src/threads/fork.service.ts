/**
 * Forks (contract part beyond: ForkThreadInput, Thread.forkedFrom, Thread.forks): a new thread
 * of the same agent holding a copy of a prefix of another thread, with its lineage.
 *
 * Rules (the contract's, and where it is silent, ours):
 * - items 0..atSeq are copied with their seqs, types, status, data, raw records, createdAt
 *   and createdBy; their ids are the fork's ("<forkId>:<seq>"); purged seqs stay holes. The
 *   fork's nextSeq is atSeq + 1, its itemCount the items copied.
 * - a compaction record is copied when it lies wholly inside 0..atSeq: its range AND its marker
 *   item (endSeq <= atSeq and markerSeq <= atSeq). A record whose marker lies after atSeq is
 *   left out: the marker is not in the fork, the record's id names the marker's seq, and the
 *   fork hands that seq out again to an item of its own.
 * - idempotency keys and import keys are not copied: they answer retries of writes made to the
 *   source, not to the fork.
 * - id: as createThread (generated when left out; CONFLICT when taken or tombstoned). name: the
 *   source's when left out (null clears it). metadata: the source's when left out or null,
 *   else the given object.
 * - BAD_USER_INPUT when atSeq is negative or past the source's lastSeq (a source without items
 *   cannot be forked); NOT_FOUND for a source that does not exist in the tenant.
 * - the fork is written in one transaction with a fixed number of statements (the copies are
 *   INSERT ... SELECT, one per table), then a CREATED thread event is published.
 * - after that the threads share nothing: appends, compactions, purges and deletes of one never
 *   show in the other; deleting the source leaves the fork whole (forkedFrom keeps the id and
 *   seq, its thread is null).
 */
import { copyCompactions } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { transaction } from '../db/transaction.js';
import { BadUserInputError, threadNotFound } from '../errors.js';
import { assertThreadId } from '../ids.js';
import { copyItems } from '../items/item.store.js';
import type { Connection, ConnectionArgs } from '../pagination.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { threadEvent } from '../webhooks/webhook-events.js';
import { insertNewThread, lastSeqOf, newThreadRow } from './thread.service.js';
import { selectThreadShared, setItemCount, type ThreadRecord } from './thread.store.js';
import { listThreads } from './thread-list.service.js';

/**
 * The fork transaction's time limit, in ms (as an import's): a copy of a long thread takes
 * seconds (bench F: 100k items in 1-3 s on SQLite, 4-7 s on PostgreSQL on 2 shared cores), more
 * than a request's default. On SQLite such a transaction runs alone, outside group commit, so
 * it never holds back the answers of short writes grouped with it (src/db/transaction.ts).
 */
export const FORK_TRANSACTION_TIMEOUT_MS = 120_000;

export interface ForkThreadInput {
  /** The source thread. */
  threadId: string;
  /** The last seq to copy. */
  atSeq: number;
  /** The fork's id; generated when left out. */
  id?: string | null;
  /** undefined: the source's name; null: no name. */
  name?: string | null;
  /** undefined or null: the source's metadata. */
  metadata?: unknown;
}

/** What forkThread wrote. */
export interface ForkResult {
  thread: ThreadRecord;
  itemsCopied: number;
  compactionsCopied: number;
}

/**
 * Forks a thread at `atSeq` (see the module comment for the rules).
 * @throws BadUserInputError malformed threadId or id, atSeq negative or past lastSeq, bad
 *   name or metadata
 * @throws PayloadTooLargeError metadata over the item size limit
 * @throws NotFoundError no such source thread in the tenant
 * @throws ConflictError the id is taken, or was used by a deleted thread
 */
export async function forkThread(ctx: ServiceContext, input: ForkThreadInput): Promise<ForkResult> {
  assertThreadId(input.threadId, 'threadId');
  if (input.id != null) assertThreadId(input.id, 'id');
  const { atSeq } = input;
  if (!Number.isInteger(atSeq) || atSeq < 0) {
    throw new BadUserInputError(`atSeq must be 0 or more; got ${atSeq}.`, { field: 'atSeq' });
  }
  const { tenantId } = ctx;
  const now = new Date();
  const result = await transaction(
    ctx.db,
    async (tx) => {
      const source = await selectThreadShared(tx, ctx.db.provider, tenantId, input.threadId);
      if (!source) throw threadNotFound(input.threadId);
      const lastSeq = lastSeqOf(source);
      if (lastSeq === null || atSeq > lastSeq) {
        throw new BadUserInputError(
          lastSeq === null
            ? `atSeq ${atSeq} is past the end of thread "${source.id}", which has no items yet; append items before forking it.`
            : `atSeq ${atSeq} is past the last seq ${lastSeq} of thread "${source.id}"; pick a seq from 0 to ${lastSeq}.`,
          { field: 'atSeq', lastSeq },
        );
      }
      const row = newThreadRow(
        ctx,
        {
          id: input.id,
          agentId: source.agentId,
          name: input.name === undefined ? source.name : input.name,
          metadata: input.metadata == null ? JSON.parse(source.metadataJson) : input.metadata,
        },
        now,
      );
      await insertNewThread(tx, {
        ...row,
        nextSeq: atSeq + 1,
        forkedFromId: source.id,
        forkedFromSeq: atSeq,
      });
      const itemsCopied = await copyItems(tx, tenantId, source.id, row.id, atSeq);
      const compactionsCopied = await copyCompactions(tx, tenantId, source.id, row.id, atSeq);
      // Sums kept on the thread row over its items (itemCount; usage totals) are set here.
      const thread = await setItemCount(tx, tenantId, row.id, itemsCopied);
      if (!thread) throw threadNotFound(row.id);
      await recordWebhookEvent(tx, threadEvent('THREAD_CREATED', thread, now));
      return { thread, itemsCopied, compactionsCopied };
    },
    { timeoutMs: FORK_TRANSACTION_TIMEOUT_MS },
  );
  publishThreadEvent(ctx.events, tenantId, 'CREATED', result.thread, now);
  wakeWebhookWorkers();
  return result;
}

/**
 * The forks of a thread in the tenant, newest first (createdAt descending, ties by id), in
 * keyset pages; archived forks included. A thread with no forks (or none in this tenant) has
 * an empty list.
 * @throws BadUserInputError for bad page arguments or a malformed cursor
 */
export async function listForks(
  ctx: ServiceContext,
  threadId: string,
  args: Pick<ConnectionArgs, 'first' | 'after'>,
): Promise<Connection<ThreadRecord>> {
  return listThreads(ctx, {
    first: args.first,
    after: args.after,
    orderBy: 'CREATED_AT_DESC',
    filter: { includeArchived: true },
    forkedFromId: threadId,
  });
}
