/**
 * S4: SQL statements per operation, exact, counted with the app's own counter
 * (`db.statements`, BEGIN/COMMIT excluded) around operations run in-process with yoga.fetch
 * (the test kit's app and countStatements, as test/statements.test.ts), and while live
 * followers receive events.
 * Targets: threads(first: 100) with lastItem and itemCount = the count of first: 10, ≤ 3;
 * history page ≤ 2; append ≤ 2 in one transaction; 0 per follower per live event.
 */
import { BACKGROUND_SQL } from '../../src/db/client.js';
import { buildTestApp } from '../../test/testkit/app.js';
import type { ResultRow, Scenario } from '../lib/context.js';
import { appendBody, FOLLOW, pageBody } from '../lib/queries.js';

const LIST = `query List($n: Int) {
  threads(first: $n) { edges { node { id itemCount lastItem { ... on ConversationItem { id seq type } } } } }
}`;

export const s4Statements: Scenario = async (ctx) => {
  const ids = Array.from({ length: 120 }, (_, i) => `s4-t-${i}`);
  await ctx.db.createThreads(ids);
  for (const id of ids) await ctx.db.seedItems(id, 3);
  await ctx.db.createThreads(['s4-page', 's4-live']);
  await ctx.db.seedItems('s4-page', 200);

  // The app in process, as the tests build it, on the bench database (already migrated).
  const t = await buildTestApp({}, { migrate: false }, { url: ctx.db.url });
  const app = t.app;
  // Every statement the app sends, transaction ends included (db.statements.all: Prisma's
  // query events and the raw statements of src/db/raw.ts), to see transaction boundaries.
  const all: string[] = [];
  /** Runs a request body of lib/queries.ts through yoga.fetch; throws printing it on errors. */
  const run = (body: string) => {
    const { query, variables } = JSON.parse(body) as {
      query: string;
      variables?: Record<string, unknown>;
    };
    return t.execute(query, variables);
  };
  const count = async (body: string) => {
    await run(body); // warm: plans and caches, so the count is the steady state
    all.length = 0;
    app.db.statements.all = all;
    try {
      const { count, log } = await t.countStatements(() => run(body));
      return { count, log, all: [...all] };
    } finally {
      app.db.statements.all = null;
    }
  };

  const rows: ResultRow[] = [];
  const data: Record<string, unknown> = {};
  const row = (c: string, n: number, target: string, met: boolean, note = ''): ResultRow => ({
    case: c,
    metric: 'SQL statements',
    value: `${n}${note}`,
    baseline: '',
    ratio: null,
    ratioText: '—',
    target,
    met,
  });
  try {
    const list10 = await count(JSON.stringify({ query: LIST, variables: { n: 10 } }));
    const list100 = await count(JSON.stringify({ query: LIST, variables: { n: 100 } }));
    data.list10 = list10.log;
    data.list100 = list100.log;
    rows.push(
      row('threads(first: 10) with lastItem, itemCount', list10.count, '≤ 3', list10.count <= 3),
    );
    rows.push(
      row(
        'threads(first: 100) with lastItem, itemCount',
        list100.count,
        '= first: 10, ≤ 3',
        list100.count === list10.count && list100.count <= 3,
      ),
    );

    const page = await count(pageBody('s4-page', 99));
    data.page = page.log;
    rows.push(row('history page (50 items)', page.count, '≤ 2', page.count <= 2));

    for (const n of [1, 20]) {
      const append = await count(appendBody('s4-page', n));
      data[`append${n}`] = append.all;
      // The webhook worker's polls may run meanwhile: not the append's (count() skips them too).
      const own = append.all.filter((q) => !q.trimStart().startsWith(BACKGROUND_SQL));
      // One transaction: the statements sit between one BEGIN and its COMMIT.
      const body = own.filter((q) => !/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(q));
      const begins = own.filter((q) => /^BEGIN\b/i.test(q)).length;
      const commits = own.filter((q) => /^COMMIT\b/i.test(q)).length;
      // Prisma's query events show COMMIT; BEGIN shows on some adapters only.
      const last = own.at(-1) ?? '';
      const inside =
        commits === 1 &&
        /^COMMIT\b/i.test(last) &&
        (begins === 0 || (begins === 1 && /^BEGIN\b/i.test(own[0] ?? '')));
      // One statement with no BEGIN/COMMIT is its own transaction (PostgreSQL's append is one
      // data-modifying WITH statement).
      const single = begins === 0 && commits === 0 && body.length === 1;
      const txText = inside
        ? ', then COMMIT: one transaction'
        : single
          ? ': one statement, its own transaction'
          : ` (BEGIN ${begins}, COMMIT ${commits})`;
      rows.push(
        row(
          `appendItems, ${n} item${n > 1 ? 's' : ''}`,
          append.count,
          '≤ 2, one transaction',
          append.count <= 2 && (inside || single) && body.length === append.count,
          txText,
        ),
      );
    }

    // Live: followers subscribe (that costs its statements), then appends are counted.
    const port = await app.start(0);
    const followers = ctx.quick ? 20 : 100;
    const appends = 10;
    await ctx.load.call({
      cmd: 'follow',
      group: 's4',
      wsUrl: `ws://127.0.0.1:${port}/graphql`,
      count: followers,
      query: FOLLOW,
      variables: { t: 's4-live' },
    });
    await run(appendBody('s4-live', 1)); // probe: every follower is listening once it has seq 0
    await ctx.load.call({ cmd: 'collect', group: 's4', first: 0, last: 0 });
    const appendCost = (await count(appendBody('s4-page', 1))).count;
    let got = { lost: 0, deliveries: 0 };
    const live = await t.countStatements(async () => {
      for (let i = 0; i < appends; i++) await run(appendBody('s4-live', 1));
      got = await ctx.load.call<{ lost: number; deliveries: number }>({
        cmd: 'collect',
        group: 's4',
        first: 1,
        last: appends,
      });
    });
    const during = live.count - appends * appendCost;
    await ctx.load.call({ cmd: 'unfollow', group: 's4' });
    const perFollower = during / (followers * appends);
    data.live = {
      followers,
      appends,
      appendCost,
      extraStatements: during,
      deliveries: got.deliveries,
      lost: got.lost,
    };
    rows.push(
      row(
        `live event, ${followers} followers × ${appends} appends`,
        perFollower,
        '0 per follower per event',
        during === 0 && got.lost === 0,
        ` per follower per event (${during} beyond the appends' own; ${got.deliveries} deliveries)`,
      ),
    );
  } finally {
    await t.close();
  }
  return {
    id: 'S4',
    title: 'SQL statements per operation',
    rows,
    notes: [
      "Counted with the app's db.statements (BEGIN/COMMIT excluded) around in-process yoga.fetch calls after one warm-up call; transaction boundaries from db.statements.all (Prisma's query events and the raw statements' COMMIT).",
    ],
    profiles: [],
    data,
  };
};
