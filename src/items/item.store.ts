/**
 * Storage of the item log and its idempotency keys: every SQL statement and Prisma call on the
 * Item and IdempotencyKey tables, rows parsed into ItemRecords here and nowhere else. Item
 * reads and inserts are raw statements (CPU profiles in bench/ put most of their cost in
 * Prisma's per-call query compilation); deletes and key records use Prisma's model API. No
 * rules: item.service.ts decides seqs, bounds and what a missing row means.
 */
import { readInChunks } from '../db/chunks.js';
import { copyThreadRows } from '../db/copy.js';
import type { Provider } from '../db/migrations.js';
import { executeRows, queryRows } from '../db/raw.js';
import type { Executor } from '../db/transaction.js';
import { type Item, Prisma, type Thread } from '../generated/prisma/client.js';
import { itemId } from '../ids.js';
import { type SizedRows, withinBudget } from '../read-budget.js';
import {
  addUsageSql,
  notExpired,
  type ThreadRecord,
  threadNotExpired,
  toThreadRecord,
} from '../threads/thread.store.js';
import { appendedOutboxCte } from '../webhooks/webhook.store.js';
import { type ItemStatus, type ItemUsage, sumUsage, type UsageTotals } from './item-types.js';

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
  /** The source record the item was imported from (contract: ConversationItem.raw), or null. */
  raw: unknown;
  /** The TranscriptFormat of raw; null when raw is. */
  rawFormat: string | null;
}

/** An item checked and serialised by item.service.ts (prepareItem), ready to get a seq. */
export interface PreparedItem {
  type: string;
  status: ItemStatus;
  responseId: string | null;
  createdBy: string | null;
  /** null: the time of the write. */
  createdAt: Date | null;
  callId: string | null;
  dataJson: string;
  /** JSON text of the source record; null without one. */
  rawJson: string | null;
  rawFormat: string | null;
  /** message items that report usage: its counts (item-types.ts, usageOf); else none. */
  usage?: ItemUsage | null;
  /**
   * Item.searchText (src/search/search-text.ts, itemSearchText); null or left out: the item
   * has no text to search (compaction markers).
   */
  searchText?: string | null;
}

/** An Item row as statements read it: the usage columns are not parsed (Thread holds sums). */
type ItemRow = Omit<Item, 'inputTokens' | 'outputTokens' | 'totalTokens'>;

/** Parses a row: raw statements return driver types (bigint, text times). */
export function toItemRecord(row: ItemRow): ItemRecord {
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
    // null: a look-ahead row read without its data (selectItemPage).
    data: row.dataJson === null ? null : (JSON.parse(row.dataJson) as unknown),
    raw: row.rawJson == null ? null : (JSON.parse(row.rawJson) as unknown),
    rawFormat: row.rawFormat ?? null,
  };
}

/** Rows per INSERT: 16 parameters a row, under SQLite's cap of 999. */
const ITEMS_PER_INSERT = 60;

/**
 * The stored size of an item row in bytes, for read budgets: its data and its raw record (the
 * two JSON texts a read returns). `alias` is the table alias with its dot, or ''.
 */
export function itemSizeSql(alias = ''): Prisma.Sql {
  return Prisma.raw(
    `(octet_length(${alias}"dataJson") + COALESCE(octet_length(${alias}"rawJson"), 0))`,
  );
}

/**
 * Writes prepared items at seqs firstSeq.. and returns them as records. Raw multi-row
 * INSERTs rather than createMany: appends are the hot path, and CPU profiles (bench/) show
 * Prisma's query compilation dominating createMany; a raw statement skips it.
 */
