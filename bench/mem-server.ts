/**
 * The app in-process in a child started with --expose-gc, for M: the bench can force a GC and
 * read the heap. The app is built as the tests build it (test/testkit/app.ts) on the bench
 * database, with the shipped defaults except the bench's lifted thresholds (BENCH_APP_ENV) and
 * the request log going to /dev/null. Commands over IPC: memory (GC, then process.memoryUsage()), stop.
 * Env: DATABASE_URL.
 */
import pino from 'pino';
import { buildTestApp } from '../test/testkit/app.js';
import { BENCH_APP_ENV, serveRpc, sleep } from './lib/proc.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('mem-server needs node --expose-gc');

// The shipped defaults but the bench's lifted thresholds (1,000 followers from one identity),
// logging at info as shipped, into /dev/null (this process's stdout is the bench's terminal).
const t = await buildTestApp(
  { ...BENCH_APP_ENV, LOG_LEVEL: 'info' },
  { migrate: false, logger: pino({ level: 'info' }, pino.destination('/dev/null')) },
  { url: process.env.DATABASE_URL ?? '' },
);
const port = await t.app.start(0);

serveRpc({
  async memory() {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(100);
    }
    return process.memoryUsage();
  },
  async stop() {
    await t.close();
    setTimeout(() => process.exit(0), 50);
    return null;
  },
});
process.send?.({ type: 'ready', port });
