/**
 * The webhook delivery worker of one instance (src/webhooks/delivery.service.ts does the
 * work): up to 50 deliveries in flight, each on its own (at most 5 per webhook over all
 * instances); it claims rows every WEBHOOK_POLL_MS, at once when a commit of this process
 * wrote outbox rows or a delivery ends (its slot is free), and again right away while a claim
 * fills every slot. Every instance runs one; the claim's
 * lease and PostgreSQL's SKIP LOCKED share the rows between them. DEAD rows are deleted a
 * week after their event, hourly.
 */
import type { Logger } from 'pino';
import type { Database } from '../db/client.js';
import type { Env } from '../env.js';
import { type DeliverySettings, startDeliveries } from '../webhooks/delivery.service.js';
import { onOutboxWritten } from '../webhooks/webhook.service.js';
import { deleteDeadDeliveries } from '../webhooks/webhook.store.js';

const PRUNE_INTERVAL_MS = 3_600_000;
const KEEP_DEAD_MS = 7 * 86_400_000;

export interface WebhookWorker {
  /** Stops polling, cuts deliveries in flight (their rows are given back) and waits for them. */
  stop(): Promise<void>;
}

/** Delivery settings from the configuration. */
export function deliverySettings(env: Env): DeliverySettings {
  return {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: env.WEBHOOK_RETRY_MAX_MS,
    retryForMs: env.WEBHOOK_RETRY_FOR_MS,
    concurrency: 50,
    perWebhook: 5,
  };
}

/** Starts the worker; its timers never keep the process alive. */
export function startWebhookWorker(db: Database, env: Env, logger: Logger): WebhookWorker {
  const settings = deliverySettings(env);
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let lastPrune = 0;
  let failures = 0;
  // Deliveries in flight: each frees its slot when its outcome is recorded, and the worker
  // claims again at once, so no delivery waits for another.
  const inFlight = new Set<Promise<void>>();
  const log = (error: unknown, message: string) =>
    error ? logger.warn({ err: error }, message) : logger.warn(message);

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (abort.signal.aborted) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const claim = async () => {
    do {
      again = false;
      const free = settings.concurrency - inFlight.size;
      if (free <= 0) break; // a finishing delivery wakes the worker
      const started = await startDeliveries(db, settings, free, abort.signal, log);
      for (const delivery of started) {
        const tracked: Promise<void> = delivery.finally(() => {
          inFlight.delete(tracked);
          run(); // its slot is free, and its thread's next event may be due
        });
        inFlight.add(tracked);
      }
      // All slots filled: more may be due; fewer: nothing more is due for now.
      if (started.length === free) again = true;
    } while (again && !abort.signal.aborted);
    if (Date.now() - lastPrune > PRUNE_INTERVAL_MS) {
      lastPrune = Date.now();
      await deleteDeadDeliveries(db, new Date(Date.now() - KEEP_DEAD_MS));
    }
  };
  function run() {
    if (abort.signal.aborted) return;
    if (running) {
      again = true; // the claim in progress goes once more
      return;
    }
    running = claim()
      .then(() => {
        failures = 0;
      })
      .catch((error: unknown) => {
        failures += 1;
        logger.warn({ err: error }, 'webhook delivery round failed');
      })
      .finally(() => {
        running = null;
        // A database that fails is asked less often: the poll interval doubled per failed
        // round, up to 30 s.
        schedule(
          Math.min(env.WEBHOOK_POLL_MS * 2 ** failures, Math.max(env.WEBHOOK_POLL_MS, 30_000)),
        );
      });
  }
  const unsubscribe = onOutboxWritten(() => schedule(0));
  schedule(0);
  return {
    async stop() {
      unsubscribe();
      abort.abort();
      clearTimeout(timer);
      await running;
      await Promise.all([...inFlight]);
    },
  };
}