export async function insertItems(
  tx: Executor,
  tenantId: string,
  threadId: string,
  firstSeq: number,
  items: readonly PreparedItem[],
  now: Date,
): Promise<ItemRecord[]> {
  const rows = itemRows(tenantId, threadId, firstSeq, items, now);
  for (let start = 0; start < rows.length; start += ITEMS_PER_INSERT) {
    const values = rows
      .slice(start, start + ITEMS_PER_INSERT)
      .map(
        (r) =>
          Prisma.sql`(${r.tenantId}, ${r.threadId}, ${r.seq}, ${r.type}, ${r.status}, ${r.responseId}, ${r.createdAt}, ${r.createdBy}, ${r.callId}, ${r.dataJson}, ${r.rawJson}, ${r.rawFormat}, ${r.inputTokens}, ${r.outputTokens}, ${r.totalTokens}, ${r.searchText})`,
      );
    await executeRows(
      tx,
      Prisma.sql`INSERT INTO "Item" ("tenantId", "threadId", "seq", "type", "status", "responseId", "createdAt", "createdBy", "callId", "dataJson", "rawJson", "rawFormat", "inputTokens", "outputTokens", "totalTokens", "searchText") VALUES ${Prisma.join(values)}`,
    );
  }
  return rows.map(toItemRecord);
}

/** The rows of prepared items at seqs firstSeq.. (createdAt: the item's, else `now`). */
function itemRows(
  tenantId: string,
  threadId: string,
  firstSeq: number,
  items: readonly PreparedItem[],
  now: Date,
): (ItemRow & {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
})[] {
  return items.map((item, i) => ({
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
    rawJson: item.rawJson,
    rawFormat: item.rawFormat,
    inputTokens: item.usage?.inputTokens ?? null,
    outputTokens: item.usage?.outputTokens ?? null,
    totalTokens: item.usage?.totalTokens ?? null,
    searchText: item.searchText ?? null,
  }));
}

/** The usage sums of prepared items, to add to their thread's totals. */
export function usageOfItems(items: readonly PreparedItem[]): UsageTotals {
  return sumUsage(items.map((item) => item.usage));
}

/** The records of items just written (what a read of them would return). */
function itemRecords(
  tenantId: string,
  threadId: string,
  firstSeq: number,
  items: readonly PreparedItem[],
  now: Date,
): ItemRecord[] {
  return itemRows(tenantId, threadId, firstSeq, items, now).map(toItemRecord);
}

/** What appendInOneStatement writes: the items, and the idempotency key when one was sent. */
export interface OneStatementAppend {
  tenantId: string;
  threadId: string;
  items: readonly PreparedItem[];
  now: Date;
  /** Only when the thread's nextSeq is this (expectedSeq); null: any. */
  expectedNextSeq: number | null;
  key: { key: string; requestHash: string } | null;
  /** The id of the ITEMS_APPENDED webhook event the statement writes to the outbox. */
  webhookEventId: string;
}

/**
 * PostgreSQL only: a whole append as one statement, so it needs no transaction and one round
 * trip (bench S1, S2; a data-modifying WITH runs every part or none). It advances the seq
 * counter and the usage totals as advanceNextSeq does (the row lock serialises appends to a
 * thread), inserts the items at the seqs the UPDATE reserved, records the key and writes the
 * ITEMS_APPENDED event to the webhook outbox (`outboxRows`: how many rows; none without
 * subscribed webhooks). Returns the thread as updated and the items; null when no thread row
 * matched (missing or expired, expectedNextSeq different, or a usage total that would pass
 * 2^53-1), and then nothing is written.
 * @throws Prisma's unique violation (P2002) when the key was recorded concurrently
 */
