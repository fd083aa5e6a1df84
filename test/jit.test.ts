/**
 * graphql-jit (src/server/jit.ts) answers exactly as graphql-js does: the same data and errors
 * with GRAPHQL_JIT on and off (the default), for what it compiles (reads with built-in scalar
 * variables, lazy page flags, resolver errors with their location) and what it leaves to
 * graphql-js (several operations in one document, custom-scalar variables).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread } from './testkit/seed.js';

let jit: TestApp;
let plain: TestApp;
let threadId: string;
beforeAll(async () => {
  jit = await buildTestApp({ GRAPHQL_JIT: 'true' });
  // The same database, executed by graphql-js.
  plain = await buildTestApp({ GRAPHQL_JIT: 'false' }, {}, { url: jit.url });
  threadId = await createThread(jit);
  await append(
    jit,
    threadId,
    Array.from({ length: 5 }, (_, i) => ({ message: { role: 'user', content: `m${i}` } })),
  );
});
afterAll(async () => {
  await plain?.close();
  await jit?.close();
});

/** The response body of `query` on both apps: [jit, graphql-js]. */
async function both(
  query: string,
  variables: Record<string, unknown> = {},
  operationName?: string,
) {
  const [a, b] = await Promise.all(
    [jit, plain].map(async (t) => {
      const res = await t.app.yoga.fetch('http://localhost/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables, operationName }),
      });
      return res.json() as Promise<Record<string, unknown>>;
    }),
  );
  return [a!, b!] as const;
}

const PAGE = `query Page($t: ID!, $n: Int, $after: Int) {
  thread(id: $t) {
    items(first: $n, afterSeq: $after) {
      totalCount
      edges { cursor node { ... on ConversationItem { id seq type } ... on MessageItem { content } } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}`;

describe('graphql-jit', () => {
  it('a history page, lazy page flags included, is the same as graphql-js gives', async () => {
    const [a, b] = await both(PAGE, { t: threadId, n: 2, after: 0 });
    expect(a).toEqual(b);
    const items = (a.data as { thread: { items: Record<string, unknown> } }).thread.items;
    expect(items.totalCount).toBe(5);
    // Both flags are booleans, the lazy one (hasPreviousPage, read only when selected) too.
    expect(items.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect((items.edges as { node: { seq: number } }[]).map((e) => e.node.seq)).toEqual([1, 2]);
  });

  it('a document with two operations runs the one named, each time', async () => {
    const doc = `query First($t: ID!) { thread(id: $t) { items(first: 1) { edges { node { ... on ConversationItem { seq } } } } } }
      query Last($t: ID!) { thread(id: $t) { items(last: 1) { edges { node { ... on ConversationItem { seq } } } } } }`;
    for (const [name, seq] of [
      ['First', 0],
      ['Last', 4],
      ['First', 0],
    ] as const) {
      const [a, b] = await both(doc, { t: threadId }, name);
      expect(a).toEqual(b);
      const edges = (a.data as { thread: { items: { edges: { node: { seq: number } }[] } } }).thread
        .items.edges;
      expect(edges.map((e) => e.node.seq)).toEqual([seq]);
    }
  });

  it('a resolver error keeps its code, path and location', async () => {
    const [a, b] = await both(
      'query($t: ID!) {\n  thread(id: $t) { items(first: -1) { totalCount } }\n}',
      {
        t: threadId,
      },
    );
    expect(a).toEqual(b);
    const error = (a.errors as Record<string, unknown>[])[0]!;
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(error.path).toEqual(['thread', 'items']);
    expect(error.locations).toEqual([{ line: 2, column: 20 }]);
  });

  it('a custom-scalar variable that does not coerce has the same message (left to graphql-js)', async () => {
    const [a, b] = await both(
      'query($m: JSON) { threads(filter: { metadata: $m }) { totalCount } }',
      { m: { deep: [1, { x: '\uD800' }] } },
    );
    expect(a).toEqual(b);
    expect((a.errors as { extensions: { code: string } }[])[0]!.extensions.code).toBe(
      'BAD_USER_INPUT',
    );
  });
});
