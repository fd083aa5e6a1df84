/**
 * M: memory of the app (in-process in a child with --expose-gc, bench/mem-server.ts): RSS with
 * 1,000 idle followers, and the heap after 100k appends and a forced GC against the heap at the
 * start (after a warm-up and a GC). Target: heap back within 10%.
 */

import type { ResultRow, Scenario } from '../lib/context.js';
import type { Delivery } from '../lib/live.js';
import { pacedAppends } from '../lib/live.js';
import { forkRpc, sleep } from '../lib/proc.js';
import { appendBody, FOLLOW } from '../lib/queries.js';
import { fmt } from '../lib/stats.js';
import type { CannonResult } from '../load.js';

const MB = 2 ** 20;
const CONNECTIONS = 16;

export const mMemory: Scenario = async (ctx) => {
  const followers = ctx.quick ? 200 : 1_000;
  // 100k items as 10k appends of 10: 100k single-item appends would take ~2.5 min per provider
  // at the ~700 appends/s this machine does, longer than the rest of the run.
  const batch = 10;
  const appends = ctx.quick ? 500 : 10_000;
  const threads = Array.from({ length: CONNECTIONS }, (_, i) => `m-append-${i}`);
  await ctx.db.createThreads([...threads, 'm-idle']);
  const server = forkRpc('mem-server.ts', {
    execArgv: ['--expose-gc'],
    env: { DATABASE_URL: ctx.db.url },
  });
  const data: Record<string, unknown> = { followers, appends, batch };
  const rows: ResultRow[] = [];
  try {
    const { port } = await server.next<{ port: number }>('ready', 120_000);
    const url = `http://127.0.0.1:${port}/graphql`;
    const bodies = threads.map((id) => appendBody(id, batch));
    // Warm-up: code paths loaded and compiled, pools filled.
    await ctx.load.call({ cmd: 'cannon', url, bodies, connections: CONNECTIONS, amount: 500 });
    type Mem = NodeJS.MemoryUsage;
    const start = await server.call<Mem>({ cmd: 'memory' });

    await ctx.load.call({
      cmd: 'follow',
      group: 'm',
      wsUrl: `ws://127.0.0.1:${port}/graphql`,
      count: followers,
      query: FOLLOW,
      variables: { t: 'm-idle' },
    });
    const probe = await pacedAppends(url, 'm-idle', 1, 0);
    const p = await ctx.load.call<Delivery>({
      cmd: 'collect',
      group: 'm',
      ...probe,
      timeoutMs: 60_000,
    });
    await sleep(2_000);
    const idle = await server.call<Mem>({ cmd: 'memory' });
    await ctx.load.call({ cmd: 'unfollow', group: 'm' });
    await sleep(1_000);
    const afterFollowers = await server.call<Mem>({ cmd: 'memory' });

    const t0 = Date.now();
    const load = await ctx.load.call<CannonResult>(
      { cmd: 'cannon', url, bodies, connections: CONNECTIONS, amount: appends },
      1_800_000,
    );
    const appendSeconds = (Date.now() - t0) / 1000;
    ctx.log(
      `  M: ${load.total} appends of ${batch} in ${appendSeconds.toFixed(0)} s (${fmt(load.rps)}/s), ${load.errors + load.non2xx + load.mismatches} failed`,
    );
    const after = await server.call<Mem>({ cmd: 'memory' });
    data.memory = { start, idle, afterFollowers, after };
    data.appendLoad = { ...load, seconds: appendSeconds };

    const perFollower = (idle.rss - start.rss) / followers;
    rows.push({
      case: `${followers.toLocaleString('en-US')} idle followers`,
      metric: 'RSS',
      value: `${fmt(idle.rss / MB)} MB (heap ${fmt(idle.heapUsed / MB)} MB); +${fmt((idle.rss - start.rss) / MB)} MB, ${fmt(perFollower / 1024)} KB per follower`,
      baseline: `start: RSS ${fmt(start.rss / MB)} MB, heap ${fmt(start.heapUsed / MB)} MB`,
      ratio: null,
      ratioText: `${fmt(idle.rss / start.rss)}× RSS`,
      target: '(report)',
      met: p.lost === 0 ? null : false,
    });
    rows.push({
      case: `after followers left`,
      metric: 'heap after GC',
      value: `${fmt(afterFollowers.heapUsed / MB)} MB`,
      baseline: `start: ${fmt(start.heapUsed / MB)} MB`,
      ratio: null,
      ratioText: `${fmt(afterFollowers.heapUsed / start.heapUsed)}×`,
      target: '(report)',
      met: null,
    });
    const heapRatio = after.heapUsed / start.heapUsed;
    const failed = load.errors + load.non2xx + load.mismatches + load.timeouts;
    rows.push({
      case: `${(load.total * batch).toLocaleString('en-US')} items in ${load.total.toLocaleString('en-US')} appends of ${batch} (c=${CONNECTIONS}, ${fmt(load.rps)} appends/s)`,
      metric: 'heap after GC',
      value: `${fmt(after.heapUsed / MB)} MB (RSS ${fmt(after.rss / MB)} MB)`,
      baseline: `start: ${fmt(start.heapUsed / MB)} MB`,
      ratio: { median: heapRatio, min: heapRatio, max: heapRatio, rounds: [heapRatio] },
      ratioText: `${fmt(heapRatio)}×`,
      target: '≤ 1.10×',
      met: failed === 0 && heapRatio <= 1.1,
    });
  } finally {
    await server.call({ cmd: 'stop' }, 30_000).catch(() => {});
    await server.close();
  }
  return {
    id: 'M',
    title: 'memory',
    rows,
    notes: [
      `The app runs in-process in a child started with --expose-gc (bench/mem-server.ts); every figure is taken after three forced GCs. Start = after 500 warm-up appends. The appends: ${(appends * batch).toLocaleString('en-US')} items as ${appends.toLocaleString('en-US')} appends of ${batch} (single-item appends at this machine's rate would take minutes per provider).`,
    ],
    profiles: [],
    data,
  };
};