export async function appendInOneStatement(
  db: Executor,
  a: OneStatementAppend,
): Promise<{ thread: ThreadRecord; items: ItemRecord[]; outboxRows: number } | null> {
  const n = a.items.length;
  // Casts give the VALUES columns their types (PostgreSQL would take text for every parameter).
  const values = a.items.map(
    (item, i) =>
      Prisma.sql`(${i}::int, ${item.type}::text, ${item.status}::text, ${item.responseId}::text, ${item.createdAt ?? a.now}::timestamptz, ${item.createdBy}::text, ${item.callId}::text, ${item.dataJson}::text, ${item.rawJson}::text, ${item.rawFormat}::text, ${item.usage?.inputTokens ?? null}::bigint, ${item.usage?.outputTokens ?? null}::bigint, ${item.usage?.totalTokens ?? null}::bigint, ${item.searchText ?? null}::text)`,
  );
  const add = addUsageSql(usageOfItems(a.items));
  const keyInsert = a.key
    ? Prisma.sql`, k AS (
        INSERT INTO "IdempotencyKey" ("tenantId", "threadId", "key", "requestHash", "firstSeq", "itemCount", "createdAt")
        SELECT t."tenantId", t."id", ${a.key.key}, ${a.key.requestHash}, t."nextSeq" - ${n}, ${n}, ${a.now}::timestamptz FROM t)`
    : Prisma.empty;
  const [row] = await queryRows<Thread & { outboxRows: number | bigint }>(
    db,
    Prisma.sql`
    WITH t AS (
      UPDATE "Thread" SET "nextSeq" = "nextSeq" + ${n}, "itemCount" = "itemCount" + ${n}, "updatedAt" = ${a.now} ${add.set}
      WHERE "tenantId" = ${a.tenantId} AND "id" = ${a.threadId} AND ${notExpired(a.now)}
      ${a.expectedNextSeq != null ? Prisma.sql`AND "nextSeq" = ${a.expectedNextSeq}` : Prisma.empty}
      ${add.where}
      RETURNING *),
    i AS (
      INSERT INTO "Item" ("tenantId", "threadId", "seq", "type", "status", "responseId", "createdAt", "createdBy", "callId", "dataJson", "rawJson", "rawFormat", "inputTokens", "outputTokens", "totalTokens", "searchText")
      SELECT t."tenantId", t."id", t."nextSeq" - ${n} + v.i, v.type, v.status, v."responseId", v."createdAt", v."createdBy", v."callId", v."dataJson", v."rawJson", v."rawFormat", v."inputTokens", v."outputTokens", v."totalTokens", v."searchText"
      FROM t CROSS JOIN (VALUES ${Prisma.join(values)})
        AS v(i, type, status, "responseId", "createdAt", "createdBy", "callId", "dataJson", "rawJson", "rawFormat", "inputTokens", "outputTokens", "totalTokens", "searchText"))
    ${keyInsert}
    , ${appendedOutboxCte(a.webhookEventId, n, a.now)}
    SELECT *, (SELECT COUNT(*) FROM o) AS "outboxRows" FROM t`,
  );
  if (!row) return null;
  const thread = toThreadRecord(row);
  return {
    thread,
    items: itemRecords(a.tenantId, a.threadId, thread.nextSeq - n, a.items, a.now),
    outboxRows: Number(row.outboxRows),
  };
}

/** The first append made with an idempotency key, and the thread as it is now. */
export interface IdempotencyRecord {
  requestHash: string;
  firstSeq: number;
  itemCount: number;
  thread: ThreadRecord;
}

/** The record of an idempotency key on a thread with the thread as it is now, or null. */
export async function selectIdempotencyKey(
  db: Executor,
  tenantId: string,
  threadId: string,
  key: string,
): Promise<IdempotencyRecord | null> {
  type Row = Thread & { keyRequestHash: string; keyFirstSeq: number; keyItemCount: number };
  const [row] = await queryRows<Row>(
    db,
    Prisma.sql`
    SELECT t.*, k."requestHash" AS "keyRequestHash", k."firstSeq" AS "keyFirstSeq",
      k."itemCount" AS "keyItemCount"
    FROM "IdempotencyKey" k JOIN "Thread" t ON t."tenantId" = k."tenantId" AND t."id" = k."threadId"
    WHERE k."tenantId" = ${tenantId} AND k."threadId" = ${threadId} AND k."key" = ${key}
      AND ${notExpired(new Date(), 't.')}`,
  );
  if (!row) return null;
  return {
    requestHash: row.keyRequestHash,
    firstSeq: Number(row.keyFirstSeq),
    itemCount: Number(row.keyItemCount),
    thread: toThreadRecord(row),
  };
}

/**
 * Records an idempotency key: a raw INSERT, so a raw transaction can run it (transaction.ts).
 * @throws Prisma's unique violation (P2010 with UniqueConstraintViolation) when it exists
 */
export async function insertIdempotencyKey(
  tx: Executor,
  row: {
    tenantId: string;
    threadId: string;
    key: string;
    requestHash: string;
    firstSeq: number;
    itemCount: number;
    createdAt: Date;
  },
): Promise<void> {
  await executeRows(
    tx,
    Prisma.sql`INSERT INTO "IdempotencyKey" ("tenantId", "threadId", "key", "requestHash", "firstSeq", "itemCount", "createdAt")
      VALUES (${row.tenantId}, ${row.threadId}, ${row.key}, ${row.requestHash}, ${row.firstSeq}, ${row.itemCount}, ${row.createdAt})`,
  );
}

