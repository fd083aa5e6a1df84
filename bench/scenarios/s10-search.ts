/**
 * S10: full-text search over items (Query.searchItems) at 1,000,000 items in a tenant (quick
 * runs: 100,000). The corpus is seeded by bulk SQL (1,000 items a thread, messages of 12-30
 * words drawn from a 5,000-word vocabulary with a skewed, Zipf-like frequency, plus planted
 * words and phrases of known frequency and some Japanese text) with Item.searchText made by the
 * app's own tokenizer (src/search/search-text.ts), so the search indexes (SQLite FTS5 through
 * triggers, PostgreSQL GIN) are filled as appends fill them. One app with DEFAULT_TENANT;
 * sequential requests of first: 20 with snippets; p50 and p99 per query, per round.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { searchTextOf } from '../../src/search/search-text.js';
import type { ResultRow, Scenario } from '../lib/context.js';
import type { BenchDb } from '../lib/db.js';
import { type Server, startApp } from '../lib/proc.js';
import { fmt, type LatencySummary, range, seededRandom } from '../lib/stats.js';

const TENANT = 's10';
const PER_THREAD = 1_000;
const VOCABULARY = 5_000;
const SYLLABLES = 'ka ri to mu se na lo pe vi da zu ho ne gi ra su te bo mi ya'.split(' ');

/** Word w of the vocabulary: two to four syllables, unique per w. */
function word(w: number): string {
  let out = '';
  let n = w + SYLLABLES.length;
  while (n > 0) {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return out;
}
const WORDS = Array.from({ length: VOCABULARY }, (_, w) => word(w));

/** The text of item i: skewed words, and planted terms at known rates. */
function textOf(i: number, random: () => number): string {
  const n = 12 + Math.floor(random() * 19);
  const words: string[] = [];
  // random()^3 skews toward the first words: word 0 is in about a fifth of the items.
  for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(random() ** 3 * VOCABULARY)]!);
  if (i % 100_000 === 7) words.push('zanzibar');
  if (i % 1_000 === 3) words.splice(3, 0, 'release', 'train');
  if (i % 100 === 5) words.push(['deploy', 'deployment', 'deployed'][i % 3]!);
  if (i % 500 === 11) return `${words.join(' ')} 東京都の天気予報は晴れです`;
  return words.join(' ');
}

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

