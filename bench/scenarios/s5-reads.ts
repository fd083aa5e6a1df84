/**
 * S5: req/s of a 50-item history page at random threads and positions, and of a 50-thread
 * list of a random agent, against the same SQL behind a bare node:http handler and
 * (PostgreSQL) PostGraphile v5 on the same tables. Every request of a round takes the next body
 * of a pool of random draws (the same pool, in the same order, for every server compared), so
 * nothing is measured from a page the previous request just read.
 * Targets: ≥ 0.5 of bare (PostgreSQL), ≥ 0.35 (SQLite); ≥ 1.0 of PostGraphile.
 */
import {
  type BenchContext,
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
import { seededRandom } from '../lib/stats.js';

const CONNECTIONS = 10;
const PAGE = 50;
const ITEMS_PER_THREAD = 1_000;
/** Random draws per pool: more than one round sends, so a round never repeats a body. */
const POOL = 4_096;

const PGL_PAGE = `query Page($t: String!, $c: Cursor) {
  threadByTenantIdAndRowId(tenantId: "local", rowId: $t) {
    itemsByTenantIdAndThreadId(first: 50, after: $c, orderBy: [SEQ_ASC]) {
      nodes { threadId seq type status createdAt dataJson }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;
const PGL_CURSORS = `query Cursors($t: String!, $n: Int!) {
  threadByTenantIdAndRowId(tenantId: "local", rowId: $t) {
    itemsByTenantIdAndThreadId(first: $n, orderBy: [SEQ_ASC]) { edges { cursor node { seq } } }
  }
}`;
const PGL_THREADS = `query Threads($a: String!) {
  allThreads(first: 50, condition: { tenantId: "local", agentId: $a }, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) {
    nodes { rowId agentId name updatedAt itemCount }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** A history page request: a thread and the seq it starts after (-1: from the start). */
interface PageDraw {
  thread: string;
  after: number;
}

/**
 * PostGraphile's own `after` cursor of every item of `threads` (its amber preset filters seq by
 * equality only, and offset paging would walk every earlier item): one walk per thread.
 */
async function pglCursors(pgl: Server, threads: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const t of threads) {
    const res = await pgl.graphql<{
      threadByTenantIdAndRowId: {
        itemsByTenantIdAndThreadId: { edges: { cursor: string; node: { seq: number } }[] };
      } | null;
    }>(PGL_CURSORS, { t, n: ITEMS_PER_THREAD });
    const edges = res.data?.threadByTenantIdAndRowId?.itemsByTenantIdAndThreadId.edges;
    if (!edges || edges.length !== ITEMS_PER_THREAD)
      throw new Error(`PostGraphile cursors of ${t}: ${JSON.stringify(res).slice(0, 300)}`);
    const cursors: string[] = [];
    for (const e of edges) cursors[e.node.seq] = e.cursor;
    out.set(t, cursors);
  }
  return out;
}

/** Seeds the page threads (bulk SQL) and the agents' threads of the list. */
async function seed(ctx: BenchContext, threads: string[], agents: string[], perAgent: number) {
  await ctx.db.createThreads(threads);
  for (const t of threads) await ctx.db.seedItems(t, ITEMS_PER_THREAD);
  for (const a of agents)
    await ctx.db.createThreads(
      Array.from({ length: perAgent }, (_, i) => `${a}-thread-${i}`),
      a,
    );
  await ctx.db.analyze();
}

export const s5Reads: Scenario = async (ctx) => {
  const threadCount = ctx.quick ? 40 : 200;
  const agentCount = ctx.quick ? 10 : 20;
  const perAgent = 100;
  const threads = Array.from({ length: threadCount }, (_, i) => `s5-t-${i}`);
  const agents = Array.from({ length: agentCount }, (_, i) => `s5-agent-${i}`);
  const t0 = Date.now();
  await seed(ctx, threads, agents, perAgent);
  ctx.log(
    `  S5 seeded ${threadCount} threads of ${ITEMS_PER_THREAD} items and ${agentCount} agents × ${perAgent} threads in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  const random = seededRandom(13);
  const pick = (n: number) => Math.floor(random() * n);
  // Positions -1 (the head) to 949: every page is a full one of 50.
  const pages: PageDraw[] = Array.from({ length: POOL }, () => ({
    thread: threads[pick(threadCount)]!,
    after: pick(ITEMS_PER_THREAD - PAGE + 1) - 1,
  }));
  const listAgents = Array.from({ length: POOL }, () => agents[pick(agentCount)]!);

  const { app, baseline } = await ctx.servers();
  const notes: string[] = [];
  let pgl: Server | null = null;
  let cursors: Map<string, string[]> | null = null;
  if (ctx.provider === 'postgresql') {
    try {
      pgl = await startPostGraphile(ctx.db.url);
      cursors = await pglCursors(pgl, threads);
    } catch (error) {
      notes.push(`PostGraphile could not be used: ${(error as Error).message.split('\n')[0]}`);
      await pgl?.stop();
      pgl = null;
    }
  }
  const bareTarget = ctx.provider === 'postgresql' ? 0.5 : 0.35;
  const rows: ResultRow[] = [];
  const profiles: ProfileSummary[] = [];
  const data: Record<string, unknown> = { threadCount, agentCount, perAgent, pool: POOL };
  try {
    const pageBodies = pages.map((d) => pageBody(d.thread, d.after, PAGE));
    const listBodies = listAgents.map((a) => threadsBody(PAGE, a));
    const cases = [
      {
        name: '50-item history page',
        app: pageBodies,
        pgl: pages.map((d) =>
          JSON.stringify({
            query: PGL_PAGE,
            variables: { t: d.thread, c: d.after < 0 ? null : cursors?.get(d.thread)?.[d.after] },
          }),
        ),
        path: '/page',
      },
      {
        name: '50-thread list',
        app: listBodies,
        pgl: listAgents.map((a) => JSON.stringify({ query: PGL_THREADS, variables: { a } })),
        path: '/threads',
      },
    ];
    for (const c of cases) {
      const targets: Target[] = [
        { name: 'threadstore', url: `${app.url}/graphql`, bodies: c.app, perRequest: true },
        {
          name: 'bare node:http',
          url: `${baseline.url}${c.path}`,
          bodies: c.app,
          perRequest: true,
        },
      ];
      if (pgl)
        targets.push({
          name: 'PostGraphile v5',
          url: `${pgl.url}/graphql`,
          bodies: c.pgl,
          perRequest: true,
        });
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
        profiles.push(await profileApp(ctx, `S5 ${c.name}`, c.app, CONNECTIONS, {}, true));
    }
  } finally {
    await pgl?.stop();
  }
  notes.push(
    `Page: thread(id) { items(first: 50, afterSeq) { edges { node { id seq type status createdAt data } } pageInfo } } at a random one of ${threadCount} threads of ${ITEMS_PER_THREAD} items and a random afterSeq from -1 to ${ITEMS_PER_THREAD - PAGE - 1} (always a full page); list: threads(first: 50, filter: { agentId }) { edges { node { id agentId name updatedAt itemCount } } pageInfo } of a random one of ${agentCount} agents with ${perAgent} threads each. Each request takes the next of ${POOL} random draws (seeded; within a round the same sequence for every server, each round starting elsewhere in the pool); no response cache anywhere (threadstore has none; the bare server and PostGraphile are run without one).`,
  );
  if (ctx.provider === 'postgresql') {
    notes.push(
      'PostGraphile v5.1.5 (amber preset, pool 10) on the same tables: threadByTenantIdAndRowId { itemsByTenantIdAndThreadId(first: 50, after: <its own cursor of the item at afterSeq>, orderBy: SEQ_ASC) } (its cursors read once per thread before the rounds: the amber preset filters seq by equality only, and offset paging would walk every earlier item) and allThreads(first: 50, condition: { tenantId, agentId }, orderBy: [UPDATED_AT_DESC, ROW_ID_ASC]) { nodes pageInfo } (no archived filter: PostGraphile offers conditions on indexed columns only; no bench thread is archived). PostGraphile returns dataJson as the stored text, where threadstore and the bare server parse it into JSON. It declares node >= 22; on Node 20 it runs with a Promise.withResolvers polyfill.',
    );
  }
  return {
    id: 'S5',
    title: 'reads at random threads and positions: history page and thread list, req/s',
    rows,
    notes,
    profiles,
    data,
  };
};
