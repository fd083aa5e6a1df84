/**
 * T: transcripts at scale (issue 11, point 6). Import: `npm run import` (a separate process,
 * as an operator runs it) of a ~100 MB JSONL of OpenAI Chat conversations made from the
 * tau-bench fixture (one run a line, each copy's system prompt marked so no two are the same
 * content and none is skipped as already imported), one transaction per conversation: items/s
 * and the import process's peak RSS (/usr/bin/time). Export: a 100k-item thread (seeded by
 * bulk SQL, user and assistant turns) streamed from GET /threads/<id>/export as JSONL and as a
 * JSON array by a fresh app: items/s and the growth of the app's peak RSS (VmHWM). Report only.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../../test/testkit/process.js';
import type { ResultRow, Scenario } from '../lib/context.js';
import { TENANT } from '../lib/db.js';
import { startApp } from '../lib/proc.js';
import { fmt, range } from '../lib/stats.js';

const MB = 2 ** 20;
const FIXTURE = join(
  root,
  '..',
  'shared',
  'fixtures',
  'openai-chat',
  'tau-bench-gpt-4o-airline-sample.json',
);

/** Peak RSS of a process so far in bytes (VmHWM). */
function peakOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Writes the JSONL: copies of the fixture's runs, one a line, until `bytes` (at least one run),
 * copies numbered from `firstCopy`. Returns the lines.
 */
function writeChatJsonl(file: string, bytes: number, firstCopy = 0): number {
  const runs = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { traj: { content: string }[] }[];
  const out: string[] = [];
  let size = 0;
  for (let copy = firstCopy; size < bytes; copy++) {
    for (const run of runs) {
      if (size >= bytes && out.length > 0) break;
      const traj = run.traj.map((m, i) =>
        i === 0 ? { ...m, content: `${m.content}\n[bench copy ${copy}]` } : m,
      );
      const line = `${JSON.stringify({ ...run, traj })}\n`;
      out.push(line);
      size += Buffer.byteLength(line);
    }
  }
  writeFileSync(file, out.join(''));
  return out.length;
}

interface ImportRun {
  seconds: number;
  peakRss: number;
  items: number;
  conversations: number;
  exitCode: number;
}

/** Runs `npm run import` (tsx src/import/cli.ts) under /usr/bin/time; parses its summary. */
function runImport(databaseUrl: string, file: string): Promise<ImportRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'PEAK_RSS_KB %M', process.execPath, '--import', 'tsx', 'src/import/cli.ts'].concat([
        '--format',
        'OPENAI_CHAT',
        '--tenant',
        TENANT,
        '--database',
        databaseUrl,
        file,
      ]),
      { cwd: root, env: { ...process.env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let items = 0;
    let conversations = 0;
    let rest = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      // The summary line; nothing else is kept (the last line lists every thread id).
      const lines = (rest + text).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^imported (\d+) threads with (\d+) items/.exec(line);
        if (m) {
          conversations = Number(m[1]);
          items = Number(m[2]);
        }
      }
      if (rest.length > 10_000) rest = rest.slice(-200);
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-4_000);
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const kb = /PEAK_RSS_KB (\d+)/.exec(stderr)?.[1];
      if (!kb) return reject(new Error(`import gave no peak RSS: ${stderr}`));
      resolve({
        seconds: (Date.now() - started) / 1000,
        peakRss: Number(kb) * 1024,
        items,
        conversations,
        exitCode: code ?? -1,
      });
    });
  });
}

/** Reads a response body, holding one chunk at a time: bytes and newlines. */
async function drain(res: Response): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { bytes, lines };
}

