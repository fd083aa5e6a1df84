/**
 * Validation gaps (issue 10, point 6), on SQLite and PostgreSQL: JSON numbers JSON text cannot
 * keep (1e400, -0) and lone surrogates are BAD_USER_INPUT naming where, writing nothing; a
 * surrogate pair round-trips; every JSON argument has a depth limit (64), also 200,000 levels
 * deep; cursors with times the databases cannot store are BAD_USER_INPUT; an invalid body is
 * not echoed; headers and bodies trickled over a real socket are cut at their timeouts while
 * SSE and WebSocket streams outlive them.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import type { GraphQLResponse } from './testkit/graphql.js';
import { append, createThread } from './testkit/seed.js';
import { collectingLogger } from './testkit/transport.js';
import { follow, wsClient } from './testkit/ws.js';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const MARKER = 'MARKER-7f3a-body-echo';

let t: TestApp;
let port: number;
let lines: Record<string, unknown>[];
let threadId: string;

beforeAll(async () => {
  const collected = collectingLogger();
  lines = collected.lines;
  t = await buildTestApp(
    {
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    },
    { logger: collected.logger },
  );
  port = await t.app.start(0);
  threadId = await createThread(t, { id: 'validation-thread', metadata: { keep: 1 } });
  await append(t, threadId, [{ message: { role: 'user', content: 'first' } }]);
});

afterAll(() => t?.close());

/** Sends `body` as it is (JSON.stringify cannot write 1e400 or -0); returns status and text. */
async function sendRaw(body: string): Promise<{ status: number; text: string }> {
  const response = await t.app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** A request with raw variables JSON text; its only error (code and message). */
async function errorOf(query: string, variablesJson = '{}') {
  const { text } = await sendRaw(
    `{"query": ${JSON.stringify(query)}, "variables": ${variablesJson}}`,
  );
  const body = JSON.parse(text) as GraphQLResponse;
  expect(body.errors, text.slice(0, 2_000)).toHaveLength(1);
  return { code: body.errors![0]!.extensions?.code, message: body.errors![0]!.message };
}

/** Everything a refused write could have changed, read through the API. */
async function snapshot() {
  return t.execute(
    `{ threads(first: 100, orderBy: CREATED_AT_ASC, filter: { includeArchived: true }) { totalCount edges { node {
      id name metadata nextSeq itemCount
    } } } }`,
  );
}

const APPEND_ARGS = `mutation($args: JSON!) { appendItems(input: { threadId: "validation-thread", items: [
  { toolCall: { callId: "c1", name: "f", arguments: $args } }] }) { items { ... on ConversationItem { seq } } } }`;
const APPEND_DATA = `mutation($data: JSON!) { appendItems(input: { threadId: "validation-thread", items: [
  { other: { type: "probe", data: $data } }] }) { items { ... on ConversationItem { seq } } } }`;
const CREATE_META = `mutation($m: JSON) { createThread(input: { agentId: "v", metadata: $m }) { thread { id } } }`;
const UPDATE_META = `mutation($m: JSON) { updateThread(input: { id: "validation-thread", metadata: $m }) { thread { id } } }`;
const FILTER_META = `query($m: JSON) { threads(filter: { metadata: $m }) { totalCount } }`;

const NEG_ZERO = '-0 cannot be stored the same on both databases; send 0';
const NOT_FINITE = 'the number is not a finite double';

describe('JSON numbers that JSON text cannot keep', () => {
  const cases = [
    { number: '1e400', reason: NOT_FINITE },
    { number: '-0', reason: NEG_ZERO },
    { number: '-0.0', reason: NEG_ZERO },
    { number: '-1e400', reason: NOT_FINITE },
  ];
  const places = [
    { place: 'tool call arguments', query: APPEND_ARGS, name: 'args' },
    { place: 'other item data', query: APPEND_DATA, name: 'data' },
    { place: 'new thread metadata', query: CREATE_META, name: 'm' },
    { place: 'thread metadata update', query: UPDATE_META, name: 'm' },
    { place: 'metadata filter', query: FILTER_META, name: 'm' },
  ];
  for (const { number, reason } of cases) {
    for (const { place, query, name } of places) {
      it(`${number} in ${place}, as a variable: BAD_USER_INPUT naming the path, nothing written`, async () => {
        const before = await snapshot();
        const error = await errorOf(
          query,
          `{"${name}": {"ok": 1, "deep": {"list": [1, 2, ${number}]}}}`,
        );
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message).toContain(`Variable "$${name}"`);
        expect(error.message).toContain(`JSON value at deep.list[2]: ${reason}`);
        expect(await snapshot()).toEqual(before);
      });

      it(`${number} in ${place}, inline: BAD_USER_INPUT naming the path, nothing written`, async () => {
        const before = await snapshot();
        const inline = query
          .replace(/\(\$\w+: JSON!?\)/, '')
          .replace(`$${name}`, `{ ok: 1, deep: { list: [1, 2, ${number}] } }`);
        const error = await errorOf(inline);
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message.startsWith(`JSON value at deep.list[2]: ${reason}`)).toBe(true);
        expect(await snapshot()).toEqual(before);
      });
    }
  }

  it('keeps finite numbers exactly, on both databases', async () => {
    const data = { big: 1.7976931348623157e308, tiny: 5e-324, zero: 0, neg: -1.5, int: 2 ** 53 };
    const sent = await t.execute(
      `mutation($data: JSON!) { appendItems(input: { threadId: "validation-thread", items: [
        { other: { type: "numbers", data: $data } }] }) { items { ... on ConversationItem { seq } } } }`,
      { data },
    );
    const seq = sent.appendItems.items[0].seq as number;
    const read = await t.execute(
      `query($seq: Int) { thread(id: "validation-thread") { items(afterSeq: $seq, first: 1) {
        edges { node { ... on OtherItem { data } } } } } }`,
      { seq: seq - 1 },
    );
    const stored = read.thread.items.edges[0].node.data as Record<string, number>;
    expect(stored).toEqual(data);
    expect(Object.is(stored.zero, 0)).toBe(true);
  });
});

