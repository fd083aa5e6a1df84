/**
 * Storage of import keys (ImportKey) and the thread columns a restore sets: every SQL
 * statement of the transcript importer. No rules: import.service.ts and restore.service.ts
 * decide.
 */
import type { Executor } from '../db/transaction.js';
import type { Thread } from '../generated/prisma/client.js';
import type { UsageTotals } from '../items/item-types.js';
import { type ThreadRecord, toThreadRecord } from '../threads/thread.store.js';

/** The first import made with a key, and its thread as it is now. */
export interface ImportKeyRecord {
  requestHash: string;
  itemCount: number;
  compactionCount: number;
  thread: ThreadRecord;
}

/** The record of an import key with its thread, or null. */
export async function selectImportKey(
  db: Executor,
  tenantId: string,
  key: string,
): Promise<ImportKeyRecord | null> {
  type Row = Thread & { keyRequestHash: string; keyItems: number; keyCompactions: number };
  const [row] = await db.$queryRaw<Row[]>`
    SELECT t.*, k."requestHash" AS "keyRequestHash", k."itemCount" AS "keyItems",
      k."compactionCount" AS "keyCompactions"
    FROM "ImportKey" k JOIN "Thread" t ON t."tenantId" = k."tenantId" AND t."id" = k."threadId"
    WHERE k."tenantId" = ${tenantId} AND k."key" = ${key}`;
  if (!row) return null;
  return {
    requestHash: row.keyRequestHash,
    itemCount: Number(row.keyItems),
    compactionCount: Number(row.keyCompactions),
    thread: toThreadRecord(row),
  };
}

/** Records an import key. @throws Prisma's unique violation (P2002) when it exists */
export async function insertImportKey(
  tx: Executor,
  row: {
    tenantId: string;
    key: string;
    requestHash: string;
    threadId: string;
    itemCount: number;
    compactionCount: number;
    createdAt: Date;
  },
): Promise<void> {
  await tx.importKey.create({ data: row });
}

/**
 * Sets the columns of a restored thread that a new thread starts without (usage: the sums of
 * the restored items' usage).
 */
export async function setRestoredThread(
  tx: Executor,
  tenantId: string,
  id: string,
  values: {
    archived: boolean;
    nextSeq: number;
    itemCount: number;
    usage: UsageTotals;
    updatedAt: Date;
    /** A restored fork's origin (THREADSTORE_JSONL forkedFrom); null otherwise. */
    forkedFromId: string | null;
    forkedFromSeq: number | null;
  },
): Promise<ThreadRecord> {
  const { usage, ...rest } = values;
  return toThreadRecord(
    await tx.thread.update({
      where: { tenantId_id: { tenantId, id } },
      data: {
        ...rest,
        inputTokens: BigInt(usage.inputTokens),
        outputTokens: BigInt(usage.outputTokens),
        totalTokens: BigInt(usage.totalTokens),
        messagesWithUsage: usage.messagesWithUsage,
      },
    }),
  );
}
