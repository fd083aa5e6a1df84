/**
 * Copies of a thread's rows to another thread (forkThread): one INSERT ... SELECT per table,
 * so no row passes through the server however many there are.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Executor } from './transaction.js';

/** The keys that name a row's thread: the copy sets them, every other column is copied. */
const THREAD_KEYS: ReadonlySet<string> = new Set(['tenantId', 'threadId']);

/**
 * Copies the rows of `table` of thread `from` that `where` selects to thread `to` of the same
 * tenant. Every column of the model (Prisma's `<Model>ScalarFieldEnum`, so a column added later
 * needs no edit) but tenantId and threadId is copied unchanged. The thread `to` must exist.
 * @param fields the model's scalar field enum (Prisma.ItemScalarFieldEnum, ...)
 * @returns how many rows were copied
 */
export function copyThreadRows(
  tx: Executor,
  table: 'Item' | 'Compaction',
  fields: Record<string, string>,
  thread: { tenantId: string; from: string; to: string },
  where: Prisma.Sql,
): Promise<number> {
  const columns = Prisma.raw(
    Object.values(fields)
      .filter((column) => !THREAD_KEYS.has(column))
      .map((column) => `"${column}"`)
      .join(', '),
  );
  const name = Prisma.raw(`"${table}"`);
  return tx.$executeRaw`
    INSERT INTO ${name} ("tenantId", "threadId", ${columns})
    SELECT "tenantId", ${thread.to}, ${columns} FROM ${name}
    WHERE "tenantId" = ${thread.tenantId} AND "threadId" = ${thread.from} AND ${where}`;
}
