/**
 * WebSocket errors stay per operation (issue 10, point 5), on a real server process so that its
 * output can be read: on one socket a live subscription keeps receiving items while other
 * operations are refused by every limit (aliases, depth, directives, tokens, cost, a parse
 * error, WS_MAX_SUBSCRIPTIONS, the tenant's rate); a frame over MAX_BODY_BYTES closes only its
 * own socket (1009); close reasons carry no internal message; and everything the server prints
 * is a JSON log line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { type ServerProcess, startServer } from './testkit/process.js';
import { type RawSocket, rawSocket } from './testkit/streams.js';

const MAX_BODY_BYTES = 64 * 1024;

let database: TestDatabase;
let server: ServerProcess;
beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({
    DATABASE_URL: database.url,
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    MAX_QUERY_COST: '20000',
    WS_MAX_SUBSCRIPTIONS: '3',
    RATE_LIMIT_RPS: '1',
    RATE_LIMIT_BURST: '40',
  });
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

type Message = { id?: string; type: string; payload?: unknown };

/** Polls until `check` holds; fails after `ms` naming `what`. */
async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The messages of operation `id` on `socket`. */
function of(socket: RawSocket, id: string): Message[] {
  return (socket.messages as Message[]).filter((m) => m.id === id);
}

/** The `extensions.code` of the error that ended operation `id`. */
function errorCode(socket: RawSocket, id: string): string | undefined {
  const error = of(socket, id).find((m) => m.type === 'error');
  return (error?.payload as { extensions?: { code?: string } }[] | undefined)?.[0]?.extensions
    ?.code;
}

async function append(threadId: string, content: string): Promise<void> {
  const r = await server.graphql(
    'mutation A($input: AppendItemsInput!) { appendItems(input: $input) { thread { nextSeq } } }',
    { input: { threadId, items: [{ message: { role: 'user', content } }] } },
  );
  expect(r.errors).toBeUndefined();
}

/** Seqs the live subscription received. */
function liveSeqs(socket: RawSocket): number[] {
  return of(socket, 'live')
    .filter((m) => m.type === 'next')
    .map((m) => (m.payload as { data: { threadItems: { seq: number } } }).data.threadItems.seq);
}

