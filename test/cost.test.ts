/**
 * Cost counts what is returned (issue 10): page sizes and `nodes` ids multiply an operation's
 * cost, variables included; over-cost operations and long id lists are refused before any SQL
 * statement; repeated ids are looked up once; a response over MAX_RESPONSE_BYTES is one
 * PAYLOAD_TOO_LARGE error; the client operations of examples/ pass under the default limit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AppendItemsDocument,
  CreateThreadDocument,
  FollowThreadDocument,
  ThreadListDocument,
  ThreadPageDocument,
} from '../examples/generated/graphql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type ServerProcess, startServer } from './testkit/process.js';
import { append, appendMessages, createThread, message } from './testkit/seed.js';
import { wsClient } from './testkit/ws.js';

/** Bytes of each big item's content in the response-size tests. */
const BIG = 50_000;
/** MAX_RESPONSE_BYTES of the small-cap app: four big items fit, five do not. */
const CAP = 230_000;

let t: TestApp;
let small: TestApp;
let port: number;
let smallPort: number;
let bigThread: string;

beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1' });
  port = await t.app.start(0);
  small = await buildTestApp({ HOST: '127.0.0.1', MAX_RESPONSE_BYTES: String(CAP) });
  smallPort = await small.app.start(0);
  bigThread = await createThread(small);
  await append(
    small,
    bigThread,
    Array.from({ length: 10 }, (_, i) => message(`${i}`.padEnd(BIG, 'x'))),
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  await small?.close();
});

const itemsAlias = (i: number) =>
  `a${i}: thread(id: $id) { items(first: 500) { edges { node { ... on ConversationItem { id seq data } } } } }`;

/** Statements sent and the first error's code of `query` with `variables`. */
async function refusedWithoutSql(app: TestApp, query: string, variables: Record<string, unknown>) {
  let error = { code: '', message: '' };
  const { count } = await app.countStatements(async () => {
    error = await app.expectError(query, variables);
  });
  return { ...error, statements: count };
}

describe('cost', () => {
  it('refuses 30 aliases of items(first: 500) before execution, naming the cost and the limit', async () => {
    const query = `query($id: ID!) { ${Array.from({ length: 30 }, (_, i) => itemsAlias(i)).join(' ')} }`;
    const refused = await refusedWithoutSql(small, query, { id: bigThread });
    expect(refused.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(refused.message).toMatch(/^The operation costs 75060; the limit is 50000\./);
    expect(refused.statements).toBe(0);
  });

  it('counts page sizes given in variables and the default page when left out', async () => {
    const query = `query($id: ID!, $n: Int) { ${Array.from({ length: 30 }, (_, i) => `a${i}: thread(id: $id) { items(first: $n) { edges { node { ... on ConversationItem { id seq data } } } } }`).join(' ')} }`;
    const refused = await refusedWithoutSql(t, query, { id: 'x', n: 500 });
    expect(refused.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // The default page (50) of the same 30 aliases is within the limit.
    const answer = await t.request(query, { id: 'x' });
    expect(answer.errors).toBeUndefined();
  });

  it('reads only the variables a cost depends on: pages in fragments and named operations count, other variables are left to execution', async () => {
    // $n sizes 30 pages inside a fragment of the second of two operations; $id is not valid
    // (an object for an ID) and no cost reads it, so the cost alone decides, before any SQL.
    const query = `query Other { __typename }
      query Pages($id: ID!, $n: Int) { ...Pages }
      fragment Pages on Query { ${Array.from({ length: 30 }, (_, i) => `a${i}: thread(id: $id) { items(first: $n) { edges { node { ... on ConversationItem { id seq } } } } }`).join(' ')} }`;
    const send = (variables: Record<string, unknown>) =>
      fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables, operationName: 'Pages' }),
      }).then(
        (r) =>
          r.json() as Promise<{ errors?: { message: string; extensions: { code: string } }[] }>,
      );
    let answer: Awaited<ReturnType<typeof send>> = {};
    const { count } = await t.countStatements(async () => {
      answer = await send({ id: { x: 1 }, n: 500 });
    });
    expect(answer.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(answer.errors?.[0]?.message).toMatch(/^The operation costs 60060; the limit is 50000\./);
    expect(count).toBe(0);
    // Within the limit, execution reports the variable no cost read.
    const small = await send({ id: { x: 1 }, n: 5 });
    expect(small.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(small.errors?.[0]?.message).toMatch(/^Variable "\$id" got invalid value \{ x: 1 \}/);
  });

  it('refuses an over-cost subscription on a WebSocket with an error for that operation', async () => {
    const items = Array.from(
      { length: 30 },
      (_, i) => `a${i}: items(first: 500) { edges { cursor node { __typename } } }`,
    ).join(' ');
    const client = wsClient(port);
    const result = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: `subscription { threadEvents { thread { ${items} } } }` },
        { next: resolve, error: resolve, complete: () => resolve(null) },
      );
    });
    expect(JSON.stringify(result)).toContain('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(result)).toContain('the limit is 50000');
    await client.dispose();
  });
});

