/**
 * Tenant isolation, total (issue 9, point 2; contract part identity): the key operations of the
 * suite run as tenant A while tenant B holds data under the SAME ids (threads "x", items
 * "x:<seq>", compaction records "x:compaction:<markerSeq>", idempotency keys), over a real
 * server with AUTH=required: queries and mutations over HTTP, subscriptions over graphql-ws
 * (credentials in connection_init) and SSE (Authorization header). Every identity kind runs the
 * whole set: JWTs (HS256, claims `tenant` and `scope`) and API keys (one made by createApiKey,
 * one by `npm run keys -- create`). B's data never shows to A, A's writes never change B, and
 * B's thread answers A exactly as an id that never existed. Two instances on one PostgreSQL:
 * tenancy.pg.test.ts.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { type GraphQLClient, graphqlClient } from './testkit/graphql.js';
import { runToExit } from './testkit/process.js';
import {
  type Subscription,
  sseSubscribe,
  until,
  untilLive,
  wsSubscribe,
} from './testkit/streams.js';

const SECRET = 'tenancy-test-secret-of-at-least-32-characters';
const ALL_SCOPES = ['threads:read', 'threads:write', 'threads:delete', 'admin'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An HS256 token of `tenant` with every scope, valid for an hour. */
function jwt(tenant: string): Promise<string> {
  return new SignJWT({ tenant, scope: ALL_SCOPES.join(' ') })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
}

let t: TestApp;
let port: number;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1', AUTH: 'required', AUTH_JWT_SECRET: SECRET });
  port = await t.app.start(0);
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => t?.close());

/** A GraphQL client over the real HTTP socket, sending `authorization`. */
function httpClient(authorization: string): GraphQLClient {
  return graphqlClient((body) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
      body,
    }),
  );
}

/** Credentials ("Bearer ...") of tenant A and tenant B. */
interface Pair {
  a: string;
  b: string;
}

