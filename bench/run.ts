/**
 * `npm run bench`: runs scenarios S1-S9, M and F (T when named) on one machine in one run, per
 * provider, and writes bench/results/<date>-<provider>.json and .md, prints the table, and
 * (full runs) puts the latest tables into the Performance section of bench/README.md and the
 * Scenarios table (lib/report.ts, SCENARIO_INFO) between its markers (the top-level README only
 * links there). The app is started exactly as `npm start` starts it (lib/proc.ts, APP_COMMAND).
 *
 *   npm run bench                       full run, SQLite then PostgreSQL (~25 min on 2 cores), all but T
 *   npm run bench -- --quick            smoke run (a few minutes): 2 rounds, smaller sizes, no profiles
 *   npm run bench -- --provider sqlite  one provider (sqlite | postgresql | both)
 *   npm run bench -- --only S1,S4       some scenarios only (--only T: the transcripts scenario,
 *                                       --only S10: search at 1M items)
 *   npm run bench -- --no-profile       skip CPU profiles of missed targets (--profile: take them in --quick)
 *
 * Needs PostgreSQL (BENCH_POSTGRES_URL, default postgresql://postgres@127.0.0.1:5432/postgres;
 * each run creates and drops its own database) and Redis (BENCH_REDIS_URL, default
 * redis://127.0.0.1:6379) on loopback.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../test/testkit/process.js';
import type { BenchContext, Scenario, ScenarioResult, Settings } from './lib/context.js';
import { profilesDir } from './lib/context.js';
import { createBenchDb, type Provider } from './lib/db.js';
import { APP_COMMAND, forkRpc, type Server, startApp, startBaseline } from './lib/proc.js';
import {
  machineInfo,
  packageVersions,
  type RunRecord,
  resultsTable,
  runMarkdown,
  scenariosTable,
  sourceRevision,
} from './lib/report.js';
import { fFork } from './scenarios/f-fork.js';
import { mMemory } from './scenarios/m-memory.js';
import { s1Append } from './scenarios/s1-append.js';
import { s2Batch } from './scenarios/s2-batch.js';
import { s3History } from './scenarios/s3-history.js';
import { s4Statements } from './scenarios/s4-statements.js';
import { s5Reads } from './scenarios/s5-reads.js';
import { s6Followers } from './scenarios/s6-followers.js';
import { s7Redis } from './scenarios/s7-redis.js';
import { s8ListScale } from './scenarios/s8-list-scale.js';
import { s9Mixed } from './scenarios/s9-mixed.js';
import { s10Search } from './scenarios/s10-search.js';
import { tTranscripts } from './scenarios/t-transcripts.js';

/**
 * Run only when named in --only: T (issue 11's transcripts at scale: a 100 MB import per
 * provider, about 7 min of a run) and S10 (issue 14's search at 1M items, whose seeding alone
 * takes minutes per provider) keep the full run of issue 13's table within ~25 min.
 */
const OPT_IN = new Set(['T', 'S10']);

const SCENARIOS: [string, Scenario][] = [
  ['S1', s1Append],
  ['S2', s2Batch],
  ['S3', s3History],
  ['S4', s4Statements],
  ['S5', s5Reads],
  ['S6', s6Followers],
  ['S7', s7Redis],
  ['S8', s8ListScale],
  ['S9', s9Mixed],
  ['S10', s10Search],
  ['M', mMemory],
  ['F', fFork],
  ['T', tTranscripts],
];

