/**
 * The one way services open a write transaction: generous waits (appends to one hot thread
 * queue on its row lock on PostgreSQL, and on the connection's mutex on SQLite), and a retry
 * when PostgreSQL reports a deadlock or serialization failure (P2034), so neither reaches a
 * client. Everything the callback writes commits together or not at all.
 */

import { Prisma } from '../generated/prisma/client.js';
import type { Database } from './client.js';
import { rawTransaction } from './raw.js';
import { runAlone } from './sqlite.js';

/** How long a transaction may wait to start, and run, in ms. */
export const TRANSACTION_MAX_WAIT_MS = 15_000;
export const TRANSACTION_TIMEOUT_MS = 30_000;
const ATTEMPTS = 3;

/**
 * What a store statement runs on: the client, or the transaction it is part of (the client's
 * model API without $transaction and $connect).
 */
export type Executor = Prisma.TransactionClient;

/**
 * Runs `work` in one interactive transaction, retried up to three times on a write conflict
 * or deadlock. `work` must not publish events or have other side effects: it may run again.
 * @param options.timeoutMs overrides the run time limit (imports of long conversations); such a
 *   transaction runs alone on SQLite (no group commit)
 * @param options.raw `work` uses only queryRows and executeRows (src/db/raw.ts) on its
 *   executor: on SQLite it then runs on the adapter's transaction directly, without Prisma's
 *   per-statement engine round trips while it holds the connection (appends: bench S1, S2)
 * @throws whatever `work` throws (the transaction is rolled back)
 */
export async function transaction<T>(
  db: Database,
  work: (tx: Executor) => Promise<T>,
  options: { timeoutMs?: number; raw?: boolean } = {},
): Promise<T> {
  const limits = {
    maxWait: TRANSACTION_MAX_WAIT_MS,
    timeout: options.timeoutMs ?? TRANSACTION_TIMEOUT_MS,
  };
  const viaPrisma = () => db.prisma.$transaction(work, limits);
  // PostgreSQL keeps Prisma's transactions: its appends are mostly one statement already.
  const direct = options.raw === true && db.provider === 'sqlite';
  const run = direct
    ? async () => {
        const ran = await rawTransaction(db.prisma, work, {
          maxWaitMs: limits.maxWait,
          timeoutMs: limits.timeout,
        });
        return ran ? ran.result : viaPrisma();
      }
    : viaPrisma;
  // A longer timeout means a long transaction (imports): on SQLite it runs outside group
  // commit, so it never holds back the answers of short ones (src/db/sqlite.ts).
  const long = options.timeoutMs !== undefined;
  return retryingConflicts(() => (long && db.provider === 'sqlite' ? runAlone(run) : run()));
}

/**
 * Runs `write` (a transaction, or one statement that is its own) again, up to three times in
 * all, when PostgreSQL reports a deadlock or serialization failure (P2034).
 * @throws whatever `write` throws otherwise, or on the last attempt
 */
export async function retryingConflicts<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const retriable =
        error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034';
      if (!retriable || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 20));
    }
  }
}
