/**
 * S7: followers on instance A while appends go to instance B, both with REDIS_URL, against
 * one instance C without Redis (followers and appends on it). Each round appends to C and to
 * B in turn (the same machine at the same moments); added latency = two-instance −
 * one-instance, per round. Redis traffic is counted with MONITOR in a separate pass.
 * Target: added p50 ≤ 1 ms, p99 ≤ 5 ms; one Redis message per event per process.
 */
import { Redis } from 'ioredis';
import { profileWith, type ResultRow, type Scenario } from '../lib/context.js';
import { REDIS_URL } from '../lib/db.js';
import { type Delivery, interleavedAppends, pacedAppends, probeFollowers } from '../lib/live.js';
import { sleep, startApp } from '../lib/proc.js';
import type { ProfileSummary } from '../lib/profile.js';
import { FOLLOW } from '../lib/queries.js';
import { fmt, fmtRange, range } from '../lib/stats.js';

const PACE_MS = 20;

export const s7Redis: Scenario = async (ctx) => {
  const followers = ctx.quick ? 50 : 100;
  const appends = ctx.quick ? 30 : 100;
  const one = `s7-one-${ctx.runId}`;
  const two = `s7-two-${ctx.runId}`;
  await ctx.db.createThreads([one, two]);
  const [c, a, b] = await Promise.all([
    startApp(ctx.db.url, { name: 'threadstore C (no Redis)' }),
    startApp(ctx.db.url, { name: 'threadstore A (Redis)', env: { REDIS_URL } }),
    startApp(ctx.db.url, { name: 'threadstore B (Redis)', env: { REDIS_URL } }),
  ]);
  const oneRounds: Delivery[] = [];
  const twoRounds: Delivery[] = [];
  const data: Record<string, unknown> = { followers, appends, paceMs: PACE_MS };
  const profiles: ProfileSummary[] = [];
  let redisRow: ResultRow;
  const targets = [
    { graphqlUrl: `${c.url}/graphql`, threadId: one },
    { graphqlUrl: `${b.url}/graphql`, threadId: two },
  ];
  const round = async (n: number) => {
    const [s1, s2] = await interleavedAppends(targets, n, PACE_MS);
    const d1 = await ctx.load.call<Delivery>({
      cmd: 'collect',
      group: 's7-one',
      ...s1,
      timeoutMs: 30_000,
    });
    const d2 = await ctx.load.call<Delivery>({
      cmd: 'collect',
      group: 's7-two',
      ...s2,
      timeoutMs: 30_000,
    });
    return [d1, d2] as const;
  };
  try {
    await ctx.load.call({
      cmd: 'follow',
      group: 's7-one',
      wsUrl: `ws://127.0.0.1:${c.port}/graphql`,
      count: followers,
      query: FOLLOW,
      variables: { t: one },
    });
    await ctx.load.call({
      cmd: 'follow',
      group: 's7-two',
      wsUrl: `ws://127.0.0.1:${a.port}/graphql`,
      count: followers,
      query: FOLLOW,
      variables: { t: two },
    });
    // Every subscription listening (followers on A hear appends made on B), then a warm-up.
    await probeFollowers(ctx.load, [
      { group: 's7-one', graphqlUrl: `${c.url}/graphql`, threadId: one },
      { group: 's7-two', graphqlUrl: `${b.url}/graphql`, threadId: two },
    ]);
    const [probeOne, probeTwo] = await round(20);
    if (probeOne.lost || probeTwo.lost) {
      throw new Error(
        `S7: probe lost deliveries (one ${probeOne.lost}, two ${probeTwo.lost}): ${[...probeOne.errors, ...probeTwo.errors].join('; ')}`,
      );
    }
    for (let r = 0; r < ctx.rounds; r++) {
      const [d1, d2] = await round(appends);
      oneRounds.push(d1);
      twoRounds.push(d2);
      ctx.log(
        `  S7 round ${r + 1}/${ctx.rounds}: one instance p50 ${fmt(d1.latency.p50)} p99 ${fmt(d1.latency.p99)} ms; A+B via Redis p50 ${fmt(d2.latency.p50)} p99 ${fmt(d2.latency.p99)} ms`,
      );
    }

    // Redis traffic of `n` appends on B, seen by MONITOR (this thread's events only).
    const n = 20;
    const monitorClient = new Redis(REDIS_URL);
    const monitor = await monitorClient.monitor();
    const publishes = { items: 0, events: 0 };
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (String(args[0]).toLowerCase() !== 'publish') return;
      // Channels are the bus topics under the app's prefix (src/pubsub/redis.ts).
      const channel = String(args[1]).replace(/^threadstore:/, '');
      if (channel === `thread-items:local/${two}`) publishes.items++;
      else if (channel === 'thread-events:local' && String(args[2]).includes(`"${two}"`))
        publishes.events++;
    });
    await sleep(200);
    const s2 = await pacedAppends(`${b.url}/graphql`, two, n, PACE_MS);
    await ctx.load.call({ cmd: 'collect', group: 's7-two', ...s2, timeoutMs: 30_000 });
    await sleep(500);
    monitor.disconnect();
    monitorClient.disconnect();
    const counter = new Redis(REDIS_URL);
    const numsub = (await counter.pubsub('NUMSUB', `threadstore:thread-items:local/${two}`)) as [
      string,
      number,
    ];
    counter.disconnect();
    const subscribers = Number(numsub[1]);
    const perEvent = (publishes.items + publishes.events) / (2 * n);
    data.redis = { appends: n, publishes, subscribersOfThreadChannel: subscribers };
    redisRow = {
      case: `${n} appends on B, ${followers} followers on A`,
      metric: 'Redis messages',
      value: `${fmt(perEvent)} PUBLISH per event (${publishes.items} thread-items + ${publishes.events} thread-events for ${n} appends); ${subscribers} subscriber connection(s) on the thread's channel`,
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: '1 per event per process',
      met: perEvent === 1 && subscribers === 1,
    };
  } finally {
    await ctx.load.call({ cmd: 'unfollow', group: 's7-one' }).catch(() => {});
    await ctx.load.call({ cmd: 'unfollow', group: 's7-two' }).catch(() => {});
    await Promise.allSettled([a.stop(), c.stop()]);
  }
  const addedP50 = range(twoRounds.map((d, i) => d.latency.p50 - oneRounds[i]!.latency.p50));
  const addedP99 = range(twoRounds.map((d, i) => d.latency.p99 - oneRounds[i]!.latency.p99));
  const lost = [...oneRounds, ...twoRounds].reduce(
    (s, d) => s + d.lost + d.duplicated + d.outOfOrder,
    0,
  );
  data.oneRounds = oneRounds;
  data.twoRounds = twoRounds;
  const latencyMet = addedP50.median <= 1 && addedP99.median <= 5 && lost === 0;
  try {
    if (!latencyMet && ctx.profile) {
      // Instance A (the one relaying Redis messages to the followers), profiled over one round.
      profiles.push(
        await profileWith(
          ctx,
          'S7 instance A (Redis subscriber)',
          { REDIS_URL },
          async (profiled, measure) => {
            await ctx.load.call({
              cmd: 'follow',
              group: 's7-prof',
              wsUrl: `ws://127.0.0.1:${profiled.port}/graphql`,
              count: followers,
              query: FOLLOW,
              variables: { t: two },
            });
            try {
              const warm = await pacedAppends(`${b.url}/graphql`, two, 20, PACE_MS);
              await ctx.load.call({ cmd: 'collect', group: 's7-prof', ...warm, timeoutMs: 30_000 });
              await measure(async () => {
                const s = await pacedAppends(`${b.url}/graphql`, two, appends, PACE_MS);
                await ctx.load.call({ cmd: 'collect', group: 's7-prof', ...s, timeoutMs: 30_000 });
              });
            } finally {
              await ctx.load.call({ cmd: 'unfollow', group: 's7-prof' }).catch(() => {});
            }
          },
        ),
      );
    }
  } finally {
    await b.stop();
  }
  const rows: ResultRow[] = [
    {
      case: `${followers} followers on A, appends on B`,
      metric: 'added delivery latency (ms)',
      value: `p50 ${fmt(range(twoRounds.map((d) => d.latency.p50)).median)} ms, p99 ${fmt(range(twoRounds.map((d) => d.latency.p99)).median)} ms`,
      baseline: `one instance: p50 ${fmt(range(oneRounds.map((d) => d.latency.p50)).median)} ms, p99 ${fmt(range(oneRounds.map((d) => d.latency.p99)).median)} ms`,
      ratio: addedP50,
      ratioText: `+p50 ${fmtRange(addedP50)} ms; +p99 ${fmtRange(addedP99)} ms`,
      target: '+p50 ≤ 1 ms, +p99 ≤ 5 ms',
      met: latencyMet,
    },
    redisRow,
  ];
  return {
    id: 'S7',
    title: 'two instances through Redis vs one instance',
    rows,
    notes: [
      `Each round appends ${appends} single items to C (one instance, no Redis) and to B (followers on A) in turn, each stream one append every ${PACE_MS} ms; latency as in S6 (receipt − createdAt). Redis traffic counted with MONITOR during 20 extra appends; subscribers with PUBSUB NUMSUB.${lost ? ` ${lost} deliveries lost, duplicated or out of order.` : ''}`,
    ],
    profiles,
    data,
  };
};
