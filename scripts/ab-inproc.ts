/**
 * In-process interleaved A/B of yoga.fetch throughput between app variants (source trees plus
 * environment) on one bench database: no sockets, so it isolates yoga, our plugins and
 * execution from the HTTP layer and the load generator (issue 13, p13-jit).
 *
 *   npx tsx scripts/ab-inproc.ts [--rounds 9] [--ms 1000] [--cases page,threads,typename] name=dir[:K=v,...] ...
 */
import { join } from 'node:path';
import pino from 'pino';
import { createBenchDb } from '../bench/lib/db.js';
import { pageBody, threadsBody } from '../bench/lib/queries.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = argv[i + 1] ?? fallback;
  argv.splice(i, 2);
  return v;
};
const rounds = Number(opt('rounds', '9'));
const ms = Number(opt('ms', '1000'));
const concurrency = Number(opt('c', '10'));
const caseNames = opt('cases', 'page,threads,typename').split(',');
const variants = argv.map((spec) => {
  const [name, rest] = spec.split('=', 2) as [string, string];
  const [dir, envText] = rest.split(':', 2) as [string, string | undefined];
  const env = Object.fromEntries(
    (envText ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=', 2) as [string, string]),
  );
  return { name, dir, env };
});
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const db = await createBenchDb('sqlite');
await db.createThreads(['s5-page']);
await db.seedItems('s5-page', 1_000);
const listIds = Array.from({ length: 60 }, (_, i) => `s5-list-${i}`);
await db.createThreads(listIds);
for (const id of listIds) await db.seedItems(id, 1);
await db.analyze();

type AppLike = {
  yoga: { fetch: (url: string, init: RequestInit) => Promise<Response> };
  stop(): Promise<void>;
};
const apps: AppLike[] = [];
for (const v of variants) {
  const { buildApp } = await import(join(v.dir, 'src/server/app.ts'));
  const { parseEnv } = await import(join(v.dir, 'src/env.ts'));
  apps.push(
    await buildApp(
      parseEnv({
        LOG_LEVEL: 'silent',
        RATE_LIMIT_RPS: '1000000',
        RATE_LIMIT_BURST: '1000000',
        ...v.env,
        DATABASE_URL: db.url,
      }),
      { logger: pino({ level: 'silent' }), migrate: false },
    ),
  );
}
const bodies: Record<string, string> = {
  page: pageBody('s5-page', -1),
  threads: threadsBody(50),
  typename: JSON.stringify({ query: '{ __typename }' }),
};

async function run(app: AppLike, body: string, forMs: number): Promise<number> {
  const end = performance.now() + forMs;
  let done = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"errors"')) throw new Error(text.slice(0, 300));
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((performance.now() - started) / 1000);
}

try {
  for (const c of caseNames) {
    const body = bodies[c]!;
    const rps: number[][] = variants.map(() => []);
    for (const app of apps) await run(app, body, 500);
    for (let r = 0; r < rounds; r++) {
      const order = variants.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      for (const i of order) rps[i]!.push(await run(apps[i]!, body, ms));
    }
    for (let i = 1; i < variants.length; i++) {
      const ratios = rps[i]!.map((x, r) => x / rps[0]![r]!);
      console.log(
        `${c}: ${variants[i]!.name}/${variants[0]!.name} = ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), ${rounds} rounds, medians ${variants.map((v, j) => `${v.name} ${Math.round(median(rps[j]!))}/s`).join(', ')}`,
      );
    }
  }
} finally {
  for (const app of apps) await app.stop();
  await db.drop();
}
