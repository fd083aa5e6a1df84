/**
 * Background jobs of one instance: pruning idempotency keys older than their TTL, hourly.
 * Every instance runs it; a prune is one idempotent DELETE, so instances never conflict.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import { pruneIdempotencyKeys } from '../items/item.service.js';

const PRUNE_INTERVAL_MS = 3_600_000;

export interface Jobs {
  stop(): void;
}

/**
 * Starts the jobs; their timers never keep the process alive.
 * @param ttlHours how long idempotency keys are kept (IDEMPOTENCY_KEY_TTL_HOURS, at least 24)
 */
export function startJobs(db: Database, ttlHours: number, logger: Logger): Jobs {
  const prune = () =>
    pruneIdempotencyKeys(db, ttlHours).catch((error: unknown) =>
      logger.warn({ err: error }, 'pruning idempotency keys failed'),
    );
  const timer = setInterval(prune, PRUNE_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
