/**
 * Limits and hostile input: query depth/alias/token limits, request bodies without a declared
 * length, deep JSON, out-of-range dates, long key lists (SQLite's parameter cap), and a syntax
 * error on a WebSocket that carries other subscriptions.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';
import { follow, wsClient } from './testkit/ws.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1', MAX_BODY_BYTES: '100000' });
  port = await t.app.start(0);
});
afterAll(() => t.close());

/** POSTs `body` with Transfer-Encoding: chunked (no Content-Length). */
function postChunked(body: string): Promise<{
  status: number;
  json: { errors: { message: string; extensions: { code: string } }[] };
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < body.length; i += 10_000) req.write(body.slice(i, i + 10_000));
    req.end();
  });
}

describe('limits', () => {
  it('rejects queries that are too deep, have too many aliases or too many tokens', async () => {
    const deep = `{ thread(id: "x") { items { edges { node { __typename } } } } }`;
    expect((await t.request(deep)).errors).toBeUndefined();
    let nested = '__typename';
    for (let i = 0; i < 20; i++) nested = `... on Query { ${nested} }`;
    const tooDeep = await t.expectError(`{ ${nested} }`);
    expect(tooDeep.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: thread(id: "x") { id }`).join(' ');
    expect((await t.expectError(`{ ${aliases} }`)).code).toBe('GRAPHQL_VALIDATION_FAILED');
    const literal = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    const tokens = await t.request(`{ thread(id: ${literal}) { id } }`);
    expect(tokens.errors?.[0]?.extensions?.code).toMatch(
      /GRAPHQL_PARSE_FAILED|GRAPHQL_VALIDATION_FAILED/,
    );
  });

  it('applies MAX_BODY_BYTES to bodies sent without Content-Length, and serves small ones', async () => {
    const id = await createThread(t);
    const small = await postChunked(JSON.stringify({ query: `{ thread(id: "${id}") { id } }` }));
    expect(small).toEqual({ status: 200, json: { data: { thread: { id } } } });
    const big = await postChunked(
      JSON.stringify({
        query: 'mutation($input: AppendItemsInput!) { appendItems(input: $input) { replayed } }',
        variables: { input: { threadId: id, items: [message('x'.repeat(150_000))] } },
      }),
    );
    expect(big.status).toBe(413);
    expect(big.json.errors[0]?.extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const after = await t.execute(`query($id: ID!) { thread(id: $id) { nextSeq } }`, { id });
    expect(after.thread.nextSeq).toBe(0);
  });

  it('rejects JSON nested deeper than 100 levels and dates outside years 0001-9999', async () => {
    const id = await createThread(t);
    let deep: unknown = 1;
    for (let i = 0; i < 1000; i++) deep = [deep];
    const APPEND =
      'mutation($input: AppendItemsInput!) { appendItems(input: $input) { replayed } }';
    const nested = await t.expectError(APPEND, {
      input: { threadId: id, items: [{ other: { type: 'deep', data: deep } }] },
    });
    expect(nested).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(nested.message).toContain('nested');
    const meta = await t.expectError(
      'mutation($m: JSON) { createThread(input: { agentId: "a", metadata: $m }) { thread { id } } }',
      {
        m: { deep },
      },
    );
    expect(meta.code).toBe('BAD_USER_INPUT');
    for (const createdAt of ['0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00']) {
      const e = await t.expectError(APPEND, {
        input: { threadId: id, items: [{ createdAt, ...message('x') }] },
      });
      expect(e.code, createdAt).toBe('BAD_USER_INPUT');
    }
    const purge = await t.expectError(
      'mutation($id: ID!) { purgeItems(input: { threadId: $id, before: "0000-01-01T00:00:00Z" }) { itemsDeleted } }',
      { id },
    );
    expect(purge.code).toBe('BAD_USER_INPUT');
    const ok = await append(t, id, [{ createdAt: '0001-01-01T00:00:00Z', ...message('old') }]);
    expect(ok).toEqual([0]);
  });

  it('parses tool call arguments given as a JSON string, keeps other strings', async () => {
    const id = await createThread(t);
    await append(t, id, [
      { toolCall: { callId: 'a', name: 'f', arguments: '{"x":1,"y":[true,null]}' } },
      { toolCall: { callId: 'b', name: 'f', arguments: 'not json {' } },
      { toolCall: { callId: 'c', name: 'f', arguments: { already: 'parsed' } } },
    ]);
    const r = await t.execute(
      `query($id: ID!) { thread(id: $id) { items { edges { node { ... on ToolCallItem { arguments data } } } } } }`,
      { id },
    );
    const args = r.thread.items.edges.map(
      (e: { node: { arguments: unknown } }) => e.node.arguments,
    );
    expect(args).toEqual([{ x: 1, y: [true, null] }, 'not json {', { already: 'parsed' }]);
    expect(r.thread.items.edges[0].node.data.arguments).toEqual({ x: 1, y: [true, null] });
  });

  it('reads long key lists in chunks: 400 item ids in nodes, 400 compaction records in context', async () => {
    const id = await createThread(t);
    await append(
      t,
      id,
      Array.from({ length: 400 }, (_, i) => message(`n${i}`)),
    );
    // nodes takes 100 ids; four aliases in one request still load as one batch of 400 ids.
    const ids = Array.from({ length: 400 }, (_, i) => `${id}:${i}`);
    const quarters = [0, 1, 2, 3].map((q) => ids.slice(q * 100, q * 100 + 100));
    const nodes = await t.execute(
      `query($a: [ID!]!, $b: [ID!]!, $c: [ID!]!, $d: [ID!]!) { a: nodes(ids: $a) { id } b: nodes(ids: $b) { id } c: nodes(ids: $c) { id } d: nodes(ids: $d) { id } }`,
      { a: quarters[0], b: quarters[1], c: quarters[2], d: quarters[3] },
    );
    expect([nodes.a, nodes.b, nodes.c, nodes.d].flat().map((n: { id: string }) => n.id)).toEqual(
      ids,
    );
    for (let s = 0; s < 400; s++) {
      await t.execute(
        `mutation($id: ID!, $s: Int!) { addCompaction(input: { threadId: $id, startSeq: $s, endSeq: $s, summary: "s" }) { marker { seq } } }`,
        { id, s },
      );
    }
    const context = await t.execute(
      `query($id: ID!) { thread(id: $id) { context { __typename } compactions { id } } }`,
      { id },
    );
    expect(context.thread.context).toHaveLength(400);
    expect(context.thread.compactions).toHaveLength(400);
    const markers = Array.from({ length: 400 }, (_, i) => `${id}:compaction:${400 + i}`);
    const parts = [0, 1, 2, 3].map((q) => markers.slice(q * 100, q * 100 + 100));
    const records = await t.execute(
      `query($a: [ID!]!, $b: [ID!]!, $c: [ID!]!, $d: [ID!]!) { a: nodes(ids: $a) { id } b: nodes(ids: $b) { id } c: nodes(ids: $c) { id } d: nodes(ids: $d) { id } }`,
      { a: parts[0], b: parts[1], c: parts[2], d: parts[3] },
    );
    expect(
      [records.a, records.b, records.c, records.d].flat().map((n: { id: string }) => n.id),
    ).toEqual(markers);
  });

  it('a syntax error on a WebSocket fails that operation only', async () => {
    const id = await createThread(t);
    const client = wsClient(port);
    const seen: number[] = [];
    const good = follow(client, id, null, (i) => seen.push(i.seq));
    await new Promise((r) => setTimeout(r, 200));
    const bad = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: 'subscription {' },
        { next: () => {}, error: resolve, complete: () => resolve(null) },
      );
    });
    expect(JSON.stringify(bad)).toContain('GRAPHQL_PARSE_FAILED');
    await append(t, id, [message('still here')]);
    const deadline = Date.now() + 5_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([0]);
    good.cancel();
    await client.dispose();
  });
});

describe('a live stream asked for with a chunked body', () => {
  /**
   * Opens an SSE subscription to `threadId` whose body is sent chunked; resolves once the first
   * event arrived, with the request (to destroy) and what was read so far.
   */
  function followChunked(threadId: string): Promise<{ close: () => void; text: () => string }> {
    const body = JSON.stringify({
      query: `subscription { threadItems(threadId: "${threadId}", afterSeq: -1) { ... on ConversationItem { seq } } }`,
    });
    return new Promise((resolve, reject) => {
      let text = '';
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      });
      req.on('response', (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('"seq"')) resolve({ close: () => req.destroy(), text: () => text });
        });
      });
      req.on('error', () => {});
      setTimeout(() => reject(new Error(`no event within 5 s: ${text}`)), 5_000).unref();
      req.write(body.slice(0, 20));
      req.end(body.slice(20));
    });
  }

  it('ends, and frees its follower, when its client goes away', async () => {
    const id = await createThread(t);
    await append(t, id, [message('one')]);
    const baseline = t.app.events.listenerCount();
    const stream = await followChunked(id);
    expect(stream.text()).toContain('"seq":0');
    expect(t.app.events.listenerCount()).toBeGreaterThan(baseline);
    stream.close();
    const deadline = Date.now() + 5_000;
    while (t.app.events.listenerCount() > baseline && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(t.app.events.listenerCount()).toBe(baseline);
  });
});
