/**
 * The machine and versions a run is recorded with, and the markdown of a run's results.
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
  seconds: number;
  machine: Machine;
  versions: Record<string, string>;
  scenarios: ScenarioResult[];
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
    `Reproduce: \`${run.command}\` — ${run.rounds} rounds per figure${run.cannonSec ? `, ${run.cannonSec} s per throughput round` : ''}; ` +
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
