/**
 * Subscription executions shared per group (issue 13; src/server/shared-subscriptions.ts): a
 * live event is executed once for every follower with the same document, variables, tenant and
 * scopes, and its payload goes out as the same JSON; followers with another selection,
 * other variables, other scopes or another tenant get their own execution and their own
 * payload. Counted through GET /metrics (threadstore_subscription_executions_total and
 * threadstore_subscription_shared_deliveries_total), over a real server with AUTH=required and
 * followers on graphql-ws (several sockets) and SSE.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { type GraphQLClient, graphqlClient } from './testkit/graphql.js';
import {
  type RawSocket,
  rawSocket,
  type Subscription,
  sseSubscribe,
  until,
  wsSubscribe,
} from './testkit/streams.js';

const SECRET = 'shared-subscriptions-secret-of-32-characters';
const ALL_SCOPES = ['threads:read', 'threads:write', 'threads:delete', 'admin'];

/** An HS256 token of `tenant` for `subject` with `scopes`, valid for an hour. */
async function bearer(tenant: string, subject: string, scopes = ALL_SCOPES): Promise<string> {
  const token = await new SignJWT({ tenant, scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  return `Bearer ${token}`;
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

/** Executions and shared deliveries so far, from GET /metrics. */
async function counts(): Promise<{ executions: number; shared: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    if (line === undefined) throw new Error(`${name} missing from /metrics:\n${text}`);
    return Number(line.slice(name.length + 1));
  };
  return {
    executions: value('threadstore_subscription_executions_total'),
    shared: value('threadstore_subscription_shared_deliveries_total'),
  };
}

const CREATE = `mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }`;
const APPEND = `mutation($input: AppendItemsInput!) { appendItems(input: $input) { items { ... on ConversationItem { seq } } } }`;
const FOLLOW = `subscription($id: ID!, $afterSeq: Int) { threadItems(threadId: $id, afterSeq: $afterSeq) { ... on ConversationItem { id seq } ... on MessageItem { content } } }`;
const FOLLOW_SEQ = `subscription($id: ID!, $afterSeq: Int) { threadItems(threadId: $id, afterSeq: $afterSeq) { ... on ConversationItem { seq } } }`;

const msg = (content: string) => ({ message: { role: 'user', content } });

/** Creates thread `id` as `who` with one item (seq 0), so followers from -1 show they listen. */
async function threadWithOneItem(who: GraphQLClient, id: string): Promise<void> {
  await who.execute(CREATE, { input: { id, agentId: 'agent' } });
  await who.execute(APPEND, { input: { threadId: id, items: [msg('first')] } });
}

/** A graphql-transport-ws message as received. */
interface Frame {
  id?: string;
  type: string;
  payload?: { errors?: unknown[] } | unknown[];
}

/** Waits until every follower has `n` results. */
function eachHas(followers: Subscription[], n: number, what: string): Promise<void> {
  return until(() => followers.every((f) => f.results.length >= n), followers, what);
}

describe('subscription executions shared per group', () => {
  it('executes a live event once for N identical followers, on several sockets and SSE, and all get the same payload', async () => {
    const auth = await bearer('share-1', 'alice');
    const other = await bearer('share-1', 'bob'); // another subject, same tenant and scopes
    const writer = httpClient(auth);
    await threadWithOneItem(writer, 'x');
    const vars = { id: 'x', afterSeq: -1 };
    const followers = [
      wsSubscribe(port, auth, FOLLOW, vars),
      wsSubscribe(port, auth, FOLLOW, vars),
      wsSubscribe(port, other, FOLLOW, vars),
      wsSubscribe(port, other, FOLLOW, vars),
      sseSubscribe(base, auth, FOLLOW, vars),
    ];
    try {
      await eachHas(followers, 1, 'the replayed item');
      const before = await counts();
      await writer.execute(APPEND, { input: { threadId: 'x', items: [msg('a'), msg('b')] } });
      await writer.execute(APPEND, { input: { threadId: 'x', items: [msg('c')] } });
      await eachHas(followers, 4, 'the live items');
      const after = await counts();
      // Three live items (three event objects), one group: one execution each.
      expect(after.executions - before.executions).toBe(3);
      expect(after.shared - before.shared).toBe(3 * (followers.length - 1));
      const expected = ['first', 'a', 'b', 'c'].map((content, seq) => ({
        threadItems: { id: `x:${seq}`, seq, content },
      }));
      for (const f of followers) {
        expect(f.results).toEqual(expected);
        expect(f.errors).toEqual([]);
      }
    } finally {
      await Promise.all(followers.map((f) => f.close()));
    }
  });

  it('gives another selection, other variables and other scopes their own execution and payload', async () => {
    const admin = await bearer('share-2', 'alice');
    const reader = await bearer('share-2', 'carol', ['threads:read']);
    const writer = httpClient(admin);
    await threadWithOneItem(writer, 'x');
    const full = wsSubscribe(port, admin, FOLLOW, { id: 'x', afterSeq: -1 });
    const seqOnly = wsSubscribe(port, admin, FOLLOW_SEQ, { id: 'x', afterSeq: -1 });
    // afterSeq 0: replays nothing, then the same live items; other variables, another group.
    const fromZero = wsSubscribe(port, admin, FOLLOW, { id: 'x', afterSeq: 0 });
    const readOnly = wsSubscribe(port, reader, FOLLOW, { id: 'x', afterSeq: -1 });
    const all = [full, seqOnly, fromZero, readOnly];
    try {
      await eachHas([full, seqOnly, readOnly], 1, 'the replayed item');
      // fromZero has no replay to show it listens: a first live item does.
      await writer.execute(APPEND, { input: { threadId: 'x', items: [msg('warm')] } });
      await eachHas(all, 1, 'the first live item');
      await eachHas([full, seqOnly, readOnly], 2, 'the first live item');
      const before = await counts();
      await writer.execute(APPEND, { input: { threadId: 'x', items: [msg('live')] } });
      await eachHas([full, seqOnly, readOnly], 3, 'the live item');
      await eachHas([fromZero], 2, 'the live item');
      const after = await counts();
      expect(after.executions - before.executions).toBe(4);
      expect(after.shared - before.shared).toBe(0);
      expect(full.results.at(-1)).toEqual({ threadItems: { id: 'x:2', seq: 2, content: 'live' } });
      expect(seqOnly.results.at(-1)).toEqual({ threadItems: { seq: 2 } });
      expect(fromZero.results).toEqual([
        { threadItems: { id: 'x:1', seq: 1, content: 'warm' } },
        { threadItems: { id: 'x:2', seq: 2, content: 'live' } },
      ]);
      expect(readOnly.results.at(-1)).toEqual(full.results.at(-1));
    } finally {
      await Promise.all(all.map((f) => f.close()));
    }
  });

  it('never shares between tenants: the same thread id in two tenants, each its own items', async () => {
    const a = await bearer('share-3a', 'same-subject');
    const b = await bearer('share-3b', 'same-subject');
    await threadWithOneItem(httpClient(a), 'x');
    await threadWithOneItem(httpClient(b), 'x');
    const vars = { id: 'x', afterSeq: -1 };
    const ofA = [wsSubscribe(port, a, FOLLOW, vars), wsSubscribe(port, a, FOLLOW, vars)];
    const ofB = [wsSubscribe(port, b, FOLLOW, vars), wsSubscribe(port, b, FOLLOW, vars)];
    try {
      await eachHas([...ofA, ...ofB], 1, 'the replayed item');
      const before = await counts();
      await httpClient(a).execute(APPEND, { input: { threadId: 'x', items: [msg('for a')] } });
      await httpClient(b).execute(APPEND, { input: { threadId: 'x', items: [msg('for b')] } });
      await eachHas([...ofA, ...ofB], 2, 'the live items');
      const after = await counts();
      expect(after.executions - before.executions).toBe(2);
      expect(after.shared - before.shared).toBe(2);
      for (const f of ofA)
        expect(f.results.at(-1)).toEqual({ threadItems: { id: 'x:1', seq: 1, content: 'for a' } });
      for (const f of ofB)
        expect(f.results.at(-1)).toEqual({ threadItems: { id: 'x:1', seq: 1, content: 'for b' } });
    } finally {
      await Promise.all([...ofA, ...ofB].map((f) => f.close()));
    }
  });

  it('sends each next message as valid JSON in a text frame with its own id, then complete; errors unchanged', async () => {
    const auth = await bearer('share-4', 'alice');
    const writer = httpClient(auth);
    await threadWithOneItem(writer, 'x');
    // Ids that need escaping in JSON; two sockets with the same id get the same bytes.
    const ids = ['one "quoted"', 'two\\n', 'one "quoted"'];
    const sockets: RawSocket[] = ids.map(() => rawSocket(port));
    const frames: string[][] = ids.map(() => []);
    const binaryFrames: number[] = ids.map(() => 0);
    const messages = (i: number) => frames[i]!.map((text) => JSON.parse(text) as Frame);
    const each = (what: string, check: (i: number) => boolean) =>
      until(() => ids.every((_, i) => check(i)), [], what);
    // Text beyond ASCII, spliced into the message as serialised once (payloadSplicer).
    const liveText = 'live — ✓ 日本語 🧵';
    const live = { data: { threadItems: { id: 'x:1', seq: 1, content: liveText } } };
    try {
      for (const [i, socket] of sockets.entries()) {
        socket.ws.on('message', (data, isBinary) => {
          frames[i]!.push(String(data));
          if (isBinary) binaryFrames[i]! += 1;
        });
        await socket.opened;
        socket.send({ type: 'connection_init', payload: { authorization: auth } });
      }
      await each('connection_ack', (i) => frames[i]!.length === 1);
      for (const [i, socket] of sockets.entries()) {
        const payload = { query: FOLLOW, variables: { id: 'x', afterSeq: -1 } };
        socket.send({ id: ids[i], type: 'subscribe', payload });
        const missing = { query: FOLLOW, variables: { id: 'no-such-thread' } };
        socket.send({ id: `${ids[i]}-missing`, type: 'subscribe', payload: missing });
      }
      const done = (i: number, id: string) =>
        messages(i).some((m) => m.id === id && (m.type === 'complete' || m.type === 'error'));
      await each('the replay and NOT_FOUND', (i) => {
        const nexts = messages(i).filter((m) => m.id === ids[i] && m.type === 'next');
        return nexts.length === 1 && done(i, `${ids[i]}-missing`);
      });
      await writer.execute(APPEND, { input: { threadId: 'x', items: [msg(liveText)] } });
      await writer.execute('mutation { deleteThread(input: { id: "x" }) { deletedThreadId } }');
      await each('complete', (i) => done(i, ids[i]!));
      for (const [i, id] of ids.entries()) {
        expect(messages(i)[0]).toEqual({ type: 'connection_ack' });
        expect(messages(i).filter((m) => m.id === id)).toEqual([
          {
            id,
            type: 'next',
            payload: { data: { threadItems: { id: 'x:0', seq: 0, content: 'first' } } },
          },
          { id, type: 'next', payload: live },
          { id, type: 'complete' },
        ]);
        // The live next message as graphql-ws itself writes it, byte for byte, as text.
        expect(frames[i]).toContain(JSON.stringify({ id, type: 'next', payload: live }));
        expect(binaryFrames[i]).toBe(0);
        const missing = messages(i).filter((m) => m.id === `${id}-missing`);
        const payload = missing[0]!.payload;
        const errors = Array.isArray(payload) ? payload : payload?.errors;
        expect(errors).toMatchObject([{ extensions: { code: 'NOT_FOUND' } }]);
      }
    } finally {
      for (const socket of sockets) socket.ws.close();
    }
  });
});
