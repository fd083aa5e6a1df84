/**
 * What every scenario gets (the provider, run settings, the bench database, the load process,
 * shared servers) and what it returns (table rows, notes, CPU profiles for missed targets),
 * plus the interleaved app-versus-baseline throughput comparison S1, S2 and S5 share.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../test/testkit/process.js';
import type { CannonResult } from '../load.js';
import type { BenchDb, Provider } from './db.js';
import { mainThreadProfile, type Rpc, type Server, startApp } from './proc.js';
import { monotonicMicros, type ProfileSummary, summarizeProfile } from './profile.js';
import { fmt, fmtRange, median, type Range, range, ratioRange } from './stats.js';

export interface Settings {
  quick: boolean;
  /** Measured rounds per figure (≥ 5 in a full run). */
  rounds: number;
  /** Seconds per autocannon round. */
  cannonSec: number;
  /**
   * Seconds of load each target of a throughput comparison gets before its first round, not
   * counted. With 1 s, round five's rates still rose round after round on PostgreSQL (the app's
   * S1 spread 292 → 566 appends/s over five rounds, the baseline's 675 → 1,220): both servers
   * were still warming (what warms for so long on PostgreSQL is not yet found). See
   * bench/README.md, round six.
   */
  warmupSec: number;
  /** Take a CPU profile of the app for every missed target. */
  profile: boolean;
}

export interface BenchContext extends Settings {
  provider: Provider;
  db: BenchDb;
  /** The load generator (bench/load.ts), a separate process. */
  load: Rpc;
  /** The app and the baseline server on the bench database, started on first use. */
  servers(): Promise<{ app: Server; baseline: Server }>;
  /** A unique suffix for names in shared systems (Redis channels). */
  runId: string;
  profileDir: string;
  log(message: string): void;
}

/** One line of the results table. */
export interface ResultRow {
  case: string;
  metric: string;
  /** The measured figure (app), formatted with its unit. */
  value: string;
  /** The baseline's figure, formatted; '' when the baseline is the app itself. */
  baseline: string;
  /** The compared ratio (or difference), median of rounds with min–max. */
  ratio: Range | null;
  ratioText: string;
  target: string;
  /** null: report only. */
  met: boolean | null;
}

export interface ScenarioResult {
  id: string;
  title: string;
  rows: ResultRow[];
  notes: string[];
  profiles: ProfileSummary[];
  /** Raw figures per round, for the JSON. */
  data: Record<string, unknown>;
  seconds?: number;
  error?: string;
}

export type Scenario = (ctx: BenchContext) => Promise<ScenarioResult>;

export interface Target {
  name: string;
  url: string;
  bodies: string[];
  /** Each request takes the next body of `bodies` (else each connection keeps one body). */
  perRequest?: boolean;
}

export interface Comparison {
  /** Requests/s of each target per round. */
  rps: Record<string, number[]>;
  /** Latency p50/p99 (ms) of each target per round. */
  p50: Record<string, number[]>;
  p99: Record<string, number[]>;
  /** Requests that failed (transport errors, non-2xx, GraphQL errors) summed over rounds. */
  failures: Record<string, number>;
}

/**
 * Runs autocannon against each target in turn, round after round (interleaved, so drift of a
 * shared machine hits every target alike), after a short warm-up of each.
 */
export async function compareThroughput(
  ctx: BenchContext,
  targets: Target[],
  connections: number,
  label: string,
): Promise<Comparison> {
  const out: Comparison = { rps: {}, p50: {}, p99: {}, failures: {} };
  for (const t of targets) {
    out.rps[t.name] = [];
    out.p50[t.name] = [];
    out.p99[t.name] = [];
    out.failures[t.name] = 0;
    await ctx.load.call<CannonResult>({
      cmd: 'cannon',
      url: t.url,
      bodies: t.bodies,
      perRequest: t.perRequest,
      connections,
      durationSec: ctx.warmupSec,
    });
  }
  for (let r = 0; r < ctx.rounds; r++) {
    for (const t of targets) {
      const res = await ctx.load.call<CannonResult>({
        cmd: 'cannon',
        url: t.url,
        bodies: t.bodies,
        perRequest: t.perRequest,
        // Every target of a round reads the same draws; the next round other ones.
        offset: (r + 1) * 1_009,
        connections,
        durationSec: ctx.cannonSec,
      });
      out.rps[t.name]!.push(res.rps);
      out.p50[t.name]!.push(res.latencyP50);
      out.p99[t.name]!.push(res.latencyP99);
      out.failures[t.name]! += res.errors + res.non2xx + res.mismatches + res.timeouts;
    }
    ctx.log(
      `  ${label} round ${r + 1}/${ctx.rounds}: ${targets.map((t) => `${t.name} ${fmt(out.rps[t.name]!.at(-1)!)}/s`).join(', ')}`,
    );
  }
  return out;
}