/** Operations each refused by one limit, and the code each must fail with. */
const REFUSED: [id: string, query: string, code: string][] = [
  [
    'aliases',
    `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: thread(id: "x") { id }`).join(' ')} }`,
    'GRAPHQL_VALIDATION_FAILED',
  ],
  ['depth', `{ ${'a { '.repeat(20)}b${' }'.repeat(20)} }`, 'GRAPHQL_VALIDATION_FAILED'],
  ['directives', `{ __typename ${'@include(if: true) '.repeat(60)} }`, 'GRAPHQL_VALIDATION_FAILED'],
  ['tokens', `{ ${'__typename '.repeat(5_100)} }`, 'GRAPHQL_VALIDATION_FAILED'],
  [
    'cost',
    // Depth 15 (within MAX_QUERY_DEPTH), 100 fields at the bottom: cost about 1.5^14 each.
    `{ ${'a { '.repeat(14)}${Array.from({ length: 100 }, (_, i) => `f${i}`).join(' ')}${' }'.repeat(14)} }`,
    'GRAPHQL_VALIDATION_FAILED',
  ],
  ['parse', '{ thread(id: "x") { id ', 'GRAPHQL_PARSE_FAILED'],
  ['unknown-field', '{ noSuchField }', 'GRAPHQL_VALIDATION_FAILED'],
];

describe('graphql-ws: refused operations', () => {
  it('fail alone: the socket and its live subscription go on; the server prints only JSON log lines', async () => {
    const threadId = `ws-errors-${Date.now()}`;
    const created = await server.graphql(
      `mutation { createThread(input: { id: "${threadId}", agentId: "a" }) { thread { id } } }`,
    );
    expect(created.errors).toBeUndefined();
    await append(threadId, 'first');

    const socket = rawSocket(server.port);
    expect(await socket.opened).toEqual({ open: true });
    socket.send({ type: 'connection_init' });
    await until(
      () => (socket.messages as Message[]).some((m) => m.type === 'connection_ack'),
      'ack',
    );
    socket.send({
      id: 'live',
      type: 'subscribe',
      payload: {
        query: `subscription { threadItems(threadId: "${threadId}", afterSeq: -1) { ... on ConversationItem { seq } } }`,
      },
    });
    await until(() => liveSeqs(socket).length === 1, 'the live subscription');

    for (const [id, query] of REFUSED) {
      socket.send({ id, type: 'subscribe', payload: { query } });
      await until(() => of(socket, id).length > 0, `an answer to ${id}`).catch(() => {});
    }
    expect(
      Object.fromEntries(REFUSED.map(([id]) => [id, errorCode(socket, id)])),
      JSON.stringify([
        socket.messages.slice(0, 20),
        socket.closeInfo,
        server.output().slice(-3000),
      ]),
    ).toEqual(Object.fromEntries(REFUSED.map(([id, , code]) => [id, code])));
    // Yoga's HTTP status for validation errors (extensions.http) is not for WebSocket clients.
    expect(JSON.stringify(REFUSED.map(([id]) => of(socket, id)))).not.toContain('"http"');
    await append(threadId, 'after the refusals');
    await until(() => liveSeqs(socket).length === 2, 'an item after the refusals');

    // WS_MAX_SUBSCRIPTIONS (3): two more subscriptions run, the third is refused.
    const follow = `subscription { threadItems(threadId: "${threadId}") { ... on ConversationItem { seq } } }`;
    for (const id of ['s2', 's3', 's4'])
      socket.send({ id, type: 'subscribe', payload: { query: follow } });
    await until(() => errorCode(socket, 's4') !== undefined, 'the operation over the cap');
    expect(errorCode(socket, 's4')).toBe('RATE_LIMITED');
    for (const id of ['s2', 's3']) socket.send({ id, type: 'complete' });

    // The tenant's rate (burst 40, 1 a second): queries on the socket beyond it are refused.
    for (let n = 0; n < 60; n++)
      socket.send({ id: `q${n}`, type: 'subscribe', payload: { query: '{ __typename }' } });
    await until(
      () => Array.from({ length: 60 }, (_, n) => of(socket, `q${n}`)).every((m) => m.length > 0),
      'an answer to every query',
    );
    const codes = Array.from({ length: 60 }, (_, n) => errorCode(socket, `q${n}`));
    expect(codes).toContain('RATE_LIMITED');

    // A frame over MAX_BODY_BYTES on another socket closes that socket only (1009).
    const other = rawSocket(server.port);
    expect(await other.opened).toEqual({ open: true });
    other.send({ type: 'connection_init' });
    await until(
      () => (other.messages as Message[]).some((m) => m.type === 'connection_ack'),
      'ack',
    );
    other.send({
      id: 'big',
      type: 'subscribe',
      payload: { query: `{ __typename }`, variables: { x: 'y'.repeat(MAX_BODY_BYTES) } },
    });
    expect(await other.closed).toEqual({ code: 1009, reason: '' });

    // The first socket still delivers (once the rate limit lets the append through).
    await until(() => socket.closeInfo === null, 'the socket to stay open', 0).catch(() => {});
    expect(socket.closeInfo).toBeNull();
    for (;;) {
      const r = await server.graphql(
        'mutation A($input: AppendItemsInput!) { appendItems(input: $input) { thread { nextSeq } } }',
        { input: { threadId, items: [{ message: { role: 'user', content: 'last' } }] } },
      );
      if (!r.errors) break;
      expect(r.errors[0]!.extensions?.code).toBe('RATE_LIMITED');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await until(() => liveSeqs(socket).length === 3, 'an item after the other socket closed');
    expect(liveSeqs(socket)).toEqual([0, 1, 2]);
    expect(socket.closeInfo).toBeNull();
    socket.ws.close();

    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '');
    const notJson = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(server.output()).not.toContain('"level":50');
  });
});
