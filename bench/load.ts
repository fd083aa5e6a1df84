/**
 * The load generator, always a separate process from the servers it measures (forked by
 * bench/run.ts, driven over IPC). Everything goes to 127.0.0.1 and is bounded in count or time.
 *
 *   cannon      autocannon: N connections for D seconds (or `amount` requests); connection i
 *               sends bodies[i % bodies.length], or with `perRequest` request k (over all
 *               connections) sends bodies[k % bodies.length] (a pool of random draws: each
 *               request a different thread and position); a body with "errors" counts as a
 *               mismatch
 *   latency     sequential requests on one keep-alive connection; per-request latency in ms
 *   follow      opens N graphql-ws followers of a thread (plain `ws` speaking the protocol, so
 *               the client costs the same for threadstore and for the raw ws baseline)
 *   collect     waits until every follower has the expected seqs, then reports delivery latency
 *               (receipt - item createdAt) and lost / duplicated / out-of-order deliveries
 *   collectMany collect over several groups at once (one range of seqs each), one summary
 *   unfollow    closes every follower
 *   mixed       S9's writers and readers for D seconds: agents appending turns to their own
 *               threads (a user item, a pause, an assistant item, a pause) and readers
 *               alternating a history page and a thread list; latency per operation
 */
import http from 'node:http';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { serveRpc } from './lib/proc.js';
import { latencySummary } from './lib/stats.js';

export interface CannonResult {
  rps: number;
  total: number;
  durationSec: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  mismatches: number;
}