function parseArgs(argv: string[]) {
  const args = {
    quick: false,
    providers: ['sqlite', 'postgresql'] as Provider[],
    only: null as string[] | null,
    profile: null as boolean | null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = a.includes('=') ? a.split('=')[1]! : argv[++i];
      if (!v) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') args.quick = true;
    else if (a === '--no-profile') args.profile = false;
    else if (a === '--profile') args.profile = true;
    else if (a.startsWith('--provider')) {
      const v = value();
      if (v === 'both') args.providers = ['sqlite', 'postgresql'];
      else if (v === 'sqlite' || v === 'postgresql') args.providers = [v];
      else throw new Error(`--provider: sqlite, postgresql or both, not ${v}`);
    } else if (a.startsWith('--only')) args.only = value().toUpperCase().split(',');
    else if (a === '--help' || a === '-h') {
      console.log(readFileSync(import.meta.filename, 'utf8').split('*/')[0]);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

/** Cleanups to run if the run is interrupted. */
const onInterrupt = new Set<() => Promise<void>>();

const stamp = () => new Date().toISOString().slice(11, 19);
const log = (message: string) => console.log(`[${stamp()}] ${message}`);

async function runProvider(
  provider: Provider,
  settings: Settings,
  only: string[] | null,
  runId: string,
): Promise<{ scenarios: ScenarioResult[]; seconds: number }> {
  const started = Date.now();
  log(`== ${provider}: creating the bench database`);
  const db = await createBenchDb(provider);
  const dropOnInterrupt = () => db.drop();
  onInterrupt.add(dropOnInterrupt);
  const load = forkRpc('load.ts');
  let shared: { app: Server; baseline: Server } | null = null;
  const ctx: BenchContext = {
    ...settings,
    provider,
    db,
    load,
    runId,
    profileDir: profilesDir,
    log,
    async servers() {
      if (
        shared &&
        shared.app.process.exitCode === null &&
        shared.baseline.process.exitCode === null
      )
        return shared;
      if (shared) {
        log(`  a server had exited; restarting\n${shared.app.output().slice(-2000)}`);
        await Promise.all([shared.app.stop(), shared.baseline.stop()]);
      }
      const [app, baseline] = await Promise.all([startApp(db.url), startBaseline(db.url)]);
      shared = { app, baseline };
      return shared;
    },
  };
  const scenarios: ScenarioResult[] = [];
  try {
    for (const [id, scenario] of SCENARIOS) {
      if (only ? !only.includes(id) : OPT_IN.has(id)) continue;
      log(`${id} (${provider})`);
      const t0 = Date.now();
      let result: ScenarioResult;
      try {
        result = await scenario(ctx);
      } catch (error) {
        const message = (error as Error).stack ?? String(error);
        log(`${id} failed: ${message}`);
        result = { id, title: id, rows: [], notes: [], profiles: [], data: {}, error: message };
      }
      result.seconds = (Date.now() - t0) / 1000;
      log(`${id} done in ${result.seconds.toFixed(0)} s`);
      scenarios.push(result);
    }
  } finally {
    const s = shared as { app: Server; baseline: Server } | null;
    await Promise.allSettled([s?.app.stop(), s?.baseline.stop(), load.close()]);
    onInterrupt.delete(dropOnInterrupt);
    await db
      .drop()
      .catch((error: unknown) => log(`could not drop the bench database: ${String(error)}`));
  }
  return { scenarios, seconds: (Date.now() - started) / 1000 };
}

/** Replaces the text between `<!-- bench:<key>:start -->` and its end marker in `file`. */
function replaceSection(file: string, key: string, content: string): boolean {
  if (!existsSync(file)) return false;
  const text = readFileSync(file, 'utf8');
  const start = `<!-- bench:${key}:start -->`;
  const end = `<!-- bench:${key}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) return false;
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${content.trim()}\n${text.slice(b)}`);
  return true;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const settings: Settings = {
    quick: args.quick,
    rounds: args.quick ? 2 : 5,
    cannonSec: args.quick ? 0.75 : 2,
    warmupSec: args.quick ? 0.5 : 8,
    // Quick runs skip the profiles unless asked (--profile); full runs take them (--no-profile).
    profile: args.profile ?? !args.quick,
  };
  const machine = await machineInfo();
  const versions = packageVersions();
  const date = new Date().toISOString().slice(0, 10);
  const runId = `${Date.now().toString(36)}${process.pid}`;
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const command = [
    'npm run bench',
    args.quick || args.only || args.providers.length === 1 ? '--' : '',
    args.quick ? '--quick' : '',
    args.providers.length === 1 ? `--provider ${args.providers[0]}` : '',
    args.only ? `--only ${args.only.join(',')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  log(
    `threadstore bench: ${args.providers.join(' + ')}${args.quick ? ' (quick)' : ''}; ${machine.cpu}, ${machine.cores} cores, node ${machine.node}`,
  );
  const t0 = Date.now();
  const written: string[] = [];
  for (const provider of args.providers) {
    const { scenarios, seconds } = await runProvider(provider, settings, args.only, runId);
    const run: RunRecord = {
      date,
      provider,
      quick: args.quick,
      command,
      revision: sourceRevision(),
      rounds: settings.rounds,
      cannonSec: settings.cannonSec,
      warmupSec: settings.warmupSec,
      seconds,
      machine,
      versions,
      appCommand: APP_COMMAND,
      scenarios,
    };
    const base = join(
      resultsDir,
      `${date}-${provider}${args.quick ? '-quick' : ''}${args.only ? `-${args.only.join('-').toLowerCase()}` : ''}`,
    );
    writeFileSync(`${base}.json`, `${JSON.stringify(run, null, 2)}\n`);
    const md = runMarkdown(run);
    writeFileSync(`${base}.md`, `${md}\n`);
    written.push(`${base}.json`, `${base}.md`);
    console.log(`\n${resultsTable(run)}\n`);
    if (!args.quick && !args.only) {
      // The table, how it was measured and the profiles of missed targets.
      if (replaceSection(join(root, 'bench', 'README.md'), provider, md))
        log(`updated the ${provider} table in bench/README.md`);
    }
  }
  if (!args.quick && !args.only) {
    // The Scenarios table, when bench/README.md has its markers.
    if (replaceSection(join(root, 'bench', 'README.md'), 'scenarios', scenariosTable()))
      log('updated the Scenarios table in bench/README.md');
  }
  log(`wrote ${written.map((f) => f.replace(`${root}/`, '')).join(', ')}`);
  log(`total ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

// Ctrl-C: drop the bench database (at most 5 s), then exit through process.exit so the
// children are killed (lib/proc.ts).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    const timer = setTimeout(() => process.exit(130), 5_000);
    Promise.allSettled([...onInterrupt].map((f) => f())).then(() => {
      clearTimeout(timer);
      process.exit(130);
    });
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
