/**
 * The append-only item log: appends with seq assignment, expectedSeq and idempotency keys;
 * retention purges. Reads are in item-history.service.ts.
 * Rules from contract.graphql (AppendItemsInput, NewItem, Thread.items, PurgeItemsInput)
 * and ARCHITECTURE.md (seq assignment: reserveSeqs below). SQL is in item.store.ts.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { type Executor, retryingConflicts, transaction } from '../db/transaction.js';
import {
  assertNoNul,
  BadUserInputError,
  ConflictError,
  PayloadTooLargeError,
  quote,
  threadNotFound,
  wellFormed,
} from '../errors.js';
import { Prisma } from '../generated/prisma/client.js';
import { assertThreadId } from '../ids.js';
import {
  isStorableDate,
  type JsonValue,
  jsonBytes,
  jsonHash,
  jsonProblem,
  MAX_JSON_DEPTH,
} from '../json.js';
import { publishThreadEvent } from '../pubsub/bus.js';
import { itemSearchText } from '../search/search-text.js';
import {
  advanceNextSeq,
  selectThread,
  type ThreadRecord,
  touchThread,
} from '../threads/thread.store.js';
import { rawProblem } from '../transcripts/record-check.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcripts/types.js';
import {
  noteOutboxWritten,
  recordWebhookEvent,
  wakeWebhookWorkers,
} from '../webhooks/webhook.service.js';
import { subscriberCount } from '../webhooks/webhook.store.js';
import { appendedData } from '../webhooks/webhook-events.js';
import {
  appendInOneStatement,
  deleteIdempotencyKeysBefore,
  deleteItemsBefore,
  type ItemRecord,
  insertIdempotencyKey,
  insertItems,
  type PreparedItem,
  selectIdempotencyKey,
  selectItemRange,
  usageOfItems,
} from './item.store.js';
import { publishAppended } from './item-events.js';
import {
  BODY_FIELDS,
  type BodyField,
  bodySchemas,
  bodyToData,
  type ItemStatus,
  isNoUsage,
  type UsageTotals,
  usageOf,
} from './item-types.js';

/** NewItem as GraphQL passes it: common fields plus exactly one body field. */
export type NewItemInput = {
  status?: ItemStatus | null;
  responseId?: string | null;
  createdBy?: string | null;
  createdAt?: Date | null;
  /** The source record (contract: NewItem.raw); needs rawFormat. */
  raw?: unknown;
  rawFormat?: TranscriptFormat | null;
} & { [K in BodyField]?: Record<string, unknown> | null };

const MAX_LABEL_LENGTH = 256;

/**
 * Checks one NewItem and serialises its data.
 * @param path where the item is in the request, for messages ("items[3]")
 * @throws BadUserInputError (zero or several body fields, a rule of its type broken)
 * @throws PayloadTooLargeError when its data or its raw is over the item size limit
 *   (checkItemBytes)
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
      throw new BadUserInputError(
        `${path}.${label} must be at most ${MAX_LABEL_LENGTH} characters.`,
        {
          field: `${path}.${label}`,
        },
      );
    }
  }
  const { type, data, callId } = bodyToData(field, parsed.data as Record<string, unknown>);
  assertNoNul(callId, `${path}.${field}.callId`);
  if (input.createdAt != null && !isStorableDate(input.createdAt)) {
    throw new BadUserInputError(`${path}.createdAt must be between years 0001 and 9999.`, {
      field: `${path}.createdAt`,
    });
  }
  // The JSON scalar checked the arguments; this also covers the importer's parsed files.
  const dataJson = checkedJson(data, `${path}: its data`, path);
  const { rawJson, rawFormat } = checkRaw(input, path);
  checkItemBytes(ctx, dataJson, rawJson, path);
  return {
    usage: usageOf(type, data),
    type,
    status: input.status ?? 'COMPLETED',
    responseId: input.responseId ?? null,
    createdBy: input.createdBy ?? null,
    createdAt: input.createdAt ?? null,
    callId,
    dataJson,
    rawJson,
    rawFormat,
    searchText: itemSearchText(type, data),
  };
}

/**
 * The item size rule (README, Limits: MAX_ITEM_BYTES): an item's data is at most maxItemBytes
 * of JSON, and so is its raw, each on its own. Not their sum: raw is the source record the
 * data was read from, so a 600 KB tool output imported with its record would otherwise be
 * refused while the same output appended without raw is taken.
 * @throws PayloadTooLargeError naming `path` and which of the two is over
 */
