/**
 * F: forkThread of a 100k-item thread (issue 14, point 1: "completes in one statement batch
 * per table, not a row at a time"). The source is seeded by bulk SQL (100,000 message items of
 * ~200 bytes, as S3's threads) plus two compaction records added through the API; then, per
 * round, forkThread at the last seq (every item copied) and at seq 999 (1,000 items), each
 * timed around an in-process yoga.fetch call and its statements counted with the app's own
 * counter (BEGIN/COMMIT excluded), and the fork deleted again so every round copies into a
 * table of the same size.
 * Targets: the statements of a 100k-item fork = those of a 1k-item fork, with one INSERT per
 * table; time: report (median of rounds, min–max), with the copy rate in items/s.
 */
import { buildTestApp } from '../../test/testkit/app.js';
import type { ResultRow, Scenario } from '../lib/context.js';
import { fmt, fmtRange, median, range } from '../lib/stats.js';

const FORK = `mutation BenchFork($input: ForkThreadInput!) {
  forkThread(input: $input) { thread { id itemCount nextSeq } }
}`;
const DELETE = `mutation BenchForkDelete($id: ID!) {
  deleteThread(input: { id: $id }) { itemsDeleted }
}`;
const COMPACT = `mutation BenchForkCompact($input: AddCompactionInput!) {
  addCompaction(input: $input) { compaction { markerSeq } }
}`;

export const fFork: Scenario = async (ctx) => {
  const size = 100_000;
  const source = 'f-source';
  await ctx.db.createThreads([source]);
  await ctx.db.seedItems(source, size);
  await ctx.db.analyze();

  const t = await buildTestApp({}, { migrate: false }, { url: ctx.db.url });
  const rows: ResultRow[] = [];
  const data: Record<string, unknown> = {};
  try {
    // Two records inside every fork below (their markers land at seqs 100000 and 100001).
    await t.execute(COMPACT, {
      input: { threadId: source, startSeq: 0, endSeq: 99, summary: 'first hundred' },
    });
    await t.execute(COMPACT, {
      input: { threadId: source, startSeq: 500, endSeq: 599, summary: 'another hundred' },
    });
    const lastSeq = size + 1;

    /** One fork at `atSeq`: ms, statements, items copied; the fork is deleted afterwards. */
    const forkOnce = async (atSeq: number) => {
      let result: { forkThread: { thread: { id: string; itemCount: number } } } | null = null;
      let ms = 0;
      const counted = await t.countStatements(async () => {
        const t0 = performance.now();
        result = await t.execute(FORK, { input: { threadId: source, atSeq } });
        ms = performance.now() - t0;
      });
      const fork = result!.forkThread.thread;
      await t.execute(DELETE, { id: fork.id });
      return { ms, statements: counted.count, log: counted.log, items: fork.itemCount };
    };

    await forkOnce(999); // warm: plans and caches
    const big: Awaited<ReturnType<typeof forkOnce>>[] = [];
    const small: Awaited<ReturnType<typeof forkOnce>>[] = [];
    for (let round = 0; round < ctx.rounds; round++) {
      big.push(await forkOnce(lastSeq));
      small.push(await forkOnce(999));
    }
    const bigMs = big.map((r) => r.ms);
    const smallMs = small.map((r) => r.ms);
    data.rounds = {
      big: big.map(({ log: _log, ...r }) => r),
      small: small.map(({ log: _l, ...r }) => r),
    };
    data.statements = big[0]!.log;
    const statements = big[0]!.statements;
    const inserts = (table: string) =>
      big[0]!.log.filter((q) => new RegExp(`INSERT INTO "${table}"`, 'i').test(q)).length;
    const sameCount =
      big.every((r) => r.statements === statements) &&
      small.every((r) => r.statements === statements);
    rows.push({
      case: `forkThread of ${fmt(big[0]!.items)} items (and 2 compaction records)`,
      metric: 'SQL statements',
      value: `${statements} (INSERT … SELECT: Item ${inserts('Item')}, Compaction ${inserts('Compaction')})`,
      baseline: `${small[0]!.statements} for 1,000 items`,
      ratio: null,
      ratioText: '—',
      target: '= 1k fork; one INSERT per table',
      met: sameCount && inserts('Item') === 1 && inserts('Compaction') === 1,
    });
    const bigRange = range(bigMs);
    rows.push({
      case: `forkThread of ${fmt(big[0]!.items)} items`,
      metric: 'time, ms',
      value: fmtRange(bigRange, 0),
      baseline: `${fmtRange(range(smallMs), 1)} for 1,000 items`,
      ratio: null,
      ratioText: '—',
      target: 'report',
      met: null,
    });
    rows.push({
      case: `forkThread of ${fmt(big[0]!.items)} items`,
      metric: 'items copied/s',
      value: fmt(Math.round(big[0]!.items / (median(bigMs) / 1000))),
      baseline: '',
      ratio: null,
      ratioText: '—',
      target: 'report',
      met: null,
    });
  } finally {
    await t.close();
  }
  return {
    id: 'F',
    title: 'forkThread of a 100k-item thread',
    rows,
    notes: [
      `The source: ${fmt(size)} seeded message items of ~200 bytes and 2 compaction records. Each round forks it at its last seq (every item copied) and at seq 999, in process through yoga.fetch (time includes the GraphQL layer and the commit), then deletes the fork. Statements counted with the app's db.statements (BEGIN/COMMIT excluded); median of ${ctx.rounds} rounds (min–max).`,
    ],
    profiles: [],
    data,
  };
};
