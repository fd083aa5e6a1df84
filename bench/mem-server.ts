/**
 * The app in-process in a child started with --expose-gc, for M: the bench can force a GC and
 * read the heap. The app is built as the tests build it (test/testkit/app.ts) on the bench
 * database. Commands over IPC: memory (GC, then process.memoryUsage()), stop.
 * Env: DATABASE_URL.
 */
import { buildTestApp } from '../test/testkit/app.js';
import { serveRpc, sleep } from './lib/proc.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('mem-server needs node --expose-gc');

const t = await buildTestApp({}, { migrate: false }, { url: process.env.DATABASE_URL ?? '' });
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