export function checkItemBytes(
  ctx: ServiceContext,
  dataJson: string,
  rawJson: string | null,
  path: string,
): void {
  const limit = ctx.limits.maxItemBytes;
  for (const [what, json] of [
    ['data', dataJson],
    ['raw', rawJson],
  ] as const) {
    const bytes = json === null ? 0 : jsonBytes(json);
    if (bytes > limit) {
      throw new PayloadTooLargeError(
        `${path}: its ${what} is ${bytes} bytes of JSON; the limit is ${limit} bytes (for data, and for raw on its own).`,
        { field: path, what, bytes, limit },
      );
    }
  }
}

/** JSON text of a value the JSON rules accept. @throws BadUserInputError naming `what` */
function checkedJson(value: unknown, what: string, field: string): string {
  const problem = jsonProblem(value, { maxDepth: MAX_JSON_DEPTH });
  if (problem) {
    const at = problem.at ? ` at ${problem.at}` : '';
    throw new BadUserInputError(`${what}${at}: ${problem.reason}.`, { field });
  }
  return JSON.stringify(value);
}

/**
 * raw and rawFormat of a NewItem: both or neither (contract: ConversationItem.rawFormat is the
 * format raw belongs to), and raw a record of that format (a whole record, a split record's
 * envelope or one element of it: transcripts/record-check.ts). @throws BadUserInputError
 */
function checkRaw(
  input: NewItemInput,
  path: string,
): { rawJson: string | null; rawFormat: TranscriptFormat | null } {
  const hasRaw = input.raw !== undefined && input.raw !== null;
  const rawFormat = input.rawFormat ?? null;
  if (hasRaw !== (rawFormat !== null)) {
    const field = hasRaw ? `${path}.rawFormat` : `${path}.raw`;
    throw new BadUserInputError(
      `${path}: raw and rawFormat go together; set ${hasRaw ? 'rawFormat to the format raw is in' : 'raw to the source record, or leave rawFormat out'}.`,
      { field },
    );
  }
  if (rawFormat !== null && !(TRANSCRIPT_FORMATS as readonly string[]).includes(rawFormat)) {
    throw new BadUserInputError(
      `${path}.rawFormat must be one of ${TRANSCRIPT_FORMATS.join(', ')}.`,
      {
        field: `${path}.rawFormat`,
      },
    );
  }
  if (!hasRaw) return { rawJson: null, rawFormat: null };
  const rawJson = checkedJson(input.raw, `${path}.raw`, `${path}.raw`);
  // The same structural check the importer's decoders make (record-check.ts): a raw that is
  // not a record of rawFormat would be exported as if it were one.
  const problem = rawProblem(rawFormat as TranscriptFormat, input.raw as JsonValue);
  if (problem) {
    throw new BadUserInputError(
      `${path}.raw is not a record of ${rawFormat}: ${problem}. Send the source record as the format has it (or leave raw and rawFormat out).`,
      { field: `${path}.raw` },
    );
  }
  return { rawJson, rawFormat };
}

/**
 * The seq rule: advances a thread's nextSeq counter by `count` inside the caller's transaction
 * (on PostgreSQL the row lock that serialises appends to one thread) and returns the thread
 * as updated; the new items take seqs nextSeq - count .. nextSeq - 1. Every writer of items
 * (appendItems, addCompaction, the importer) goes through here, so seqs stay gapless. The same
 * UPDATE adds `usage`, the sums of the new items' usage (item.store.ts, usageOfItems), to the
 * thread's totals (contract: Thread.usage).
 * @throws NotFoundError when the thread does not exist (or has expired)
 * @param probe see thread.store.ts, advanceNextSeq
 * @throws ConflictError when expectedSeq is given and is not the thread's nextSeq
 * @throws BadUserInputError when a usage total would pass 2^53-1
 */
export async function reserveSeqs(
  tx: Executor,
  tenantId: string,
  threadId: string,
  count: number,
  now: Date,
  expectedSeq?: number | null,
  usage?: UsageTotals | null,
  probe?: Prisma.Sql,
): Promise<ThreadRecord & { probe?: number }> {
  const updated = await advanceNextSeq(
    tx,
    tenantId,
    threadId,
    count,
    now,
    expectedSeq,
    usage,
    probe,
  );
  if (updated) return updated;
  return noSeqs(tx, tenantId, threadId, expectedSeq, usage);
}

/**
 * Why the seq counter's UPDATE matched no row: the thread did not exist (or had expired) when
 * it ran, expectedSeq did not match, or a usage total would pass 2^53-1. A thread that a
 * concurrent create committed since (PostgreSQL's next statement sees it) did not exist for
 * this write: NOT_FOUND, not a seq conflict.
 * @throws NotFoundError, ConflictError (with nextSeq) or BadUserInputError, always
 */
