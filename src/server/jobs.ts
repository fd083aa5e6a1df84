/**
 * Background jobs of one instance: pruning idempotency keys older than their TTL, hourly, and
 * deleting expired threads (threads/thread.service.ts, sweepExpiredThreads) every
 * EXPIRY_SWEEP_INTERVAL_MS. Every instance runs both: a prune is one idempotent DELETE, and on
 * PostgreSQL one sweep runs at a time (an advisory lock; the others skip their turn), so
 * instances never conflict.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import { pruneIdempotencyKeys } from '../items/item.service.js';
import type { EventBus } from '../pubsub/bus.js';
import { sweepExpiredThreads } from '../threads/thread.service.js';

const PRUNE_INTERVAL_MS = 3_600_000;

export interface Jobs {
  /** Cancels the timers and waits for a sweep in flight to end (after its current batch). */
  stop(): Promise<void>;
}

/** What the jobs need besides the database. */
export interface JobSettings {
  /** How long idempotency keys are kept (IDEMPOTENCY_KEY_TTL_HOURS, at least 24). */
  ttlHours: number;
  /** ms between expiry sweeps (EXPIRY_SWEEP_INTERVAL_MS). */
  expirySweepMs: number;
  /** Where the sweep publishes the DELETED events of the threads it deletes. */
  events: EventBus;
}

/**
 * Starts the jobs; their timers never keep the process alive. A sweep still running when the
 * next is due is not started twice.
 */
export function startJobs(db: Database, settings: JobSettings, logger: Logger): Jobs {
  const prune = () =>
    pruneIdempotencyKeys(db, settings.ttlHours).catch((error: unknown) =>
      logger.warn({ err: error }, 'pruning idempotency keys failed'),
    );
  const timer = setInterval(prune, PRUNE_INTERVAL_MS);
  timer.unref();

  let sweeping: Promise<void> | null = null;
  let stopped = false;
  const sweep = () => {
    if (sweeping || stopped) return;
    sweeping = sweepExpiredThreads(db, settings.events, { stopping: () => stopped })
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, 'deleted expired threads');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'deleting expired threads failed'))
      .finally(() => {
        sweeping = null;
      });
  };
  const sweepTimer = setInterval(sweep, settings.expirySweepMs);
  sweepTimer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(sweepTimer);
      await sweeping;
    },
  };
}
