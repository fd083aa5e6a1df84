/**
 * Imports transcripts (src/transcripts/ codecs) through the service layer: one conversation
 * becomes one new thread with all its items and compaction records, written in ONE
 * transaction by the same rules as createThread, appendItems and addCompaction (seq counter,
 * tombstones, tenant, item and metadata limits). Used by the importTranscript mutation and by
 * `npm run import`. THREADSTORE_JSONL dumps are restored by restore.service.ts.
 *
 * Idempotency: with a key, the first import records (key, requestHash, thread) in ImportKey in
 * the same transaction; importing again with the key and deep-equal content answers with that
 * thread (replayed: true) and writes nothing; the key with other content is a CONFLICT.
 */

import { checkCompactionInput, rangeRuleProblem } from '../compaction/compaction.service.js';
import { insertCompaction } from '../compaction/compaction.store.js';
import type { ServiceContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { transaction } from '../db/transaction.js';
import { assertNoNul, BadUserInputError, ConflictError, quote, wellFormed } from '../errors.js';
import { type NewItemInput, prepareItem, reserveSeqs } from '../items/item.service.js';
import {
  type ItemRecord,
  insertItems,
  type PreparedItem,
  usageOfItems,
} from '../items/item.store.js';
import { publishAppended } from '../items/item-events.js';
import { jsonHash } from '../json.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { insertNewThread, newThreadRow } from '../threads/thread.service.js';
import type { NewThreadRow, ThreadRecord } from '../threads/thread.store.js';
import { bodyFieldOf } from '../transcripts/envelope.js';
import { CODECS } from '../transcripts/index.js';
import {
  type CompactionDraft,
  type DecodedConversation,
  type ItemDraft,
  type JsonObject,
  TranscriptError,
  type TranscriptFormat,
} from '../transcripts/types.js';
import { recordWebhookEvent, wakeWebhookWorkers } from '../webhooks/webhook.service.js';
import { appendedEvent, compactionEvent, threadEvent } from '../webhooks/webhook-events.js';
import { insertImportKey, selectImportKey } from './import.store.js';
import { restoreDump } from './restore.service.js';

/** Rows per insertItems call: bounds one call's statement list. */
const INSERT_CHUNK = 500;

/**
 * An interactive transaction's time limit, in ms. Prisma's default (5 s) is meant for request
 * handlers; one conversation of tens of thousands of items may take longer.
 */
export const IMPORT_TRANSACTION_TIMEOUT_MS = 120_000;

const MAX_KEY_LENGTH = 256;

/** The thread an imported conversation becomes, and the import's idempotency key. */
export interface ConversationOptions {
  /** Generated (random UUID) when left out. */
  threadId?: string | null;
  agentId: string;
  name?: string | null;
  metadata?: unknown;
  idempotencyKey?: string | null;
  /**
   * What a replay of the key must match: the content and the thread fields asked for
   * ('request', the mutation's rule), or the content alone ('content': the CLI's key is derived
   * from the content, so the same conversation from a renamed file or with another --agent is
   * still "already imported").
   */
  keyCovers?: 'request' | 'content';
}

/** The contract's ImportTranscriptInput. */
export interface ImportTranscriptInput extends ConversationOptions {
  format: TranscriptFormat;
  transcript: unknown;
}

/** The contract's ImportTranscriptPayload. */
export interface ImportResult {
  thread: ThreadRecord;
  itemsImported: number;
  compactionsImported: number;
  replayed: boolean;
}

/**
 * The conversations of a transcript (codec decode), with decode errors as BAD_USER_INPUT.
 * @throws BadUserInputError "transcript: <line or index>: <why>" (field: transcript)
 */
export function decodeTranscript(format: TranscriptFormat, source: unknown): DecodedConversation[] {
  const codec = CODECS[format];
  if (!codec) throw new Error(`no codec decodes ${format}`);
  try {
    return codec.decode(source);
  } catch (error) {
    throw asUserError(error);
  }
}

/** A TranscriptError as BAD_USER_INPUT naming where; anything else unchanged. */
export function asUserError(error: unknown, prefix = 'transcript'): unknown {
  if (!(error instanceof TranscriptError)) return error;
  return new BadUserInputError(`${prefix}: ${error.message}.`.replace(/\.\.$/, '.'), {
    field: 'transcript',
    location: error.location,
  });
}

/**
 * importTranscript: one transcript, one conversation, one new thread.
 * @throws BadUserInputError (a part of the transcript that does not decode, named; more than
 *   one conversation; an item or a record that breaks a rule), PayloadTooLargeError,
 *   ConflictError (thread id taken or deleted; key used with other content)
 */
export async function importTranscript(
  ctx: ServiceContext,
  input: ImportTranscriptInput,
): Promise<ImportResult> {
  if (input.format === 'THREADSTORE_JSONL') {
    return restoreDump(ctx, input.transcript, input);
  }
  const conversations = decodeTranscript(input.format, input.transcript);
  if (conversations.length !== 1) {
    throw new BadUserInputError(
      `transcript holds ${conversations.length} conversations; importTranscript creates one thread, so send them one at a time (npm run import splits a file).`,
      { field: 'transcript', conversations: conversations.length },
    );
  }
  const conversation = conversations[0]!;
  return importConversation(ctx, conversation, {
    ...input,
    metadata: input.metadata ?? scalarMeta(conversation.meta),
  });
}

/** The keys of a conversation's meta that hold a JSON scalar: default thread metadata. */
export function scalarMeta(meta: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(meta)) if (v === null || typeof v !== 'object') out[k] = v;
  return out;
}

