/**
 * S9: a mixed load on one app, all at once: 50 agents appending turns to their own threads
 * (a user item, a short pause, an assistant item, a longer pause), 20 readers alternating a
 * history page (random thread and position) and a thread list, and 500 graphql-ws followers
 * (10 per agent thread). Writers and readers run in one load process, the followers in
 * another; neither is the server's. Reports throughput and p50/p99 per operation (append, page,
 * list, live delivery) and checks append p99 ≤ 50 ms; where full speed misses it, the whole mix
 * is slowed (every pause × 2, × 4, × 8, × 16) until it holds, and that rate is reported.
 */
import type { BenchContext, ResultRow, Scenario } from '../lib/context.js';
import { type Delivery, probeFollowers } from '../lib/live.js';
import { forkRpc, type Rpc, type Server, startApp } from '../lib/proc.js';
import { APPEND, FOLLOW, pageBody, threadsBody } from '../lib/queries.js';
import { fmt, seededRandom } from '../lib/stats.js';

const AGENTS = 50;
const READERS = 20;
const FOLLOWERS_PER_THREAD = 10;
const SEEDED = 200;
const THINK_MS = 100;
const TURN_MS = 400;
const READER_PAUSE_MS = 50;
const APPEND_P99_MS = 50;
const POOL = 4_096;

interface OpStats {
  count: number;
  errors: number;
  perSec: number;
  latency: { count: number; p50: number; p99: number; mean: number; max: number };
}

interface MixedRun {
  seconds: number;
  append: OpStats;
  page: OpStats;
  list: OpStats;
  errors: string[];
  written: { thread: string; first: number; last: number }[];
}

interface Step {
  /** Every pause of the mix multiplied by this. */
  slowdown: number;
  run: MixedRun;
  live: Delivery;
}

/** The body of a one-item append with `$THREAD` for the load process to fill in. */
function turnBody(role: 'user' | 'assistant'): string {
  return JSON.stringify({
    query: APPEND,
    variables: {
      t: '$THREAD',
      items: [
        {
          message: {
            role,
            content: `${role} turn: `.padEnd(180, 'lorem ipsum dolor sit amet '),
          },
        },
      ],
    },
  });
}

/** One run of the mix at `slowdown`, then what the followers received of it. */
async function step(
  ctx: BenchContext,
  writers: Rpc,
  app: Server,
  threads: string[],
  pools: { page: string[]; list: string[] },
  slowdown: number,
  durationSec: number,
): Promise<Step> {
  const run = await writers.call<MixedRun>({
    cmd: 'mixed',
    url: `${app.url}/graphql`,
    threads,
    appendBodies: { user: turnBody('user'), assistant: turnBody('assistant') },
    thinkMs: THINK_MS * slowdown,
    turnMs: TURN_MS * slowdown,
    readers: READERS,
    pageBodies: pools.page,
    listBodies: pools.list,
    readerPauseMs: READER_PAUSE_MS * slowdown,
    durationSec,
  });
  const live = await ctx.load.call<Delivery>({
    cmd: 'collectMany',
    groups: run.written
      .map((w, k) => ({ group: `s9-${k}`, first: w.first, last: w.last }))
      .filter((g) => g.first >= 0),
    timeoutMs: 60_000,
  });
  ctx.log(
    `  S9 ×${slowdown} pauses, ${run.seconds.toFixed(1)} s: append ${fmt(run.append.perSec)}/s p50 ${fmt(run.append.latency.p50)} p99 ${fmt(run.append.latency.p99)} ms; page ${fmt(run.page.perSec)}/s p99 ${fmt(run.page.latency.p99)} ms; list ${fmt(run.list.perSec)}/s p99 ${fmt(run.list.latency.p99)} ms; live ${fmt(live.deliveries / run.seconds)}/s p99 ${fmt(live.latency.p99)} ms (lost ${live.lost})`,
  );
  return { slowdown, run, live };
}

const opRow = (name: string, s: OpStats, target = '(report)', met: boolean | null = null) => ({
  case: name,
  metric: 'ops/s; latency p50 / p99',
  value: `${fmt(s.perSec)}/s; p50 ${fmt(s.latency.p50)} ms, p99 ${fmt(s.latency.p99)} ms${s.errors ? ` (${s.errors} errors)` : ''}`,
  baseline: '',
  ratio: null,
  ratioText: '—',
  target,
  met: s.errors > 0 ? false : met,
});