async function cannon(c: {
  url: string;
  bodies: string[];
  connections: number;
  durationSec?: number;
  amount?: number;
  perRequest?: boolean;
  /** With perRequest: the pool index of the first request (each round starts elsewhere). */
  offset?: number;
}): Promise<CannonResult> {
  let next = 0;
  let nextRequest = c.offset ?? 0;
  let mismatches = 0;
  const started = performance.now();
  const result = await autocannon({
    url: c.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    connections: c.connections,
    ...(c.amount ? { amount: c.amount } : { duration: c.durationSec ?? 3 }),
    timeout: 30,
    // Rebuilt before every request: the next body of the pool, in the same order for every
    // target compared.
    ...(c.perRequest
      ? {
          requests: [
            {
              method: 'POST' as const,
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                body: c.bodies[nextRequest++ % c.bodies.length]!,
              }),
            },
          ],
        }
      : {}),
    setupClient: (client) => {
      if (!c.perRequest) client.setBody(c.bodies[next++ % c.bodies.length]!);
      client.on('body', (body: Buffer) => {
        if (body.includes('"errors"')) mismatches++;
      });
    },
  });
  const durationSec = (performance.now() - started) / 1000;
  const total = result.requests.total;
  return {
    // Completed requests over the measured time (autocannon's own average is per second sampled).
    rps: total / Math.max(result.duration, 0.001),
    total,
    durationSec,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    mismatches,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200 || text.includes('"errors"'))
            reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 500)}`));
          else resolve(text);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function latency(c: { url: string; body: string; count: number; warmup?: number }) {
  for (let i = 0; i < (c.warmup ?? 20); i++) await post(c.url, c.body);
  const samples: number[] = [];
  for (let i = 0; i < c.count; i++) {
    const t0 = performance.now();
    await post(c.url, c.body);
    samples.push(performance.now() - t0);
  }
  return latencySummary(samples);
}

interface Follower {
  socket: WebSocket;
  seqs: number[];
  latencies: number[];
  errors: string[];
}

/** Followers by group (one group per server compared). */
const groups = new Map<string, Follower[]>();
const groupOf = (name: unknown) => {
  const key = String(name ?? 'default');
  let list = groups.get(key);
  if (!list) {
    list = [];
    groups.set(key, list);
  }
  return list;
};

/** Wall-clock now in ms with sub-ms precision. */
const now = () => performance.timeOrigin + performance.now();

function openFollower(
  wsUrl: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<Follower> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
    const f: Follower = { socket, seqs: [], latencies: [], errors: [] };
    const timer = setTimeout(
      () => reject(new Error('follower: no connection_ack within 30 s')),
      30_000,
    );
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('error', (error) => {
      clearTimeout(timer);
      f.errors.push(String(error));
      reject(error);
    });
    socket.on('message', (raw) => {
      const at = now();
      const msg = JSON.parse(String(raw)) as {
        type: string;
        payload?: { data?: { threadItems?: { seq: number; createdAt: string } }; errors?: unknown };
      };
      if (msg.type === 'next') {
        const item = msg.payload?.data?.threadItems;
        if (!item) {
          f.errors.push(JSON.stringify(msg.payload).slice(0, 300));
          return;
        }
        f.seqs.push(item.seq);
        f.latencies.push(at - Date.parse(item.createdAt));
      } else if (msg.type === 'connection_ack') {
        clearTimeout(timer);
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } }));
        resolve(f);
      } else if (msg.type === 'ping') {
        socket.send(JSON.stringify({ type: 'pong' }));
      } else if (msg.type === 'error' || msg.type === 'complete') {
        f.errors.push(`${msg.type}: ${JSON.stringify(msg.payload).slice(0, 300)}`);
      }
    });
  });
}

async function follow(c: {
  group?: string;
  wsUrl: string;
  count: number;
  query: string;
  variables: Record<string, unknown>;
}) {
  const followers = groupOf(c.group);
  const batch = 50;
  for (let i = 0; i < c.count; i += batch) {
    const n = Math.min(batch, c.count - i);
    followers.push(
      ...(await Promise.all(
        Array.from({ length: n }, () => openFollower(c.wsUrl, c.query, c.variables)),
      )),
    );
  }
  return { open: followers.length };
}

/** What the followers of one group received of [first, last], with every latency. */
interface Received {
  followers: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  unexpected: number;
  errors: string[];
  latencies: number[];
}

/**
 * Waits until every follower of `group` received every seq in [first, last] (or the deadline
 * passed), then counts and clears what they received.
 */
async function receive(group: unknown, first: number, last: number, deadline: number) {
  const followers = groupOf(group);
  const expected = last - first + 1;
  const complete = (f: Follower) =>
    f.seqs.filter((s) => s >= first && s <= last).length >= expected;
  while (Date.now() < deadline && !followers.every(complete))
    await new Promise((r) => setTimeout(r, 20));
  const out: Received = {
    followers: followers.length,
    lost: 0,
    duplicated: 0,
    outOfOrder: 0,
    unexpected: 0,
    errors: [],
    latencies: [],
  };
  for (const f of followers) {
    const seen = new Set<number>();
    let prev = Number.NEGATIVE_INFINITY;
    f.seqs.forEach((seq, i) => {
      if (seq < first || seq > last) {
        out.unexpected++;
        return;
      }
      if (seen.has(seq)) out.duplicated++;
      if (seq < prev) out.outOfOrder++;
      seen.add(seq);
      prev = seq;
      out.latencies.push(f.latencies[i]!);
    });
    out.lost += expected - seen.size;
    out.errors.push(...f.errors);
    f.seqs = [];
    f.latencies = [];
    f.errors = [];
  }
  return out;
}

/** The report of received deliveries (collect, collectMany). */
function delivered(parts: Received[]) {
  const latencies = parts.flatMap((p) => p.latencies);
  const sum = (k: 'followers' | 'lost' | 'duplicated' | 'outOfOrder' | 'unexpected') =>
    parts.reduce((s, p) => s + p[k], 0);
  return {
    followers: sum('followers'),
    deliveries: latencies.length,
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    outOfOrder: sum('outOfOrder'),
    unexpected: sum('unexpected'),
    errors: parts.flatMap((p) => p.errors).slice(0, 5),
    latency: latencySummary(latencies),
  };
}

/**
 * Waits until every follower received every seq in [first, last] (or `timeoutMs` passed), then
 * reports and clears what they received.
 */
async function collect(c: { group?: string; first: number; last: number; timeoutMs?: number }) {
  const deadline = Date.now() + (c.timeoutMs ?? 30_000);
  return delivered([await receive(c.group, c.first, c.last, deadline)]);
}

/** collect over several groups (each with its own range), reported together. */
async function collectMany(c: {
  groups: { group: string; first: number; last: number }[];
  timeoutMs?: number;
}) {
  const deadline = Date.now() + (c.timeoutMs ?? 30_000);
  const parts: Received[] = [];
  for (const g of c.groups) parts.push(await receive(g.group, g.first, g.last, deadline));
  return delivered(parts);
}

/**
 * POSTs `body` through `agent` (keep-alive); resolves with the latency (ms) and the text, or
 * the error.
 */
function timedPost(
  agent: http.Agent,
  url: string,
  body: string,
): Promise<{ ms: number; text: string | null; error: string | null }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const ms = performance.now() - t0;
          const failed = res.statusCode !== 200 || text.includes('"errors"');
          resolve({
            ms,
            text: failed ? null : text,
            error: failed ? `HTTP ${res.statusCode}: ${text.slice(0, 300)}` : null,
          });
        });
      },
    );
    req.on('error', (error) =>
      resolve({ ms: performance.now() - t0, text: null, error: String(error) }),
    );
    req.end(body);
  });
}

/** One operation's figures in a mixed run. */
interface OpStats {
  count: number;
  errors: number;
  perSec: number;
  latency: ReturnType<typeof latencySummary>;
}

/**
 * S9's writers and readers, all at once for `durationSec`: each agent appends to its own thread
 * a user item, waits `thinkMs`, an assistant item, waits `turnMs`, and again; each reader sends
 * a history page, waits `readerPauseMs`, a thread list, waits, and again (bodies taken in turn
 * from the pools). Starts are staggered over the first pause. Reports per operation, and the
 * seqs each agent wrote.
 */
async function mixed(c: {
  url: string;
  threads: string[];
  appendBodies: { user: string; assistant: string };
  thinkMs: number;
  turnMs: number;
  readers: number;
  pageBodies: string[];
  listBodies: string[];
  readerPauseMs: number;
  durationSec: number;
}) {
  // Fresh sockets per run: a socket left idle between runs may be closed by the server's
  // keep-alive timeout just as it is reused (ECONNRESET).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1_000 });
  const end = performance.now() + c.durationSec * 1000;
  const samples = { append: [] as number[], page: [] as number[], list: [] as number[] };
  const errors = { append: 0, page: 0, list: 0 };
  const firstErrors: string[] = [];
  const written = c.threads.map(() => ({ first: -1, last: -1 }));
  const record = (op: keyof typeof samples, r: { ms: number; error: string | null }) => {
    if (r.error) {
      errors[op]++;
      if (firstErrors.length < 5) firstErrors.push(`${op}: ${r.error}`);
    } else samples[op].push(r.ms);
  };
  // Never past the end: a run lasts durationSec plus the requests in flight, not a last pause.
  const pause = (ms: number) =>
    new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, end - performance.now()))));
  const writer = async (k: number) => {
    const thread = c.threads[k]!;
    const bodyOf = (role: 'user' | 'assistant') => c.appendBodies[role].replace('$THREAD', thread);
    const user = bodyOf('user');
    const assistant = bodyOf('assistant');
    await pause((k / c.threads.length) * (c.thinkMs + c.turnMs));
    while (performance.now() < end) {
      for (const [body, wait] of [
        [user, c.thinkMs],
        [assistant, c.turnMs],
      ] as const) {
        const r = await timedPost(agent, c.url, body);
        record('append', r);
        if (r.text) {
          const seq = (
            JSON.parse(r.text) as { data: { appendItems: { items: { seq: number }[] } } }
          ).data.appendItems.items[0]!.seq;
          if (written[k]!.first < 0) written[k]!.first = seq;
          written[k]!.last = seq;
        }
        if (performance.now() >= end) return;
        await pause(wait);
      }
    }
  };
  let nextPage = 0;
  let nextList = 0;
  const reader = async (k: number) => {
    await pause((k / Math.max(c.readers, 1)) * c.readerPauseMs);
    while (performance.now() < end) {
      record(
        'page',
        await timedPost(agent, c.url, c.pageBodies[nextPage++ % c.pageBodies.length]!),
      );
      await pause(c.readerPauseMs);
      if (performance.now() >= end) return;
      record(
        'list',
        await timedPost(agent, c.url, c.listBodies[nextList++ % c.listBodies.length]!),
      );
      await pause(c.readerPauseMs);
    }
  };
  const started = performance.now();
  await Promise.all([
    ...c.threads.map((_, k) => writer(k)),
    ...Array.from({ length: c.readers }, (_, k) => reader(k)),
  ]);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const stats = (op: keyof typeof samples): OpStats => ({
    count: samples[op].length,
    errors: errors[op],
    perSec: samples[op].length / seconds,
    latency: latencySummary(samples[op]),
  });
  return {
    seconds,
    append: stats('append'),
    page: stats('page'),
    list: stats('list'),
    errors: firstErrors,
    written: c.threads.map((thread, k) => ({ thread, ...written[k]! })),
  };
}

async function unfollow(c: { group?: string }) {
  const followers = groupOf(c.group);
  const closing = followers.map(
    (f) =>
      new Promise<void>((resolve) => {
        if (f.socket.readyState === WebSocket.CLOSED) return resolve();
        f.socket.once('close', () => resolve());
        f.socket.close(1000);
        setTimeout(() => {
          f.socket.terminate();
          resolve();
        }, 3_000);
      }),
  );
  await Promise.all(closing);
  groups.delete(String(c.group ?? 'default'));
  return { closed: closing.length };
}

serveRpc({
  cannon: (c) => cannon(c as never),
  latency: (c) => latency(c as never),
  follow: (c) => follow(c as never),
  collect: (c) => collect(c as never),
  collectMany: (c) => collectMany(c as never),
  mixed: (c) => mixed(c as never),
  unfollow: (c) => unfollow(c as never),
});
