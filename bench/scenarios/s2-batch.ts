/**
 * S2: 20- and 100-item appends, in rows/s, against a raw multi-row insert of the same rows
 * (the bare server's one-transaction UPDATE + multi-row INSERT). Target ≥ 0.6.
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

const CONNECTIONS = 8;

export const s2Batch: Scenario = async (ctx) => {
  const threads = Array.from({ length: CONNECTIONS }, (_, i) => `s2-batch-${i}`);
  await ctx.db.createThreads(threads);
  const { app, baseline } = await ctx.servers();
  const rows: ResultRow[] = [];
  const profiles: ProfileSummary[] = [];
  const data: Record<string, unknown> = {};
  let missed: { size: number; bodies: string[] } | null = null;
  for (const size of [20, 100]) {
    const bodies = threads.map((id) => appendBody(id, size));
    const cmp = await compareThroughput(
      ctx,
      [
        { name: 'threadstore', url: `${app.url}/graphql`, bodies },
        { name: 'raw multi-row insert', url: `${baseline.url}/append`, bodies },
      ],
      CONNECTIONS,
      `S2 ${size}-item`,
    );
    data[`${size} items`] = cmp;
    const row = throughputRow(cmp, 'threadstore', 'raw multi-row insert', {
      case: `${size}-item appends`,
      metric: `rows/s, c=${CONNECTIONS}`,
      unit: 'rows/s',
      per: size,
      target: 0.6,
    });
    rows.push(row);
    if (row.met === false) missed = { size, bodies };
  }
  // One profile, of the largest missed batch: per-item costs show most there.
  if (missed && ctx.profile)
    profiles.push(await profileApp(ctx, `S2 ${missed.size}-item`, missed.bodies, CONNECTIONS));
  return {
    id: 'S2',
    title: '20- and 100-item appends, rows/s',
    rows,
    notes: [
      `${CONNECTIONS} connections, each appending to its own thread; ~200-byte message items.`,
    ],
    profiles,
    data,
  };
};
