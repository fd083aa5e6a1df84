/**
 * Interleaved A/B of request throughput between variants of the app (issue 13, p13-jit): each
 * variant is a source tree (`dir`, its src/main.ts) plus environment, all on one bench database
 * (seeded like S5), load from bench/load.ts in a separate process, rounds alternated.
 *
 *   npx tsx scripts/ab-reads.ts [--provider sqlite] [--rounds 5] [--sec 3] [--cases page,threads,typename] \
 *     name=dir[:KEY=value,KEY=value] ...
 *
 * Prints req/s per round and the median ratio (min–max) of each variant to the first.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBenchDb, type Provider } from '../bench/lib/db.js';
import { forkRpc } from '../bench/lib/proc.js';
import { pageBody, threadsBody } from '../bench/lib/queries.js';
import type { CannonResult } from '../bench/load.js';
import { spawnServer } from '../test/testkit/process.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = argv[i + 1] ?? fallback;
  argv.splice(i, 2);
  return v;
};
const provider = opt('provider', 'sqlite') as Provider;
const rounds = Number(opt('rounds', '5'));
const sec = Number(opt('sec', '3'));
const connections = Number(opt('c', '10'));
const caseNames = opt('cases', 'page,threads,typename').split(',');
const profile = opt('profile', '');
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

/** CPU time (user + system, ms) the process `pid` used so far, all its threads. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime: fields 14 and 15 of stat, 12 and 13 after "pid (comm) ".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

const db = await createBenchDb(provider);
const load = forkRpc('load.ts');
const servers: Awaited<ReturnType<typeof spawnServer>>[] = [];
try {
  await db.createThreads(['s5-page']);
  await db.seedItems('s5-page', 1_000);
  const listIds = Array.from({ length: 60 }, (_, i) => `s5-list-${i}`);
  await db.createThreads(listIds);
  for (const id of listIds) await db.seedItems(id, 1);
  await db.analyze();
  for (const v of variants) {
    const nodeArgs = [
      ...(profile === v.name ? ['--cpu-prof', '--cpu-prof-dir', `/tmp/p13-prof-${v.name}`] : []),
      '--import',
      'tsx',
      join(v.dir, 'src', 'main.ts'),
    ];
    servers.push(
      await spawnServer({
        name: v.name,
        nodeArgs,
        // Start-up on a loaded machine can take a while.
        timeoutMs: 180_000,
        env: {
          LOG_LEVEL: 'warn',
          DATABASE_URL: db.url,
          RATE_LIMIT_RPS: '1000000',
          RATE_LIMIT_BURST: '1000000',
          ...v.env,
        },
      }),
    );
  }
  const bodies: Record<string, string> = {
    page: pageBody('s5-page', -1),
    threads: threadsBody(50),
    typename: JSON.stringify({ query: '{ __typename }' }),
  };
  for (const c of caseNames) {
    const body = bodies[c];
    if (!body) throw new Error(`unknown case ${c}`);
    const rps: number[][] = variants.map(() => []);
    // Server CPU per request (µs): what a request costs, whatever else the machine runs.
    const cpu: number[][] = variants.map(() => []);
    const cannon = (i: number, durationSec: number) =>
      load.call<CannonResult>({
        cmd: 'cannon',
        url: `${servers[i]!.url}/graphql`,
        bodies: [body],
        connections,
        durationSec,
      });
    for (let i = 0; i < variants.length; i++) await cannon(i, 1);
    for (let r = 0; r < rounds; r++) {
      // Alternate which variant goes first.
      const order = variants.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      for (const i of order) {
        const pid = servers[i]!.process.pid!;
        const before = cpuMs(pid);
        const res = await cannon(i, sec);
        cpu[i]!.push(((cpuMs(pid) - before) * 1000) / Math.max(res.total, 1));
        const failed = res.errors + res.non2xx + res.mismatches + res.timeouts;
        if (failed) console.log(`  ${variants[i]!.name}: ${failed} failures`);
        rps[i]!.push(res.rps);
      }
      console.log(
        `${c} round ${r + 1}: ${variants.map((v, i) => `${v.name} ${Math.round(rps[i]!.at(-1)!)}/s ${Math.round(cpu[i]!.at(-1)!)} µs CPU/req`).join(', ')}`,
      );
    }
    for (let i = 1; i < variants.length; i++) {
      // CPU per request of the first over this one: above 1 means this one is cheaper.
      const cpuRatios = cpu[i]!.map((x, r) => cpu[0]![r]! / x);
      console.log(
        `${c}: CPU/req ${variants[0]!.name}/${variants[i]!.name} = ${median(cpuRatios).toFixed(2)} (${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)}), medians ${variants.map((v, j) => `${v.name} ${Math.round(median(cpu[j]!))} µs`).join(', ')}`,
      );
      const ratios = rps[i]!.map((x, r) => x / rps[0]![r]!);
      console.log(
        `${c}: ${variants[i]!.name}/${variants[0]!.name} = ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}), medians ${variants.map((v, j) => `${v.name} ${Math.round(median(rps[j]!))}`).join(', ')}`,
      );
    }
  }
} finally {
  for (const s of servers) await s.stop();
  await load.close();
  await db.drop();
}