describe('nodes', () => {
  const NODES = 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }';

  it('takes at most 100 ids: 101 are BAD_USER_INPUT before any SQL statement', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `x:${i}`);
    const refused = await refusedWithoutSql(t, NODES, { ids });
    expect(refused).toEqual({
      code: 'BAD_USER_INPUT',
      message: 'nodes takes at most 100 ids; got 101. Split the list into several requests.',
      statements: 0,
    });
    const hundred = await t.execute(NODES, { ids: ids.slice(0, 100) });
    expect(hundred.nodes).toHaveLength(100);
  });

  it('answers the refusal with HTTP 200, like other field errors (not 500: nothing to retry)', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => `x:${i}`);
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: NODES, variables: { ids } }),
    });
    const body = await response.json();
    expect({ status: response.status, code: body.errors[0].extensions.code }).toEqual({
      status: 200,
      code: 'BAD_USER_INPUT',
    });
  });

  it('refuses 200,000 ids in variables without a look-up; /healthz answers meanwhile', async () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => `x:${i}`);
    const [refused, health] = await Promise.all([
      refusedWithoutSql(t, NODES, { ids }),
      fetch(`http://127.0.0.1:${port}/healthz`),
    ]);
    expect(refused.code).toBe('BAD_USER_INPUT');
    expect(refused.message).toContain('got 200000');
    expect(refused.statements).toBe(0);
    expect(health.status).toBe(200);
  });

  it('looks a repeated id up once: 100 copies cost the statements of one', async () => {
    const id = await createThread(t);
    await append(t, id, [message('once')]);
    await t.execute(NODES, { ids: [`${id}:0`] }); // after the append's own follow-up reads
    const one = await t.countStatements(() => t.execute(NODES, { ids: [`${id}:0`] }));
    let answer: { nodes: { id: string }[] } = { nodes: [] };
    const hundred = await t.countStatements(async () => {
      answer = await t.execute(NODES, { ids: Array(100).fill(`${id}:0`) });
    });
    expect(answer.nodes).toEqual(Array(100).fill({ id: `${id}:0` }));
    expect(hundred.count).toBe(one.count);
    // Across aliases of one request too.
    const aliased = await t.countStatements(() =>
      t.execute(
        `query($ids: [ID!]!) { a: nodes(ids: $ids) { id } b: nodes(ids: $ids) { id } c: node(id: "${id}:0") { id } }`,
        { ids: Array(100).fill(`${id}:0`) },
      ),
    );
    expect(aliased.count).toBe(one.count);
  });
});

