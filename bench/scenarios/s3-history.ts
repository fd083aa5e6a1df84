/**
 * S3: a 50-item history page at the head, middle and tail of threads of 1k, 100k and 1M items,
 * against the same page of the 1k thread. Threads are seeded once per run by bulk SQL.
 * Target: p50(1M)/p50(1k) ≤ 1.2 and p99(1M)/p99(1k) ≤ 1.5 at every position.
 */
import { profileWith, type ResultRow, type Scenario } from '../lib/context.js';
import type { ProfileSummary } from '../lib/profile.js';
import { pageBody } from '../lib/queries.js';
import type { LatencySummary } from '../lib/stats.js';
import { fmt, fmtRange, range, ratioRange } from '../lib/stats.js';

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);

export const s3History: Scenario = async (ctx) => {
  const sizes = ctx.quick ? [1_000, 10_000, 100_000] : [1_000, 100_000, 1_000_000];
  const samples = ctx.quick ? 60 : 300;
  const notes: string[] = [];
  for (const n of sizes) {
    const id = `s3-${label(n)}`;
    const t0 = Date.now();
    await ctx.db.createThreads([id]);
    await ctx.db.seedItems(id, n);
    ctx.log(`  S3 seeded ${id}: ${n} items in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    notes.push(
      `Seeded ${label(n)} items by bulk SQL in ${((Date.now() - t0) / 1000).toFixed(1)} s.`,
    );
  }
  await ctx.db.analyze();
  const { app } = await ctx.servers();
  const url = `${app.url}/graphql`;
  const positions = [
    { name: 'head', after: (_n: number) => -1 as number | 'last' },
    { name: 'middle', after: (n: number) => Math.floor(n / 2) as number | 'last' },
    { name: 'tail', after: (_n: number) => 'last' as const },
  ];
  // results[position][size] = per-round summaries
  const results: Record<string, Record<number, LatencySummary[]>> = {};
  for (const p of positions) {
    results[p.name] = {};
    for (const n of sizes) {
      results[p.name]![n] = [];
      // warm-up: the page's rows into the cache, the code into the JIT
      await ctx.load.call({
        cmd: 'latency',
        url,
        body: pageBody(`s3-${label(n)}`, p.after(n)),
        count: 1,
        warmup: 30,
      });
    }
  }
  for (let r = 0; r < ctx.rounds; r++) {
    for (const p of positions) {
      for (const n of sizes) {
        const body = pageBody(`s3-${label(n)}`, p.after(n));
        results[p.name]![n]!.push(
          await ctx.load.call<LatencySummary>({
            cmd: 'latency',
            url,
            body,
            count: samples,
            warmup: 5,
          }),
        );
      }
    }
    ctx.log(
      `  S3 round ${r + 1}/${ctx.rounds}: ${positions.map((p) => `${p.name} ${sizes.map((n) => fmt(results[p.name]![n]!.at(-1)!.p50)).join('/')} ms`).join(', ')}`,
    );
  }
  const rows: ResultRow[] = [];
  const small = sizes[0]!;
  for (const n of sizes.slice(1)) {
    for (const p of positions) {
      const big = results[p.name]![n]!;
      const base = results[p.name]![small]!;
      const p50 = ratioRange(
        big.map((s) => s.p50),
        base.map((s) => s.p50),
      );
      const p99 = ratioRange(
        big.map((s) => s.p99),
        base.map((s) => s.p99),
      );
      const isTarget = n === sizes.at(-1);
      rows.push({
        case: `${p.name}, ${label(n)} items`,
        metric: `page latency vs ${label(small)}`,
        value: `p50 ${fmt(range(big.map((s) => s.p50)).median)} ms, p99 ${fmt(range(big.map((s) => s.p99)).median)} ms`,
        baseline: `${label(small)}: p50 ${fmt(range(base.map((s) => s.p50)).median)} ms, p99 ${fmt(range(base.map((s) => s.p99)).median)} ms`,
        ratio: p50,
        ratioText: `p50 ${fmtRange(p50)}; p99 ${fmtRange(p99)}`,
        target: isTarget ? 'p50 ≤ 1.20, p99 ≤ 1.50' : '(report)',
        met: isTarget ? p50.median <= 1.2 && p99.median <= 1.5 : null,
      });
    }
  }
  const profiles: ProfileSummary[] = [];
  const missed = rows.filter((r) => r.met === false);
  if (missed.length && ctx.profile) {
    const big = sizes.at(-1)!;
    profiles.push(
      await profileWith(ctx, `S3 pages of the ${label(big)} thread`, {}, async (app, measure) => {
        const u = `${app.url}/graphql`;
        const bodies = positions.map((p) => pageBody(`s3-${label(big)}`, p.after(big)));
        for (const body of bodies)
          await ctx.load.call({ cmd: 'latency', url: u, body, count: 1, warmup: 30 });
        await measure(async () => {
          for (const body of bodies)
            await ctx.load.call({ cmd: 'latency', url: u, body, count: samples, warmup: 0 });
        });
      }),
    );
  }
  notes.push(
    `${samples} sequential requests per cell and round, one keep-alive connection; head = items(first: 50, afterSeq: -1), middle = afterSeq n/2, tail = items(last: 50).`,
  );
  if (ctx.quick) notes.push('Quick run: sizes 1k/10k/100k instead of 1k/100k/1M.');
  return {
    id: 'S3',
    title: '50-item history page vs thread size',
    rows,
    notes,
    profiles,
    data: { sizes, samples, results },
  };
};