/**
 * The idempotency key the CLI derives from a conversation's content: a SHA-256 of the canonical
 * JSON of its format, item drafts and compaction records (the same conversation, wherever and
 * however often it is read, gets the same key).
 */
export function contentKey(format: TranscriptFormat, conversation: DecodedConversation): string {
  const { items, compactions } = conversation;
  return `content-sha256:${jsonHash({ format, items, compactions })}`;
}

/** A conversation checked by the API's rules and serialised, ready to write. */
export interface PreparedConversation {
  thread: NewThreadRow;
  items: PreparedItem[];
  /** Compaction records with their marker data (JSON text). */
  compactions: (CompactionDraft & { markerJson: string })[];
  key: string | null;
  requestHash: string;
}

/** A draft as appendItems takes it. */
export function draftToInput(draft: ItemDraft): NewItemInput {
  const field = bodyFieldOf(draft);
  return {
    status: draft.status ?? 'COMPLETED',
    responseId: draft.responseId,
    createdBy: draft.createdBy,
    createdAt: draft.createdAt === null ? null : new Date(draft.createdAt),
    [field]: draft[field] as Record<string, unknown>,
    raw: draft.raw,
    rawFormat: draft.raw === null ? null : draft.rawFormat,
  };
}

/**
 * Checks a conversation without writing: the thread (createThread's rules), every item
 * (appendItems' rules, named "transcript: <its source record's location>", or "items[i]" when
 * the conversation has no locations), every compaction
 * record (addCompaction's rules, tool pairs and responses included; ranges within the items,
 * in order, not overlapping).
 * @throws BadUserInputError, PayloadTooLargeError
 */