describe('response size (MAX_RESPONSE_BYTES)', () => {
  const PAGE = `query($id: ID!, $n: Int) { thread(id: $id) { items(first: $n) { edges { node { ... on MessageItem { seq content } } } } } }`;

  it('serves a page under the cap and answers PAYLOAD_TOO_LARGE for one over it', async () => {
    const four = await small.execute(PAGE, { id: bigThread, n: 4 });
    expect(four.thread.items.edges).toHaveLength(4);
    const response = await small.app.yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: PAGE, variables: { id: bigThread, n: 10 } }),
    });
    const text = await response.text();
    // The answer is the error alone, not the 500 KB page.
    expect(text.length).toBeLessThan(1_000);
    const body = JSON.parse(text);
    expect(body.data).toBeNull();
    // The read stopped at the item that passed the cap.
    expect(body.errors).toEqual([
      {
        message: `This page's items hold more than ${CAP} bytes, what this request had left of MAX_RESPONSE_BYTES (${CAP} bytes, shared by all its fields): ask for fewer items with first/last, or leave data out of the selection.`,
        extensions: { code: 'PAYLOAD_TOO_LARGE', maxBytes: CAP },
      },
    ]);
  });

  it('caps a response of the longest numbers JSON writes (25 characters each)', async () => {
    // Metadata of one thread: an array of numbers that JSON writes with 25 characters, just
    // enough of them for the response to pass CAP by about 1%.
    const x = -0.0000012345678901234567;
    expect(JSON.stringify(x)).toHaveLength(25);
    const metadata = { a: Array.from({ length: Math.ceil(CAP / 26) + 100 }, () => x) };
    const id = await createThread(small, { agentId: 'cost-numbers', metadata });
    const over = await small.expectError('query($id: ID!) { thread(id: $id) { metadata } }', {
      id,
    });
    expect(over.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('counts one stored item repeated by nodes once per copy', async () => {
    const query = 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on MessageItem { content } } }';
    const four = await small.execute(query, { ids: Array(4).fill(`${bigThread}:0`) });
    expect(four.nodes).toHaveLength(4);
    const many = await small.expectError(query, { ids: Array(100).fill(`${bigThread}:0`) });
    expect(many.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('caps a subscription event on a WebSocket', async () => {
    const id = await createThread(small, { agentId: 'cost-events' });
    const client = wsClient(smallPort);
    const events: unknown[] = [];
    const items = `items(first: 10) { edges { node { ... on MessageItem { content } } } }`;
    const done = new Promise<void>((resolve) => {
      client.subscribe(
        {
          query: `subscription { threadEvents(agentId: "cost-events") { type thread { ${items} } } }`,
        },
        {
          next: (event) => {
            events.push(event);
            if (events.length === 2) resolve();
          },
          error: () => resolve(),
          complete: () => resolve(),
        },
      );
    });
    await new Promise((r) => setTimeout(r, 300));
    await append(small, id, [message('small')]);
    await append(
      small,
      id,
      Array.from({ length: 5 }, (_, i) => message(`${i}`.padEnd(BIG, 'y'))),
    );
    await done;
    expect(events[0]).toMatchObject({ data: { threadEvents: { type: 'ITEMS_APPENDED' } } });
    expect(events[1]).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE' } }],
    });
    await client.dispose();
  });
});

/** Peak and current resident memory of a process, in bytes (Linux /proc). */
function memory(pid: number): { peak: number; rss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
  return { peak: kb('VmHWM'), rss: kb('VmRSS') };
}

/** Resets the peak resident size of a process (Linux: "5" into clear_refs). */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

