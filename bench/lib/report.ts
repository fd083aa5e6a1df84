/**
 * The machine and versions a run is recorded with, the markdown of a run's results, and the
 * Scenarios table of bench/README.md (SCENARIO_TABLE, written between its
 * `<!-- bench:scenarios:start -->` and end markers by full runs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { root } from '../../test/testkit/process.js';
import type { ScenarioResult } from './context.js';
import { POSTGRES_ADMIN_URL, REDIS_URL } from './db.js';
import { profileMarkdown } from './profile.js';

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  os: string;
  node: string;
  postgres?: string;
  redis?: string;
  /** Load average when the run started (a shared machine's drift shows here). */
  loadAvg: number[];
}

const PACKAGES = [
  'graphql-yoga',
  '@envelop/graphql-jit',
  'graphql-jit',
  '@pothos/core',
  '@pothos/plugin-relay',
  'graphql',
  'graphql-ws',
  'prisma',
  '@prisma/client',
  '@prisma/adapter-better-sqlite3',
  '@prisma/adapter-pg',
  'better-sqlite3',
  'pg',
  'ioredis',
  'postgraphile',
  'autocannon',
];

/** The commit measured, with a note when src/ has uncommitted changes. */
export function sourceRevision(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--', 'src', 'prisma').length > 0
      ? `${head} + uncommitted changes in src/ or prisma/`
      : head;
  } catch {
    return 'unknown';
  }
}

/** Installed versions of the packages that matter to the figures. */
export function packageVersions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PACKAGES) {
    try {
      out[name] = (
        JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    } catch {
      out[name] = 'not installed';
    }
  }
  return out;
}

