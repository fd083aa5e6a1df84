/**
 * S6: 1,000 graphql-ws followers of one thread, 100 appends: delivery latency from the item's
 * createdAt (taken just before the append's transaction) to receipt, against a raw ws
 * broadcast of the same payloads to as many plain ws clients (latency from the broadcast).
 * Target: p99 ≤ 3× raw and ≤ 50 ms; nothing lost, duplicated or out of order.
 */

import {
  type BenchContext,
  freshProfileDir,
  type ResultRow,
  type Scenario,
} from '../lib/context.js';
import { type Delivery, pacedAppends, pacedBroadcasts } from '../lib/live.js';
import { mainThreadProfile, type Server, startApp } from '../lib/proc.js';
import type { ProfileSummary } from '../lib/profile.js';
import { monotonicMicros, summarizeProfile } from '../lib/profile.js';
import { FOLLOW } from '../lib/queries.js';
import { fmt, fmtRange, range, ratioRange } from '../lib/stats.js';

const PACE_MS = 50;

async function round(
  ctx: BenchContext,
  app: Server,
  thread: string,
  appends: number,
): Promise<Delivery> {
  const { first, last } = await pacedAppends(`${app.url}/graphql`, thread, appends, PACE_MS);
  return ctx.load.call<Delivery>({
    cmd: 'collect',
    group: 's6-app',
    first,
    last,
    timeoutMs: 60_000,
  });
}