/** Seeds `n` message items in threads of PER_THREAD by bulk SQL; returns the seconds taken. */
export async function seed(db: BenchDb, n: number): Promise<number> {
  const started = Date.now();
  const random = seededRandom(10);
  const base = Date.now() - n;
  const threads = Math.ceil(n / PER_THREAD);
  const threadId = (t: number) => `s10-${String(t).padStart(5, '0')}`;
  const chunk = 10_000;
  const rows = function* () {
    for (let from = 0; from < n; from += chunk) {
      const out: { thread: string; seq: number; at: string; data: string; search: string }[] = [];
      for (let i = from; i < Math.min(n, from + chunk); i++) {
        const text = textOf(i, random);
        out.push({
          thread: threadId(Math.floor(i / PER_THREAD)),
          seq: i % PER_THREAD,
          at: iso(base + i),
          data: JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: text }),
          search: searchTextOf(text) ?? '',
        });
      }
      yield out;
    }
  };
  const now = iso(Date.now());
  if (db.provider === 'sqlite') {
    const sqlite = new Database(db.url.replace(/^file:/, ''), { timeout: 30_000 });
    try {
      const thread = sqlite.prepare(
        `INSERT INTO "Thread" ("tenantId","id","agentId","name","nameFolded","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
         VALUES (?,?,'s10-agent',NULL,NULL,0,'{}','{}',?,?,?,?)`,
      );
      sqlite.transaction(() => {
        for (let t = 0; t < threads; t++) {
          const count = Math.min(PER_THREAD, n - t * PER_THREAD);
          thread.run(TENANT, threadId(t), now, now, count, count);
        }
      })();
      const item = sqlite.prepare(
        `INSERT INTO "Item" ("tenantId","threadId","seq","type","status","createdAt","dataJson","searchText")
         VALUES (?,?,?,'message','COMPLETED',?,?,?)`,
      );
      for (const batch of rows()) {
        sqlite.transaction(() => {
          for (const r of batch) item.run(TENANT, r.thread, r.seq, r.at, r.data, r.search);
        })();
      }
      sqlite.exec('ANALYZE');
    } finally {
      sqlite.close();
    }
  } else {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO "Thread" ("tenantId","id","agentId","archived","metadataJson","metadataCanonical","createdAt","updatedAt","nextSeq","itemCount")
         SELECT $1, 's10-' || lpad(t::text, 5, '0'), 's10-agent', false, '{}', '{}', now(), now(),
           least(${PER_THREAD}, $2 - t * ${PER_THREAD}), least(${PER_THREAD}, $2 - t * ${PER_THREAD})
         FROM generate_series(0, $3 - 1) AS t`,
        [TENANT, n, threads],
      );
      for (const batch of rows()) {
        await client.query(
          `INSERT INTO "Item" ("tenantId","threadId","seq","type","status","createdAt","dataJson","searchText")
           SELECT $1, r.thread, r.seq, 'message', 'COMPLETED', r.at, r.data, r.search
           FROM unnest($2::text[], $3::int[], $4::timestamptz[], $5::text[], $6::text[])
             AS r(thread, seq, at, data, search)`,
          [
            TENANT,
            batch.map((r) => r.thread),
            batch.map((r) => r.seq),
            batch.map((r) => r.at),
            batch.map((r) => r.data),
            batch.map((r) => r.search),
          ],
        );
      }
      await client.query('VACUUM ANALYZE "Item"');
    } finally {
      await client.end();
    }
  }
  return (Date.now() - started) / 1000;
}

const SEARCH = `query S10($query: String!, $filter: ItemSearchFilter) {
  searchItems(query: $query, filter: $filter, first: 20) {
    edges { cursor snippet thread { id } node { ... on ConversationItem { id seq } } }
    pageInfo { hasNextPage }
  }
}`;

export const s10Search: Scenario = async (ctx) => {
  const n = ctx.quick ? 100_000 : 1_000_000;
  const samples = ctx.quick ? 20 : 50;
  const label = `${n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`} items`;
  const seconds = await seed(ctx.db, n);
  ctx.log(`  S10 seeded ${label} in ${seconds.toFixed(1)} s`);
  const per = (k: number) => Math.round(n / k);
  // Word 25 is in about 5% of the items, word 0 in about 70% (random()^3 skew); every match
  // is ranked, so the last is the worst case and gets fewer samples.
  const cases = [
    { name: `rare word ("zanzibar", ~${per(100_000)} items)`, query: 'zanzibar' },
    { name: `phrase ("release train", ~${per(1_000)} items)`, query: '"release train"' },
    { name: `prefix ("deplo*", ~${per(100)} items)`, query: 'deplo*' },
    { name: `CJK substring ("天気", ~${per(500)} items)`, query: '天気' },
    { name: `common word ("${WORDS[25]}", ~5%)`, query: WORDS[25]! },
    { name: `two words ("${WORDS[25]} ${WORDS[0]}", ~3%)`, query: `${WORDS[25]} ${WORDS[0]}` },
    { name: `most common word ("${WORDS[0]}", ~70%)`, query: WORDS[0]!, heavy: true },
    {
      name: `most common word, one thread (threadId filter)`,
      query: WORDS[0]!,
      filter: { threadId: 's10-00000' },
    },
    { name: 'no match ("qqqq")', query: 'qqqq' },
  ];
  const bodies = cases.map((c) =>
    JSON.stringify({ query: SEARCH, variables: { query: c.query, filter: c.filter ?? null } }),
  );
  let app: Server | null = null;
  try {
    app = await startApp(ctx.db.url, {
      env: { DEFAULT_TENANT: TENANT },
      name: 'threadstore (S10)',
    });
    const url = `${app.url}/graphql`;
    for (const body of bodies) {
      await ctx.load.call({ cmd: 'latency', url, body, count: 1, warmup: 3 });
    }
    const results: LatencySummary[][] = cases.map(() => []);
    for (let r = 0; r < ctx.rounds; r++) {
      for (const [k, body] of bodies.entries()) {
        results[k]!.push(
          await ctx.load.call<LatencySummary>({
            cmd: 'latency',
            url,
            body,
            count: samples,
            warmup: 2,
          }),
        );
      }
      ctx.log(
        `  S10 round ${r + 1}/${ctx.rounds}: ${cases.map((c, k) => `${c.name.replace(/ \(.*/, '')} ${fmt(results[k]!.at(-1)!.p50)}`).join(', ')} ms`,
      );
    }
    const rows: ResultRow[] = cases.map((c, k) => {
      const p50 = range(results[k]!.map((x) => x.p50));
      const p99 = range(results[k]!.map((x) => x.p99));
      return {
        case: `${c.name}, ${label}`,
        metric: 'latency, first: 20 with snippets',
        value: `p50 ${fmt(p50.median)} ms, p99 ${fmt(p99.median)} ms`,
        baseline: '',
        ratio: null,
        ratioText: `p50 ${fmt(p50.min)}–${fmt(p50.max)} ms over rounds`,
        target: '(report)',
        met: null,
      };
    });
    return {
      id: 'S10',
      title: `Item search at ${label}`,
      rows,
      notes: [
        `Seeded ${label} (${Math.ceil(n / PER_THREAD)} threads of ${PER_THREAD}) by bulk SQL in ${seconds.toFixed(1)} s, the search index kept by the migrations' triggers (SQLite) or GIN index (PostgreSQL).`,
        `${samples} sequential requests per query and round (the ~70% word: ${Math.ceil(samples / 10)}), one keep-alive connection.`,
        ...(ctx.quick ? ['Quick run: 100k items instead of 1M.'] : []),
      ],
      profiles: [],
      data: { n, samples, cases: cases.map((c) => c.query), results },
    };
  } finally {
    await app?.stop();
  }
};