export function prepareConversation(
  ctx: ServiceContext,
  conversation: DecodedConversation,
  options: ConversationOptions,
  now = new Date(),
): PreparedConversation {
  const key = options.idempotencyKey ?? null;
  assertNoNul(key, 'idempotencyKey');
  if (key !== null && (key.length === 0 || key.length > MAX_KEY_LENGTH)) {
    throw new BadUserInputError(`idempotencyKey must be 1 to ${MAX_KEY_LENGTH} characters.`, {
      field: 'idempotencyKey',
    });
  }
  const thread = newThreadRow(ctx, { ...options, id: options.threadId }, now);
  // Named by its source record ("transcript: messages[3]"), which the sender knows; one record
  // may have become several items.
  const itemPath = (i: number) => {
    const location = conversation.locations?.[i];
    return location ? `transcript: ${location}` : `items[${i}]`;
  };
  const items = conversation.items.map((d, i) => prepareItem(ctx, draftToInput(d), itemPath(i)));
  let next = 0;
  const rangeItems = conversation.items.map((d, seq) => {
    const call = d.toolCall ?? d.toolResult;
    const type = d.toolCall ? 'tool_call' : d.toolResult ? 'tool_result' : 'other';
    return { seq, type, callId: call?.callId ?? null, responseId: d.responseId };
  });
  const compactions = conversation.compactions.map((c, i) => {
    const where = `compactions[${i}]`;
    if (c.startIndex < next || c.endIndex >= items.length) {
      throw new BadUserInputError(
        `${where}: the range ${c.startIndex}..${c.endIndex} must lie within items 0..${items.length - 1}, after the previous record's.`,
        { field: where },
      );
    }
    next = c.endIndex + 1;
    const rule = rangeRuleProblem(rangeItems, { startSeq: c.startIndex, endSeq: c.endIndex });
    if (rule)
      throw new BadUserInputError(`${where}: ${rule.message}`, { field: where, ...rule.details });
    const markerJson = checkCompactionInput(ctx, {
      threadId: thread.id,
      startSeq: c.startIndex,
      endSeq: c.endIndex,
      summary: c.summary,
      createdBy: c.createdBy,
    });
    return { ...c, markerJson };
  });
  // What a replay must match: the content and the thread fields asked for (id only if given).
  const content = { items: conversation.items, compactions: conversation.compactions };
  // A content-derived key (contentKey) already is the hash of the content: not hashed twice.
  const requestHash =
    options.keyCovers === 'content' && key?.startsWith('content-sha256:')
      ? key
      : jsonHash(
          options.keyCovers === 'content'
            ? content
            : {
                ...content,
                thread: {
                  id: options.threadId ?? null,
                  agentId: options.agentId,
                  name: options.name ?? null,
                  metadata: options.metadata ?? {},
                },
              },
        );
  return { thread, items, compactions, key, requestHash };
}

/**
 * Imports one decoded conversation as a new thread (prepareConversation, then
 * writeConversation), or answers a replay of its key.
 */
export async function importConversation(
  ctx: ServiceContext,
  conversation: DecodedConversation,
  options: ConversationOptions,
): Promise<ImportResult> {
  const now = new Date();
  return writeConversation(ctx, prepareConversation(ctx, conversation, options, now), now);
}

/**
 * Writes a prepared conversation in one transaction: the thread, its items at seqs 0..n-1
 * through the seq counter, then each compaction record with its marker item after them, and
 * the import key, and their webhook events (THREAD_CREATED, one ITEMS_APPENDED for the items,
 * COMPACTION_ADDED per record); publishes CREATED, ITEMS_APPENDED and COMPACTED after commit. A key already
 * recorded answers with its thread and writes nothing.
 * @throws ConflictError (thread id taken or deleted; key used with other content)
 */