describe('byte budget of the database reads (default MAX_RESPONSE_BYTES, real server process)', () => {
  /** Items of about 1 MB: 60 of them pass the 32 MiB default, 20 do not. */
  const MB = 1_000_000;
  const BIG_ITEMS = 60;
  let database: TestDatabase;
  let server: ServerProcess;
  let threadId: string;
  let pid: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    const created = await server.graphql(
      'mutation { createThread(input: { agentId: "budget" }) { thread { id } } }',
    );
    threadId = created.data.createThread.thread.id;
    for (let batch = 0; batch < BIG_ITEMS / 10; batch++) {
      const appended = await server.graphql(
        'mutation($input: AppendItemsInput!) { appendItems(input: $input) { items { __typename } } }',
        {
          input: {
            threadId,
            items: Array.from({ length: 10 }, (_, i) =>
              message(`${batch * 10 + i}`.padEnd(MB, 'z')),
            ),
          },
        },
      );
      expect(appended.errors).toBeUndefined();
    }
    // A fresh process for the reads: the appends' garbage would hide what the reads allocate.
    await server.stop();
    server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    pid = server.process.pid!;
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const page = (n: number, alias = 'thread') =>
    `${alias}: thread(id: $id) { items(first: ${n}) { edges { node { ... on MessageItem { seq content } } } } }`;

  it('refuses items(first: 60) of 1 MB items with PAYLOAD_TOO_LARGE, reading about 32 MiB of them', async () => {
    resetPeak(pid);
    const before = memory(pid);
    const answer = await server.graphql(`query($id: ID!) { ${page(60)} }`, { id: threadId });
    const after = memory(pid);
    const grew = after.peak - before.rss;
    console.info(
      `items(first: 60) x 1 MB: peak RSS ${before.rss} -> ${after.peak} (+${grew} bytes)`,
    );
    expect(answer.data).toBeNull();
    expect(answer.errors).toEqual([
      {
        message: `This page's items hold more than 33554432 bytes, what this request had left of MAX_RESPONSE_BYTES (33554432 bytes, shared by all its fields): ask for fewer items with first/last, or leave data out of the selection.`,
        extensions: { code: 'PAYLOAD_TOO_LARGE', maxBytes: 33554432 },
      },
    ]);
    // Measured on a fresh process: reading the whole 60 MB page grew the peak by 150-162 MB;
    // stopping at the 32 MiB budget, by 84-99 MB through Prisma's $queryRaw and 102-118 MB
    // through the adapter directly (src/db/raw.ts: the same bytes read faster, so less is
    // collected between them; PostgreSQL, 2026-12-02): driver strings, parsed data, buffers.
    expect(grew).toBeLessThan(130 * 1024 * 1024);
  }, 120_000);

  it('shares the budget between aliases: 3 x items(first: 20), each under it, are refused', async () => {
    const one = await server.graphql(`query($id: ID!) { ${page(20)} }`, { id: threadId });
    expect(one.errors).toBeUndefined();
    expect(one.data.thread.items.edges).toHaveLength(20);
    const three = await server.graphql(
      `query($id: ID!) { ${page(20, 'a')} ${page(20, 'b')} ${page(20, 'c')} }`,
      { id: threadId },
    );
    expect(three.data).toBeNull();
    expect(three.errors).toHaveLength(1);
    expect(three.errors![0]!.extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', maxBytes: 33554432 });
    expect(three.errors![0]!.message).toMatch(/^This page's items hold more than \d+ bytes/);
  }, 120_000);

  it('stops the context and nodes reads at the budget too', async () => {
    const context = await server.graphql(
      'query($id: ID!) { thread(id: $id) { context { ... on MessageItem { seq } } } }',
      { id: threadId },
    );
    expect(context.data).toBeNull();
    expect(context.errors![0]!.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(context.errors![0]!.message).toMatch(/^This thread's context/);
    const ids = Array.from({ length: BIG_ITEMS }, (_, i) => `${threadId}:${i}`);
    const nodes = await server.graphql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { ... on MessageItem { seq } } }',
      { ids },
    );
    expect(nodes.data).toBeNull();
    expect(nodes.errors![0]!.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(nodes.errors![0]!.message).toMatch(/^These items hold more than/);
  }, 120_000);
});

describe('normal client operations (examples/operations.graphql) under the default limits', () => {
  it('create, append, page at first: 500, list at first: 500, follow', async () => {
    const created = await t.execute(CreateThreadDocument, {
      input: { agentId: 'cost-agent', name: 'cost' },
    });
    const id = created.createThread.thread.id;
    const appended = await t.execute(AppendItemsDocument, {
      input: {
        threadId: id,
        items: Array.from({ length: 500 }, (_, i) => message(`m${i}`)),
      },
    });
    expect(appended.appendItems.items).toHaveLength(500);
    const page = await t.execute(ThreadPageDocument, { id, first: 500 });
    expect(page.thread?.items.edges).toHaveLength(500);
    const list = await t.execute(ThreadListDocument, {
      first: 500,
      filter: { agentId: 'cost-agent' },
    });
    expect(list.threads.edges.map((e) => e.node.id)).toEqual([id]);
    const client = wsClient(port);
    const seqs: number[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe(
        { query: FOLLOW_SOURCE, variables: { threadId: id, afterSeq: 497 } },
        {
          next: (r) => {
            if (r.errors) reject(new Error(JSON.stringify(r.errors)));
            const item = (r.data as { threadItems: { seq: number } }).threadItems;
            seqs.push(item.seq);
            if (seqs.length === 2) resolve();
          },
          error: reject,
          complete: () => resolve(),
        },
      );
    });
    expect(seqs).toEqual([498, 499]);
    await client.dispose();
  });
});

const FOLLOW_SOURCE = print(FollowThreadDocument);

describe('Thread.context over a long thread', () => {
  // The budgeted read computes its running sums once: it once re-ran them per item on SQLite
  // (4,000 items took 48 s and blocked the event loop), which 5,000 items here would show
  // as a test that never ends.
  it('answers every one of 5,000 items', async () => {
    const threadId = await createThread(t);
    await appendMessages(t, threadId, 5_000);
    const result = await t.execute(
      'query($id: ID!) { thread(id: $id) { context { ... on ConversationItem { seq } } } }',
      { id: threadId },
    );
    const seqs = (result as { thread: { context: { seq: number }[] } }).thread.context.map(
      (entry) => entry.seq,
    );
    expect(seqs).toEqual(Array.from({ length: 5_000 }, (_, i) => i));
  });
});