async function noSeqs(
  db: Executor,
  tenantId: string,
  threadId: string,
  expectedSeq: number | null | undefined,
  usage?: UsageTotals | null,
): Promise<never> {
  const adds = usage != null && !isNoUsage(usage);
  const thread = expectedSeq == null && !adds ? null : await selectThread(db, tenantId, threadId);
  if (!thread) throw threadNotFound(threadId);
  if (adds) {
    for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
      if (thread.usage[key] + usage[key] > Number.MAX_SAFE_INTEGER) {
        throw new BadUserInputError(
          `The thread's usage ${key} would pass 2^53-1 (${thread.usage[key]} stored, ${usage[key]} added); check the items' usage counts.`,
          { field: 'items', threadId },
        );
      }
    }
  }
  if (expectedSeq == null || thread.nextSeq === expectedSeq) throw threadNotFound(threadId);
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
  thread: ThreadRecord;
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
export async function appendItems(
  ctx: ServiceContext,
  input: AppendItemsInput,
): Promise<AppendItemsResult> {
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
    const write =
      ctx.db.provider === 'postgresql' && fitsOneStatement(prepared)
        ? appendOnPostgres
        : appendInTransaction;
    try {
      const result = await write(
        ctx,
        input,
        prepared,
        key == null ? null : { key, requestHash },
        now,
      );
      publishAppended(ctx, result.thread, result.items, now);
      wakeWebhookWorkers();
      return result;
    } catch (error) {
      // A concurrent append with the same key committed first: answer as its replay.
      if (key != null && isUniqueViolation(error) && attempt < 3) continue;
      throw error;
    }
  }
}

/** The largest append written as one statement on PostgreSQL: items, and bytes of JSON text. */
const ONE_STATEMENT_MAX_ITEMS = 100;
const ONE_STATEMENT_MAX_BYTES = 256 * 1024;

/**
 * True when an append is small enough for PostgreSQL's one-statement write (the common case:
 * an agent's turn). Larger ones take the transaction path, whose INSERTs are chunked: one
 * statement binds 10 parameters per item (PostgreSQL allows 65,535), and a server with a
 * 512 MB heap ran out of memory on one statement of eight 1 MB items (test/slow-followers).
 */
function fitsOneStatement(prepared: readonly PreparedItem[]): boolean {
  if (prepared.length > ONE_STATEMENT_MAX_ITEMS) return false;
  let bytes = 0;
  for (const item of prepared) bytes += item.dataJson.length + (item.rawJson?.length ?? 0);
  return bytes <= ONE_STATEMENT_MAX_BYTES;
}

/**
 * appendItems' write on SQLite, and on PostgreSQL for large appends: reserveSeqs, the items
 * and the key in one transaction (which src/db/sqlite.ts may commit together with concurrent
 * ones).
 * @throws NotFoundError, ConflictError as reserveSeqs; the key's unique violation as is
 */
async function appendInTransaction(
  ctx: ServiceContext,
  input: AppendItemsInput,
  prepared: PreparedItem[],
  key: { key: string; requestHash: string } | null,
  now: Date,
): Promise<AppendItemsResult> {
  return transaction(
    ctx.db,
    async (tx) => {
      // The seq counter's UPDATE also says whether any webhook wants ITEMS_APPENDED: a tenant
      // without webhooks pays no statement for them (test/statements.test.ts).
      const { probe, ...thread } = await reserveSeqs(
        tx,
        ctx.tenantId,
        input.threadId,
        prepared.length,
        now,
        input.expectedSeq,
        usageOfItems(prepared),
        subscriberCount(Prisma.sql`${ctx.tenantId}`, 'ITEMS_APPENDED'),
      );
      const firstSeq = thread.nextSeq - prepared.length;
      const items = await insertItems(tx, ctx.tenantId, input.threadId, firstSeq, prepared, now);
      if (probe) {
        await recordWebhookEvent(tx, {
          tenantId: ctx.tenantId,
          threadId: input.threadId,
          type: 'ITEMS_APPENDED',
          at: now,
          data: appendedData(firstSeq, thread.nextSeq - 1, prepared.length),
        });
      }
      if (key != null) {
        await insertIdempotencyKey(tx, {
          tenantId: ctx.tenantId,
          threadId: input.threadId,
          key: key.key,
          requestHash: key.requestHash,
          firstSeq,
          itemCount: prepared.length,
          createdAt: now,
        });
      }
      return { thread, items, replayed: false };
      // Raw statements only (reserveSeqs, insertItems, the outbox, the key): on SQLite the
      // transaction runs on the adapter directly (src/db/transaction.ts).
    },
    { raw: true },
  );
}

/**
 * appendItems' write on PostgreSQL: one statement (item.store.ts, appendInOneStatement) with
 * the rules of reserveSeqs, instead of a transaction of two or three (bench S1, S2).
 * @throws NotFoundError, ConflictError as reserveSeqs; the key's unique violation as is
 */