describe('lone surrogates', () => {
  const HALF = '\uD83D';
  it('in a thread name (variable): BAD_USER_INPUT naming it, nothing written', async () => {
    const before = await snapshot();
    const error = await errorOf(
      'mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }',
      JSON.stringify({ input: { agentId: 'v', name: `half ${HALF} pair` } }),
    );
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(
      `Variable "$input" at input.name: the string "half \uFFFD pair" holds a lone surrogate`,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('in an item text (variable): BAD_USER_INPUT naming it, nothing written', async () => {
    const before = await snapshot();
    const error = await errorOf(
      'mutation($input: AppendItemsInput!) { appendItems(input: $input) { items { ... on ConversationItem { seq } } } }',
      JSON.stringify({
        input: {
          threadId,
          items: [
            { message: { role: 'user', content: 'fine' } },
            { message: { role: 'user', content: `x${'\uDE00'}` } },
          ],
        },
      }),
    );
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(
      'at input.items[1].message.content: the string "x\uFFFD" holds a lone',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('in a JSON key (variable): BAD_USER_INPUT naming it, nothing written', async () => {
    const before = await snapshot();
    const error = await errorOf(UPDATE_META, JSON.stringify({ m: { outer: { [`k${HALF}`]: 1 } } }));
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain(
      'Variable "$m" at m.outer: the key "k\uFFFD" holds a lone surrogate',
    );
    // The message itself stays well-formed (the key is not repeated raw).
    expect(/\p{Cs}/u.test(error.message)).toBe(false);
    expect(await snapshot()).toEqual(before);
  });

  it('in an inline string or key: BAD_USER_INPUT with its line and column, nothing written', async () => {
    const before = await snapshot();
    for (const query of [
      `mutation { createThread(input: { agentId: "v", name: "a${HALF}b" }) { thread { id } } }`,
      `mutation { createThread(input: { agentId: "v", metadata: { x: "${HALF}" } }) { thread { id } } }`,
    ]) {
      const error = await errorOf(query);
      expect(error.code).toBe('BAD_USER_INPUT');
      expect(error.message).toMatch(
        /^The document holds a lone surrogate .* at line 1, column \d+;/,
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a surrogate pair (emoji) round-trips identically in names, text, keys and values', async () => {
    const name = 'thread 🧵 with 😀';
    const metadata = { '😀 key': '𝄞 value', nested: ['👍🏽', { '🇫🇷': '🏳️‍🌈' }] };
    const content = 'hello 👋🏾 𝔘𝔫𝔦𝔠𝔬𝔡𝔢';
    const id = await createThread(t, { id: 'emoji-thread', name, metadata });
    await append(t, id, [{ message: { role: 'user', content } }]);
    const read = await t.execute(
      `{ thread(id: "emoji-thread") { name metadata items(first: 1) { edges { node {
        ... on MessageItem { content } } } } } }`,
    );
    expect(read.thread.name).toBe(name);
    expect(read.thread.metadata).toEqual(metadata);
    expect(read.thread.items.edges[0].node.content).toBe(content);
    // And it filters the same: the stored value equals the one sent.
    const found = await t.execute(FILTER_META, { m: { '😀 key': '𝄞 value' } });
    expect(found.threads.totalCount).toBe(1);
  });
});

describe('over graphql-ws', () => {
  /** Runs one operation on `ws`; its errors' codes and messages (from next or error). */
  function run(ws: ReturnType<typeof wsClient>, query: string, variables = {}) {
    return new Promise<{ code: unknown; message: string }[]>((resolve, reject) => {
      const errors: { code: unknown; message: string }[] = [];
      const collect = (list: readonly { message: string; extensions?: { code?: unknown } }[]) =>
        errors.push(...list.map((e) => ({ code: e.extensions?.code, message: e.message })));
      ws.subscribe(
        { query, variables },
        {
          next: (result) => collect((result.errors ?? []) as never),
          error: (error) => {
            if (!Array.isArray(error)) return reject(error);
            collect(error);
            resolve(errors);
          },
          complete: () => resolve(errors),
        },
      );
    });
  }

  it('a lone surrogate in a variable and -0 inline fail that operation only, writing nothing', async () => {
    const before = await snapshot();
    const ws = wsClient(port);
    const surrogate = await run(
      ws,
      'mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }',
      { input: { agentId: 'v', name: 'ws \uDC00' } },
    );
    expect(surrogate).toEqual([
      {
        code: 'BAD_USER_INPUT',
        message: expect.stringContaining('Variable "$input" at input.name: the string "ws \uFFFD"'),
      },
    ]);
    const negativeZero = await run(
      ws,
      'mutation { createThread(input: { agentId: "v", metadata: { x: -0 } }) { thread { id } } }',
    );
    expect(negativeZero).toEqual([
      { code: 'BAD_USER_INPUT', message: `JSON value at x: ${NEG_ZERO}.` },
    ]);
    // The socket goes on.
    expect(await run(ws, '{ threads { totalCount } }')).toEqual([]);
    await ws.dispose();
    expect(await snapshot()).toEqual(before);
  });
});

describe('JSON depth', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('a metadata filter nested 200,000 levels is BAD_USER_INPUT, and the server keeps answering', async () => {
    const error = await errorOf(FILTER_META, `{"m": ${nested(200_000)}}`);
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.message).toContain('the value is nested more than 64 levels deep');
    expect((await t.execute('{ threads { totalCount } }')).threads.totalCount).toBeGreaterThan(0);
    // Nothing unexpected happened: no stack overflow reached the log.
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('takes 64 levels and refuses 65, as variables and inline', async () => {
    const before = await snapshot();
    const ok = await sendRaw(
      `{"query": ${JSON.stringify(UPDATE_META)}, "variables": {"m": ${nested(64)}}}`,
    );
    expect(JSON.parse(ok.text).errors).toBeUndefined();
    const tooDeep = await errorOf(UPDATE_META, `{"m": ${nested(65)}}`);
    expect(tooDeep.code).toBe('BAD_USER_INPUT');
    expect(tooDeep.message).toContain(`JSON value at ${Array(64).fill('a').join('.')}: the value`);
    const inline = UPDATE_META.replace('($m: JSON)', '').replace(
      '$m',
      `${'{a:'.repeat(65)}1${'}'.repeat(65)}`,
    );
    expect((await errorOf(inline)).code).toBe('BAD_USER_INPUT');
    // Put the metadata back as it was.
    await t.execute(UPDATE_META, { m: { keep: 1 } });
    expect(await snapshot()).toEqual(before);
  });
});

describe('cursors with times the databases cannot store', () => {
  /** A real cursor of the thread list with its time replaced by `time` (ms). */
  async function forged(time: number): Promise<string> {
    const page = await t.execute('{ threads(first: 1) { edges { cursor } } }');
    const payload = JSON.parse(Buffer.from(page.threads.edges[0].cursor, 'base64url').toString());
    return Buffer.from(JSON.stringify({ ...payload, t: time })).toString('base64url');
  }
  const THREADS_AFTER = 'query($after: String) { threads(after: $after) { totalCount } }';

  for (const [label, iso] of [
    ['year 0', '0000-06-01T00:00:00.000Z'],
    ['year -1', '-000001-06-01T00:00:00.000Z'],
    ['year 10000', '+010000-01-01T00:00:00.000Z'],
  ] as const) {
    it(`${label}: BAD_USER_INPUT`, async () => {
      const after = await forged(Date.parse(iso));
      const error = await t.expectError(THREADS_AFTER, { after });
      expect(error).toEqual({
        code: 'BAD_USER_INPUT',
        message: expect.stringContaining('is not a cursor of this connection'),
      });
    });
  }

  it('years 0001 and 9999 are cursors the databases can compare', async () => {
    for (const iso of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      const after = await forged(Date.parse(iso));
      const page = await t.execute(THREADS_AFTER, { after });
      expect(page.threads.totalCount).toBeTypeOf('number');
    }
  });
});

describe('request errors', () => {
  it('an invalid JSON body: 400 BAD_USER_INPUT, the body not echoed', async () => {
    const { status, text } = await sendRaw(
      `{"query": "{ threads { totalCount } }", "x": "${MARKER}`,
    );
    expect(status).toBe(400);
    expect(JSON.parse(text)).toEqual({
      errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_USER_INPUT' } }],
    });
    expect(text).not.toContain(MARKER);
  });

  it('an operationName that names no operation, or is missing among several: 400 BAD_USER_INPUT', async () => {
    for (const body of [
      { query: 'query X { __typename }', operationName: 'Y' },
      { query: 'query X { __typename } query Z { __typename }' },
      { query: 'query X { __typename }', operationName: 5 },
    ]) {
      const { status, text } = await sendRaw(JSON.stringify(body));
      expect({ status, code: JSON.parse(text).errors[0].extensions.code }).toEqual({
        status: 400,
        code: 'BAD_USER_INPUT',
      });
    }
  });

  it('variables that do not coerce: 400 BAD_USER_INPUT naming the variable, nothing executed', async () => {
    const query = 'query L($n: Int!) { threads(first: $n) { totalCount } }';
    for (const [variables, says] of [
      ['{}', 'Variable "$n" of required type "Int!" was not provided.'],
      [
        '{"n": "ten"}',
        'Variable "$n" got invalid value "ten"; Int cannot represent non-integer value: "ten"',
      ],
      [
        '{"n": 2147483648}',
        'Variable "$n" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648',
      ],
    ] as const) {
      const { status, text } = await sendRaw(
        `{"query": ${JSON.stringify(query)}, "variables": ${variables}}`,
      );
      const body = JSON.parse(text) as GraphQLResponse;
      expect({ status, data: body.data, errors: body.errors }).toEqual({
        status: 400,
        data: undefined,
        errors: [
          {
            message: says,
            locations: [{ line: 1, column: 9 }],
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      });
    }
  });

  it('other malformed bodies are 400 BAD_USER_INPUT without the body', async () => {
    for (const body of [
      JSON.stringify(MARKER),
      JSON.stringify({ query: '{ __typename }', variables: MARKER }),
      JSON.stringify({ query: { text: MARKER } }),
      JSON.stringify({ query: '{ __typename }', extensions: MARKER }),
    ]) {
      const { status, text } = await sendRaw(body);
      expect({ status, code: JSON.parse(text).errors[0].extensions.code }).toEqual({
        status: 400,
        code: 'BAD_USER_INPUT',
      });
      expect(text).not.toContain(MARKER);
    }
  });

  it('GET and form requests with parameters that are not JSON: 4xx BAD_USER_INPUT, not echoed, nothing unexpected', async () => {
    const h = { accept: 'application/json', 'x-graphql-yoga-csrf': '1' };
    const cases: [string, RequestInit, number][] = [
      [`?query=%7B__typename%7D&variables=${MARKER}`, { headers: h }, 400],
      [`?query=%7B__typename%7D&extensions=${MARKER}`, { headers: h }, 400],
      [`?query=mutation%20${MARKER.replaceAll('-', '')}%7B__typename%7D`, { headers: h }, 405],
      [
        '',
        {
          method: 'POST',
          headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' },
          body: `query=%7B__typename%7D&variables=${MARKER}`,
        },
        400,
      ],
      [
        '',
        {
          method: 'POST',
          headers: { ...h, 'content-type': 'multipart/form-data; boundary=x' },
          body: `--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${MARKER}\r\n--x--\r\n`,
        },
        400,
      ],
    ];
    for (const [query, init, status] of cases) {
      const response = await t.app.yoga.fetch(`http://localhost/graphql${query}`, init);
      const text = await response.text();
      expect({ status: response.status, code: JSON.parse(text).errors[0].extensions.code }).toEqual(
        { status, code: 'BAD_USER_INPUT' },
      );
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(MARKER.replaceAll('-', ''));
    }
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});

/** A raw connection to the server: what it received, and a promise of its close. */
function rawConnection(): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => data, closed };
}

/** Writes `text` one byte every `everyMs` until the socket closes or the text ends. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<number> {
  let sent = 0;
  for (const byte of text) {
    if (socket.destroyed || socket.readableEnded) break;
    socket.write(byte);
    sent += 1;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return sent;
}

describe('receive timeouts (a real socket)', () => {
  const HEAD = 'POST /graphql HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n';

  it(`headers trickled a byte every 200 ms are cut with 408 (HEADERS_TIMEOUT_MS=${HEADERS_TIMEOUT_MS})`, async () => {
    const { socket, received, closed } = rawConnection();
    // 400 bytes at 200 ms: 80 s if nobody cut it.
    const headers = `${HEAD}x-slow: ${'h'.repeat(300)}\r\n\r\n`;
    const sent = await trickle(socket, headers, 200);
    await closed;
    expect(sent).toBeLessThan(headers.length);
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it(`a body trickled a byte every 200 ms is cut with 408 (REQUEST_TIMEOUT_MS=${REQUEST_TIMEOUT_MS})`, async () => {
    const before = await snapshot();
    const { socket, received, closed } = rawConnection();
    const body = JSON.stringify({
      query: 'mutation { createThread(input: { agentId: "slow" }) { thread { id } } }',
      variables: { pad: 'p'.repeat(300) },
    });
    socket.write(`${HEAD}content-length: ${Buffer.byteLength(body)}\r\n\r\n`);
    const sent = await trickle(socket, body, 200);
    await closed;
    expect(sent).toBeLessThan(body.length);
    expect(received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(await snapshot()).toEqual(before);
    // Nothing unexpected was logged about it.
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('SSE and WebSocket streams outlive REQUEST_TIMEOUT_MS and still deliver', async () => {
    const id = await createThread(t, { id: 'stream-thread' });
    // SSE: read the stream by hand (no credentials needed on loopback).
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: `subscription { threadItems(threadId: "${id}", afterSeq: -1) { ... on ConversationItem { seq } } }`,
      }),
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    let sse = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        sse += decoder.decode(chunk, { stream: true });
      }
    })().catch(() => {});
    const ws = wsClient(port);
    const wsSeqs: number[] = [];
    const followed = follow(ws, id, -1, (item) => wsSeqs.push(item.seq));
    followed.done.catch(() => {});

    // Past the timeout (and Node's checks of it), both streams are still open.
    await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS * 2 + 1_000));
    await append(t, id, [{ message: { role: 'user', content: 'late' } }]);
    const deadline = Date.now() + 20_000;
    while ((!sse.includes('"seq":0') || wsSeqs.length === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(sse).toContain('"seq":0');
    expect(wsSeqs).toEqual([0]);
    controller.abort();
    await reading;
    followed.cancel();
    await ws.dispose();
  });
});
