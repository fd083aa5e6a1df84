/**
 * @threadstore/client (client/) against a real server, on the run's database: threads listed,
 * filtered and paged by cursor, read, created, updated and deleted; items paged forward and
 * backward; an append whose answer is lost is retried with the same idempotency key and written
 * once; compactions, context, modelContext and viewer; GraphQL errors as ThreadstoreError with
 * their codes. follow() delivers appended items in order, across a real server restart (with
 * appends while it is down) with every seq exactly once, and gets a new token from getToken
 * when the server closes the socket at a JWT's expiry (4403) or ends the stream of a revoked
 * API key; followThreads() reports thread changes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import {
  createClient,
  type FollowStatus,
  type Item,
  type ThreadListEvent,
  type ThreadstoreClient,
  ThreadstoreError,
} from '../client/src/index.js';
import { graphql } from './generated/gql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { freePort, root, type ServerProcess, startServer } from './testkit/process.js';
import { hs256, TEST_JWT_SECRET } from './testkit/transport.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 10 ms until it holds; fails after `ms` naming `what`. */
async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Consumes `iterable` in the background, keeping what it yields and how it ended. */
function collect<T>(iterable: AsyncIterable<T>) {
  const state = {
    got: [] as T[],
    error: undefined as unknown,
    done: false,
    finished: Promise.resolve(),
  };
  state.finished = (async () => {
    try {
      for await (const value of iterable) state.got.push(value);
    } catch (error) {
      state.error = error;
    } finally {
      state.done = true;
    }
  })();
  return state;
}

const seqs = (items: Item[]) => items.map((i) => i.seq);
const contents = (items: Item[]) =>
  items.map((i) => (i.__typename === 'MessageItem' ? i.content : i.type));
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);
const messages = (...texts: string[]) =>
  texts.map((content) => ({ message: { role: 'user', content } }));

const CREATE_KEY = graphql(`
  mutation ClientTestCreateKey($name: String!) {
    createApiKey(input: { name: $name, scopes: ["threads:read"] }) {
      secret
      apiKey {
        id
      }
    }
  }
`);
const REVOKE_KEY = graphql(`
  mutation ClientTestRevokeKey($id: ID!) {
    revokeApiKey(input: { id: $id }) {
      apiKey {
        revokedAt
      }
    }
  }
`);

