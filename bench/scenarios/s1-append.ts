/**
 * S1: single-item appendItems at concurrency 16, spread over 16 threads and all on one thread,
 * against the same SQL behind a bare node:http handler on the same driver.
 * Target: PostgreSQL ≥ 0.50, SQLite ≥ 0.30 of the baseline's appends/s.
 */
import {
  compareThroughput,
  profileApp,
  type ResultRow,
  type Scenario,
  throughputRow,
} from '../lib/context.js';
import type { ProfileSummary } from '../lib/profile.js';
import { appendBody } from '../lib/queries.js';

export const s1Append: Scenario = async (ctx) => {
  const spread = Array.from({ length: 16 }, (_, i) => `s1-spread-${i}`);
  await ctx.db.createThreads([...spread, 's1-one']);
  const { app, baseline } = await ctx.servers();
  const target = ctx.provider === 'postgresql' ? 0.5 : 0.3;
  const cases = [
    { name: 'spread over 16 threads', bodies: spread.map((id) => appendBody(id, 1)) },
    { name: 'all on one thread', bodies: [appendBody('s1-one', 1)] },
  ];
  const rows: ResultRow[] = [];
  const profiles: ProfileSummary[] = [];
  const data: Record<string, unknown> = {};
  for (const c of cases) {
    const cmp = await compareThroughput(
      ctx,
      [
        { name: 'threadstore', url: `${app.url}/graphql`, bodies: c.bodies },
        { name: 'bare node:http', url: `${baseline.url}/append`, bodies: c.bodies },
      ],
      16,
      `S1 ${c.name}`,
    );
    data[c.name] = cmp;
    const row = throughputRow(cmp, 'threadstore', 'bare node:http', {
      case: c.name,
      metric: 'appends/s, c=16',
      unit: 'appends/s',
      target,
    });
    rows.push(row);
    // One profile per scenario: the cases differ little in where time goes.
    if (row.met === false && ctx.profile && profiles.length === 0)
      profiles.push(await profileApp(ctx, `S1 ${c.name}`, c.bodies, 16));
  }
  return {
    id: 'S1',
    title: 'single-item appendItems, concurrency 16',
    rows,
    notes: [
      'Baseline: UPDATE "Thread" ... RETURNING + a multi-row INSERT INTO "Item" of the same rows (search text included) in one transaction (the app sends them as one statement on PostgreSQL), via the same driver (better-sqlite3 / pg, pool 10), behind a bare node:http handler with the same request body.',
    ],
    profiles,
    data,
  };
};
