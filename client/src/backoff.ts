/**
 * Waits between retries: exponential, capped, with jitter so that many clients cut off by one
 * server restart do not all come back in the same millisecond.
 */
import { ThreadstoreError } from './errors.js';
import type { BackoffOptions } from './types.js';

/**
 * The delay in ms before retry number `attempt` (0-based): uniform in [c/2, c] where
 * c = min(maxMs, initialMs * 2^attempt); defaults 250 ms and 5000 ms.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const initial = options.initialMs ?? 250;
  const max = options.maxMs ?? 5_000;
  const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * Resolves after `ms`, or at once when `signal` aborts.
 * @throws ThreadstoreError ABORTED when `signal` aborted (before or during the wait) and `throwOnAbort`
 */
export function sleep(ms: number, signal?: AbortSignal, throwOnAbort = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      if (signal?.aborted && throwOnAbort)
        reject(new ThreadstoreError('ABORTED', 'The operation was aborted.'));
      else resolve();
    };
    const timer = setTimeout(done, signal?.aborted ? 0 : ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