/** The identity kinds every test below runs with; each pair has tenants of its own. */
const IDENTITIES: { kind: string; credentials: () => Promise<Pair> }[] = [
  {
    kind: 'JWT',
    credentials: async () => ({
      a: `Bearer ${await jwt('jwt-a')}`,
      b: `Bearer ${await jwt('jwt-b')}`,
    }),
  },
  {
    kind: 'API key',
    credentials: async () => {
      // A's key through createApiKey (an admin of key-a), B's through `npm run keys`.
      const created = await httpClient(`Bearer ${await jwt('key-a')}`).execute(
        'mutation($scopes: [String!]!) { createApiKey(input: { name: "tenant-a", scopes: $scopes }) { secret } }',
        { scopes: ALL_SCOPES },
      );
      const cli = await runToExit(
        { DATABASE_URL: t.url },
        {
          script: 'src/identity/keys-cli.ts',
          args: ['create', '--tenant', 'key-b', '--scopes', ALL_SCOPES.join(','), '--name', 'b'],
          timeoutMs: 60_000,
        },
      );
      expect(cli.code, cli.stderr).toBe(0);
      const secret = cli.stdout.trim();
      expect(secret).toMatch(/^tsk_/);
      return { a: `Bearer ${created.createApiKey.secret}`, b: `Bearer ${secret}` };
    },
  },
];

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }`;
const APPEND = `mutation($input: AppendItemsInput!) {
  appendItems(input: $input) {
    replayed
    items { ... on ConversationItem { id seq } ... on MessageItem { content } }
    thread { nextSeq itemCount }
  }
}`;
const ADD_COMPACTION = `mutation($input: AddCompactionInput!) {
  addCompaction(input: $input) { compaction { id summary startSeq endSeq markerSeq } marker { id seq } }
}`;
const CLEAR = `mutation($id: ID!) { clearCompactions(input: { threadId: $id }) { compactionsDeleted thread { id } } }`;
const PURGE = `mutation($id: ID!, $before: DateTime!) { purgeItems(input: { threadId: $id, before: $before }) { itemsDeleted thread { id itemCount } } }`;
const UPDATE = `mutation($input: UpdateThreadInput!) { updateThread(input: $input) { thread { id name metadata archived } } }`;
const DELETE = `mutation($id: ID!) { deleteThread(input: { id: $id }) { deletedThreadId itemsDeleted compactionsDeleted } }`;
const CREATE_KEY = `mutation($name: String!) { createApiKey(input: { name: $name, scopes: ["threads:read"] }) { apiKey { id } } }`;
const REVOKE_KEY = `mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id revokedAt } } }`;
const ITEM_FIELDS = `... on ConversationItem { id seq type threadId } ... on MessageItem { content }`;
const FOLLOW = `subscription($id: ID!, $afterSeq: Int) { threadItems(threadId: $id, afterSeq: $afterSeq) { ${ITEM_FIELDS} } }`;
const EVENTS = `subscription { threadEvents { type threadId thread { id name agentId } } }`;
const FAR_FUTURE = '2999-01-01T00:00:00.000Z';

/**
 * Everything a tenant has, as its own admin sees it through the API: every thread (archived
 * too) with its fields, items and compaction records, and its API keys (without lastUsedAt,
 * which the tenant's own requests move).
 */
const SNAPSHOT = `{
  threads(first: 20, orderBy: CREATED_AT_ASC, filter: { includeArchived: true }) {
    totalCount
    edges { node {
      id agentId name metadata archived createdAt updatedAt nextSeq lastSeq itemCount
      compactions { id startSeq endSeq markerSeq summary createdAt }
      items(first: 20) { totalCount edges { node { ... on ConversationItem { id seq type data createdAt } } } }
    } }
  }
  apiKeys { id name scopes createdAt revokedAt }
}`;

/** A message NewItem. */
const msg = (content: string) => ({ message: { role: 'user', content } });

/** The response with every occurrence of `id` replaced, to compare answers about two ids. */
function normalized(response: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(response).replaceAll(id, '<id>'));
}

describe.each(IDENTITIES)('tenant isolation with $kind identities', ({ credentials }) => {
  let A: GraphQLClient;
  let B: GraphQLClient;
  let creds: Pair;
  /** B's snapshot after B's own last write: A's operations must leave it equal. */
  let bBefore: unknown;
  let aKeyId: string;
  let bKeyId: string;

  const snapshot = async (client: GraphQLClient) => client.execute(SNAPSHOT);
  const expectBUnchanged = async () => expect(await snapshot(B)).toEqual(bBefore);

  beforeAll(async () => {
    creds = await credentials();
    A = httpClient(creds.a);
    B = httpClient(creds.b);
    // The same ids in both tenants, with different content.
    await A.execute(CREATE, {
      input: {
        id: 'x',
        agentId: 'agent',
        name: 'Shared name A',
        metadata: { team: 't1', owner: 'a' },
      },
    });
    await A.execute(CREATE, { input: { id: 'y', agentId: 'agent', name: 'Other A' } });
    await A.execute(CREATE, { input: { id: 'a-solo', agentId: 'agent-a' } });
    await A.execute(APPEND, { input: { threadId: 'x', items: [msg('a0'), msg('a1')] } });
    await B.execute(CREATE, {
      input: {
        id: 'x',
        agentId: 'agent',
        name: 'Shared name B',
        metadata: { team: 't1', owner: 'b' },
      },
    });
    await B.execute(CREATE, { input: { id: 'y', agentId: 'agent', name: 'Other B' } });
    await B.execute(CREATE, {
      input: { id: 'b-only', agentId: 'agent-b', name: 'Secret B', metadata: { secret: 'b' } },
    });
    await B.execute(APPEND, { input: { threadId: 'x', items: [msg('b0'), msg('b1'), msg('b2')] } });
    // B's record "x:compaction:3" (marker seq 3), then one more item: B's x holds seqs 0..4.
    await B.execute(ADD_COMPACTION, {
      input: { threadId: 'x', startSeq: 0, endSeq: 1, summary: 'B summary' },
    });
    await B.execute(APPEND, { input: { threadId: 'x', items: [msg('b4')] } });
    await B.execute(APPEND, { input: { threadId: 'b-only', items: [msg('secret-0')] } });
    const aKey = await A.execute(CREATE_KEY, { name: 'a-extra' });
    const bKey = await B.execute(CREATE_KEY, { name: 'b-extra' });
    aKeyId = aKey.createApiKey.apiKey.id;
    bKeyId = bKey.createApiKey.apiKey.id;
    bBefore = await snapshot(B);
  });

  it('thread, threads and totalCount show only the own tenant', async () => {
    const a = await A.execute(`{
      threads(first: 100, orderBy: CREATED_AT_ASC) { totalCount edges { node { id name agentId } } }
      x: thread(id: "x") { id agentId name metadata itemCount nextSeq lastSeq }
      bOnly: thread(id: "b-only") { id }
    }`);
    expect(a.threads.totalCount).toBe(3);
    expect(a.threads.edges.map((e: { node: unknown }) => e.node)).toEqual([
      { id: 'x', name: 'Shared name A', agentId: 'agent' },
      { id: 'y', name: 'Other A', agentId: 'agent' },
      { id: 'a-solo', name: null, agentId: 'agent-a' },
    ]);
    expect(a.x).toEqual({
      id: 'x',
      agentId: 'agent',
      name: 'Shared name A',
      metadata: { team: 't1', owner: 'a' },
      itemCount: 2,
      nextSeq: 2,
      lastSeq: 1,
    });
    expect(a.bOnly).toBeNull();
    const b = await B.execute(
      '{ threads(first: 100) { totalCount } x: thread(id: "x") { name itemCount nextSeq } }',
    );
    expect(b.threads.totalCount).toBe(3);
    expect(b.x).toEqual({ name: 'Shared name B', itemCount: 5, nextSeq: 5 });
  });

  it("threads filters (agentId, nameContains, metadata) never match another tenant's threads", async () => {
    const list = async (filter: Record<string, unknown>) => {
      const data = await A.execute(
        'query($filter: ThreadFilter) { threads(first: 100, filter: $filter, orderBy: CREATED_AT_ASC) { totalCount edges { node { id name metadata } } } }',
        { filter },
      );
      return {
        totalCount: data.threads.totalCount as number,
        ids: data.threads.edges.map((e: { node: { id: string } }) => e.node.id) as string[],
        nodes: data.threads.edges.map((e: { node: unknown }) => e.node),
      };
    };
    for (const filter of [
      { agentId: 'agent-b' },
      { nameContains: 'secret' },
      { nameContains: 'Shared name B' },
      { metadata: { owner: 'b' } },
      { metadata: { secret: 'b' } },
      { agentId: 'agent-b', includeArchived: true },
    ]) {
      expect(await list(filter), JSON.stringify(filter)).toEqual({
        totalCount: 0,
        ids: [],
        nodes: [],
      });
    }
    expect((await list({ agentId: 'agent' })).ids).toEqual(['x', 'y']);
    expect((await list({ nameContains: 'shared NAME' })).nodes).toEqual([
      { id: 'x', name: 'Shared name A', metadata: { team: 't1', owner: 'a' } },
    ]);
    const team = await list({ metadata: { team: 't1' } });
    expect(team).toEqual({
      totalCount: 1,
      ids: ['x'],
      nodes: [{ id: 'x', name: 'Shared name A', metadata: { team: 't1', owner: 'a' } }],
    });
  });

  it('Thread.items, lastItem, compactions and context are the own thread', async () => {
    const data = await A.execute(`{
      thread(id: "x") {
        items(first: 50) { totalCount edges { node { ${ITEM_FIELDS} } } }
        tail: items(afterSeq: 1) { totalCount edges { node { ${ITEM_FIELDS} } } }
        last: items(last: 10) { edges { node { ${ITEM_FIELDS} } } }
        markers: items(types: ["compaction"]) { totalCount edges { cursor } }
        lastItem { ${ITEM_FIELDS} }
        compactions { id }
        context { __typename ... on MessageItem { content } ... on CompactionRecord { summary } }
      }
    }`);
    const own = [
      { id: 'x:0', seq: 0, type: 'message', threadId: 'x', content: 'a0' },
      { id: 'x:1', seq: 1, type: 'message', threadId: 'x', content: 'a1' },
    ];
    expect(data.thread.items).toEqual({ totalCount: 2, edges: own.map((node) => ({ node })) });
    expect(data.thread.tail).toEqual({ totalCount: 2, edges: [] });
    expect(data.thread.last.edges).toEqual(own.map((node) => ({ node })));
    expect(data.thread.markers).toEqual({ totalCount: 0, edges: [] });
    expect(data.thread.lastItem).toEqual(own[1]);
    expect(data.thread.compactions).toEqual([]);
    expect(data.thread.context).toEqual([
      { __typename: 'MessageItem', content: 'a0' },
      { __typename: 'MessageItem', content: 'a1' },
    ]);
  });

  it("item, node and nodes resolve another tenant's ids to null", async () => {
    const items = await A.execute(`{
      own: item(threadId: "x", seq: 0) { ${ITEM_FIELDS} }
      seq2: item(threadId: "x", seq: 2) { __typename }
      seq3: item(threadId: "x", seq: 3) { __typename }
      bOnly: item(threadId: "b-only", seq: 0) { __typename }
    }`);
    expect(items).toEqual({
      own: { id: 'x:0', seq: 0, type: 'message', threadId: 'x', content: 'a0' },
      seq2: null,
      seq3: null,
      bOnly: null,
    });
    const ids = ['x', 'x:0', 'x:2', 'x:3', 'x:4', 'x:compaction:3', 'b-only', 'b-only:0', bKeyId];
    const expected = [
      { id: 'x', name: 'Shared name A' },
      { id: 'x:0', content: 'a0' },
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ];
    const fields = `id ... on Thread { name } ... on MessageItem { content } ... on CompactionRecord { summary } ... on ApiKey { keyName: name }`;
    const nodes = await A.execute(`query($ids: [ID!]!) { nodes(ids: $ids) { ${fields} } }`, {
      ids,
    });
    expect(nodes.nodes).toEqual(expected);
    for (const [i, id] of ids.entries()) {
      const one = await A.execute(`query($id: ID!) { node(id: $id) { ${fields} } }`, { id });
      expect(one.node, id).toEqual(expected[i]);
    }
    const ownKey = await A.execute(
      'query($id: ID!) { node(id: $id) { id ... on ApiKey { name } } }',
      {
        id: aKeyId,
      },
    );
    expect(ownKey.node).toEqual({ id: aKeyId, name: 'a-extra' });
  });

  it("apiKeys lists only the own tenant's keys; revokeApiKey of B's key is NOT_FOUND, like an unknown id", async () => {
    const aKeys = (await A.execute('{ apiKeys { id } }')).apiKeys.map((k: { id: string }) => k.id);
    const bKeys = (await B.execute('{ apiKeys { id } }')).apiKeys.map((k: { id: string }) => k.id);
    expect(aKeys).toContain(aKeyId);
    expect(bKeys).toContain(bKeyId);
    expect(aKeys.filter((id: string) => bKeys.includes(id))).toEqual([]);
    const foreign = await A.request(REVOKE_KEY, { id: bKeyId });
    const unknown = await A.request(REVOKE_KEY, { id: 'apikey:k00000000000000000f' });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(foreign.data ?? null).toBeNull();
    expect(normalized(foreign, bKeyId.slice('apikey:'.length))).toEqual(
      normalized(unknown, 'k00000000000000000f'),
    );
    // Every key of B, the one B authenticates with included, is still valid.
    for (const id of bKeys) {
      expect(normalized(await A.request(REVOKE_KEY, { id }), id.slice(7))).toEqual(
        normalized(unknown, 'k00000000000000000f'),
      );
    }
    await expectBUnchanged();
    expect((await B.execute('{ viewer { tenantId } }')).viewer.tenantId).toMatch(/-b$/);
  });

  it('a cursor minted for one tenant is BAD_USER_INPUT for another (threads and items)', async () => {
    const minted = await A.execute(
      '{ threads(first: 1, orderBy: CREATED_AT_ASC) { pageInfo { endCursor } } thread(id: "x") { items(first: 1) { pageInfo { endCursor } } } }',
    );
    const threadCursor: string = minted.threads.pageInfo.endCursor;
    const itemCursor: string = minted.thread.items.pageInfo.endCursor;
    // The cursors work for the tenant they were minted for.
    const ownPages = await A.execute(
      'query($t: String!, $i: String!) { threads(first: 5, after: $t, orderBy: CREATED_AT_ASC) { edges { node { id } } } thread(id: "x") { items(after: $i) { edges { node { ... on ConversationItem { seq } } } } } }',
      { t: threadCursor, i: itemCursor },
    );
    expect(ownPages.threads.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
      'y',
      'a-solo',
    ]);
    expect(ownPages.thread.items.edges).toEqual([{ node: { seq: 1 } }]);

    const refusals: [string, string, Record<string, unknown>][] = [
      [
        'threads after',
        'query($c: String!) { threads(first: 5, after: $c, orderBy: CREATED_AT_ASC) { edges { node { id } } } }',
        { c: threadCursor },
      ],
      [
        'threads before',
        'query($c: String!) { threads(last: 5, before: $c, orderBy: CREATED_AT_ASC) { edges { node { id } } } }',
        { c: threadCursor },
      ],
      [
        'items after',
        'query($c: String!) { thread(id: "x") { items(after: $c) { edges { node { ... on ConversationItem { seq } } } } } }',
        { c: itemCursor },
      ],
      [
        'items before',
        'query($c: String!) { thread(id: "x") { items(before: $c) { edges { node { ... on ConversationItem { seq } } } } } }',
        { c: itemCursor },
      ],
    ];
    const failures: string[] = [];
    for (const [name, query, variables] of refusals) {
      const answer = await B.request(query, variables);
      const code = answer.errors?.[0]?.extensions?.code;
      if (code !== 'BAD_USER_INPUT') failures.push(`${name}: ${JSON.stringify(answer)}`);
    }
    expect(failures, 'B used cursors minted for A (contract: BAD_USER_INPUT)').toEqual([]);
  });

  it("another tenant's thread answers exactly as an id that never existed, and writes nothing", async () => {
    const operations: [string, string, (id: string) => Record<string, unknown>][] = [
      ['thread', 'query($id: ID!) { thread(id: $id) { id name } }', (id) => ({ id })],
      ['item', 'query($id: ID!) { item(threadId: $id, seq: 0) { __typename } }', (id) => ({ id })],
      ['node', 'query($id: ID!) { node(id: $id) { id } }', (id) => ({ id })],
      [
        'nodes',
        'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
        (id) => ({ ids: [id, `${id}:0`, `${id}:compaction:0`] }),
      ],
      ['appendItems', APPEND, (id) => ({ input: { threadId: id, items: [msg('intruder')] } })],
      [
        'appendItems with idempotencyKey and expectedSeq',
        APPEND,
        (id) => ({
          input: { threadId: id, items: [msg('intruder')], idempotencyKey: 'k', expectedSeq: 1 },
        }),
      ],
      [
        'addCompaction',
        ADD_COMPACTION,
        (id) => ({ input: { threadId: id, startSeq: 0, endSeq: 0, summary: 'intruder' } }),
      ],
      ['clearCompactions', CLEAR, (id) => ({ id })],
      ['purgeItems', PURGE, (id) => ({ id, before: FAR_FUTURE })],
      [
        'updateThread',
        UPDATE,
        (id) => ({ input: { id, name: 'intruder', metadata: { owner: 'a' }, archived: true } }),
      ],
      ['deleteThread', DELETE, (id) => ({ id })],
    ];
    for (const [name, query, variables] of operations) {
      const foreign = await A.request(query, variables('b-only'));
      const never = await A.request(query, variables('never-existed'));
      expect(normalized(foreign, 'b-only'), name).toEqual(normalized(never, 'never-existed'));
      if (query.trimStart().startsWith('mutation')) {
        expect(foreign.errors?.[0]?.extensions?.code, name).toBe('NOT_FOUND');
      } else {
        expect(foreign.errors, name).toBeUndefined();
      }
    }
    await expectBUnchanged();
    // Neither the refused delete nor B's thread keeps A from using the id: the same id exists
    // in two tenants independently.
    const created = await A.request(CREATE, { input: { id: 'b-only', agentId: 'agent-a' } });
    const fresh = await A.request(CREATE, { input: { id: 'never-existed', agentId: 'agent-a' } });
    expect(normalized(created, 'b-only')).toEqual(normalized(fresh, 'never-existed'));
    expect(created.errors).toBeUndefined();
    await expectBUnchanged();
    expect((await A.execute('{ thread(id: "b-only") { itemCount name } }')).thread).toEqual({
      itemCount: 0,
      name: null,
    });
    for (const id of ['b-only', 'never-existed']) await A.execute(DELETE, { id });
    await expectBUnchanged();
  });

  it('the same idempotency key in both tenants writes twice, independently', async () => {
    await A.execute(CREATE, { input: { id: 'idem', agentId: 'agent' } });
    await B.execute(CREATE, { input: { id: 'idem', agentId: 'agent' } });
    const aInput = { threadId: 'idem', idempotencyKey: 'k-1', items: [msg('a-idem')] };
    // Different items under the same key: shared keys would make one of these a CONFLICT.
    const bInput = {
      threadId: 'idem',
      idempotencyKey: 'k-1',
      items: [msg('b-idem-1'), msg('b-idem-2')],
    };
    const [a1, b1] = await Promise.all([
      A.execute(APPEND, { input: aInput }),
      B.execute(APPEND, { input: bInput }),
    ]);
    expect(a1.appendItems).toEqual({
      replayed: false,
      items: [{ id: 'idem:0', seq: 0, content: 'a-idem' }],
      thread: { nextSeq: 1, itemCount: 1 },
    });
    expect(b1.appendItems).toEqual({
      replayed: false,
      items: [
        { id: 'idem:0', seq: 0, content: 'b-idem-1' },
        { id: 'idem:1', seq: 1, content: 'b-idem-2' },
      ],
      thread: { nextSeq: 2, itemCount: 2 },
    });
    const [a2, b2] = await Promise.all([
      A.execute(APPEND, { input: aInput }),
      B.execute(APPEND, { input: bInput }),
    ]);
    expect(a2.appendItems.replayed).toBe(true);
    expect(a2.appendItems.items).toEqual(a1.appendItems.items);
    expect(b2.appendItems.replayed).toBe(true);
    expect(b2.appendItems.items).toEqual(b1.appendItems.items);
    // Within one tenant the key still binds: A's key with B's items is A's CONFLICT.
    const conflict = await A.expectError(APPEND, { input: { ...bInput } });
    expect(conflict.code).toBe('CONFLICT');
    bBefore = await snapshot(B);
    // A's key k-1 on B's thread id from A's side: A's own thread, A's own replay.
    const again = await A.execute(APPEND, { input: aInput });
    expect(again.appendItems.items).toEqual(a1.appendItems.items);
    await expectBUnchanged();
  });

  it("expectedSeq is checked against the own thread's seqs only", async () => {
    // A's x has nextSeq 2, B's x nextSeq 5.
    const wrong = await A.expectError(APPEND, {
      input: { threadId: 'x', items: [msg('a-at-5')], expectedSeq: 5 },
    });
    expect(wrong.code).toBe('CONFLICT');
    const right = await A.execute(APPEND, {
      input: { threadId: 'x', items: [msg('a2')], expectedSeq: 2 },
    });
    expect(right.appendItems.items).toEqual([{ id: 'x:2', seq: 2, content: 'a2' }]);
    await expectBUnchanged();
  });

  it('addCompaction and clearCompactions act on the own thread: the same record id in both tenants', async () => {
    const none = await A.execute(CLEAR, { id: 'x' });
    expect(none.clearCompactions.compactionsDeleted).toBe(0);
    await expectBUnchanged();
    // A's x holds seqs 0..2: the marker gets seq 3, the record id of B's record.
    const added = await A.execute(ADD_COMPACTION, {
      input: { threadId: 'x', startSeq: 0, endSeq: 1, summary: 'A summary' },
    });
    expect(added.addCompaction.compaction).toEqual({
      id: 'x:compaction:3',
      summary: 'A summary',
      startSeq: 0,
      endSeq: 1,
      markerSeq: 3,
    });
    expect(added.addCompaction.marker).toEqual({ id: 'x:3', seq: 3 });
    await expectBUnchanged();
    const q = `{ node(id: "x:compaction:3") { ... on CompactionRecord { summary } } thread(id: "x") { compactions { id summary } context { __typename ... on CompactionRecord { summary } ... on MessageItem { content } } } }`;
    expect(await A.execute(q)).toEqual({
      node: { summary: 'A summary' },
      thread: {
        compactions: [{ id: 'x:compaction:3', summary: 'A summary' }],
        context: [
          { __typename: 'CompactionRecord', summary: 'A summary' },
          { __typename: 'MessageItem', content: 'a2' },
        ],
      },
    });
    expect((await B.execute(q)).node).toEqual({ summary: 'B summary' });
    const cleared = await A.execute(CLEAR, { id: 'x' });
    expect(cleared.clearCompactions.compactionsDeleted).toBe(1);
    await expectBUnchanged();
  });

  it('updateThread and purgeItems change the own thread only', async () => {
    const updated = await A.execute(UPDATE, {
      input: { id: 'x', name: 'Renamed A', metadata: { owner: 'a2' }, archived: true },
    });
    expect(updated.updateThread.thread).toEqual({
      id: 'x',
      name: 'Renamed A',
      metadata: { owner: 'a2' },
      archived: true,
    });
    await expectBUnchanged();
    const purged = await A.execute(PURGE, { id: 'x', before: FAR_FUTURE });
    expect(purged.purgeItems).toEqual({ itemsDeleted: 4, thread: { id: 'x', itemCount: 0 } });
    await expectBUnchanged();
    expect((await B.execute('{ thread(id: "x") { itemCount } }')).thread.itemCount).toBe(5);
  });

  it('deleteThread "x" as A leaves B\'s "x" whole; tombstones belong to their tenant', async () => {
    const deleted = await A.execute(DELETE, { id: 'x' });
    expect(deleted.deleteThread).toEqual({
      deletedThreadId: 'x',
      itemsDeleted: 0,
      compactionsDeleted: 0,
    });
    await expectBUnchanged();
    expect((await A.execute('{ thread(id: "x") { id } }')).thread).toBeNull();
    const bx = await B.execute(
      '{ thread(id: "x") { name itemCount compactions { id } items { totalCount } } }',
    );
    expect(bx.thread).toEqual({
      name: 'Shared name B',
      itemCount: 5,
      compactions: [{ id: 'x:compaction:3' }],
      items: { totalCount: 5 },
    });
    // A deletes an id B never had; B can still create it. B deletes one; A can still create it.
    await A.execute(DELETE, { id: 'a-solo' });
    await B.execute(CREATE, { input: { id: 'a-solo', agentId: 'agent-b' } });
    await B.execute(DELETE, { id: 'y' });
    expect((await A.execute('{ thread(id: "y") { name } }')).thread).toEqual({ name: 'Other A' });
    await B.execute(CREATE, { input: { id: 'b-gone', agentId: 'agent-b' } });
    await B.execute(DELETE, { id: 'b-gone' });
    const recreated = await A.request(CREATE, { input: { id: 'b-gone', agentId: 'agent-a' } });
    expect(recreated.errors).toBeUndefined();
  });

  describe.each(['graphql-ws', 'SSE'] as const)('subscriptions over %s', (transport) => {
    const subscribe = (
      authorization: string,
      query: string,
      variables: Record<string, unknown> = {},
    ): Subscription =>
      transport === 'graphql-ws'
        ? wsSubscribe(port, authorization, query, variables)
        : sseSubscribe(base, authorization, query, variables);
    const open: Subscription[] = [];
    afterAll(async () => {
      for (const s of open) await s.close();
    });

    it('threadItems on the same thread id: each tenant receives only its own items', async () => {
      const id = `live-${transport === 'SSE' ? 'sse' : 'ws'}`;
      await A.execute(CREATE, { input: { id, agentId: 'agent' } });
      await B.execute(CREATE, { input: { id, agentId: 'agent' } });
      await A.execute(APPEND, { input: { threadId: id, items: [msg('a-0')] } });
      await B.execute(APPEND, { input: { threadId: id, items: [msg('b-0'), msg('b-1')] } });
      const a = subscribe(creds.a, FOLLOW, { id, afterSeq: -1 });
      const b = subscribe(creds.b, FOLLOW, { id, afterSeq: -1 });
      open.push(a, b);
      // The replay proves each subscription is live.
      await until(() => a.results.length >= 1 && b.results.length >= 2, [a, b], 'replay');
      await B.execute(APPEND, { input: { threadId: id, items: [msg('b-2')] } });
      await A.execute(APPEND, { input: { threadId: id, items: [msg('a-1')] } });
      await B.execute(APPEND, { input: { threadId: id, items: [msg('b-3')] } });
      await A.execute(APPEND, { input: { threadId: id, items: [msg('a-2')] } });
      await until(() => a.results.length >= 3 && b.results.length >= 4, [a, b], 'live items');
      // B deletes its thread: A's thread of the same id lives on, and so does A's follower.
      await B.execute(DELETE, { id });
      await until(() => b.completed, [b], "B's follower to complete");
      await A.execute(APPEND, { input: { threadId: id, items: [msg('a-3')] } });
      await until(() => a.results.length >= 4, [a], 'the item after B deleted its thread');
      await sleep(300); // anything leaking would arrive by now
      const contents = (s: Subscription) =>
        s.results.map((r) => {
          const item = r.threadItems as { id: string; seq: number; content: string };
          return `${item.id} ${item.content}`;
        });
      expect(contents(a)).toEqual([`${id}:0 a-0`, `${id}:1 a-1`, `${id}:2 a-2`, `${id}:3 a-3`]);
      expect(contents(b)).toEqual([`${id}:0 b-0`, `${id}:1 b-1`, `${id}:2 b-2`, `${id}:3 b-3`]);
      expect(a.completed).toBe(false);
      expect([...a.errors, ...b.errors]).toEqual([]);
    });

    it('threadEvents: each tenant receives only its own thread changes', async () => {
      const suffix = transport === 'SSE' ? 'sse' : 'ws';
      const id = `events-${suffix}`;
      const a = subscribe(creds.a, EVENTS);
      const b = subscribe(creds.b, EVENTS);
      open.push(a, b);
      // Each tenant renames a probe thread of its own until its subscription reports it.
      const probe = { a: `probe-a-${suffix}`, b: `probe-b-${suffix}` };
      await A.execute(CREATE, { input: { id: probe.a, agentId: 'probe' } });
      await B.execute(CREATE, { input: { id: probe.b, agentId: 'probe' } });
      const threadIds = (s: Subscription) =>
        s.results.map((r) => (r.threadEvents as { threadId: string }).threadId);
      let n = 0;
      await untilLive(
        a,
        () => A.execute(UPDATE, { input: { id: probe.a, name: `${++n}` } }),
        () => threadIds(a).includes(probe.a),
      );
      await untilLive(
        b,
        () => B.execute(UPDATE, { input: { id: probe.b, name: `${++n}` } }),
        () => threadIds(b).includes(probe.b),
      );
      await B.execute(CREATE, { input: { id, agentId: 'agent-b', name: 'B events' } });
      await A.execute(CREATE, { input: { id, agentId: 'agent', name: 'A events' } });
      await B.execute(APPEND, { input: { threadId: id, items: [msg('b')] } });
      await B.execute(UPDATE, { input: { id, name: 'B renamed' } });
      await A.execute(APPEND, { input: { threadId: id, items: [msg('a')] } });
      await B.execute(DELETE, { id });
      const main = (s: Subscription) => threadIds(s).filter((t) => t === id).length;
      await until(() => main(a) >= 2 && main(b) >= 4, [a, b], 'events');
      await sleep(300);
      // Everything but the tenant's own probe: another tenant's probe would show here.
      const events = (s: Subscription, own: string) =>
        s.results
          .map((r) => r.threadEvents as { type: string; threadId: string; thread: unknown })
          .filter((e) => e.threadId !== own)
          .map((e) => [e.type, e.threadId, e.thread]);
      const aThread = { id, name: 'A events', agentId: 'agent' };
      expect(events(a, probe.a)).toEqual([
        ['CREATED', id, aThread],
        ['ITEMS_APPENDED', id, aThread],
      ]);
      expect(events(b, probe.b).map(([type, threadId]) => [type, threadId])).toEqual([
        ['CREATED', id],
        ['ITEMS_APPENDED', id],
        ['UPDATED', id],
        ['DELETED', id],
      ]);
      // Event.thread is read when the event is delivered: B's thread, or null once deleted,
      // never A's thread of the same id.
      for (const [, , thread] of events(b, probe.b)) {
        if (thread !== null) expect(thread).toMatchObject({ id, agentId: 'agent-b' });
      }
      expect(events(b, probe.b)[3]![2]).toBeNull();
      expect([...a.errors, ...b.errors]).toEqual([]);
    });

    it("threadItems on another tenant's thread fails exactly as on an id that never existed", async () => {
      const foreign = subscribe(creds.a, FOLLOW, { id: 'b-only', afterSeq: -1 });
      const never = subscribe(creds.a, FOLLOW, { id: 'never-existed-sub', afterSeq: -1 });
      open.push(foreign, never);
      await until(
        () =>
          (foreign.errors.length > 0 || foreign.completed) &&
          (never.errors.length > 0 || never.completed),
        [],
        'both subscriptions to end',
      );
      expect(foreign.results).toEqual([]);
      expect(normalized(foreign.errors, 'b-only')).toEqual(
        normalized(never.errors, 'never-existed-sub'),
      );
      expect(
        (foreign.errors[0] as { extensions?: { code?: string } } | undefined)?.extensions?.code,
      ).toBe('NOT_FOUND');
    });
  });
});