let t: TestApp;
let url: string;
let client: ThreadstoreClient;
beforeAll(async () => {
  t = await buildTestApp({
    AUTH: 'required',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    STREAM_AUTH_RECHECK_MS: '150',
  });
  const port = await t.app.start(0);
  url = `http://127.0.0.1:${port}/graphql`;
  const token = await hs256();
  client = createClient({ url, token, webSocketImpl: WebSocket });
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

describe('threads', () => {
  beforeAll(async () => {
    // Five threads of two agents, created in this order (so updatedAt ascends).
    for (const [id, agentId, name] of [
      ['t1', 'alpha', 'Été report'],
      ['t2', 'alpha', 'Weekly sync'],
      ['t3', 'beta', 'été plans'],
      ['t4', 'alpha', 'Budget'],
      ['t5', 'beta', 'Retro'],
    ] as const)
      await client.threads.create({ id, agentId, name, metadata: { team: agentId } });
  });

  it('creates and gets a thread with its fields', async () => {
    const thread = await client.threads.get('t1');
    expect(thread).toMatchObject({
      id: 't1',
      agentId: 'alpha',
      name: 'Été report',
      archived: false,
      metadata: { team: 'alpha' },
      itemCount: 0,
      nextSeq: 0,
      lastSeq: null,
      lastItem: null,
    });
    expect(await client.threads.get('missing')).toBeNull();
  });

  it('lists with filters and pages by cursor, forward and backward', async () => {
    const all = await client.threads.list({ filter: { nameContains: 'ÉTÉ' } });
    expect(all.nodes.map((n) => n.id).sort()).toEqual(['t1', 't3']);
    expect(all.totalCount).toBe(2);

    const alpha = await client.threads.list({
      filter: { agentId: 'alpha' },
      orderBy: 'CREATED_AT_ASC',
      first: 2,
    });
    expect(alpha.nodes.map((n) => n.id)).toEqual(['t1', 't2']);
    expect(alpha.totalCount).toBe(3);
    expect(alpha.pageInfo.hasNextPage).toBe(true);
    const rest = await client.threads.list({
      filter: { agentId: 'alpha' },
      orderBy: 'CREATED_AT_ASC',
      first: 2,
      after: alpha.pageInfo.endCursor,
    });
    expect(rest.nodes.map((n) => n.id)).toEqual(['t4']);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    const back = await client.threads.list({
      filter: { agentId: 'alpha' },
      orderBy: 'CREATED_AT_ASC',
      last: 2,
      before: rest.pageInfo.startCursor,
    });
    expect(back.nodes.map((n) => n.id)).toEqual(['t1', 't2']);

    const byMetadata = await client.threads.list({ filter: { metadata: { team: 'beta' } } });
    expect(byMetadata.nodes.map((n) => n.id).sort()).toEqual(['t3', 't5']);
  });

  it('updates (rename, archive) and deletes', async () => {
    const renamed = await client.threads.update({ id: 't5', name: 'Retro 2', archived: true });
    expect(renamed).toMatchObject({ id: 't5', name: 'Retro 2', archived: true });
    const beta = await client.threads.list({ filter: { agentId: 'beta' } });
    expect(beta.nodes.map((n) => n.id)).toEqual(['t3']);
    const withArchived = await client.threads.list({
      filter: { agentId: 'beta', includeArchived: true },
      orderBy: 'CREATED_AT_ASC',
    });
    expect(withArchived.nodes.map((n) => n.id)).toEqual(['t3', 't5']);

    await client.items.append('t5', messages('a', 'b'));
    expect(await client.threads.delete('t5')).toEqual({
      deletedThreadId: 't5',
      itemsDeleted: 2,
      compactionsDeleted: 0,
    });
    expect(await client.threads.get('t5')).toBeNull();
  });

  it('throws ThreadstoreError with the GraphQL error code and message', async () => {
    const conflict = await client.threads.create({ id: 't1', agentId: 'alpha' }).catch((e) => e);
    expect(conflict).toBeInstanceOf(ThreadstoreError);
    expect(conflict.code).toBe('CONFLICT');
    expect(conflict.message).toMatch(/t1/);
    expect(conflict.extensions.code).toBe('CONFLICT');

    const missing = await client.threads.update({ id: 'nope', name: 'x' }).catch((e) => e);
    expect(missing).toBeInstanceOf(ThreadstoreError);
    expect(missing.code).toBe('NOT_FOUND');

    const badPage = await client.items.page('t1', { first: 501 }).catch((e) => e);
    expect(badPage).toBeInstanceOf(ThreadstoreError);
    expect(badPage.code).toBe('BAD_USER_INPUT');
    expect(badPage.message).toMatch(/500/);

    const noThread = await client.items.page('nope').catch((e) => e);
    expect(noThread).toMatchObject({ name: 'ThreadstoreError', code: 'NOT_FOUND' });

    const anonymous = createClient({ url });
    const refused = await anonymous.viewer().catch((e) => e);
    expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });

    const unreachable = createClient({ url: `http://127.0.0.1:${await freePort()}/graphql` });
    const down = await unreachable.viewer().catch((e) => e);
    expect(down).toMatchObject({ name: 'ThreadstoreError', code: 'NETWORK_ERROR' });
  });

  it('viewer: the token was sent', async () => {
    expect(await client.viewer()).toEqual({
      tenantId: 'acme',
      subject: 'user-1',
      method: 'JWT',
      scopes: expect.arrayContaining(['threads:read', 'threads:write']),
    });
    // getToken is asked for each request.
    let calls = 0;
    const viaGetToken = createClient({
      url,
      getToken: async () => {
        calls++;
        return hs256({ sub: `user-${calls}` });
      },
    });
    expect((await viaGetToken.viewer()).subject).toBe('user-1');
    expect((await viaGetToken.viewer()).subject).toBe('user-2');
  });
});

