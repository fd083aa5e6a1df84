/**
 * S5: req/s of a 50-item history page and a 50-thread list, against the same SQL behind a bare
 * node:http handler, and (PostgreSQL) PostGraphile v5 on the same tables.
 * Targets: ≥ 0.5 of bare (PostgreSQL), ≥ 0.35 (SQLite); ≥ 1.0 of PostGraphile.
 */
import {
  compareThroughput,
  profileApp,
  type ResultRow,
  type Scenario,
  type Target,
  throughputRow,
} from '../lib/context.js';
import { type Server, startPostGraphile } from '../lib/proc.js';
import type { ProfileSummary } from '../lib/profile.js';
import { pageBody, threadsBody } from '../lib/queries.js';

const CONNECTIONS = 10;

const PGL_PAGE = `query Page($t: String!) {
  threadByTenantIdAndRowId(tenantId: "local", rowId: $t) {
    itemsByTenantIdAndThreadId(first: 50, orderBy: [SEQ_ASC]) {
      nodes { threadId seq type status createdAt dataJson }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const PGL_THREADS = `query Threads {
  allThreads(first: 50, condition: { tenantId: "local" }, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) {
    nodes { rowId agentId name updatedAt itemCount }
  }
}`;

export const s5Reads: Scenario = async (ctx) => {
  await ctx.db.createThreads(['s5-page']);
  await ctx.db.seedItems('s5-page', 1_000);
  const listIds = Array.from({ length: 60 }, (_, i) => `s5-list-${i}`);
  await ctx.db.createThreads(listIds);
  for (const id of listIds) await ctx.db.seedItems(id, 1);
  await ctx.db.analyze();
  const { app, baseline } = await ctx.servers();
  const notes: string[] = [];
  let pgl: Server | null = null;
  if (ctx.provider === 'postgresql') {
    try {
      pgl = await startPostGraphile(ctx.db.url);
    } catch (error) {
      notes.push(`PostGraphile could not be started: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const bareTarget = ctx.provider === 'postgresql' ? 0.5 : 0.35;
  const rows: ResultRow[] = [];
  const profiles: ProfileSummary[] = [];
  const data: Record<string, unknown> = {};
  try {
    const cases = [
      {
        name: '50-item history page',
        app: pageBody('s5-page', -1),
        pgl: JSON.stringify({ query: PGL_PAGE, variables: { t: 's5-page' } }),
        path: '/page',
      },
      {
        name: '50-thread list',
        app: threadsBody(50),
        pgl: JSON.stringify({ query: PGL_THREADS }),
        path: '/threads',
      },
    ];
    for (const c of cases) {
      const targets: Target[] = [
        { name: 'threadstore', url: `${app.url}/graphql`, bodies: [c.app] },
        { name: 'bare node:http', url: `${baseline.url}${c.path}`, bodies: [c.app] },
      ];
      if (pgl)
        targets.push({ name: 'PostGraphile v5', url: `${pgl.url}/graphql`, bodies: [c.pgl] });
      const cmp = await compareThroughput(ctx, targets, CONNECTIONS, `S5 ${c.name}`);
      data[c.name] = cmp;
      const vsBare = throughputRow(cmp, 'threadstore', 'bare node:http', {
        case: `${c.name} vs bare`,
        metric: `req/s, c=${CONNECTIONS}`,
        unit: 'req/s',
        target: bareTarget,
      });
      rows.push(vsBare);
      let missed = vsBare.met === false;
      if (pgl) {
        const vsPgl = throughputRow(cmp, 'threadstore', 'PostGraphile v5', {
          case: `${c.name} vs PostGraphile`,
          metric: `req/s, c=${CONNECTIONS}`,
          unit: 'req/s',
          target: 1.0,
        });
        rows.push(vsPgl);
        missed ||= vsPgl.met === false;
      } else {
        rows.push({
          case: `${c.name} vs PostGraphile`,
          metric: 'req/s',
          value: 'n/a',
          baseline:
            ctx.provider === 'sqlite'
              ? 'PostGraphile is PostgreSQL-only'
              : 'PostGraphile did not start',
          ratio: null,
          ratioText: 'n/a',
          target: '≥ 1.00',
          met: null,
        });
      }
      if (missed && ctx.profile)
        profiles.push(await profileApp(ctx, `S5 ${c.name}`, [c.app], CONNECTIONS));
    }
  } finally {
    await pgl?.stop();
  }
  notes.push(
    'Page: thread(id) { items(first: 50) { edges { node { id seq type status createdAt data } } pageInfo } } on a 1k-item thread; list: threads(first: 50) { id agentId name updatedAt itemCount }.',
  );
  if (ctx.provider === 'postgresql') {
    notes.push(
      'PostGraphile v5.1.5 (amber preset, pool 10) on the same tables: threadByTenantIdAndRowId { itemsByTenantIdAndThreadId(first: 50, orderBy: SEQ_ASC) } and allThreads(first: 50, condition: { tenantId }, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) (no archived filter: PostGraphile offers conditions on indexed columns only; no bench thread is archived). PostGraphile returns dataJson as the stored text, where threadstore and the bare server parse it into JSON. It declares node >= 22; on Node 20 it runs with a Promise.withResolvers polyfill.',
    );
  }
  return {
    id: 'S5',
    title: 'reads: history page and thread list, req/s',
    rows,
    notes,
    profiles,
    data,
  };
};