/** Stored items with `after` < seq <= `upTo`, in seq order, at most `limit` of them. */
export async function selectItemRange(
  db: Executor,
  tenantId: string,
  threadId: string,
  range: { after: number; upTo: number; limit?: number },
): Promise<ItemRecord[]> {
  const rows = await queryRows<Item>(
    db,
    Prisma.sql`
    SELECT * FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId}
      AND "seq" > ${range.after} AND "seq" <= ${range.upTo}
    ORDER BY "seq" ${range.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${range.limit}`}`,
  );
  return rows.map(toItemRecord);
}

/** A page of one thread's log: exclusive seq bounds, optional types, read direction. */
export interface ItemPageQuery {
  /** The database: the page's statement differs (see selectItemPage). */
  provider: Provider;
  tenantId: string;
  threadId: string;
  /** Exclusive lower bound (-1: from the first item). */
  lower: number;
  /** Exclusive upper bound; null: none. */
  upper: number | null;
  types: readonly string[] | null;
  forward: boolean;
  limit: number;
}

/**
 * Up to `limit` items within the bounds, in read order (descending when backward), stopping at
 * the first whose data would pass `budget` bytes (then `over`; its data is not read).
 */
export async function selectItemPage(
  db: Executor,
  q: ItemPageQuery,
  budget: number,
): Promise<SizedRows<ItemRecord>> {
  const dir = Prisma.raw(q.forward ? 'ASC' : 'DESC');
  const keys = Prisma.sql`
    FROM "Item"
    WHERE "tenantId" = ${q.tenantId} AND "threadId" = ${q.threadId} AND "seq" > ${q.lower}
      ${q.upper === null ? Prisma.empty : Prisma.sql`AND "seq" < ${q.upper}`}
      ${typesCondition(q.types)}
    ORDER BY "seq" ${dir}
    LIMIT ${q.limit}`;
  // The hottest read, so its own statements rather than selectWithinBudget's (one thread: rows
  // are ordered by seq alone). PostgreSQL: one index scan; a value the budget leaves out is a
  // TOAST pointer never detoasted. SQLite copies the values a subquery selects, so the sums are
  // computed over the keys and sizes first and each row is joined back by seq (not
  // MATERIALIZED: one reference). Measured on SQLite: 170 against 510 µs for a 50-item page.
  const rows =
    q.provider === 'postgresql'
      ? await queryRows<SizedItemRow>(
          db,
          Prisma.sql`
    SELECT ${budgetedColumns('', budget)}
    FROM (
      SELECT *, SUM("size") OVER (ORDER BY "seq" ${dir} ROWS UNBOUNDED PRECEDING) AS "run"
      FROM (
        SELECT "tenantId", "threadId", "seq", "type", "status", "responseId", "createdAt",
          "createdBy", "callId", "dataJson", "rawJson", "rawFormat", ${itemSizeSql()} AS "size"
        ${keys}) p) q
    WHERE "run" - "size" <= ${budget}
    ORDER BY "seq" ${dir}`,
        )
      : await queryRows<SizedItemRow>(
          db,
          Prisma.sql`
    WITH s AS (
      SELECT "seq", "size", SUM("size") OVER (ORDER BY "seq" ${dir} ROWS UNBOUNDED PRECEDING) AS "run"
      FROM (SELECT "seq", ${itemSizeSql()} AS "size" ${keys}) p)
    SELECT ${budgetedColumns('i.', budget, 's.')}
    FROM s CROSS JOIN "Item" i
    WHERE i."tenantId" = ${q.tenantId} AND i."threadId" = ${q.threadId} AND i."seq" = s."seq"
      AND s."run" - s."size" <= ${budget}
    ORDER BY s."seq" ${dir}`,
        );
  // The look-ahead row (limit is the page size + 1) only says whether more exist: not charged.
  return withinBudget(rows, budget, toItemRecord, q.limit - 1);
}

/**
 * The select list of a budgeted item read: Item's columns from `item` (a table prefix such as
 * "i.", or ""), dataJson and rawJson only where the running sum is within `budget` (else
 * null: the value is never read), and "size" and "run" from `sums`.
 */
function budgetedColumns(item: string, budget: number, sums = item): Prisma.Sql {
  const i = (column: string) => Prisma.raw(`${item}"${column}"`);
  const run = Prisma.raw(`${sums}"run"`);
  return Prisma.sql`${i('tenantId')}, ${i('threadId')}, ${i('seq')}, ${i('type')}, ${i('status')},
      ${i('responseId')}, ${i('createdAt')}, ${i('createdBy')}, ${i('callId')},
      CASE WHEN ${run} <= ${budget} THEN ${i('dataJson')} END AS "dataJson",
      CASE WHEN ${run} <= ${budget} THEN ${i('rawJson')} END AS "rawJson", ${i('rawFormat')},
      ${Prisma.raw(`${sums}"size"`)}, ${run}`;
}

/** An Item row with its stored data size and the running sum of sizes in read order. */
type SizedItemRow = Item & { size: number | bigint; run: number | bigint | string };

/**
 * The items whose keys and sizes `sizes` selects ("threadId", "seq", "size"), in (threadId,
 * seq) order `dir`, until the running sum of sizes passes `budget`. Sizes are octet_length of
 * the stored texts (data and raw), which neither database reads the value for (SQLite 3.43+: the record
 * header; PostgreSQL: the TOAST header); the one row that passes comes without its data.
 * Rows after the first `charged` are not charged (see withinBudget).
 */
export async function selectWithinBudget(
  db: Executor,
  tenantId: string,
  sizes: Prisma.Sql,
  dir: Prisma.Sql,
  budget: number,
  charged?: number,
): Promise<SizedRows<ItemRecord>> {
  // The running sums are computed once (MATERIALIZED), then each row is looked up by its key:
  // CROSS JOIN keeps that order on SQLite, whose planner otherwise re-ran the sums per item
  // (quadratic: Thread.context over 4,000 items took 48 s and blocked the event loop).
  const rows = await queryRows<SizedItemRow>(
    db,
    Prisma.sql`
    WITH s AS MATERIALIZED (
      SELECT "threadId", "seq", "size",
        SUM("size") OVER (ORDER BY "threadId" ${dir}, "seq" ${dir} ROWS UNBOUNDED PRECEDING) AS "run"
      FROM (${sizes}) p)
    SELECT ${budgetedColumns('i.', budget, 's.')}
    FROM s CROSS JOIN "Item" i
    WHERE i."tenantId" = ${tenantId} AND i."threadId" = s."threadId" AND i."seq" = s."seq"
      AND s."run" - s."size" <= ${budget}
    ORDER BY i."threadId" ${dir}, i."seq" ${dir}`,
  );
  return withinBudget(rows, budget, toItemRecord, charged);
}

/** `AND "type" IN (...)`, or nothing when every type is wanted. */
function typesCondition(types: readonly string[] | null): Prisma.Sql {
  return types ? Prisma.sql`AND "type" IN (${Prisma.join(types)})` : Prisma.empty;
}

/** True when an item of the types (any when null) exists at seq <= atMost or >= atLeast. */
export async function itemExists(
  db: Executor,
  tenantId: string,
  threadId: string,
  types: readonly string[] | null,
  seq: { atMost: number } | { atLeast: number },
): Promise<boolean> {
  const bound =
    'atMost' in seq ? Prisma.sql`"seq" <= ${seq.atMost}` : Prisma.sql`"seq" >= ${seq.atLeast}`;
  const found = await queryRows<unknown>(
    db,
    Prisma.sql`
    SELECT 1 FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId} AND ${bound} ${typesCondition(types)}
    LIMIT 1`,
  );
  return found.length > 0;
}

/** How many items of the given types a thread stores. */
export async function countItems(
  db: Executor,
  tenantId: string,
  threadId: string,
  types: readonly string[],
): Promise<number> {
  const [row] = await queryRows<{ n: number | bigint }>(
    db,
    Prisma.sql`
    SELECT COUNT(*) AS n FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId} ${typesCondition(types)}`,
  );
  return Number(row?.n ?? 0);
}

/**
 * Items by (threadId, seq), in chunks under SQLite's parameter cap, in (threadId, seq) order,
 * stopping at the first whose data would pass `budget` bytes (then `over`). Items of expired
 * threads are left out.
 */
export async function selectItems(
  db: Executor,
  tenantId: string,
  keys: readonly { threadId: string; seq: number }[],
  budget: number,
): Promise<SizedRows<ItemRecord>> {
  const now = new Date();
  return inChunksWithinBudget(keys, 2, budget, (chunk, left) =>
    selectWithinBudget(
      db,
      tenantId,
      Prisma.sql`
        SELECT "threadId", "seq", ${itemSizeSql()} AS "size" FROM "Item"
        WHERE "tenantId" = ${tenantId}
          AND ("threadId", "seq") IN (${Prisma.join(chunk.map((k) => Prisma.sql`(${k.threadId}, ${k.seq})`))})
          AND ${threadNotExpired('Item', now)}`,
      Prisma.raw('ASC'),
      left,
    ),
  );
}

/** The item with the highest stored seq of each thread, within `budget` bytes. */
export async function selectNewestItems(
  db: Executor,
  tenantId: string,
  threadIds: readonly string[],
  budget: number,
): Promise<SizedRows<ItemRecord>> {
  return inChunksWithinBudget(threadIds, 1, budget, (chunk, left) =>
    selectWithinBudget(
      db,
      tenantId,
      Prisma.sql`
        SELECT i."threadId", i."seq", ${itemSizeSql('i.')} AS "size" FROM "Item" i
        JOIN (SELECT "threadId", MAX("seq") AS "maxSeq" FROM "Item"
              WHERE "tenantId" = ${tenantId} AND "threadId" IN (${Prisma.join(chunk)})
              GROUP BY "threadId") m
          ON i."threadId" = m."threadId" AND i."seq" = m."maxSeq"
        WHERE i."tenantId" = ${tenantId}`,
      Prisma.raw('ASC'),
      left,
    ),
  );
}

/**
 * readInChunks within a byte budget: each chunk gets what the earlier ones left; stops at the
 * first chunk that passes it.
 */
export async function inChunksWithinBudget<K, T>(
  keys: readonly K[],
  paramsPerKey: number,
  budget: number,
  read: (chunk: K[], left: number) => Promise<SizedRows<T>>,
): Promise<SizedRows<T>> {
  const total: SizedRows<T> = { rows: [], bytes: 0, over: false };
  await readInChunks(keys, paramsPerKey, async (chunk) => {
    if (total.over) return [];
    const part = await read(chunk, budget - total.bytes);
    total.rows.push(...part.rows);
    total.bytes += part.bytes;
    total.over = part.over;
    return [];
  });
  return total;
}

/** The seq, type and callId of a thread's tool calls and results, in seq order. */
export async function selectToolItems(
  db: Executor,
  tenantId: string,
  threadId: string,
): Promise<{ seq: number; type: string; callId: string | null }[]> {
  const rows = await queryRows<Pick<Item, 'seq' | 'type' | 'callId'>>(
    db,
    Prisma.sql`
    SELECT "seq", "type", "callId" FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId} AND "type" IN ('tool_call', 'tool_result')
    ORDER BY "seq"`,
  );
  return rows.map((r) => ({ seq: Number(r.seq), type: r.type, callId: r.callId }));
}

/**
 * seq, type, callId and responseId of every item of a thread whose responseId is also the
 * responseId of an item at startSeq..endSeq (inside the range and out), in seq order.
 */
export async function selectResponseItems(
  db: Executor,
  tenantId: string,
  threadId: string,
  range: { startSeq: number; endSeq: number },
): Promise<{ seq: number; type: string; callId: string | null; responseId: string | null }[]> {
  // Two statements, not one with a subquery: on a table without statistics yet (a new
  // database) PostgreSQL planned the subquery form as a nested loop over the thread's items,
  // 30–170 ms for 800 items. The range's responseIds come from the primary key's range; most
  // ranges have none, and then nothing else is read.
  const inRange = await queryRows<Pick<Item, 'responseId'>>(
    db,
    Prisma.sql`
    SELECT DISTINCT "responseId" FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId}
      AND "seq" BETWEEN ${range.startSeq} AND ${range.endSeq} AND "responseId" IS NOT NULL`,
  );
  const ids = inRange.map((r) => r.responseId as string);
  const rows = await readInChunks(ids, 1, (chunk) =>
    queryRows<Pick<Item, 'seq' | 'type' | 'callId' | 'responseId'>>(
      db,
      Prisma.sql`
      SELECT "seq", "type", "callId", "responseId" FROM "Item"
      WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId}
        AND "responseId" IN (${Prisma.join(chunk)})`,
    ),
  );
  rows.sort((a, b) => Number(a.seq) - Number(b.seq));
  return rows.map((r) => ({
    seq: Number(r.seq),
    type: r.type,
    callId: r.callId,
    responseId: r.responseId,
  }));
}

/** True when an item of another type than `type` is stored at startSeq..endSeq. */
export async function hasItemNotOfType(
  db: Executor,
  tenantId: string,
  threadId: string,
  range: { startSeq: number; endSeq: number },
  type: string,
): Promise<boolean> {
  const found = await queryRows<unknown>(
    db,
    Prisma.sql`
    SELECT 1 FROM "Item"
    WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId}
      AND "seq" BETWEEN ${range.startSeq} AND ${range.endSeq} AND "type" <> ${type}
    LIMIT 1`,
  );
  return found.length > 0;
}

/**
 * Copies the items with seq <= `atSeq` of thread `from` to thread `to` of the same tenant, in
 * one INSERT ... SELECT (no row passes through the server, however many there are): seqs,
 * types, data, raw records and createdAt stay as they are, so the copies' ids are
 * "<to>:<seq>"; purged seqs stay holes. Every column is copied (db/copy.ts), search text and
 * usage included. Idempotency keys are not copied. The thread `to` must exist.
 * @returns how many items were copied
 */
export async function copyItems(
  tx: Executor,
  tenantId: string,
  from: string,
  to: string,
  atSeq: number,
): Promise<number> {
  return copyThreadRows(
    tx,
    'Item',
    Prisma.ItemScalarFieldEnum,
    { tenantId, from, to },
    Prisma.sql`"seq" <= ${atSeq}`,
  );
}

/**
 * Deletes a thread's items created before `before`; returns how many, and the sums of their
 * usage (to take from the thread's totals). Call it holding the thread's row lock (purgeItems
 * touches the thread first), so no append adds such items between the sum and the delete.
 */
export async function deleteItemsBefore(
  tx: Executor,
  tenantId: string,
  threadId: string,
  before: Date,
): Promise<{ count: number; usage: UsageTotals }> {
  const [sums] = await tx.$queryRaw<
    {
      inputTokens: unknown;
      outputTokens: unknown;
      totalTokens: unknown;
      messages: unknown;
    }[]
  >`
    SELECT COALESCE(SUM("inputTokens"), 0) AS "inputTokens",
      COALESCE(SUM("outputTokens"), 0) AS "outputTokens",
      COALESCE(SUM("totalTokens"), 0) AS "totalTokens", COUNT("totalTokens") AS "messages"
    FROM "Item" WHERE "tenantId" = ${tenantId} AND "threadId" = ${threadId} AND "createdAt" < ${before}`;
  const { count } = await tx.item.deleteMany({
    where: { tenantId, threadId, createdAt: { lt: before } },
  });
  return {
    count,
    usage: {
      inputTokens: Number(sums?.inputTokens ?? 0),
      outputTokens: Number(sums?.outputTokens ?? 0),
      totalTokens: Number(sums?.totalTokens ?? 0),
      messagesWithUsage: Number(sums?.messages ?? 0),
    },
  };
}

/** Deletes every item of a thread; returns how many. */
export async function deleteThreadItems(
  tx: Executor,
  tenantId: string,
  threadId: string,
): Promise<number> {
  const { count } = await tx.item.deleteMany({ where: { tenantId, threadId } });
  return count;
}

/** Deletes every idempotency key of a thread. */
export async function deleteIdempotencyKeys(
  tx: Executor,
  tenantId: string,
  threadId: string,
): Promise<void> {
  await tx.idempotencyKey.deleteMany({ where: { tenantId, threadId } });
}

/** Deletes the idempotency keys of every tenant created before `cutoff`; returns how many. */
export async function deleteIdempotencyKeysBefore(db: Executor, cutoff: Date): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({ where: { createdAt: { lt: cutoff } } });
  return count;
}