export const s9Mixed: Scenario = async (ctx) => {
  const durationSec = ctx.quick ? 5 : 20;
  const stepSec = ctx.quick ? 3 : 10;
  const threads = Array.from({ length: AGENTS }, (_, k) => `s9-agent-${k}-thread`);
  for (const [k, t] of threads.entries()) await ctx.db.createThreads([t], `s9-agent-${k}`);
  for (const t of threads) await ctx.db.seedItems(t, SEEDED, true);
  await ctx.db.analyze();
  const random = seededRandom(9);
  const pick = (n: number) => Math.floor(random() * n);
  const pools = {
    // Within the seeded history: every page is a full one.
    page: Array.from({ length: POOL }, () =>
      pageBody(threads[pick(AGENTS)]!, pick(SEEDED - 50 + 1) - 1),
    ),
    // Half the dashboard's 50 latest threads, half one agent's.
    list: Array.from({ length: POOL }, (_, i) =>
      i % 2 === 0 ? threadsBody(50) : threadsBody(50, `s9-agent-${pick(AGENTS)}`),
    ),
  };
  const app = await startApp(ctx.db.url, { name: 'threadstore (S9)' });
  const writers = forkRpc('load.ts');
  const steps: Step[] = [];
  try {
    for (const [k, t] of threads.entries())
      await ctx.load.call({
        cmd: 'follow',
        group: `s9-${k}`,
        wsUrl: `ws://127.0.0.1:${app.port}/graphql`,
        count: FOLLOWERS_PER_THREAD,
        query: FOLLOW,
        variables: { t },
      });
    await probeFollowers(
      ctx.load,
      threads.map((t, k) => ({ group: `s9-${k}`, graphqlUrl: `${app.url}/graphql`, threadId: t })),
    );
    // Warm-up (not counted): code paths compiled, pools filled.
    await step(ctx, writers, app, threads, pools, 1, ctx.quick ? 2 : 3);
    steps.push(await step(ctx, writers, app, threads, pools, 1, durationSec));
    for (const slowdown of ctx.quick ? [4, 16] : [2, 4, 8, 16]) {
      const last = steps.at(-1)!;
      if (last.run.append.latency.p99 <= APPEND_P99_MS) break;
      steps.push(await step(ctx, writers, app, threads, pools, slowdown, stepSec));
    }
  } finally {
    for (const k of threads.keys())
      await ctx.load.call({ cmd: 'unfollow', group: `s9-${k}` }).catch(() => {});
    await writers.close();
    await app.stop();
  }
  const full = steps[0]!;
  const held = steps.find((s) => s.run.append.latency.p99 <= APPEND_P99_MS);
  const live = full.live;
  const followers = AGENTS * FOLLOWERS_PER_THREAD;
  const rows: ResultRow[] = [
    opRow(
      `append (${AGENTS} agents), full speed`,
      full.run.append,
      `p99 ≤ ${APPEND_P99_MS} ms`,
      full.run.append.latency.p99 <= APPEND_P99_MS,
    ),
    {
      case: 'append p99 ≤ 50 ms holds at',
      metric: 'appends/s (pauses ×)',
      value: held
        ? `${fmt(held.run.append.perSec)} appends/s (×${held.slowdown}): p99 ${fmt(held.run.append.latency.p99)} ms`
        : `not at ×${steps.at(-1)!.slowdown} (${fmt(steps.at(-1)!.run.append.perSec)} appends/s, p99 ${fmt(steps.at(-1)!.run.append.latency.p99)} ms)`,
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: 'report',
      met: null,
    },
    opRow(`history page (${READERS} readers)`, full.run.page),
    opRow(`thread list (${READERS} readers)`, full.run.list),
    {
      case: `live delivery (${followers} followers)`,
      metric: 'deliveries/s; latency p50 / p99',
      value: `${fmt(live.deliveries / full.run.seconds)}/s; p50 ${fmt(live.latency.p50)} ms, p99 ${fmt(live.latency.p99)} ms`,
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: '(report)',
      met: null,
    },
    {
      case: `live delivery (${followers} followers)`,
      metric: 'lost / duplicated / out of order',
      value: `${live.lost} / ${live.duplicated} / ${live.outOfOrder + live.unexpected} of ${live.deliveries}`,
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: '0 / 0 / 0',
      met: live.lost === 0 && live.duplicated === 0 && live.outOfOrder + live.unexpected === 0,
    },
  ];
  const errors = steps.flatMap((s) => s.run.errors).slice(0, 3);
  return {
    id: 'S9',
    title: 'mixed load: appends, reads and followers at once',
    rows,
    notes: [
      `One app (started as npm start), ${durationSec} s at full speed after a warm-up. ${AGENTS} agents, each on its own thread (seeded with ${SEEDED} items): a one-item user append, ${THINK_MS} ms, a one-item assistant append, ${TURN_MS} ms, again (each append waits for the previous). ${READERS} readers: a 50-item history page (random agent thread, random afterSeq in the seeded history), ${READER_PAUSE_MS} ms, a 50-thread list (half the latest threads, half one random agent's), ${READER_PAUSE_MS} ms, again. ${followers} graphql-ws followers, ${FOLLOWERS_PER_THREAD} per agent thread. Writers and readers in one load process (latency: request to response on keep-alive sockets), followers in another (latency: receipt − the item's createdAt). When append p99 > ${APPEND_P99_MS} ms, the mix runs again ${stepSec} s at a time with every pause ×2, ×4, ×8, ×16 until it holds. One run per rate, not interleaved rounds: there is no baseline to interleave with.`,
      ...(errors.length ? [`Errors: ${errors.join('; ')}`] : []),
    ],
    profiles: [],
    data: { steps },
  };
};