export async function writeConversation(
  ctx: ServiceContext,
  prepared: PreparedConversation,
  now = new Date(),
): Promise<ImportResult> {
  for (let attempt = 0; ; attempt++) {
    const replay = await replayImport(ctx, prepared);
    if (replay) return replay;
    try {
      return await writeOnce(ctx, prepared, now);
    } catch (error) {
      // A concurrent import with the same key committed first: answer as its replay.
      if (prepared.key !== null && isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

async function writeOnce(
  ctx: ServiceContext,
  prepared: PreparedConversation,
  now: Date,
): Promise<ImportResult> {
  const { tenantId } = ctx;
  const threadId = prepared.thread.id;
  const written = await transaction(
    ctx.db,
    async (tx) => {
      let thread = await insertNewThread(tx, prepared.thread);
      await recordWebhookEvent(tx, threadEvent('THREAD_CREATED', thread, now));
      const records: ItemRecord[] = [];
      const markers: ItemRecord[] = [];
      if (prepared.items.length > 0) {
        const usage = usageOfItems(prepared.items);
        thread = await reserveSeqs(tx, tenantId, threadId, prepared.items.length, now, null, usage);
        for (let start = 0; start < prepared.items.length; start += INSERT_CHUNK) {
          const chunk = prepared.items.slice(start, start + INSERT_CHUNK);
          records.push(...(await insertItems(tx, tenantId, threadId, start, chunk, now)));
        }
        const count = prepared.items.length;
        await recordWebhookEvent(
          tx,
          appendedEvent(tenantId, threadId, { firstSeq: 0, lastSeq: count - 1, count }, now),
        );
      }
      for (const c of prepared.compactions) {
        thread = await reserveSeqs(tx, tenantId, threadId, 1, now);
        const markerSeq = thread.nextSeq - 1;
        const createdAt = c.createdAt === null ? now : new Date(c.createdAt);
        const record = { startSeq: c.startIndex, endSeq: c.endIndex, summary: c.summary };
        await insertCompaction(tx, {
          tenantId,
          threadId,
          ...record,
          createdAt,
          createdBy: c.createdBy,
          markerSeq,
        });
        await recordWebhookEvent(
          tx,
          compactionEvent({ tenantId, threadId, ...record, markerSeq }, now),
        );
        const marker: PreparedItem = {
          type: 'compaction',
          status: 'COMPLETED',
          responseId: null,
          createdBy: c.createdBy,
          createdAt,
          callId: null,
          dataJson: c.markerJson,
          rawJson: null,
          rawFormat: null,
        };
        markers.push(...(await insertItems(tx, tenantId, threadId, markerSeq, [marker], now)));
      }
      if (prepared.key !== null) {
        await insertImportKey(tx, {
          tenantId,
          key: prepared.key,
          requestHash: prepared.requestHash,
          threadId,
          itemCount: records.length,
          compactionCount: markers.length,
          createdAt: now,
        });
      }
      return { thread, records, markers };
    },
    { timeoutMs: IMPORT_TRANSACTION_TIMEOUT_MS },
  );
  const { thread, records, markers } = written;
  publishThreadEvent(ctx.events, tenantId, 'CREATED', thread, now);
  if (records.length > 0) publishAppended(ctx, thread, records, now);
  if (markers.length > 0) publishAppended(ctx, thread, markers, now, 'COMPACTED');
  wakeWebhookWorkers();
  return {
    thread,
    itemsImported: records.length,
    compactionsImported: markers.length,
    replayed: false,
  };
}

/**
 * The first import with this key (replayed: true), or null when the key is new.
 * @throws ConflictError when the key was used with other content, or its thread has expired
 */
export async function replayImport(
  ctx: ServiceContext,
  prepared: Pick<PreparedConversation, 'key' | 'requestHash'>,
): Promise<ImportResult | null> {
  if (prepared.key === null) return null;
  const record = await selectImportKey(ctx.db.prisma, ctx.tenantId, prepared.key);
  if (!record) return null;
  // Kept until the expiry job deletes the thread (and the key with it): until then the key
  // names a thread that is gone for every read, which a replay must not show.
  if (record.thread.expiresAt !== null && record.thread.expiresAt <= new Date()) {
    throw new ConflictError(
      `idempotencyKey ${quote(prepared.key, MAX_KEY_LENGTH)} imported a thread that has expired and is being deleted; use a new key to import again.`,
      { idempotencyKey: wellFormed(prepared.key, MAX_KEY_LENGTH) },
    );
  }
  if (record.requestHash !== prepared.requestHash) {
    throw new ConflictError(
      `idempotencyKey ${quote(prepared.key, MAX_KEY_LENGTH)} was already used to import thread "${record.thread.id}" with other content or thread fields; use a new key for a new import.`,
      {
        idempotencyKey: wellFormed(prepared.key, MAX_KEY_LENGTH),
        threadId: record.thread.id,
      },
    );
  }
  return {
    thread: record.thread,
    itemsImported: record.itemCount,
    compactionsImported: record.compactionCount,
    replayed: true,
  };
}
