/**
 * Writes parsed transcripts (openai-chat.ts) through the service layer: one thread per
 * conversation with all its items, checked by the same rules as createThread and appendItems,
 * in one transaction per conversation.
 */
import type { ServiceContext } from '../context.js';
import { transaction } from '../db/transaction.js';
import { prepareItem, reserveSeqs } from '../items/item.service.js';
import { type ItemRecord, insertItems, type PreparedItem } from '../items/item.store.js';
import { publishAppended } from '../items/item-events.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { insertNewThread, newThreadRow } from '../threads/thread.service.js';
import type { NewThreadRow, ThreadRecord } from '../threads/thread.store.js';
import type { ParsedConversation } from './openai-chat.js';

/** Rows per insert statement: appendItems' default batch, well under SQLite's variable limit. */
const INSERT_CHUNK = 500;

/**
 * An interactive transaction's time limit, in ms. Prisma's default (5 s) is meant for request
 * handlers; one conversation of tens of thousands of items may take longer.
 */
const TRANSACTION_TIMEOUT_MS = 120_000;

export interface ImportOptions {
  /** The owner of the imported threads. */
  agentId: string;
}

/** A conversation checked and serialised, ready to write. */
export interface PreparedConversation {
  thread: NewThreadRow;
  items: PreparedItem[];
}

/**
 * Checks a conversation by the API's rules without writing: the thread (random id, name =
 * label, metadata) and every item.
 * @throws BadUserInputError, PayloadTooLargeError naming the item ("<label>: items[12]...")
 */
export function prepareConversation(
  ctx: ServiceContext,
  conversation: ParsedConversation,
  options: ImportOptions,
  now = new Date(),
): PreparedConversation {
  const thread = newThreadRow(
    ctx,
    { agentId: options.agentId, name: conversation.label, metadata: conversation.metadata },
    now,
  );
  const items = conversation.items.map((item, i) =>
    prepareItem(ctx, item, `${conversation.label}: items[${i}]`),
  );
  return { thread, items };
}

/**
 * Imports one conversation as a new thread with all its items (seqs 0..n-1), in one
 * transaction, so a failure writes nothing of it; publishes CREATED and ITEMS_APPENDED after
 * commit.
 * @returns the thread as written (nextSeq = itemCount = number of items)
 * @throws BadUserInputError, PayloadTooLargeError before anything is written (see
 *   prepareConversation); database errors roll the whole conversation back
 */
export async function importConversation(
  ctx: ServiceContext,
  conversation: ParsedConversation,
  options: ImportOptions,
): Promise<ThreadRecord> {
  const now = new Date();
  const prepared = prepareConversation(ctx, conversation, options, now);
  return writeConversation(ctx, prepared, now);
}

/**
 * Writes a prepared conversation: the thread, then its items through the same seq counter as
 * appendItems, in one transaction; publishes after commit.
 * @returns the thread as written
 * @throws ConflictError when the thread's id is taken, or was used by a deleted thread
 */
export async function writeConversation(
  ctx: ServiceContext,
  prepared: PreparedConversation,
  now = new Date(),
): Promise<ThreadRecord> {
  const { tenantId } = ctx;
  const threadId = prepared.thread.id;
  const { thread, records } = await transaction(
    ctx.db,
    async (tx) => {
      let thread = await insertNewThread(tx, prepared.thread);
      const records: ItemRecord[] = [];
      if (prepared.items.length > 0) {
        thread = await reserveSeqs(tx, tenantId, threadId, prepared.items.length, now);
        const firstSeq = thread.nextSeq - prepared.items.length;
        for (let start = 0; start < prepared.items.length; start += INSERT_CHUNK) {
          const chunk = prepared.items.slice(start, start + INSERT_CHUNK);
          const seq = firstSeq + start;
          records.push(...(await insertItems(tx, tenantId, threadId, seq, chunk, now)));
        }
      }
      return { thread, records };
    },
    { timeoutMs: TRANSACTION_TIMEOUT_MS },
  );
  publishThreadEvent(ctx.events, tenantId, 'CREATED', thread, now);
  if (records.length > 0) publishAppended(ctx, thread, records, now);
  return thread;
}
