/**
 * Followers that stop reading (issue 10, point 2): memory stays bounded per follower, in bytes
 * and in events, on graphql-ws and SSE alike. A real server process, so its RSS can be read:
 * 600 items of 1 MB are appended while a WebSocket follower and two SSE followers (one whose
 * request body was sent chunked, read by limits.ts before yoga) read nothing (their sockets
 * paused, so TCP backpressure reaches the server); each is cut off with RATE_LIMITED once over
 * FOLLOWER_BUFFER_BYTES (graphql-ws: an error result then complete; SSE: an error event then
 * complete), and resuming with afterSeq gets every item once.
 * Also: SSE streams carry keep-alive comments while idle.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type ServerProcess, startServer } from './testkit/process.js';

const ITEMS = 600;
const PER_APPEND = 8;
const CONTENT_CHARS = 1_000_000;
/**
 * The bound on the server's RSS growth while 600 MB are appended (README, Limits). Appending
 * alone grows it by about 420 MB (request bodies, parsed JSON and SQL parameters the 512 MB
 * heap collects lazily; measured without followers); two stalled followers add at most
 * FOLLOWER_BUFFER_BYTES each plus what their sockets hold. Before the byte bound, the same run
 * grew it by about 890 MB (and a follower alone by 600 MB).
 */
const RSS_GROWTH_BOUND_MB = 600;

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms until it holds; fails after `ms` naming `what`. */
async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The resident set size of a process, in MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** What a follower got: seqs in order, error codes, whether the server completed it. */
interface Followed {
  seqs: number[];
  errors: { message: string; code?: string }[];
  completed: boolean;
  closed: boolean;
}

/** Follows with each item's 1 MB content (what fills the transport), or its seq only. */
const subscription = (content: boolean) => `subscription Follow($threadId: ID!, $afterSeq: Int) {
  threadItems(threadId: $threadId, afterSeq: $afterSeq) {
    ... on ConversationItem { seq }
    ${content ? '... on MessageItem { content }' : ''}
  }
}`;

/** Records one result: the item's seq (its 1 MB content is dropped at once), or its errors. */
function record(into: Followed, payload: unknown): void {
  const result = payload as {
    data?: { threadItems: { seq: number } } | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  if (result.data) into.seqs.push(result.data.threadItems.seq);
  for (const e of result.errors ?? [])
    into.errors.push({ message: e.message, code: e.extensions?.code });
}

/** A graphql-ws follower on its own socket; `ws.pause()` stops it reading. */
function wsFollower(port: number, threadId: string, afterSeq: number, content = true) {
  const state: Followed = { seqs: [], errors: [], completed: false, closed: false };
  const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw)) as { type: string; payload?: unknown };
    if (m.type === 'connection_ack') {
      const payload = { query: subscription(content), variables: { threadId, afterSeq } };
      ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload }));
    } else if (m.type === 'next') record(state, m.payload);
    else if (m.type === 'error') record(state, { errors: m.payload });
    else if (m.type === 'complete') state.completed = true;
  });
  ws.on('close', () => {
    state.closed = true;
  });
  ws.on('error', () => {});
  return { state, ws };
}

/** An SSE follower over a raw HTTP request; `res.pause()` stops it reading. */
function sseFollower(
  url: string,
  threadId: string,
  afterSeq: number,
  content = true,
  chunked = false,
) {
  const state: Followed = { seqs: [], errors: [], completed: false, closed: false };
  const body = JSON.stringify({ query: subscription(content), variables: { threadId, afterSeq } });
  let comments = 0;
  const response = new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = request(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    });
    req.on('response', (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) comments += 1;
          else if (block.startsWith('event: complete')) state.completed = true;
          else if (block.startsWith('event: next'))
            record(state, JSON.parse(block.slice(block.indexOf('data: ') + 6)));
        }
      });
      res.on('close', () => {
        state.closed = true;
      });
      resolve(res);
    });
    req.on('error', reject);
    // Written in two pieces without a length, the body goes chunked (read by limits.ts first).
    if (chunked) req.write(body.slice(0, 20));
    req.end(chunked ? body.slice(20) : body);
  });
  return { state, response, comments: () => comments };
}

/** Fetches `/metrics` and returns the live thread-items followers of the instance. */
async function liveFollowers(server: ServerProcess): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('threadstore_live_followers{topic="thread-items"}'));
  return Number(line?.split(' ').at(-1) ?? 0);
}

