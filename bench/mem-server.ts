/**
 * The app in-process in a child started with --expose-gc, for M: the bench can force a GC and
 * read the heap. Commands over IPC: memory (GC, then process.memoryUsage()), stop.
 * Env: DATABASE_URL.
 */
import pino from 'pino';
import { buildApp } from '../src/server/app.js';
import { parseEnv } from '../src/env.js';
import { serveRpc, sleep } from './lib/proc.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('mem-server needs node --expose-gc');

const app = await buildApp(parseEnv({ LOG_LEVEL: 'silent', DATABASE_URL: process.env.DATABASE_URL ?? '' }), {
  logger: pino({ level: 'silent' }),
  migrate: false,
});
const port = await app.start(0);

serveRpc({
  async memory() {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(100);
    }
    return process.memoryUsage();
  },
  async stop() {
    await app.stop();
    setTimeout(() => process.exit(0), 50);
    return null;
  },
});
process.send?.({ type: 'ready', port });