export const s6Followers: Scenario = async (ctx) => {
  const followers = ctx.quick ? 200 : 1_000;
  const appends = ctx.quick ? 30 : 100;
  const thread = 's6-live';
  await ctx.db.createThreads([thread]);
  const { baseline } = await ctx.servers();
  const profiles: ProfileSummary[] = [];
  const appRounds: Delivery[] = [];
  const rawRounds: Delivery[] = [];
  const start = async (profile?: string) => {
    const app = await startApp(ctx.db.url, {
      name: 'threadstore (S6)',
      ...(profile ? { cpuProfileDir: profile } : {}),
    });
    await ctx.load.call({
      cmd: 'follow',
      group: 's6-app',
      wsUrl: `ws://127.0.0.1:${app.port}/graphql`,
      count: followers,
      query: FOLLOW,
      variables: { t: thread },
    });
    // Probe: once every follower has it, every subscription is listening.
    const probe = await pacedAppends(`${app.url}/graphql`, thread, 1, 0);
    const p = await ctx.load.call<Delivery>({
      cmd: 'collect',
      group: 's6-app',
      first: probe.first,
      last: probe.last,
      timeoutMs: 60_000,
    });
    if (p.lost)
      throw new Error(`S6: ${p.lost} followers did not get the probe: ${p.errors.join('; ')}`);
    return app;
  };
  let app = await start();
  let rawSeq = 0;
  try {
    await ctx.load.call({
      cmd: 'follow',
      group: 's6-raw',
      wsUrl: `ws://127.0.0.1:${baseline.port}/raw-ws`,
      count: followers,
      query: FOLLOW,
      variables: { t: thread },
    });
    const probe = await pacedBroadcasts(baseline.url, rawSeq++, 1, 0);
    await ctx.load.call({ cmd: 'collect', group: 's6-raw', ...probe });
    // Warm-up round of each, not counted.
    await round(ctx, app, thread, Math.min(20, appends));
    await ctx.load.call({
      cmd: 'collect',
      group: 's6-raw',
      ...(await pacedBroadcasts(baseline.url, rawSeq, 20, PACE_MS)),
    });
    rawSeq += 20;
    for (let r = 0; r < ctx.rounds; r++) {
      appRounds.push(await round(ctx, app, thread, appends));
      const raw = await pacedBroadcasts(baseline.url, rawSeq, appends, PACE_MS);
      rawSeq += appends;
      rawRounds.push(
        await ctx.load.call<Delivery>({
          cmd: 'collect',
          group: 's6-raw',
          ...raw,
          timeoutMs: 60_000,
        }),
      );
      const a = appRounds.at(-1)!;
      const b = rawRounds.at(-1)!;
      ctx.log(
        `  S6 round ${r + 1}/${ctx.rounds}: threadstore p50 ${fmt(a.latency.p50)} p99 ${fmt(a.latency.p99)} ms (lost ${a.lost}, dup ${a.duplicated}, order ${a.outOfOrder}); raw p50 ${fmt(b.latency.p50)} p99 ${fmt(b.latency.p99)} ms`,
      );
    }
  } finally {
    await ctx.load.call({ cmd: 'unfollow', group: 's6-app' }).catch(() => {});
    await ctx.load.call({ cmd: 'unfollow', group: 's6-raw' }).catch(() => {});
    await app.stop();
  }
  const p99 = range(appRounds.map((d) => d.latency.p99));
  const p99Ratio = ratioRange(
    appRounds.map((d) => d.latency.p99),
    rawRounds.map((d) => d.latency.p99),
  );
  const p50Ratio = ratioRange(
    appRounds.map((d) => d.latency.p50),
    rawRounds.map((d) => d.latency.p50),
  );
  const lost = appRounds.reduce((s, d) => s + d.lost, 0);
  const duplicated = appRounds.reduce((s, d) => s + d.duplicated, 0);
  const outOfOrder = appRounds.reduce((s, d) => s + d.outOfOrder + d.unexpected, 0);
  const deliveries = appRounds.reduce((s, d) => s + d.deliveries, 0);
  const latencyMet = p99Ratio.median <= 3 && p99.median <= 50;
  const rows: ResultRow[] = [
    {
      case: `${followers} followers, ${appends} appends (${1000 / PACE_MS}/s)`,
      metric: 'delivery latency p99',
      value: `p50 ${fmt(range(appRounds.map((d) => d.latency.p50)).median)} ms, p99 ${fmt(p99.median)} ms (${fmt(p99.min)}–${fmt(p99.max)})`,
      baseline: `raw ws: p50 ${fmt(range(rawRounds.map((d) => d.latency.p50)).median)} ms, p99 ${fmt(range(rawRounds.map((d) => d.latency.p99)).median)} ms`,
      ratio: p99Ratio,
      ratioText: `p99 ${fmtRange(p99Ratio)}; p50 ${fmtRange(p50Ratio)}`,
      target: 'p99 ≤ 3× raw and ≤ 50 ms',
      met: latencyMet,
    },
    {
      case: `${followers} followers, ${appends} appends`,
      metric: 'lost / duplicated / out of order',
      value: `${lost} / ${duplicated} / ${outOfOrder} of ${deliveries} deliveries`,
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: '0 / 0 / 0',
      met: lost === 0 && duplicated === 0 && outOfOrder === 0,
    },
  ];
  if (!latencyMet && ctx.profile) {
    // One more round on a profiled instance.
    const dir = freshProfileDir(ctx, 'S6 followers');
    app = await start(dir);
    const window = { fromUs: 0, toUs: 0 };
    try {
      window.fromUs = monotonicMicros();
      await round(ctx, app, thread, appends);
      window.toUs = monotonicMicros();
    } finally {
      await ctx.load.call({ cmd: 'unfollow', group: 's6-app' }).catch(() => {});
      await app.stop();
    }
    profiles.push(
      summarizeProfile(mainThreadProfile(dir), `${ctx.provider} S6 ${followers} followers`, window),
    );
  }
  return {
    id: 'S6',
    title: `${followers.toLocaleString('en-US')} graphql-ws followers of one thread`,
    rows,
    notes: [
      `Followers in a separate process speak graphql-ws over plain ws (the same client code for both sides). Appends: single items, one every ${PACE_MS} ms, each waiting for the previous. Latency: receipt − the item's createdAt (set just before the append transaction, ms precision); raw: receipt − the broadcast's start. Each round's p99 is over every delivery of the round (${followers} × ${appends}).`,
    ],
    profiles,
    data: { followers, appends, paceMs: PACE_MS, appRounds, rawRounds },
  };
};