describe('items', () => {
  const id = 'items-1';
  beforeAll(async () => {
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(
      id,
      Array.from({ length: 12 }, (_, i) => ({ message: { role: 'user', content: `m${i}` } })),
    );
    await client.items.append(id, [
      { toolCall: { callId: 'c1', name: 'search', arguments: { q: 'x' } } },
      { toolResult: { callId: 'c1', name: 'search', output: { hits: 3 } } },
      { reasoning: { text: 'think', summary: [{ text: 's' }] } },
    ]);
  });

  it('pages forward and backward by cursor and seq', async () => {
    const first = await client.items.page(id, { first: 5 });
    expect(seqs(first.nodes)).toEqual([0, 1, 2, 3, 4]);
    expect(first.totalCount).toBe(15);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await client.items.page(id, { first: 5, after: first.pageInfo.endCursor });
    expect(seqs(second.nodes)).toEqual([5, 6, 7, 8, 9]);

    const last = await client.items.page(id, { last: 4 });
    expect(seqs(last.nodes)).toEqual([11, 12, 13, 14]);
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    const before = await client.items.page(id, { last: 4, before: last.pageInfo.startCursor });
    expect(seqs(before.nodes)).toEqual([7, 8, 9, 10]);

    expect(seqs((await client.items.page(id, { afterSeq: 12 })).nodes)).toEqual([13, 14]);
    expect(seqs((await client.items.page(id, { last: 2, beforeSeq: 3 })).nodes)).toEqual([1, 2]);
    const tools = await client.items.page(id, { types: ['tool_call', 'tool_result'] });
    expect(tools.totalCount).toBe(2);
  });

  it("the client's largest pages fit the server's default cost and size limits", async () => {
    const big = 'items-500';
    await client.threads.create({ id: big, agentId: 'cost', name: 'big' });
    await client.items.append(
      big,
      Array.from({ length: 500 }, (_, i) => ({ message: { role: 'user', content: `m${i}` } })),
    );
    expect(seqs((await client.items.page(big, { first: 500 })).nodes)).toEqual(range(0, 499));
    expect((await client.items.page(big, { last: 500 })).nodes).toHaveLength(500);
    const list = await client.threads.list({ first: 500, filter: { agentId: 'cost' } });
    expect(list.nodes.map((n) => [n.id, n.lastItem?.seq])).toEqual([[big, 499]]);
  });

  it('types every item by __typename', async () => {
    const page = await client.items.page(id, { afterSeq: 10 });
    expect(page.nodes).toMatchObject([
      { __typename: 'MessageItem', seq: 11, role: 'user', content: 'm11', id: `${id}:11` },
      { __typename: 'ToolCallItem', seq: 12, callId: 'c1', name: 'search', arguments: { q: 'x' } },
      {
        __typename: 'ToolResultItem',
        seq: 13,
        callId: 'c1',
        toolName: 'search',
        output: { hits: 3 },
        isError: false,
      },
      { __typename: 'ReasoningItem', seq: 14, text: 'think', reasoningSummary: [{ text: 's' }] },
    ]);
    expect(await client.items.get(id, 12)).toMatchObject({ __typename: 'ToolCallItem', seq: 12 });
    expect(await client.items.get(id, 99)).toBeNull();
    expect((await client.threads.get(id))?.lastItem).toMatchObject({ seq: 14, text: 'think' });
  });

  it('append: a retry after a lost answer sends the same idempotency key and writes once', async () => {
    await client.threads.create({ id: 'retry-1', agentId: 'alpha' });
    const keys: string[] = [];
    let lost = 0;
    const flaky = createClient({
      url,
      token: await hs256(),
      // The first append reaches the server, which writes it; its answer never comes back.
      fetch: async (input, init) => {
        const body = JSON.parse(String(init?.body));
        if (body.operationName === 'ClientAppendItems')
          keys.push(body.variables.input.idempotencyKey);
        const response = await fetch(input, init);
        if (body.operationName === 'ClientAppendItems' && lost++ === 0)
          throw new TypeError('fetch failed (connection reset)');
        return response;
      },
    });
    const result = await flaky.items.append('retry-1', messages('once', 'only'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(result.replayed).toBe(true);
    expect(seqs(result.items)).toEqual([0, 1]);
    expect(result.thread).toMatchObject({ id: 'retry-1', nextSeq: 2, itemCount: 2 });
    const stored = await client.items.page('retry-1');
    expect(contents(stored.nodes)).toEqual(['once', 'only']);

    // A second call is another append: a new key, written again.
    const again = await flaky.items.append('retry-1', messages('twice'));
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
    expect(again).toMatchObject({ replayed: false, thread: { nextSeq: 3 } });

    // A given key is used as is: the same append twice is written once.
    const a = await client.items.append('retry-1', messages('k'), { idempotencyKey: 'my-key' });
    const b = await client.items.append('retry-1', messages('k'), { idempotencyKey: 'my-key' });
    expect([a.replayed, b.replayed, seqs(b.items)]).toEqual([false, true, [3]]);
    // expectedSeq is passed on: CONFLICT, not retried.
    const stale = await client.items
      .append('retry-1', messages('late'), { expectedSeq: 1 })
      .catch((e) => e);
    expect(stale).toMatchObject({ code: 'CONFLICT' });
    expect((await client.threads.get('retry-1'))?.itemCount).toBe(4);
  });
});

describe('compactions and context', () => {
  it('adds, lists and clears compactions; context and modelContext', async () => {
    const id = 'ctx-1';
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(id, [
      { message: { role: 'system', content: 'be brief' } },
      ...messages('q1'),
      { message: { role: 'assistant', content: 'a1' } },
      ...messages('q2'),
    ]);
    const added = await client.compactions.add({
      threadId: id,
      startSeq: 1,
      endSeq: 2,
      summary: 'asked q1, got a1',
    });
    expect(added.compaction).toMatchObject({ startSeq: 1, endSeq: 2, markerSeq: 4 });
    expect(added.marker).toMatchObject({ __typename: 'CompactionItem', seq: 4, startSeq: 1 });
    expect(added.thread.nextSeq).toBe(5);
    expect(await client.compactions.list(id)).toMatchObject([
      { id: `${id}:compaction:4`, summary: 'asked q1, got a1', startSeq: 1, endSeq: 2 },
    ]);

    const context = await client.context(id);
    expect(
      context.map((e) => (e.__typename === 'CompactionRecord' ? `summary:${e.summary}` : e.seq)),
    ).toEqual([0, 'summary:asked q1, got a1', 3]);

    const chat = (await client.modelContext(id, 'OPENAI_CHAT')) as {
      messages: { role: string; content: string }[];
    };
    expect(chat.messages[0]).toEqual({ role: 'system', content: 'be brief' });
    expect(chat.messages.at(-1)).toEqual({ role: 'user', content: 'q2' });
    expect(JSON.stringify(chat.messages)).toContain('asked q1, got a1');
    expect(JSON.stringify(chat.messages)).not.toContain('"a1"');

    expect(await client.compactions.clear(id)).toBe(1);
    expect(await client.compactions.list(id)).toEqual([]);
    await expect(client.modelContext('nope', 'OPENAI_CHAT')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('request', () => {
  it('sends any typed document and returns its data', async () => {
    const key = await client.request(CREATE_KEY, { name: 'via-request' });
    expect(key.createApiKey.secret).toMatch(/^tsk_/);
  });
});

describe('follow', () => {
  it('yields stored then appended items in seq order, and ends when the thread is deleted', async () => {
    const id = 'follow-1';
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(id, messages('s0', 's1'));
    const replayAll = collect(client.follow(id, { afterSeq: -1 }));
    const fromNow = collect(client.follow(id));
    const fromSeq = collect(client.follow(id, { afterSeq: 0 }));
    await until(() => replayAll.got.length === 2, 'the stored items');
    await client.items.append(id, messages('l2', 'l3'));
    await client.items.append(id, messages('l4'));
    await until(
      () => replayAll.got.length === 5 && fromNow.got.length === 3 && fromSeq.got.length === 4,
      'the appended items',
    );
    expect(contents(replayAll.got)).toEqual(['s0', 's1', 'l2', 'l3', 'l4']);
    expect(seqs(replayAll.got)).toEqual([0, 1, 2, 3, 4]);
    expect(seqs(fromNow.got)).toEqual([2, 3, 4]);
    expect(seqs(fromSeq.got)).toEqual([1, 2, 3, 4]);

    await client.threads.delete(id);
    await Promise.all([replayAll.finished, fromNow.finished, fromSeq.finished]);
    expect([replayAll.error, fromNow.error, fromSeq.error]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('stops on abort and on break; NOT_FOUND for a thread that does not exist', async () => {
    const id = 'follow-2';
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(id, messages('a', 'b', 'c'));
    const controller = new AbortController();
    const aborted = collect(client.follow(id, { afterSeq: -1, signal: controller.signal }));
    await until(() => aborted.got.length === 3, 'the items');
    controller.abort();
    await aborted.finished;
    expect(aborted.error).toBeUndefined();

    const firstTwo: number[] = [];
    for await (const item of client.follow(id, { afterSeq: -1 })) {
      firstTwo.push(item.seq);
      if (firstTwo.length === 2) break;
    }
    expect(firstTwo).toEqual([0, 1]);

    const missing = collect(client.follow('no-such-thread', { afterSeq: -1 }));
    await missing.finished;
    expect(missing.error).toBeInstanceOf(ThreadstoreError);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND' });
    const missingNow = collect(client.follow('no-such-thread'));
    await missingNow.finished;
    expect(missingNow.error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('options that cannot work: INVALID_OPTIONS at once, no retrying', async () => {
    const relative = collect(createClient({ url: '/graphql' }).follow('t1', { afterSeq: -1 }));
    await relative.finished;
    expect(relative.error).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect((relative.error as Error).message).toMatch(/absolute url/);
    if (typeof globalThis.WebSocket === 'undefined') {
      const noSocket = collect(createClient({ url }).follow('t1', { afterSeq: -1 }));
      await noSocket.finished;
      expect(noSocket.error).toMatchObject({ code: 'INVALID_OPTIONS' });
      expect((noSocket.error as Error).message).toMatch(/webSocketImpl/);
    }
  });

  it('credentials refused with no getToken: UNAUTHENTICATED', async () => {
    await client.threads.create({ id: 'follow-3', agentId: 'alpha' });
    const bad = createClient({ url, token: 'not-a-token', webSocketImpl: WebSocket });
    const follower = collect(bad.follow('follow-3', { afterSeq: -1 }));
    await follower.finished;
    expect(follower.error).toBeInstanceOf(ThreadstoreError);
    expect(follower.error).toMatchObject({ code: 'UNAUTHENTICATED' });
    await bad.close();
  });

  it('a JWT expiring on the open socket (4403): getToken again, resume with no gap', async () => {
    const id = 'follow-jwt';
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(id, messages('before'));
    const tokens: string[] = [];
    const statuses: FollowStatus['state'][] = [];
    const expiring = createClient({
      url,
      webSocketImpl: WebSocket,
      getToken: async () => {
        // The first expired 27 s ago: inside the 30 s skew, so the socket closes in about 3 s.
        const exp = Math.floor(Date.now() / 1000) + (tokens.length === 0 ? -27 : 3600);
        const token = await hs256({ exp });
        tokens.push(token);
        return token;
      },
    });
    const follower = collect(
      expiring.follow(id, {
        afterSeq: -1,
        onStatus: (s) => statuses.push(s.state),
        backoff: { initialMs: 20, maxMs: 200 },
      }),
    );
    await until(() => follower.got.length === 1, 'the first item');
    await until(() => tokens.length === 2, 'a second token after 4403');
    await client.items.append(id, messages('after'));
    await until(() => follower.got.length === 2, 'the item after the refresh');
    expect(contents(follower.got)).toEqual(['before', 'after']);
    expect(seqs(follower.got)).toEqual([0, 1]);
    expect(statuses).toContain('refreshing-token');
    expect(follower.error).toBeUndefined();
    await expiring.close();
    await follower.finished;
  });

  it('a revoked API key (stream ended UNAUTHENTICATED): getToken gives the next key', async () => {
    const id = 'follow-key';
    await client.threads.create({ id, agentId: 'alpha' });
    const first = await client.request(CREATE_KEY, { name: 'first' });
    const second = await client.request(CREATE_KEY, { name: 'second' });
    let revoked = false;
    const handed: string[] = [];
    const rotating = createClient({
      url,
      webSocketImpl: WebSocket,
      getToken: () => {
        const secret = revoked ? second.createApiKey.secret : first.createApiKey.secret;
        handed.push(secret === first.createApiKey.secret ? 'first' : 'second');
        return secret;
      },
    });
    await client.items.append(id, messages('k0', 'k1'));
    const follower = collect(rotating.follow(id, { afterSeq: -1, backoff: { initialMs: 20 } }));
    await until(() => follower.got.length === 2, 'the items before the revocation');
    revoked = true;
    await client.request(REVOKE_KEY, { id: first.createApiKey.apiKey.id });
    await until(() => handed.includes('second'), 'the next key');
    await client.items.append(id, messages('k2'));
    await until(() => follower.got.length === 3, 'the item after the revocation');
    expect(contents(follower.got)).toEqual(['k0', 'k1', 'k2']);
    expect(follower.error).toBeUndefined();
    await rotating.close();
    await follower.finished;
  });
});

describe('examples/follow.ts (on the client)', () => {
  it('prints the thread from --from, then appended items, and exits when it is deleted', async () => {
    const id = 'example-1';
    await client.threads.create({ id, agentId: 'alpha' });
    await client.items.append(id, [
      ...messages('hello'),
      { toolCall: { callId: 'c', name: 'search', arguments: { q: 'x' } } },
    ]);
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'examples', 'follow.ts'),
        id,
        '--from',
        '-1',
        '--url',
        url.replace(/^http/, 'ws'),
      ],
      {
        cwd: root,
        env: { ...process.env, THREADSTORE_TOKEN: await hs256() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await until(() => stdout.split('\n').length > 2, `the stored items (stderr: ${stderr})`);
      await client.items.append(id, messages('live one'));
      await until(() => stdout.includes('live one'), 'the appended item');
      await client.threads.delete(id);
      expect(await exited).toBe(0);
    } finally {
      child.kill();
    }
    expect(stdout.trimEnd().split('\n')).toEqual([
      '    0  user: hello',
      '    1  → search({"q":"x"})',
      '    2  user: live one',
    ]);
    expect(stderr).toContain('resuming after seq -1');
    expect(stderr).toContain('[the thread was deleted]');
  });

  it('names a thread that does not exist and exits 1', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'examples', 'follow.ts'),
        'no-such',
        '--url',
        url.replace(/^http/, 'ws'),
      ],
      {
        cwd: root,
        env: { ...process.env, THREADSTORE_TOKEN: await hs256() },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(1);
    expect(stderr).toMatch(/^NOT_FOUND: .*no-such/m);
  });
});

describe('followThreads', () => {
  it('reports created, appended, updated and deleted threads of one agent', async () => {
    const events = collect(client.followThreads({ agentId: 'gamma' }));
    // No acknowledgement tells when the subscription is live: write until one is seen.
    for (let n = 0; !events.got.some((e) => e.threadId === 'probe'); n++) {
      if (n === 0) await client.threads.create({ id: 'probe', agentId: 'gamma' });
      else await client.threads.update({ id: 'probe', name: `probe ${n}` });
      await sleep(50);
      if (n > 200) throw new Error('followThreads never reported the probe');
    }
    const start = events.got.length;
    await client.threads.create({ id: 'other-agent', agentId: 'delta' });
    await client.threads.create({ id: 'g1', agentId: 'gamma', name: 'G' });
    await client.items.append('g1', messages('x'));
    // The event's thread is read when it is delivered: wait before changing it again.
    await until(() => events.got.length === start + 2, 'the append event');
    await client.threads.update({ id: 'g1', archived: true });
    await client.threads.delete('g1');
    await until(() => events.got.length === start + 4, 'four events');
    const seen = events.got.slice(start) as Exclude<ThreadListEvent, { type: 'RESYNC' }>[];
    expect(seen.map((e) => [e.type, e.threadId])).toEqual([
      ['CREATED', 'g1'],
      ['ITEMS_APPENDED', 'g1'],
      ['UPDATED', 'g1'],
      ['DELETED', 'g1'],
    ]);
    expect(seen[1]?.thread).toMatchObject({ id: 'g1', itemCount: 1, lastItem: { content: 'x' } });
    expect(seen[3]?.thread).toBeNull();
    await client.close();
    await events.finished;
    expect(events.error).toBeUndefined();
    client = createClient({ url, token: await hs256(), webSocketImpl: WebSocket });
  });
});

/**
 * A TCP forwarder on a fixed port to whichever server process runs now (a restarted server
 * gets a new port from the test kit), refusing connections while none does.
 */
async function forwarder() {
  const port = await freePort();
  let target: number | null = null;
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((socket) => {
    if (target === null) return socket.destroy();
    const upstream = connect(target, '127.0.0.1');
    sockets.add(socket).add(upstream);
    const pair: [Socket, Socket] = [socket, upstream];
    pairs.add(pair);
    socket.pipe(upstream).pipe(socket);
    const close = () => {
      socket.destroy();
      upstream.destroy();
      sockets.delete(socket);
      sockets.delete(upstream);
      pairs.delete(pair);
    };
    socket.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    to(upstream: number | null) {
      target = upstream;
    },
    /** The open connections go silent both ways, with no FIN or RST (a dead NAT mapping). */
    freeze() {
      for (const [a, b] of pairs) {
        a.unpipe(b);
        b.unpipe(a);
        a.pause();
        b.pause();
      }
      pairs.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('follow across a server restart (real server processes)', () => {
  let database: TestDatabase;
  let dir: string;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'threadstore-client-'));
  });
  afterAll(async () => {
    for (const s of servers) s.kill();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('yields every seq exactly once, also those appended while the server was down', async () => {
    const env = { DATABASE_URL: database.url, LOG_LEVEL: 'warn' };
    const proxy = await forwarder();
    const first = await startServer(env);
    servers.push(first);
    proxy.to(first.port);
    // Authentication is optional and the proxy is on loopback: no credentials needed.
    const viaProxy = createClient({
      url: `http://127.0.0.1:${proxy.port}/graphql`,
      webSocketImpl: WebSocket,
    });
    const id = 'restart-1';
    await viaProxy.threads.create({ id, agentId: 'alpha' });
    await viaProxy.items.append(id, messages('a0', 'a1', 'a2'));
    const statuses: FollowStatus[] = [];
    const follower = collect(
      viaProxy.follow(id, {
        afterSeq: -1,
        onStatus: (s) => statuses.push(s),
        backoff: { initialMs: 50, maxMs: 400 },
      }),
    );
    const list = collect(viaProxy.followThreads({ backoff: { initialMs: 50, maxMs: 400 } }));
    await until(() => follower.got.length === 3, 'the stored items');

    // The server goes away; while none listens behind the proxy, another process appends.
    proxy.to(null);
    await first.stop();
    expect(await first.exited).toBe(0);
    const second = await startServer(env);
    servers.push(second);
    for (const batch of [['d3', 'd4'], ['d5'], ['d6', 'd7', 'd8']]) {
      const r = await second.graphql(
        'mutation($input: AppendItemsInput!) { appendItems(input: $input) { replayed } }',
        { input: { threadId: id, items: messages(...batch) } },
      );
      expect(r.errors).toBeUndefined();
    }
    await until(() => statuses.some((s) => s.state === 'retrying'), 'a failed reconnect');
    expect(follower.got).toHaveLength(3);

    // The server is back behind the same address.
    proxy.to(second.port);
    await until(() => follower.got.length === 9, 'the items appended during the downtime');
    await viaProxy.items.append(id, messages('l9', 'l10'));
    await until(() => follower.got.length === 11, 'the items appended after the restart');

    // The thread list follower says that it may have missed events, then goes on.
    await until(() => list.got.some((e) => e.type === 'RESYNC'), 'RESYNC');
    await viaProxy.threads.update({ id, name: 'after restart' });
    await until(() => list.got.some((e) => e.type === 'UPDATED'), 'an event after the restart');
    expect(list.got.filter((e) => e.type === 'RESYNC')).toHaveLength(1);

    expect(seqs(follower.got)).toEqual(range(0, 10));
    expect(contents(follower.got)).toEqual([
      'a0',
      'a1',
      'a2',
      'd3',
      'd4',
      'd5',
      'd6',
      'd7',
      'd8',
      'l9',
      'l10',
    ]);
    expect(new Set(follower.got.map((i) => i.id)).size).toBe(11);
    expect(follower.error).toBeUndefined();
    const retries = statuses.filter((s) => s.state === 'retrying');
    for (const r of retries) if (r.state === 'retrying') expect(r.delayMs).toBeLessThanOrEqual(400);

    await viaProxy.close();
    await Promise.all([follower.finished, list.finished]);
    expect(list.error).toBeUndefined();
    await second.stop();
    await proxy.close();
  });

  it('a connection gone silent (no close) is found by keep-alive pings and resumed', async () => {
    const server = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    servers.push(server);
    const proxy = await forwarder();
    proxy.to(server.port);
    const direct = createClient({ url: `${server.url}/graphql` });
    const viaProxy = createClient({
      url: `http://127.0.0.1:${proxy.port}/graphql`,
      webSocketImpl: WebSocket,
      keepAlive: { intervalMs: 100, timeoutMs: 300 },
    });
    const id = 'silent-1';
    await direct.threads.create({ id, agentId: 'alpha' });
    await direct.items.append(id, messages('s0'));
    const statuses: FollowStatus['state'][] = [];
    const follower = collect(
      viaProxy.follow(id, { afterSeq: -1, onStatus: (s) => statuses.push(s.state) }),
    );
    await until(() => follower.got.length === 1, 'the stored item');
    proxy.freeze();
    await direct.items.append(id, messages('s1', 's2'));
    await until(() => follower.got.length === 3, 'the items appended while the socket was silent');
    expect(contents(follower.got)).toEqual(['s0', 's1', 's2']);
    expect(statuses).toContain('retrying');
    await viaProxy.close();
    await follower.finished;
    expect(follower.error).toBeUndefined();
    await proxy.close();
    await server.stop();
  });
});

describe('follow back-off', () => {
  // A stand-in graphql-ws server that accepts every connection and refuses every operation
  // with a retryable code: the real server has no retryable refusal that can be provoked at will.
  it('grows while an operation keeps failing on sockets that are accepted each time', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    const refusing = useServer(
      {
        onSubscribe: () => [
          new GraphQLError('Try again later.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
        ],
      },
      wss,
    );
    const { port } = wss.address() as AddressInfo;
    const client = createClient({
      url: `http://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
    });
    const statuses: FollowStatus[] = [];
    const abort = new AbortController();
    const follower = collect(
      client.follow('any', {
        afterSeq: -1,
        signal: abort.signal,
        backoff: { initialMs: 2, maxMs: 10_000 },
        onStatus: (s) => statuses.push(s),
      }),
    );
    const retries = () => statuses.flatMap((s) => (s.state === 'retrying' ? [s] : []));
    await until(() => retries().length >= 5, 'five retries');
    abort.abort();
    await follower.finished;
    expect(follower.error).toBeUndefined();
    // Every attempt's socket was acknowledged, and still each retry waits longer.
    expect(statuses.filter((s) => s.state === 'live').length).toBeGreaterThanOrEqual(5);
    expect(
      retries()
        .slice(0, 5)
        .map((r) => r.attempt),
    ).toEqual([1, 2, 3, 4, 5]);
    const fifth = retries()[4]!.delayMs;
    expect(fifth).toBeGreaterThanOrEqual(16);
    expect(fifth).toBeLessThanOrEqual(32);
    await client.close();
    await refusing.dispose();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });
});