let database: TestDatabase;
let server: ServerProcess;
beforeAll(async () => {
  database = await createTestDatabase();
  // A 512 MB heap, as in the issue: a follower buffering without bound killed this process.
  server = await startServer(
    { DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
    { nodeArgs: ['--max-old-space-size=512'] },
  );
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

async function append(threadId: string, from: number, count: number): Promise<void> {
  const items = range(count, from).map((n) => ({
    message: { role: 'user', content: `${n}:`.padEnd(CONTENT_CHARS, 'x') },
  }));
  const r = await server.graphql(
    'mutation A($input: AppendItemsInput!) { appendItems(input: $input) { thread { nextSeq } } }',
    { input: { threadId, items } },
  );
  expect(r.errors).toBeUndefined();
}

describe('followers that stop reading', () => {
  it(`are cut off with RATE_LIMITED while ${ITEMS} items of 1 MB are appended; RSS stays bounded; afterSeq resumes each once`, {
    timeout: 480_000,
  }, async () => {
    const threadId = `slow-${Date.now()}`;
    const created = await server.graphql(
      `mutation { createThread(input: { id: "${threadId}", agentId: "a" }) { thread { id } } }`,
    );
    expect(created.errors).toBeUndefined();
    await append(threadId, 0, 1);

    const ws = wsFollower(server.port, threadId, -1);
    const sse = sseFollower(server.url, threadId, -1);
    const chunked = sseFollower(server.url, threadId, -1, true, true);
    await until(
      () => [ws, sse, chunked].every((f) => f.state.seqs.length === 1),
      'all three followers',
    );
    ws.ws.pause();
    const res = await sse.response;
    res.pause();
    const chunkedRes = await chunked.response;
    chunkedRes.pause();

    const pid = server.process.pid!;
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 25);
    let cutOffBy: number | null = null;
    try {
      for (let n = 1; n <= ITEMS; n += PER_APPEND) {
        await append(threadId, n, Math.min(PER_APPEND, ITEMS + 1 - n));
        if (cutOffBy === null && (await liveFollowers(server)) === 0) {
          cutOffBy = n + PER_APPEND - 1;
          // The WebSocket reads again now: a socket that answers no ping for 12 s is closed
          // (graphql-ws keep-alive). The SSE follower reads nothing until all are appended.
          ws.ws.resume();
        }
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssMb(pid));
    console.log(
      `${server.process.pid}: RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB; all three cut off by seq ${cutOffBy}`,
    );
    expect(cutOffBy).not.toBeNull();
    expect(server.process.exitCode).toBeNull();
    expect(peak - before).toBeLessThan(RSS_GROWTH_BOUND_MB);

    // Reading again, each gets what the transport held, then RATE_LIMITED and the end.
    res.resume();
    chunkedRes.resume();
    await until(
      () => ws.state.errors.length > 0 && ws.state.completed,
      'the WebSocket error then complete',
    );
    await until(
      () => sse.state.errors.length > 0 && sse.state.completed,
      'the SSE error event then complete',
    );
    await until(
      () => chunked.state.errors.length > 0 && chunked.state.completed,
      'the chunked SSE error event then complete',
    );
    for (const followed of [ws.state, sse.state, chunked.state]) {
      expect(followed.errors).toEqual([
        {
          code: 'RATE_LIMITED',
          message: expect.stringMatching(/resubscribe with afterSeq set to the last seq received/),
        },
      ]);
      expect(followed.seqs).toEqual(range(followed.seqs.length));
      expect(followed.seqs.length).toBeLessThan(ITEMS);
    }
    ws.ws.close();

    // Resuming with afterSeq = the last seq received gets the rest, each item once.
    for (const [name, cut] of [
      ['ws', ws.state],
      ['sse', sse.state],
      ['sse', chunked.state],
    ] as const) {
      const last = cut.seqs.at(-1)!;
      const resumed =
        name === 'ws'
          ? wsFollower(server.port, threadId, last, false)
          : sseFollower(server.url, threadId, last, false);
      await until(() => resumed.state.seqs.at(-1) === ITEMS, `${name} to resume`, 60_000);
      expect([...cut.seqs, ...resumed.state.seqs]).toEqual(range(ITEMS + 1));
      expect(resumed.state.errors).toEqual([]);
      if ('ws' in resumed) resumed.ws.close();
      else (await resumed.response).destroy();
    }
  });
});

describe('SSE keep-alive', () => {
  it('an idle stream gets comment lines, so proxies do not cut it', async () => {
    const threadId = `idle-${Date.now()}`;
    const created = await server.graphql(
      `mutation { createThread(input: { id: "${threadId}", agentId: "a" }) { thread { id } } }`,
    );
    expect(created.errors).toBeUndefined();
    const idle = sseFollower(server.url, threadId, -1, false);
    // The first comment opens the stream; the next ones come every 12 s (yoga's keep-alive).
    await until(() => idle.comments() >= 2, 'a keep-alive comment', 40_000);
    expect(idle.state).toMatchObject({ seqs: [], errors: [], completed: false });
    (await idle.response).destroy();
  });
});
