/**
 * Live threads over graphql-ws (and SSE): replay then live, gapless resume across reconnects
 * while writers append, gap fill when pub/sub drops events, and robustness.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { BusEventTarget } from '../src/pubsub/bus.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, appendMessages, createThread, message } from './testkit/seed.js';
import { type FollowedItem, follow, wsClient } from './testkit/ws.js';

const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean, ms = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

describe('threadItems over graphql-ws', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1' });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('replays stored items after afterSeq, then live ones, and completes when the thread is deleted', async () => {
    const id = await createThread(t);
    await appendMessages(t, id, 3);
    const client = wsClient(port);
    const seen: FollowedItem[] = [];
    const f = follow(client, id, -1, (item) => seen.push(item));
    await until(() => seen.length === 3, 10_000, 'replay');
    await append(t, id, [message('live-a'), message('live-b')]);
    await until(() => seen.length === 5, 10_000, 'live items');
    expect(seen.map((i) => i.seq)).toEqual(range(5));
    expect(seen.map((i) => i.id)).toEqual(range(5).map((s) => `${id}:${s}`));
    expect(seen[4]!.content).toBe('live-b');
    await t.execute(`mutation { deleteThread(input: { id: "${id}" }) { deletedThreadId } }`);
    await f.done;
    await client.dispose();
  });

  it('without afterSeq gives live items only; an afterSeq at or past the end replays nothing', async () => {
    const id = await createThread(t);
    await appendMessages(t, id, 4);
    const client = wsClient(port);
    const live: number[] = [];
    const past: number[] = [];
    const a = follow(client, id, null, (i) => live.push(i.seq));
    const b = follow(client, id, 10, (i) => past.push(i.seq));
    await sleep(200);
    await append(t, id, [message('x')]);
    await until(() => live.length === 1 && past.length === 1, 10_000, 'live item');
    expect(live).toEqual([4]);
    expect(past).toEqual([4]);
    a.cancel();
    b.cancel();
    await client.dispose();
  });

  it('ends with NOT_FOUND for a missing thread, and other subscriptions on the socket go on', async () => {
    const id = await createThread(t);
    const client = wsClient(port);
    const seen: number[] = [];
    const good = follow(client, id, -1, (i) => seen.push(i.seq));
    const bad = follow(client, 'no-such-thread', -1, () => {});
    const error = (await bad.done.then(
      () => null,
      (e: unknown) => e,
    )) as { errors?: { extensions?: { code?: string } }[] } | null;
    const errors =
      (error as { errors?: unknown[] } | null)?.errors ?? (Array.isArray(error) ? error : []);
    expect((errors as { extensions?: { code?: string } }[])[0]?.extensions?.code).toBe('NOT_FOUND');
    await append(t, id, [message('after the error')]);
    await until(() => seen.length === 1, 10_000, 'item after a sibling error');
    expect(seen).toEqual([0]);
    good.cancel();
    await client.dispose();
  });

  it('resumes gapless: 1,000 items from concurrent writers, follower reconnecting at random moments', async () => {
    const id = await createThread(t);
    const total = 1000;
    let written = 0;
    // Four writers, 1 to 5 items per append, pausing a little so the stream stays live.
    const writing = Promise.all(
      range(4).map(async (w) => {
        for (;;) {
          const size = Math.min(1 + ((w + written) % 5), total - written);
          if (size <= 0) return;
          written += size;
          await append(
            t,
            id,
            range(size).map((i) => message(`w${w}-${i}`)),
          );
          await sleep(3);
        }
      }),
    );
    const received: number[] = [];
    let last = -1;
    let reconnects = 0;
    while (last < total - 1) {
      // Drop the connection (no complete) once a random number of further items arrived.
      const stopAt =
        reconnects < 6 ? last + 1 + Math.floor(Math.random() * 120) : Number.POSITIVE_INFINITY;
      const client = wsClient(port);
      let dropped = false;
      const f = follow(client, id, last, (item) => {
        if (dropped) return; // already "disconnected": a real client would never see this
        received.push(item.seq);
        last = item.seq;
        if (item.seq >= stopAt) {
          dropped = true;
          client.terminate();
        }
      });
      f.done.catch(() => {});
      await until(() => dropped || last >= total - 1, 30_000, 'progress');
      if (dropped) reconnects += 1;
      else await client.dispose();
    }
    await writing;
    expect(reconnects).toBeGreaterThanOrEqual(5);
    expect(written).toBe(total);
    expect(received).toEqual(range(total));
  });

  it('frees the listeners of followers whose sockets were destroyed without complete', async () => {
    const id = await createThread(t);
    // Followers of the tests before end asynchronously; start from a quiet server.
    await until(() => t.app.events.listenerCount() === 0, 10_000, 'earlier followers to end');
    const baseline = 0;
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        range(10).map(
          () =>
            new Promise<void>((resolve, reject) => {
              const socket = new WebSocket(
                `ws://127.0.0.1:${port}/graphql`,
                'graphql-transport-ws',
              );
              socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init' })));
              socket.on('message', (raw) => {
                const msg = JSON.parse(String(raw)) as { type: string };
                if (msg.type === 'connection_ack') {
                  socket.send(
                    JSON.stringify({
                      id: '1',
                      type: 'subscribe',
                      payload: {
                        query: `subscription { threadItems(threadId: "${id}") { __typename } }`,
                      },
                    }),
                  );
                  // Give the server time to register the follower, then drop the socket.
                  setTimeout(() => {
                    socket.terminate();
                    resolve();
                  }, 20);
                }
              });
              socket.on('error', reject);
            }),
        ),
      );
    }
    await until(
      () => t.app.events.listenerCount() === baseline,
      10_000,
      `listeners back to baseline (${baseline}), now ${t.app.events.listenerCount()}`,
    );
    expect(t.app.events.listenerCount()).toBe(baseline);
  });
});

describe('threadEvents', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1' });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('streams every kind of change of one agent, COMPACTED for compactions, thread null once deleted', async () => {
    const client = wsClient(port);
    const events: {
      type: string;
      threadId: string;
      thread: { id: string; name: string | null } | null;
    }[] = [];
    const cancel = client.subscribe<{ threadEvents: (typeof events)[number] }>(
      {
        query:
          'subscription { threadEvents(agentId: "watched") { type threadId at thread { id name } } }',
      },
      {
        next: (r) => r.data && events.push(r.data.threadEvents),
        error: () => {},
        complete: () => {},
      },
    );
    await sleep(200);
    await createThread(t, { agentId: 'someone-else' });
    const id = await createThread(t, { agentId: 'watched', name: 'first' });
    await append(t, id, [message('a'), message('b')]);
    await t.execute(
      `mutation { updateThread(input: { id: "${id}", name: "renamed" }) { thread { id } } }`,
    );
    await t.execute(
      `mutation { addCompaction(input: { threadId: "${id}", startSeq: 0, endSeq: 1, summary: "s" }) { marker { seq } } }`,
    );
    await t.execute(
      `mutation { clearCompactions(input: { threadId: "${id}" }) { compactionsDeleted } }`,
    );
    await t.execute(
      `mutation { purgeItems(input: { threadId: "${id}", before: "2000-01-01T00:00:00Z" }) { itemsDeleted } }`,
    );
    await t.execute(`mutation { deleteThread(input: { id: "${id}" }) { deletedThreadId } }`);
    await until(() => events.length >= 7, 10_000, 'seven events');
    expect(events.map((e) => e.type)).toEqual([
      'CREATED',
      'ITEMS_APPENDED',
      'UPDATED',
      'COMPACTED',
      'COMPACTED',
      'PURGED',
      'DELETED',
    ]);
    expect(new Set(events.map((e) => e.threadId))).toEqual(new Set([id]));
    expect(events.at(-1)!.thread).toBeNull();
    cancel();
    await client.dispose();
  });
});

describe('gap fill', () => {
  let t: TestApp;
  let port: number;
  let dropped = 0;
  beforeAll(async () => {
    // An event target that loses every third item event, as a lossy pub/sub would.
    const inner = new EventTarget();
    let n = 0;
    const lossy: BusEventTarget = {
      addEventListener: (type, l) => inner.addEventListener(type, l),
      removeEventListener: (type, l) => inner.removeEventListener(type, l),
      dispatchEvent: (event) => {
        if (event.type.startsWith('thread-items:') && ++n % 3 === 0) {
          dropped += 1;
          return true;
        }
        return inner.dispatchEvent(event);
      },
    };
    t = await buildTestApp({ HOST: '127.0.0.1' }, { eventTarget: lossy });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('reads lost events from the database, so delivery stays gapless', async () => {
    const id = await createThread(t);
    const client = wsClient(port);
    const seen: number[] = [];
    const f = follow(client, id, -1, (i) => seen.push(i.seq));
    await sleep(100);
    for (let n = 0; n < 30; n++) await append(t, id, [message(`a${n}`), message(`b${n}`)]);
    await until(() => seen.length >= 58, 10_000, 'items');
    // The last event may be the dropped one: a later event triggers the fill.
    await append(t, id, [message('last')]);
    await until(() => seen.length === 61, 10_000, 'all items');
    expect(dropped).toBeGreaterThan(5);
    expect(seen).toEqual(range(61));
    f.cancel();
    await client.dispose();
  });

  it('a resync (pub/sub reconnected) re-reads what was missed without a later event', async () => {
    const id = await createThread(t);
    const client = wsClient(port);
    const seen: number[] = [];
    const f = follow(client, id, -1, (i) => seen.push(i.seq));
    await sleep(100);
    for (let n = 0; n < 3; n++) await append(t, id, [message(`${n}`)]);
    await sleep(100);
    t.app.events.resync();
    await until(() => seen.length === 3, 10_000, 'resync');
    expect(seen).toEqual(range(3));
    f.cancel();
    await client.dispose();
  });
});

describe('slow followers', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1', FOLLOWER_BUFFER_EVENTS: '20' });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  it('a follower that stops reading is cut off with RATE_LIMITED instead of growing the server memory', async () => {
    const id = await createThread(t);
    const baseline = t.app.events.listenerCount();
    // A follower in a separate process, which we then stop (SIGSTOP): it reads nothing more.
    const script = `
      const WebSocket = require('ws');
      const s = new WebSocket('ws://127.0.0.1:${port}/graphql', 'graphql-transport-ws');
      s.on('open', () => s.send(JSON.stringify({ type: 'connection_init' })));
      s.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        if (m.type === 'connection_ack') {
          s.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { threadItems(threadId: "${id}") { ... on MessageItem { content } } }' } }));
          setTimeout(() => console.log('subscribed'), 100);
        }
        if (m.type === 'error' || m.type === 'next' && m.payload.errors) console.log(JSON.stringify(m));
      });
      s.on('close', (code) => { console.log('closed ' + code); process.exit(0); });
    `;
    const child = spawn(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await until(() => out.includes('subscribed'), 10_000, 'the follower to subscribe');
    expect(t.app.events.listenerCount()).toBe(baseline + 1);
    child.kill('SIGSTOP');
    const big = 'y'.repeat(100_000);
    // About 60 MB of events: far more than the socket buffers hold.
    for (let n = 0; n < 60 && t.app.events.listenerCount() > baseline; n++) {
      await append(
        t,
        id,
        range(10).map((i) => message(`${n}-${i}-${big}`)),
      );
    }
    await until(
      () => t.app.events.listenerCount() === baseline,
      20_000,
      'the slow follower to be cut off',
    );
    child.kill('SIGCONT');
    // Once it reads again it gets what was sent, then the subscription's RATE_LIMITED error.
    await until(() => out.includes('RATE_LIMITED'), 20_000, 'the error');
    child.kill();
  });
});

describe('threadItems over SSE', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('streams replay and live items as server-sent events', async () => {
    const id = await createThread(t);
    await appendMessages(t, id, 2);
    const controller = new AbortController();
    const response = await t.app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: `subscription { threadItems(threadId: "${id}", afterSeq: -1) { ... on ConversationItem { seq } } }`,
      }),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const seqs = () => [...text.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
    const appended = (async () => {
      await sleep(100);
      await append(t, id, [message('sse')]);
    })();
    while (seqs().length < 3) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    await appended;
    expect(seqs()).toEqual([0, 1, 2]);
    controller.abort();
  });
});