/** A table row comparing target `a` with target `b` of a comparison, scaled by `per` (rows per request). */
export function throughputRow(
  c: Comparison,
  a: string,
  b: string,
  opts: {
    case: string;
    metric: string;
    unit: string;
    per?: number;
    target: number;
    targetText?: string;
  },
): ResultRow {
  const per = opts.per ?? 1;
  const ra = range(c.rps[a]!.map((v) => v * per));
  const rb = range(c.rps[b]!.map((v) => v * per));
  const ratio = ratioRange(c.rps[a]!, c.rps[b]!);
  const failures = c.failures[a]! + c.failures[b]!;
  return {
    case: opts.case,
    metric: opts.metric,
    value: `${fmt(ra.median)} ${opts.unit} (p50 ${fmt(median(c.p50[a]!))} ms)`,
    baseline: `${b}: ${fmt(rb.median)} ${opts.unit}`,
    ratio,
    ratioText: fmtRange(ratio),
    target: opts.targetText ?? `≥ ${opts.target.toFixed(2)}`,
    met: failures > 0 ? false : ratio.median >= opts.target,
  };
}

/**
 * Runs one more round of `bodies` against a fresh app started with --cpu-prof, and summarises
 * where its time went.
 */
export function profileApp(
  ctx: BenchContext,
  label: string,
  bodies: string[],
  connections: number,
  env: Record<string, string> = {},
  perRequest = false,
): Promise<ProfileSummary> {
  return profileWith(ctx, label, env, async (app, measure) => {
    const url = `${app.url}/graphql`;
    await ctx.load.call({ cmd: 'cannon', url, bodies, perRequest, connections, durationSec: 1 });
    await measure(() =>
      ctx.load.call({
        cmd: 'cannon',
        url,
        bodies,
        perRequest,
        connections,
        durationSec: Math.max(ctx.cannonSec, 2),
      }),
    );
  });
}

/**
 * Starts a fresh app with --cpu-prof, lets `work` warm it up and then run the load to profile
 * inside `measure(...)`, stops it, and summarises the samples taken during `measure`.
 */
export async function profileWith(
  ctx: BenchContext,
  label: string,
  env: Record<string, string>,
  work: (app: Server, measure: (load: () => Promise<unknown>) => Promise<void>) => Promise<void>,
): Promise<ProfileSummary> {
  const dir = freshProfileDir(ctx, label);
  const window = { fromUs: 0, toUs: 0 };
  const app = await startApp(ctx.db.url, {
    cpuProfileDir: dir,
    env,
    name: `threadstore (profiled: ${label})`,
  });
  try {
    await work(app, async (load) => {
      window.fromUs = monotonicMicros();
      await load();
      window.toUs = monotonicMicros();
    });
  } finally {
    await app.stop();
  }
  const summary = summarizeProfile(
    mainThreadProfile(dir),
    `${ctx.provider} ${label}`,
    window.toUs > 0 ? window : undefined,
  );
  ctx.log(
    `  profile ${label}: top ${summary.topSelf
      .slice(0, 3)
      .map((f) => `${f.frame} ${f.pct.toFixed(1)}%`)
      .join('; ')}`,
  );
  return summary;
}

/** An empty directory for one profiled process: bench/results/profiles/<provider>-<label>. */
export function freshProfileDir(ctx: BenchContext, label: string): string {
  const dir = join(
    ctx.profileDir,
    `${ctx.provider}-${label.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`,
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

export const profilesDir = join(root, 'bench', 'results', 'profiles');