export const tTranscripts: Scenario = async (ctx) => {
  const rows: ResultRow[] = [];
  const data: Record<string, unknown> = {};
  const dir = mkdtempSync(join(tmpdir(), 'threadstore-bench-t-'));
  try {
    // Import.
    // Baseline: the same command importing one conversation (the process's own footprint).
    const one = join(dir, 'one.jsonl');
    writeChatJsonl(one, 1, -1);
    const small = await runImport(ctx.db.url, one);
    data.importOne = small;
    const targetBytes = (ctx.quick ? 10 : 100) * 1_000_000;
    const file = join(dir, 'chat.jsonl');
    const lines = writeChatJsonl(file, targetBytes);
    const fileBytes = statSync(file).size;
    ctx.log(`  T: import of ${fmt(fileBytes / MB)} MB, ${lines} conversations`);
    const imp = await runImport(ctx.db.url, file);
    data.import = { fileBytes, lines, ...imp };
    const rate = imp.items / imp.seconds;
    rows.push({
      case: `npm run import, ${fmt(fileBytes / 1e6)} MB Chat JSONL (${imp.conversations.toLocaleString('en-US')} conversations, one transaction each)`,
      metric: 'items/s; peak RSS',
      value: `${fmt(rate)} items/s (${imp.items.toLocaleString('en-US')} items in ${fmt(imp.seconds)} s); peak RSS ${fmt(imp.peakRss / MB)} MB`,
      baseline: `one conversation: peak RSS ${fmt(small.peakRss / MB)} MB in ${fmt(small.seconds)} s`,
      ratio: null,
      ratioText: `RSS +${fmt((imp.peakRss - small.peakRss) / MB)} MB`,
      target: '(report)',
      met: imp.exitCode === 0 && imp.conversations === lines ? null : false,
    });

    // Export.
    const n = ctx.quick ? 20_000 : 100_000;
    await ctx.db.createThreads(['t-export']);
    await ctx.db.seedItems('t-export', n, true);
    await ctx.db.analyze();
    const app = await startApp(ctx.db.url, { name: 'threadstore-export' });
    try {
      const url = (format: string) => `${app.url}/threads/t-export/export?format=${format}`;
      const get = (format: string) =>
        fetch(url(format), { headers: { 'x-graphql-yoga-csrf': '1' } });
      await drain(await get('OPENAI_CHAT')); // warm-up: code loaded, pool open
      const before = peakOf(app.process.pid!);
      data.exportStartPeak = before;
      for (const [format, shape] of [
        ['THREADSTORE_JSONL', 'JSONL'],
        ['OPENAI_CHAT', 'JSON array'],
      ] as const) {
        const rates: number[] = [];
        let bytes = 0;
        for (let r = 0; r < Math.max(3, ctx.rounds); r++) {
          const t0 = performance.now();
          const res = await get(format);
          if (res.status !== 200) throw new Error(`export ${format}: HTTP ${res.status}`);
          const body = await drain(res);
          rates.push(n / ((performance.now() - t0) / 1000));
          bytes = body.bytes;
          if (format === 'THREADSTORE_JSONL' && body.lines !== n + 1) {
            throw new Error(`export ${format}: ${body.lines} lines, expected ${n + 1}`);
          }
        }
        const rr = range(rates);
        const grew = peakOf(app.process.pid!) - before;
        data[`export-${format}`] = { rates, bytes, peakGrowth: grew };
        rows.push({
          case: `GET /threads/<id>/export, ${n.toLocaleString('en-US')} items as ${shape} (${fmt(bytes / MB)} MB)`,
          metric: 'items/s; server peak RSS growth',
          value: `${fmt(rr.median)} items/s (${fmt(rr.min)}–${fmt(rr.max)}); peak RSS +${fmt(grew / MB)} MB`,
          baseline: `server peak RSS after warm-up: ${fmt(before / MB)} MB`,
          ratio: null,
          ratioText: `RSS +${fmt(grew / MB)} MB`,
          target: '(report)',
          met: null,
        });
      }
    } finally {
      await app.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    id: 'T',
    title: 'transcripts: import and export at scale',
    rows,
    notes: [
      'Import: `npm run import -- --format OPENAI_CHAT` in its own process on the bench database; the file is copies of the tau-bench fixture runs (one run a line, 45 items a run on average), each copy with a marked system prompt so every conversation is new; peak RSS from /usr/bin/time (%M); baseline: the same command importing a one-conversation file first (the footprint of the process itself: Node, tsx, Prisma). One round (a full file).',
      'Export: a fresh app (npm start), a 100k-item thread seeded by bulk SQL (~200-byte messages, user and assistant alternating); the body read by fetch in the bench process, one chunk at a time; rates per round (median, min–max), peak RSS growth (the heap is not capped, so V8 may grow it lazily; test/transcripts-export.test.ts proves the bound with a 128 MB heap) = VmHWM after the rounds − VmHWM after one warm-up export.',
    ],
    profiles: [],
    data,
  };
};
