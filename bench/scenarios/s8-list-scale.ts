/**
 * S8: the thread list at 1,000 and at 1,000,000 threads in a tenant. Two tenants on one bench
 * database (bulk SQL; 100 agents, names of two words from a list and a pseudo-random code),
 * one app per tenant (DEFAULT_TENANT; the bench has no auth), measured in interleaved rounds:
 * first page, a deep page (cursor from the middle), an agent's first page, nameContains with a
 * selective needle (one thread's code) and a common one (a word in about 2% of the names), and
 * a selected totalCount. Targets: list p50(1M)/p50(1k) ≤ 1.2; name search p50 ≤ 50 ms at 1M.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { encodeCursor } from '../../src/pagination.js';
import type { ResultRow, Scenario } from '../lib/context.js';
import type { BenchDb } from '../lib/db.js';
import { type Server, startApp } from '../lib/proc.js';
import { fmt, fmtRange, type LatencySummary, range, ratioRange } from '../lib/stats.js';

const WORDS = (
  'amber anchor apple arrow aspen atlas autumn badge basil beacon birch blossom breeze brook ' +
  'cabin canyon cedar cherry cinder clover cobalt comet coral cotton crystal dawn delta desert ' +
  'echo ember falcon fern fjord flint forest frost galaxy garnet glacier granite harbor hazel ' +
  'heron horizon indigo island ivory jade jasmine juniper kestrel lagoon lantern lemon lilac ' +
  'lotus maple marble meadow meteor mint mist nebula nectar oasis ocean olive onyx orchid ' +
  'pebble pepper pine planet plum prairie quartz quill raven reef river ruby saffron sage ' +
  'sequoia shadow sierra silver spruce summit thistle thunder tulip velvet willow zenith'
).split(' ');

const AGENTS = 100;
const COMMON = 'harbor';

/** Thread i of a tenant: its id, agent, name and time (ms before `base`, 1 s apart). */
function thread(i: number) {
  const code = ((Math.imul(i + 1, 2654435761) >>> 0) % 36 ** 6).toString(36).padStart(6, '0');
  const name = `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${code}`;
  return {
    id: `s8-${String(i).padStart(7, '0')}`,
    agentId: `agent-${i % AGENTS}`,
    name,
    code,
    offsetMs: i * 1000,
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

/** Seeds `n` threads in `tenant` by bulk SQL (the Thread triggers keep the name index). */
export async function seed(db: BenchDb, tenant: string, n: number, base: number): Promise<void> {
  const chunk = 20_000;
  if (db.provider === 'sqlite') {
    const sqlite = new Database(db.url.replace(/^file:/, ''), { timeout: 30_000 });
    try {
      const insert = sqlite.prepare(
        `INSERT INTO "Thread" ("tenantId","id","agentId","name","nameFolded","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
         VALUES (?,?,?,?,?,0,'{}','{}',?,?,0,0)`,
      );
      for (let from = 0; from < n; from += chunk) {
        sqlite.transaction(() => {
          for (let i = from; i < Math.min(n, from + chunk); i++) {
            const t = thread(i);
            const at = iso(base - t.offsetMs);
            insert.run(tenant, t.id, t.agentId, t.name, t.name.toLowerCase(), at, at);
          }
        })();
      }
      sqlite.exec('ANALYZE');
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    for (let from = 0; from < n; from += chunk) {
      const rows = Array.from({ length: Math.min(chunk, n - from) }, (_, k) => thread(from + k));
      await client.query(
        `INSERT INTO "Thread" ("tenantId","id","agentId","name","nameFolded","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
         SELECT $1, id, agent, name, lower(name), false, '{}', '{}', to_timestamp(at / 1000.0), to_timestamp(at / 1000.0), 0, 0
         FROM unnest($2::text[], $3::text[], $4::text[], $5::float8[]) AS t(id, agent, name, at)`,
        [
          tenant,
          rows.map((t) => t.id),
          rows.map((t) => t.agentId),
          rows.map((t) => t.name),
          rows.map((t) => base - t.offsetMs),
        ],
      );
    }
    await client.query('VACUUM ANALYZE "Thread"');
  } finally {
    await client.end();
  }
}

const LIST = `query S8($first: Int!, $after: String, $filter: ThreadFilter) {
  threads(first: $first, after: $after, filter: $filter) {
    edges { cursor node { id agentId name updatedAt itemCount } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const COUNT = `query S8Count { threads(first: 1) { totalCount edges { node { id } } } }`;

const body = (variables: Record<string, unknown>) =>
  JSON.stringify({ query: LIST, variables: { first: 50, ...variables } });

const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);

export const s8ListScale: Scenario = async (ctx) => {
  const sizes = [1_000, ctx.quick ? 100_000 : 1_000_000];
  const samples = ctx.quick ? 30 : 100;
  const notes: string[] = [];
  const base = Date.now();
  const tenantOf = (n: number) => `s8-${label(n)}`;
  for (const n of sizes) {
    const t0 = Date.now();
    await seed(ctx.db, tenantOf(n), n, base);
    const seconds = (Date.now() - t0) / 1000;
    ctx.log(`  S8 seeded ${label(n)} threads in ${seconds.toFixed(1)} s`);
    notes.push(`Seeded ${label(n)} threads by bulk SQL in ${seconds.toFixed(1)} s.`);
  }
  const cases = (n: number) => {
    const middle = thread(Math.floor(n / 2));
    const cursor = encodeCursor(tenantOf(n), {
      o: 'UPDATED_AT_DESC',
      t: base - middle.offsetMs,
      i: middle.id,
    });
    return [
      { name: 'first page', body: body({}), search: false },
      { name: 'deep page (middle)', body: body({ after: cursor }), search: false },
      {
        // first: 10: at 1k threads an agent has 10, so both sizes return a full page.
        name: 'agent first page (first: 10)',
        body: body({ first: 10, filter: { agentId: 'agent-42' } }),
        search: false,
      },
      {
        name: `nameContains selective ("${middle.code}")`,
        body: body({ filter: { nameContains: middle.code.toUpperCase() } }),
        search: true,
      },
      {
        name: `nameContains common ("${COMMON}", ~2%)`,
        body: body({ filter: { nameContains: COMMON } }),
        search: true,
      },
      { name: 'totalCount', body: JSON.stringify({ query: COUNT }), search: false, count: true },
    ];
  };
  const apps: Record<number, Server> = {};
  try {
    for (const n of sizes) {
      apps[n] = await startApp(ctx.db.url, {
        env: { DEFAULT_TENANT: tenantOf(n) },
        name: `threadstore (S8 ${label(n)})`,
      });
    }
    const names = cases(sizes[0]!).map((c) => c.name.replace(/ \(".*/, ''));
    const results: Record<string, Record<number, LatencySummary[]>> = {};
    for (const name of names) results[name] = Object.fromEntries(sizes.map((n) => [n, []]));
    for (const n of sizes) {
      for (const c of cases(n)) {
        await ctx.load.call({
          cmd: 'latency',
          url: `${apps[n]!.url}/graphql`,
          body: c.body,
          count: 1,
          warmup: 10,
        });
      }
    }
    for (let r = 0; r < ctx.rounds; r++) {
      for (const n of sizes) {
        const list = cases(n);
        for (const [k, c] of list.entries()) {
          results[names[k]!]![n]!.push(
            await ctx.load.call<LatencySummary>({
              cmd: 'latency',
              url: `${apps[n]!.url}/graphql`,
              body: c.body,
              count: c.count ? Math.ceil(samples / 5) : samples,
              warmup: 3,
            }),
          );
        }
      }
      ctx.log(
        `  S8 round ${r + 1}/${ctx.rounds}: ${names.map((name) => `${name} ${sizes.map((n) => fmt(results[name]![n]!.at(-1)!.p50)).join('/')} ms`).join(', ')}`,
      );
    }
    const [small, big] = sizes as [number, number];
    const rows: ResultRow[] = cases(big).map((c, k) => {
      const name = names[k]!;
      const b = results[name]![big]!;
      const s = results[name]![small]!;
      const p50 = ratioRange(
        b.map((x) => x.p50),
        s.map((x) => x.p50),
      );
      const p99 = ratioRange(
        b.map((x) => x.p99),
        s.map((x) => x.p99),
      );
      const bigP50 = range(b.map((x) => x.p50)).median;
      const isList = !c.search && !c.count;
      return {
        case: `${c.name}, ${label(big)} threads`,
        metric: c.search ? 'p50 latency (absolute)' : `latency vs ${label(small)} threads`,
        value: `p50 ${fmt(bigP50)} ms, p99 ${fmt(range(b.map((x) => x.p99)).median)} ms`,
        baseline: `${label(small)}: p50 ${fmt(range(s.map((x) => x.p50)).median)} ms, p99 ${fmt(range(s.map((x) => x.p99)).median)} ms`,
        ratio: p50,
        ratioText: `p50 ${fmtRange(p50)}; p99 ${fmtRange(p99)}`,
        target: isList ? 'p50 ≤ 1.20' : c.search ? 'p50 ≤ 50 ms' : '(report)',
        met: ctx.quick ? null : isList ? p50.median <= 1.2 : c.search ? bigP50 <= 50 : null,
      };
    });
    notes.push(
      `${samples} sequential requests per cell and round (totalCount: ${Math.ceil(samples / 5)}), one keep-alive connection, one app per tenant (DEFAULT_TENANT), both tenants in one Thread table; ${AGENTS} agents; default order updatedAt desc.`,
    );
    if (ctx.quick) notes.push('Quick run: 1k vs 100k threads instead of 1k vs 1M; no targets.');
    return {
      id: 'S8',
      title: 'Thread list and name search vs tenant size',
      rows,
      notes,
      profiles: [],
      data: { sizes, samples, results },
    };
  } finally {
    await Promise.allSettled(Object.values(apps).map((a) => a.stop()));
  }
};