/** CPU, cores, RAM, OS, Node, and the PostgreSQL and Redis servers' versions. */
export async function machineInfo(): Promise<Machine> {
  const m: Machine = {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    ramGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAvg: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
  try {
    const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await c.connect();
    m.postgres = (
      (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]?.v ??
      '?'
    ).split(' ')[0];
    await c.end();
  } catch {
    m.postgres = 'unreachable';
  }
  try {
    const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await r.connect();
    m.redis = /redis_version:(\S+)/.exec(await r.info('server'))?.[1];
    r.disconnect();
  } catch {
    m.redis = 'unreachable';
  }
  return m;
}

export interface RunRecord {
  date: string;
  provider: string;
  quick: boolean;
  command: string;
  /** The threadstore source measured (git). */
  revision: string;
  rounds: number;
  cannonSec: number;
  /** Seconds of uncounted load per target before a throughput comparison (absent before round six). */
  warmupSec?: number;
  seconds: number;
  machine: Machine;
  versions: Record<string, string>;
  /** How the app was started (bench/lib/proc.ts, APP_COMMAND). */
  appCommand: string;
  scenarios: ScenarioResult[];
}

/** One row of the Scenarios table: what is measured, against what, and the target. */
export interface ScenarioInfo {
  id: string;
  scenario: string;
  baseline: string;
  target: string;
}

/** What each scenario measures (issue 13's table), in run order. */
export const SCENARIO_INFO: ScenarioInfo[] = [
  {
    id: 'S1',
    scenario:
      'single-item appendItems, concurrency 16, spread over 16 threads and all on one thread',
    baseline:
      'the same SQL behind a bare node:http handler on the same driver and SQLite synchronous setting (`bench/baseline-server.ts`)',
    target: 'PostgreSQL ≥ 0.50, SQLite ≥ 0.30',
  },
  {
    id: 'S2',
    scenario: '20- and 100-item appends, rows/s',
    baseline: 'a raw multi-row insert of the same rows',
    target: '≥ 0.60',
  },
  {
    id: 'S3',
    scenario:
      '50-item history page at head, middle and tail of threads of 1k, 100k and 1M items (seeded once per run by bulk SQL)',
    baseline: 'the same page at 1k',
    target: 'p50(1M)/p50(1k) ≤ 1.2, p99 ≤ 1.5',
  },
  {
    id: 'S4',
    scenario: "SQL statements per operation, exact (the app's `db.statements`)",
    baseline: '—',
    target:
      'threads(first: 100) with lastItem and itemCount = first: 10, ≤ 3; history page ≤ 2; append ≤ 2 in one transaction; 0 per follower per live event',
  },
  {
    id: 'S5',
    scenario:
      '50-item history page at a random thread (of 200 threads of 1k items) and a random position, and 50-thread list of a random agent (of 20), req/s; every request a new random draw, no response cache anywhere',
    baseline:
      'the same SQL behind bare node:http; PostGraphile v5 on the same PostgreSQL tables (paging by its own cursors)',
    target: '≥ 0.50 (PostgreSQL), ≥ 0.35 (SQLite) × bare; ≥ 1.0 × PostGraphile',
  },
  {
    id: 'S6',
    scenario: '1,000 graphql-ws followers of one thread, 100 appends: delivery latency',
    baseline: 'a raw ws broadcast of the same payloads',
    target: 'p99 ≤ 3× raw and ≤ 50 ms; nothing lost, duplicated or out of order',
  },
  {
    id: 'S7',
    scenario: 'two instances through Redis vs one instance',
    baseline: 'one instance',
    target: 'added p50 ≤ 1 ms, p99 ≤ 5 ms; one Redis message per event per process',
  },
  {
    id: 'S8',
    scenario:
      'thread list at 1M threads in a tenant: first page, a deep page, the first page of one agent; `nameContains` with a selective and a common needle; a selected `totalCount`',
    baseline: 'the same at 1k threads',
    target: 'p50 ≤ 1.2× (list); ≤ 50 ms absolute (name search, indexed); totalCount: report',
  },
  {
    id: 'S9',
    scenario:
      'mixed load for 20 s: 50 agents appending turns (user item, 100 ms, assistant item, 400 ms), 20 readers paging history and listing threads, 500 graphql-ws followers (10 per agent thread)',
    baseline: '—',
    target:
      'report throughput and p50/p99 per operation; append p99 ≤ 50 ms at the load the machine sustains (the mix is slowed ×2, ×4, ×8, ×16 until it holds)',
  },
  {
    id: 'S10',
    scenario:
      "`searchItems` (run only with `--only S10`) at 1M items in a tenant, seeded by bulk SQL with the app's tokenizer: a rare word, a phrase, a prefix, a CJK substring, two common words, the most common word (about a fifth of the items) with and without a threadId filter, no match; first: 20 with snippets",
    baseline: '—',
    target: 'report p50/p99',
  },
  {
    id: 'M',
    scenario: 'memory: RSS with 1,000 idle followers; heap after 100k appended items and a GC',
    baseline: 'start of run',
    target: 'report; heap back within 10%',
  },
  {
    id: 'F',
    scenario:
      'forkThread of a 100k-item thread with 2 compaction records, at its last seq and at seq 999 (in process through yoga.fetch; each fork deleted after its round)',
    baseline: 'the fork of 1,000 items',
    target: 'statements = the 1k fork, one INSERT … SELECT per table; time: report',
  },
  {
    id: 'T',
    scenario:
      'transcripts (run only with `--only T`): `npm run import` of a 100 MB Chat JSONL (one transaction per conversation); GET /threads/<id>/export of a 100k-item thread as JSONL and as a JSON array',
    baseline:
      "import: the same command on one conversation (its own footprint); export: the server's peak RSS after a warm-up export",
    target: 'report: items/s, peak RSS',
  },
];

/** The Scenarios table of bench/README.md. */
export function scenariosTable(): string {
  return [
    '| | Scenario | Baseline (same run) | Target |',
    '|---|---|---|---|',
    ...SCENARIO_INFO.map(
      (s) => `| ${s.id} | ${cell(s.scenario)} | ${cell(s.baseline)} | ${cell(s.target)} |`,
    ),
  ].join('\n');
}

const mark = (met: boolean | null) => (met === null ? '—' : met ? '✅ met' : '❌ missed');
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The results table of a run. */
export function resultsTable(run: RunRecord): string {
  const lines = [
    '| | Scenario | Case | Measure | threadstore | Baseline | Ratio, median of rounds (min–max) | Target | |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of run.scenarios) {
    if (s.error) {
      lines.push(
        `| ${s.id} | ${cell(s.title)} | **failed** | | ${cell(s.error.split('\n')[0]!.slice(0, 200))} | | | | ❌ error |`,
      );
      continue;
    }
    s.rows.forEach((r, i) => {
      lines.push(
        `| ${i === 0 ? s.id : ''} | ${i === 0 ? cell(s.title) : ''} | ${cell(r.case)} | ${cell(r.metric)} | ${cell(r.value)} | ${cell(r.baseline)} | ${cell(r.ratioText)} | ${cell(r.target)} | ${mark(r.met)} |`,
      );
    });
  }
  return lines.join('\n');
}

/** The whole markdown report of a run: header, table, notes, profiles of misses. */
export function runMarkdown(run: RunRecord): string {
  const m = run.machine;
  const v = run.versions;
  const out = [
    `### ${run.provider === 'sqlite' ? 'SQLite' : 'PostgreSQL'} — ${run.date}${run.quick ? ' (quick smoke run: fewer rounds and smaller sizes; not for comparison)' : ''}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, ${m.os}; load average at start ${m.loadAvg.join(' / ')}. ` +
      `Node ${m.node}; PostgreSQL ${m.postgres ?? '?'}; Redis ${m.redis ?? '?'}.`,
    '',
    `Source: ${run.revision}. Versions: ${Object.entries(v)
      .map(([k, ver]) => `${k} ${ver}`)
      .join(', ')}.`,
    '',
    `App: ${run.appCommand}.`,
    '',
    `Reproduce: \`${run.command}\` — ${run.rounds} rounds per figure${run.cannonSec ? `, ${run.cannonSec} s per throughput round` : ''}${run.warmupSec ? ` after ${run.warmupSec} s of warm-up per target` : ''}; ` +
      `this provider took ${Math.round(run.seconds)} s. Every ratio is threadstore ÷ a baseline measured in the same run, rounds interleaved; ` +
      'load from a separate process on loopback.',
    '',
    resultsTable(run),
    '',
  ];
  const notes = run.scenarios.filter((s) => s.notes.length);
  if (notes.length) {
    out.push('<details><summary>How each figure was measured</summary>', '');
    for (const s of notes) out.push(`- **${s.id}**: ${s.notes.join(' ')}`);
    out.push('', '</details>', '');
  }
  const profiles = run.scenarios.flatMap((s) => s.profiles);
  if (profiles.length) {
    out.push('#### Where the time goes (CPU profiles of the app for missed targets)', '');
    for (const p of profiles) out.push(profileMarkdown(p), '');
  }
  return out.join('\n');
}