async function appendOnPostgres(
  ctx: ServiceContext,
  input: AppendItemsInput,
  prepared: PreparedItem[],
  key: { key: string; requestHash: string } | null,
  now: Date,
): Promise<AppendItemsResult> {
  const written = await retryingConflicts(() =>
    appendInOneStatement(ctx.db.prisma, {
      tenantId: ctx.tenantId,
      threadId: input.threadId,
      items: prepared,
      now,
      expectedNextSeq: input.expectedSeq ?? null,
      key,
      webhookEventId: randomUUID(),
    }),
  );
  if (!written) {
    return noSeqs(
      ctx.db.prisma,
      ctx.tenantId,
      input.threadId,
      input.expectedSeq,
      usageOfItems(prepared),
    );
  }
  noteOutboxWritten(written.outboxRows);
  return { thread: written.thread, items: written.items, replayed: false };
}

/**
 * The hash an idempotency key is stored with. It covers the parsed data, not its JSON text, so
 * a retry that sends deep-equal items with object keys in another order is still a replay.
 */
function requestHashOf(prepared: PreparedItem[]): string {
  return jsonHash(
    prepared.map(({ dataJson, rawJson, rawFormat, ...rest }) => ({
      ...rest,
      data: JSON.parse(dataJson) as unknown,
      // Only when set, so that keys recorded before raw existed still match.
      ...(rawJson === null ? {} : { raw: JSON.parse(rawJson) as unknown, rawFormat }),
    })),
  );
}

/** The first result of an append made with this key, or null when the key is new. */
async function replayAppend(
  ctx: ServiceContext,
  threadId: string,
  key: string,
  requestHash: string,
): Promise<AppendItemsResult | null> {
  const record = await selectIdempotencyKey(ctx.db.prisma, ctx.tenantId, threadId, key);
  if (!record) return null;
  if (record.requestHash !== requestHash) {
    throw new ConflictError(
      `idempotencyKey ${quote(key, MAX_IDEMPOTENCY_KEY_LENGTH)} was already used on this thread with different items; use a new key for a new append.`,
      { threadId, idempotencyKey: wellFormed(key, MAX_IDEMPOTENCY_KEY_LENGTH) },
    );
  }
  const items = await selectItemRange(ctx.db.prisma, ctx.tenantId, threadId, {
    after: record.firstSeq - 1,
    upTo: record.firstSeq + record.itemCount - 1,
  });
  return { thread: record.thread, items, replayed: true };
}

/**
 * Deletes the items created before `before` (retention) in one transaction, taking their
 * usage from the thread's totals. With the ITEMS_PURGED
 * webhook event when items were deleted. Seqs are not reused; compaction records stay.
 * @throws BadUserInputError for a date outside years 0001-9999
 * @throws NotFoundError
 */
export async function purgeItems(
  ctx: ServiceContext,
  input: { threadId: string; before: Date },
): Promise<{ thread: ThreadRecord; itemsDeleted: number }> {
  assertThreadId(input.threadId, 'threadId');
  if (!isStorableDate(input.before)) {
    throw new BadUserInputError('before must be between years 0001 and 9999.', { field: 'before' });
  }
  const now = new Date();
  const { tenantId } = ctx;
  const result = await transaction(ctx.db, async (tx) => {
    // The row lock first (as appends take it), so the sums and the delete see the same items.
    if (!(await touchThread(tx, tenantId, input.threadId, now))) {
      throw threadNotFound(input.threadId);
    }
    const removed = await deleteItemsBefore(tx, tenantId, input.threadId, input.before);
    const thread = await touchThread(
      tx,
      tenantId,
      input.threadId,
      now,
      removed.count,
      removed.usage,
    );
    if (!thread) throw threadNotFound(input.threadId);
    if (removed.count > 0) {
      await recordWebhookEvent(tx, {
        tenantId,
        threadId: input.threadId,
        type: 'ITEMS_PURGED',
        at: now,
        data: { before: input.before.toISOString(), itemsDeleted: removed.count },
      });
    }
    return { thread, itemsDeleted: removed.count };
  });
  publishThreadEvent(ctx.events, tenantId, 'PURGED', result.thread, now);
  wakeWebhookWorkers();
  return result;
}

/**
 * Deletes idempotency keys older than `ttlHours` across all tenants (the contract keeps them
 * at least 24 hours). Run hourly by the server's background jobs.
 * @returns how many keys were deleted
 */
export async function pruneIdempotencyKeys(
  db: ServiceContext['db'],
  ttlHours: number,
): Promise<number> {
  return deleteIdempotencyKeysBefore(db.prisma, new Date(Date.now() - ttlHours * 3_600_000));
}
