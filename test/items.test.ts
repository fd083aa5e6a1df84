import { createHash } from 'node:crypto';
/**
 * The item log through the GraphQL endpoint: appendItems (every item type, seq rules,
 * all-or-nothing, limits, expectedSeq, idempotency keys), Thread.items paging, Query.item,
 * Thread.lastItem/lastSeq/nextSeq/itemCount, purgeItems, text and JSON round trips, and the
 * SQL statements an append and a history page cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, appendMessages, createThread, message } from './testkit/seed.js';

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

interface ItemOut {
  __typename: string;
  id: string;
  threadId: string;
  seq: number;
  type: string;
  status: string;
  responseId: string | null;
  createdAt: string;
  createdBy: string | null;
  data: unknown;
  [field: string]: unknown;
}

interface ThreadOut {
  id: string;
  nextSeq: number;
  lastSeq: number | null;
  itemCount: number;
  lastItem: ItemOut | null;
}

interface AppendOut {
  replayed: boolean;
  thread: ThreadOut;
  items: ItemOut[];
}

interface PageInfoOut {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

interface ConnectionOut {
  edges: { cursor: string; node: ItemOut }[];
  pageInfo: PageInfoOut;
  totalCount: number;
}

interface PageArgs {
  first?: number;
  after?: string;
  last?: number;
  before?: string;
  afterSeq?: number;
  beforeSeq?: number;
  types?: string[];
}

type NewItem = Record<string, unknown>;

// Every field of every item type. ToolResultItem.name is nullable while ToolCallItem.name is
// not, so one of them needs an alias to merge.
const ITEM_FIELDS = `
  fragment ItemFields on Item {
    __typename
    ... on ConversationItem {
      id threadId seq type status responseId createdAt createdBy data
    }
    ... on MessageItem { role content parts usage { inputTokens outputTokens totalTokens } }
    ... on ToolCallItem { callId name arguments }
    ... on ToolResultItem { callId resultName: name output isError }
    ... on ReasoningItem { text }
    ... on ErrorItem { reason code }
    ... on ResourceEventItem { kind payload }
    ... on SlashCommandItem { command args }
    ... on TerminalItem { stream text }
  }
`;

const THREAD_FIELDS = `
  fragment ThreadFields on Thread {
    id nextSeq lastSeq itemCount lastItem { ...ItemFields }
  }
`;

const APPEND = `
  mutation Append($input: AppendItemsInput!) {
    appendItems(input: $input) {
      replayed
      thread { ...ThreadFields }
      items { ...ItemFields }
    }
  }
  ${ITEM_FIELDS}
  ${THREAD_FIELDS}
`;

const THREAD = `
  query Thread($id: ID!) { thread(id: $id) { ...ThreadFields } }
  ${ITEM_FIELDS}
  ${THREAD_FIELDS}
`;

const PAGE = `
  query Page(
    $id: ID!, $first: Int, $after: String, $last: Int, $before: String,
    $afterSeq: Int, $beforeSeq: Int, $types: [String!]
  ) {
    thread(id: $id) {
      items(
        first: $first, after: $after, last: $last, before: $before,
        afterSeq: $afterSeq, beforeSeq: $beforeSeq, types: $types
      ) {
        totalCount
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { ...ItemFields } }
      }
    }
  }
  ${ITEM_FIELDS}
`;

const ITEM = `
  query Item($threadId: ID!, $seq: Int!) { item(threadId: $threadId, seq: $seq) { ...ItemFields } }
  ${ITEM_FIELDS}
`;

const PURGE = `
  mutation Purge($input: PurgeItemsInput!) {
    purgeItems(input: $input) { itemsDeleted thread { ...ThreadFields } }
  }
  ${ITEM_FIELDS}
  ${THREAD_FIELDS}
`;

function appendItems(t: TestApp, input: Record<string, unknown>): Promise<AppendOut> {
  return t.execute<{ appendItems: AppendOut }>(APPEND, { input }).then((d) => d.appendItems);
}

function appendError(
  t: TestApp,
  input: Record<string, unknown>,
): Promise<{ code: string; message: string }> {
  return t.expectError(APPEND, { input });
}

async function threadState(t: TestApp, id: string): Promise<ThreadOut> {
  const data = await t.execute<{ thread: ThreadOut | null }>(THREAD, { id });
  if (!data.thread) throw new Error(`thread ${id} not found`);
  return data.thread;
}

async function page(t: TestApp, id: string, args: PageArgs = {}): Promise<ConnectionOut> {
  const data = await t.execute<{ thread: { items: ConnectionOut } }>(PAGE, { id, ...args });
  return data.thread.items;
}

function pageError(
  t: TestApp,
  id: string,
  args: PageArgs,
): Promise<{ code: string; message: string }> {
  return t.expectError(PAGE, { id, ...args });
}

const seqsOf = (c: ConnectionOut): number[] => c.edges.map((e) => e.node.seq);

async function getItem(t: TestApp, threadId: string, seq: number): Promise<ItemOut | null> {
  return (await t.execute<{ item: ItemOut | null }>(ITEM, { threadId, seq })).item;
}

/** A cursor made the way the service makes its own (base64url JSON), for tamper tests. */
/** A cursor forged as the server makes them for tenant "local" (its tenant tag in `n`). */
const rawCursor = (payload: unknown): string => {
  const n = createHash('sha256').update('local').digest('base64url').slice(0, 10);
  const body =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload)
      ? { ...payload, n }
      : payload;
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('item log', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  describe('item types round-trip through appendItems and thread.items', () => {
    let threadId: string;
    let appended: AppendOut;
    let before: number;
    let after: number;

    const inputs: NewItem[] = [
      {
        status: 'IN_PROGRESS',
        responseId: 'resp-1',
        createdBy: 'agent-a',
        message: {
          role: 'assistant',
          content: 'Hello there',
          parts: [
            { type: 'text', text: 'Hello there' },
            { type: 'image', url: 'https://x.test/a.png' },
          ],
          usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
        },
      },
      { toolCall: { callId: 'call-1', name: 'search', arguments: { query: 'cats', limit: 3 } } },
      { toolCall: { callId: 'call-2', name: 'shell', arguments: 'ls -la {not json' } },
      { toolResult: { callId: 'call-1', name: 'search', output: { hits: ['a', 'b'] } } },
      {
        status: 'ACTION_REQUIRED',
        toolResult: { callId: 'call-2', output: 'permission denied', isError: true },
      },
      { reasoning: { text: 'The user wants cats.' } },
      { error: { reason: 'Rate limited by upstream', code: 'upstream_429' } },
      { resourceEvent: { kind: 'session_started', payload: { pid: 42, cwd: '/tmp' } } },
      { slashCommand: { command: '/compact', args: '--keep 10' } },
      { terminal: { stream: 'stderr', text: 'warning: something\n' } },
      {
        createdBy: 'robot-7',
        other: { type: 'my_event', data: { level: 3, tags: ['x', 'y'], nested: { ok: true } } },
      },
      { message: { role: 'user', parts: [{ type: 'text', text: 'only parts' }] } },
      { error: { reason: 'no code' } },
      { resourceEvent: { kind: 'subagent_stopped' } },
      { slashCommand: { command: '/clear' } },
      { terminal: { stream: 'stdin', text: 'ls' } },
      { terminal: { stream: 'stdout', text: 'a.txt' } },
      { createdAt: '2020-05-06T07:08:09.123Z', message: { role: 'system', content: 'imported' } },
      {
        createdAt: '2020-05-06T09:08:09.456+02:00',
        message: { role: 'developer', content: 'offset' },
      },
      { createdAt: '2020-05-06T07:08:09Z', other: { type: 'x', data: 'a bare string' } },
    ];

    beforeAll(async () => {
      threadId = await createThread(t);
      before = Date.now();
      appended = await appendItems(t, { threadId, items: inputs });
      after = Date.now();
    });

    const at = (seq: number): ItemOut => {
      const item = appended.items[seq];
      if (!item) throw new Error(`no item ${seq}`);
      return item;
    };

    it('gives ids "<threadId>:<seq>" with consecutive 0-based seqs', () => {
      expect(appended.replayed).toBe(false);
      expect(appended.items.map((i) => i.seq)).toEqual(inputs.map((_, i) => i));
      expect(appended.items.map((i) => i.id)).toEqual(inputs.map((_, i) => `${threadId}:${i}`));
      for (const item of appended.items) expect(item.threadId).toBe(threadId);
      expect(appended.thread).toMatchObject({
        id: threadId,
        nextSeq: inputs.length,
        lastSeq: inputs.length - 1,
        itemCount: inputs.length,
      });
    });

    it('reads back the same items through thread.items, item() and lastItem', async () => {
      const read = await page(t, threadId, { first: 100 });
      expect(read.edges.map((e) => e.node)).toEqual(appended.items);
      expect(read.totalCount).toBe(inputs.length);
      expect(await getItem(t, threadId, 0)).toEqual(at(0));
      expect(await getItem(t, threadId, 10)).toEqual(at(10));
      const state = await threadState(t, threadId);
      expect(state.lastItem).toEqual(at(inputs.length - 1));
    });

    it('message: role, content, parts, usage, status, responseId, createdBy', () => {
      expect(at(0)).toMatchObject({
        __typename: 'MessageItem',
        type: 'message',
        status: 'IN_PROGRESS',
        responseId: 'resp-1',
        createdBy: 'agent-a',
        role: 'assistant',
        content: 'Hello there',
        parts: [
          { type: 'text', text: 'Hello there' },
          { type: 'image', url: 'https://x.test/a.png' },
        ],
        usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      });
      expect(at(0).data).toEqual(inputs[0]!.message);
      expect(at(11)).toMatchObject({
        __typename: 'MessageItem',
        role: 'user',
        content: null,
        usage: null,
        parts: [{ type: 'text', text: 'only parts' }],
        status: 'COMPLETED',
        responseId: null,
        createdBy: null,
      });
      expect(at(11).data).toEqual({ role: 'user', parts: [{ type: 'text', text: 'only parts' }] });
    });

    it('toolCall: arguments as a JSON object and as a plain string', () => {
      expect(at(1)).toMatchObject({
        __typename: 'ToolCallItem',
        type: 'tool_call',
        callId: 'call-1',
        name: 'search',
        arguments: { query: 'cats', limit: 3 },
        status: 'COMPLETED',
      });
      expect(at(1).data).toEqual({
        callId: 'call-1',
        name: 'search',
        arguments: { query: 'cats', limit: 3 },
      });
      expect(at(2)).toMatchObject({ __typename: 'ToolCallItem', arguments: 'ls -la {not json' });
      expect(at(2).data).toEqual({
        callId: 'call-2',
        name: 'shell',
        arguments: 'ls -la {not json',
      });
    });

    it('toolResult: output, name, isError defaulting to false', () => {
      expect(at(3)).toMatchObject({
        __typename: 'ToolResultItem',
        type: 'tool_result',
        callId: 'call-1',
        resultName: 'search',
        output: { hits: ['a', 'b'] },
        isError: false,
      });
      expect(at(3).data).toEqual({
        callId: 'call-1',
        name: 'search',
        output: { hits: ['a', 'b'] },
        isError: false,
      });
      expect(at(4)).toMatchObject({
        __typename: 'ToolResultItem',
        status: 'ACTION_REQUIRED',
        resultName: null,
        output: 'permission denied',
        isError: true,
      });
      expect(at(4).data).toEqual({ callId: 'call-2', output: 'permission denied', isError: true });
    });

    it('reasoning, error, resourceEvent, slashCommand, terminal', () => {
      expect(at(5)).toMatchObject({
        __typename: 'ReasoningItem',
        type: 'reasoning',
        text: 'The user wants cats.',
      });
      expect(at(5).data).toEqual({ text: 'The user wants cats.' });
      expect(at(6)).toMatchObject({
        __typename: 'ErrorItem',
        type: 'error',
        reason: 'Rate limited by upstream',
        code: 'upstream_429',
      });
      expect(at(6).data).toEqual({ reason: 'Rate limited by upstream', code: 'upstream_429' });
      expect(at(12)).toMatchObject({ __typename: 'ErrorItem', reason: 'no code', code: null });
      expect(at(12).data).toEqual({ reason: 'no code' });
      expect(at(7)).toMatchObject({
        __typename: 'ResourceEventItem',
        type: 'resource_event',
        kind: 'session_started',
        payload: { pid: 42, cwd: '/tmp' },
      });
      expect(at(7).data).toEqual({ kind: 'session_started', payload: { pid: 42, cwd: '/tmp' } });
      expect(at(13)).toMatchObject({
        __typename: 'ResourceEventItem',
        kind: 'subagent_stopped',
        payload: null,
      });
      expect(at(8)).toMatchObject({
        __typename: 'SlashCommandItem',
        type: 'slash_command',
        command: '/compact',
        args: '--keep 10',
      });
      expect(at(8).data).toEqual({ command: '/compact', args: '--keep 10' });
      expect(at(14)).toMatchObject({
        __typename: 'SlashCommandItem',
        command: '/clear',
        args: null,
      });
      expect(at(9)).toMatchObject({
        __typename: 'TerminalItem',
        type: 'terminal',
        stream: 'stderr',
        text: 'warning: something\n',
      });
      expect(at(9).data).toEqual({ stream: 'stderr', text: 'warning: something\n' });
      expect(at(15)).toMatchObject({ stream: 'stdin', text: 'ls' });
      expect(at(16)).toMatchObject({ stream: 'stdout', text: 'a.txt' });
    });

    it('other: OtherItem with its own type and the data given', () => {
      expect(at(10)).toMatchObject({
        __typename: 'OtherItem',
        type: 'my_event',
        createdBy: 'robot-7',
      });
      expect(at(10).data).toEqual({ level: 3, tags: ['x', 'y'], nested: { ok: true } });
      expect(at(19)).toMatchObject({ __typename: 'OtherItem', type: 'x', data: 'a bare string' });
    });

    it('keeps a given createdAt, converts offsets to UTC, defaults to the append time', () => {
      for (const item of appended.items) expect(item.createdAt).toMatch(ISO_UTC);
      expect(at(17).createdAt).toBe('2020-05-06T07:08:09.123Z');
      expect(at(18).createdAt).toBe('2020-05-06T07:08:09.456Z');
      expect(at(19).createdAt).toBe('2020-05-06T07:08:09.000Z');
      for (const seq of [0, 1, 10, 16]) {
        const ms = Date.parse(at(seq).createdAt);
        expect(ms).toBeGreaterThanOrEqual(before);
        expect(ms).toBeLessThanOrEqual(after);
      }
    });
  });

  describe('appendItems rules', () => {
    it('hands out 0-based consecutive seqs across appends; counters follow', async () => {
      const threadId = await createThread(t);
      expect(await threadState(t, threadId)).toEqual({
        id: threadId,
        nextSeq: 0,
        lastSeq: null,
        itemCount: 0,
        lastItem: null,
      });
      expect(await append(t, threadId, [message('a'), message('b'), message('c')])).toEqual([
        0, 1, 2,
      ]);
      expect(await append(t, threadId, [message('d')])).toEqual([3]);
      expect(await append(t, threadId, [message('e'), message('f')])).toEqual([4, 5]);
      const state = await threadState(t, threadId);
      expect(state).toMatchObject({ nextSeq: 6, lastSeq: 5, itemCount: 6 });
      expect(state.lastItem).toMatchObject({ seq: 5, content: 'f' });
    });

    it('20 concurrent appends of 5 items get seqs 0..99 once each, 5 consecutive per call', async () => {
      const threadId = await createThread(t);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, call) =>
          t.request<{ appendItems: AppendOut }>(APPEND, {
            input: {
              threadId,
              items: Array.from({ length: 5 }, (_, i) => message(`c${call}-${i}`)),
            },
          }),
        ),
      );
      const all: number[] = [];
      results.forEach((result, call) => {
        expect(result.errors).toBeUndefined();
        const items = result.data!.appendItems.items;
        const seqs = items.map((i) => i.seq);
        expect(seqs).toEqual([0, 1, 2, 3, 4].map((i) => seqs[0]! + i));
        expect(items.map((i) => i.content)).toEqual([0, 1, 2, 3, 4].map((i) => `c${call}-${i}`));
        all.push(...seqs);
      });
      expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(await threadState(t, threadId)).toMatchObject({
        nextSeq: 100,
        lastSeq: 99,
        itemCount: 100,
      });
      // What was stored matches what each call was told.
      const stored = await page(t, threadId, { first: 100 });
      const told = new Map(
        results.flatMap((r) => r.data!.appendItems.items.map((i) => [i.seq, i.content])),
      );
      expect(stored.edges.map((e) => [e.node.seq, e.node.content])).toEqual(
        Array.from({ length: 100 }, (_, i) => [i, told.get(i)]),
      );
    });

    it('concurrent appends that fail write nothing and leave the others whole', async () => {
      // On SQLite concurrent appends may commit as one group (src/db/sqlite.ts): a failing one
      // must undo only its own writes.
      const threadId = await createThread(t);
      const calls = Array.from({ length: 30 }, (_, call) => {
        const items = [message(`g${call}-0`), message(`g${call}-1`)];
        if (call % 3 === 1) return { threadId, items, expectedSeq: 1_000_000 + call };
        if (call % 3 === 2) return { threadId: `missing-${call}`, items };
        return { threadId, items, idempotencyKey: call % 2 === 0 ? `k${call}` : null };
      });
      const results = await Promise.all(
        calls.map((input) => t.request<{ appendItems: AppendOut }>(APPEND, { input })),
      );
      const told = new Map<number, unknown>();
      results.forEach((result, call) => {
        if (call % 3 === 0) {
          expect(result.errors).toBeUndefined();
          for (const i of result.data!.appendItems.items) told.set(i.seq, i.content);
        } else {
          expect(result.errors?.[0]?.extensions?.code).toBe(
            call % 3 === 1 ? 'CONFLICT' : 'NOT_FOUND',
          );
        }
      });
      expect([...told.keys()].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      );
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 20, itemCount: 20 });
      const stored = await page(t, threadId, { first: 100 });
      expect(stored.edges.map((e) => [e.node.seq, e.node.content])).toEqual(
        Array.from({ length: 20 }, (_, i) => [i, told.get(i)]),
      );
    });

    describe('all-or-nothing', () => {
      let threadId: string;

      beforeAll(async () => {
        threadId = await createThread(t);
        await append(t, threadId, [message('kept')]);
      });

      const expectUnchanged = async () => {
        expect(await threadState(t, threadId)).toMatchObject({
          nextSeq: 1,
          lastSeq: 0,
          itemCount: 1,
        });
        expect(seqsOf(await page(t, threadId, { first: 100 }))).toEqual([0]);
      };

      const batchWith = (bad: NewItem, at = 6): NewItem[] =>
        Array.from({ length: 10 }, (_, i) => (i === at ? bad : message(`batch ${i}`)));

      it('one invalid item in a batch of 10 fails the batch and writes nothing', async () => {
        const error = await appendError(t, {
          threadId,
          items: batchWith({ terminal: { stream: 'stdweird', text: 'x' } }),
        });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message).toContain('items[6]');
        await expectUnchanged();
      });

      it('an invalid last item fails the batch too', async () => {
        const error = await appendError(t, {
          threadId,
          items: batchWith({ other: { type: 'message', data: {} } }, 9),
        });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message).toContain('items[9]');
        await expectUnchanged();
      });

      it('an empty thread stays empty after a failed batch', async () => {
        const empty = await createThread(t);
        const error = await appendError(t, { threadId: empty, items: batchWith({}, 0) });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(await threadState(t, empty)).toEqual({
          id: empty,
          nextSeq: 0,
          lastSeq: null,
          itemCount: 0,
          lastItem: null,
        });
        expect((await page(t, empty)).edges).toEqual([]);
      });

      it('an item with zero body fields is BAD_USER_INPUT', async () => {
        const none = await appendError(t, {
          threadId,
          items: [{ status: 'COMPLETED', createdBy: 'me' }],
        });
        expect(none.code).toBe('BAD_USER_INPUT');
        expect(none.message).toMatch(/exactly one body field/);
        await expectUnchanged();
      });

      it('an item with two body fields is BAD_USER_INPUT', async () => {
        const two = await appendError(t, {
          threadId,
          items: [{ message: { role: 'user', content: 'x' }, reasoning: { text: 'y' } }],
        });
        expect(two.code).toBe('BAD_USER_INPUT');
        expect(two.message).toMatch(/message and reasoning/);
        await expectUnchanged();
      });

      it.each([
        ['MyEvent'],
        ['1event'],
        ['_event'],
        ['my-event'],
        ['my event'],
        [''],
        ['é'],
        [`a${'b'.repeat(64)}`],
        ['message'],
        ['compaction'],
        ['tool_call'],
        ['tool_result'],
        ['reasoning'],
        ['error'],
        ['resource_event'],
        ['slash_command'],
        ['terminal'],
      ])('other.type %j is BAD_USER_INPUT', async (type) => {
        const error = await appendError(t, { threadId, items: [{ other: { type, data: {} } }] });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message).toContain('other.type');
        await expectUnchanged();
      });

      it.each([['stdlog'], ['STDOUT'], [''], ['pty']])(
        'terminal stream %j is BAD_USER_INPUT',
        async (stream) => {
          const error = await appendError(t, {
            threadId,
            items: [{ terminal: { stream, text: 'x' } }],
          });
          expect(error.code).toBe('BAD_USER_INPUT');
          expect(error.message).toContain('stream');
          await expectUnchanged();
        },
      );

      it('0 items and 501 items are BAD_USER_INPUT; 500 is fine', async () => {
        expect((await appendError(t, { threadId, items: [] })).code).toBe('BAD_USER_INPUT');
        const tooMany = Array.from({ length: 501 }, (_, i) => message(`m${i}`));
        const error = await appendError(t, { threadId, items: tooMany });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(error.message).toMatch(/1 to 500/);
        await expectUnchanged();
        const other = await createThread(t);
        const seqs = await append(t, other, tooMany.slice(0, 500));
        expect(seqs).toHaveLength(500);
        expect(seqs.at(-1)).toBe(499);
      });

      it('an unknown thread is NOT_FOUND', async () => {
        const error = await appendError(t, { threadId: 'no-such-thread', items: [message('x')] });
        expect(error.code).toBe('NOT_FOUND');
        expect(error.message).toContain('no-such-thread');
      });

      it('other names that fit the pattern are accepted', async () => {
        const other = await createThread(t);
        const long = `a${'0'.repeat(63)}`;
        const res = await appendItems(t, {
          threadId: other,
          items: [
            { other: { type: 'a', data: false } },
            { other: { type: long, data: [1] } },
            // Names that are also Object.prototype members are ordinary types.
            { other: { type: 'constructor', data: { x: 1 } } },
            { other: { type: 'messages', data: {} } },
          ],
        });
        expect(res.items.map((i) => [i.__typename, i.type, i.data])).toEqual([
          ['OtherItem', 'a', false],
          ['OtherItem', long, [1]],
          ['OtherItem', 'constructor', { x: 1 }],
          ['OtherItem', 'messages', {}],
        ]);
        expect((await page(t, other)).edges.map((e) => e.node.__typename)).toEqual([
          'OtherItem',
          'OtherItem',
          'OtherItem',
          'OtherItem',
        ]);
      });
    });

    describe('variables that do not coerce are BAD_USER_INPUT', () => {
      let threadId: string;

      beforeAll(async () => {
        threadId = await createThread(t);
      });

      it.each<[string, Record<string, unknown>]>([
        ['an unknown NewItem field', { items: [{ ...message('x'), colour: 'red' }] }],
        [
          'an unknown MessageInput field',
          { items: [{ message: { role: 'user', content: 'x', mood: 'ok' } }] },
        ],
        ['an unknown AppendItemsInput field', { items: [message('x')], force: true }],
        ['an Int over 2^31-1', { items: [message('x')], expectedSeq: 2 ** 31 }],
        [
          'a token count over 2^31-1',
          { items: [{ message: { role: 'user', usage: { inputTokens: 2 ** 31 } } }] },
        ],
        ['a malformed DateTime', { items: [{ ...message('x'), createdAt: 'yesterday' }] }],
        [
          'a DateTime with no time zone',
          { items: [{ ...message('x'), createdAt: '2026-01-02T03:04:05' }] },
        ],
        [
          'an impossible DateTime',
          { items: [{ ...message('x'), createdAt: '2026-13-45T03:04:05Z' }] },
        ],
        ['a bad status', { items: [{ ...message('x'), status: 'DONE' }] }],
        ['a lower-case status', { items: [{ ...message('x'), status: 'completed' }] }],
        ['a missing required field', { items: [{ toolCall: { callId: 'c', name: 'n' } }] }],
        [
          'a null arguments',
          { items: [{ toolCall: { callId: 'c', name: 'n', arguments: null } }] },
        ],
        ['a string where a list is due', { items: 'not a list' }],
      ])('%s', async (_name, extra) => {
        const error = await appendError(t, { threadId, ...extra });
        expect(error.code).toBe('BAD_USER_INPUT');
        expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 0, itemCount: 0 });
      });

      it('a negative token count, an empty role, a malformed thread id', async () => {
        for (const items of [
          [{ message: { role: 'user', usage: { outputTokens: -1 } } }],
          [{ message: { role: '' } }],
          [{ toolCall: { callId: '', name: 'n', arguments: {} } }],
        ]) {
          expect((await appendError(t, { threadId, items })).code).toBe('BAD_USER_INPUT');
        }
        expect((await appendError(t, { threadId: 'bad id!', items: [message('x')] })).code).toBe(
          'BAD_USER_INPUT',
        );
        expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 0, itemCount: 0 });
      });

      it('an Int over 2^31-1 in a page argument and a malformed purge time', async () => {
        expect((await pageError(t, threadId, { first: 2 ** 31 })).code).toBe('BAD_USER_INPUT');
        expect((await pageError(t, threadId, { afterSeq: 2 ** 31 })).code).toBe('BAD_USER_INPUT');
        const purge = await t.expectError(PURGE, { input: { threadId, before: 'soon' } });
        expect(purge.code).toBe('BAD_USER_INPUT');
        const seq = await t.expectError(ITEM, { threadId, seq: 2 ** 31 });
        expect(seq.code).toBe('BAD_USER_INPUT');
      });
    });

    describe('item size at the default limit (1 MiB)', () => {
      it('accepts data of exactly 1 MiB of JSON and refuses one byte more', async () => {
        const threadId = await createThread(t);
        const envelope = JSON.stringify({ role: 'user', content: '' }).length;
        const exact = { message: { role: 'user', content: 'x'.repeat(1024 * 1024 - envelope) } };
        const over = { message: { role: 'user', content: 'x'.repeat(1024 * 1024 - envelope + 1) } };
        const error = await appendError(t, { threadId, items: [message('small'), over] });
        expect(error.code).toBe('PAYLOAD_TOO_LARGE');
        expect(error.message).toContain('items[1]');
        expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 0, itemCount: 0 });
        const res = await appendItems(t, { threadId, items: [exact] });
        expect((res.items[0]!.content as string).length).toBe(1024 * 1024 - envelope);
      });
    });
  });

  describe('expectedSeq', () => {
    it('succeeds when it matches, CONFLICT and nothing written when it does not', async () => {
      const threadId = await createThread(t);
      expect(await append(t, threadId, [message('a'), message('b')], { expectedSeq: 0 })).toEqual([
        0, 1,
      ]);
      expect(await append(t, threadId, [message('c')], { expectedSeq: 2 })).toEqual([2]);
      for (const expectedSeq of [2, 0, 4, 1000]) {
        const error = await appendError(t, { threadId, items: [message('late')], expectedSeq });
        expect(error.code).toBe('CONFLICT');
        expect(error.message).toContain('3');
      }
      expect(await threadState(t, threadId)).toMatchObject({
        nextSeq: 3,
        lastSeq: 2,
        itemCount: 3,
      });
      expect(seqsOf(await page(t, threadId))).toEqual([0, 1, 2]);
      expect(await append(t, threadId, [message('d')], { expectedSeq: 3 })).toEqual([3]);
    });

    it('negative is BAD_USER_INPUT; unknown thread is NOT_FOUND', async () => {
      const threadId = await createThread(t);
      expect(
        (await appendError(t, { threadId, items: [message('x')], expectedSeq: -1 })).code,
      ).toBe('BAD_USER_INPUT');
      expect(
        (await appendError(t, { threadId: 'nope-thread', items: [message('x')], expectedSeq: 0 }))
          .code,
      ).toBe('NOT_FOUND');
    });

    it('only one of several concurrent appends with the same expectedSeq wins', async () => {
      const threadId = await createThread(t);
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          t.request<{ appendItems: AppendOut }>(APPEND, {
            input: { threadId, items: [message(`racer ${i}`)], expectedSeq: 0 },
          }),
        ),
      );
      const ok = results.filter((r) => !r.errors);
      expect(ok).toHaveLength(1);
      expect(results.filter((r) => r.errors?.[0]?.extensions?.code === 'CONFLICT')).toHaveLength(4);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 1, itemCount: 1 });
    });
  });

  describe('idempotencyKey', () => {
    const items: NewItem[] = [
      message('hello'),
      {
        toolCall: { callId: 'c1', name: 'lookup', arguments: { a: 1, b: [1, 2], c: { d: null } } },
      },
    ];

    it('a retry returns the first result (replayed) and writes nothing', async () => {
      const threadId = await createThread(t);
      const first = await appendItems(t, { threadId, items, idempotencyKey: 'key-1' });
      expect(first.replayed).toBe(false);
      expect(first.items.map((i) => i.seq)).toEqual([0, 1]);
      await sleep(5); // a fresh append would get a later createdAt
      const retry = await appendItems(t, { threadId, items, idempotencyKey: 'key-1' });
      expect(retry.replayed).toBe(true);
      expect(retry.items).toEqual(first.items);
      expect(retry.thread).toMatchObject({ nextSeq: 2, itemCount: 2 });
      expect(await threadState(t, threadId)).toMatchObject({
        nextSeq: 2,
        lastSeq: 1,
        itemCount: 2,
      });

      // Still the first result after other appends.
      await append(t, threadId, [message('later')]);
      const again = await appendItems(t, { threadId, items, idempotencyKey: 'key-1' });
      expect(again.replayed).toBe(true);
      expect(again.items).toEqual(first.items);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 3, itemCount: 3 });
    });

    it('a retry whose expectedSeq is now stale is still a replay', async () => {
      const threadId = await createThread(t);
      const input = { threadId, items, idempotencyKey: 'key-e', expectedSeq: 0 };
      const first = await appendItems(t, input);
      const retry = await appendItems(t, input);
      expect(retry.replayed).toBe(true);
      expect(retry.items).toEqual(first.items);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 2 });
    });

    it('a retry whose JSON has the keys in another order is deep-equal: a replay', async () => {
      const threadId = await createThread(t);
      const first = await appendItems(t, {
        threadId,
        items: [{ other: { type: 'ev', data: { a: 1, b: { x: 1, y: 2 } } } }],
        idempotencyKey: 'key-order',
      });
      const retry = await appendItems(t, {
        threadId,
        items: [{ other: { data: { b: { y: 2, x: 1 }, a: 1 }, type: 'ev' } }],
        idempotencyKey: 'key-order',
      });
      expect(retry.replayed).toBe(true);
      expect(retry.items).toEqual(first.items);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 1 });
    });

    it('the same key with different items is a CONFLICT and writes nothing', async () => {
      const threadId = await createThread(t);
      await appendItems(t, { threadId, items, idempotencyKey: 'key-2' });
      const variants: NewItem[][] = [
        [message('hello')],
        [message('hello!'), items[1]!],
        [items[1]!, items[0]!],
        [{ ...message('hello'), status: 'IN_PROGRESS' }, items[1]!],
        [{ ...message('hello'), createdBy: 'someone' }, items[1]!],
        [
          message('hello'),
          {
            toolCall: {
              callId: 'c1',
              name: 'lookup',
              arguments: { a: 1, b: [2, 1], c: { d: null } },
            },
          },
        ],
        [...items, message('extra')],
      ];
      for (const variant of variants) {
        const error = await appendError(t, { threadId, items: variant, idempotencyKey: 'key-2' });
        expect(error.code).toBe('CONFLICT');
        expect(error.message).toContain('key-2');
      }
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 2, itemCount: 2 });
    });

    it('the same key on another thread is independent', async () => {
      const a = await createThread(t);
      const b = await createThread(t);
      await append(t, b, [message('b0'), message('b1'), message('b2')]);
      const onA = await appendItems(t, { threadId: a, items, idempotencyKey: 'shared' });
      const onB = await appendItems(t, {
        threadId: b,
        items: [message('other')],
        idempotencyKey: 'shared',
      });
      expect(onA.replayed).toBe(false);
      expect(onB.replayed).toBe(false);
      expect(onA.items.map((i) => i.id)).toEqual([`${a}:0`, `${a}:1`]);
      expect(onB.items.map((i) => i.id)).toEqual([`${b}:3`]);
      expect(onB.items[0]).toMatchObject({ content: 'other' });
    });

    it('10 concurrent calls with the same key and items write once', async () => {
      const threadId = await createThread(t);
      await append(t, threadId, [message('before')]);
      const batch = Array.from({ length: 3 }, (_, i) => message(`once ${i}`));
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.request<{ appendItems: AppendOut }>(APPEND, {
            input: { threadId, items: batch, idempotencyKey: 'race-key' },
          }),
        ),
      );
      for (const r of results) expect(r.errors).toBeUndefined();
      const answers = results.map((r) => r.data!.appendItems);
      expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
      for (const a of answers) {
        expect(a.items.map((i) => i.seq)).toEqual([1, 2, 3]);
        expect(a.items).toEqual(answers[0]!.items);
      }
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 4, itemCount: 4 });
      expect(seqsOf(await page(t, threadId))).toEqual([0, 1, 2, 3]);
    });

    it('an empty key is BAD_USER_INPUT', async () => {
      const threadId = await createThread(t);
      expect((await appendError(t, { threadId, items, idempotencyKey: '' })).code).toBe(
        'BAD_USER_INPUT',
      );
    });
  });

  describe('Thread.items paging', () => {
    let ten: string;
    let long: string;
    let cursors: string[];

    beforeAll(async () => {
      ten = await createThread(t);
      await appendMessages(t, ten, 10);
      long = await createThread(t);
      await appendMessages(t, long, 120);
      cursors = (await page(t, ten, { first: 10 })).edges.map((e) => e.cursor);
    });

    it('default page size is 50', async () => {
      const c = await page(t, long);
      expect(seqsOf(c)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      expect(c.totalCount).toBe(120);
      expect(c.edges[7]!.node).toMatchObject({ content: 'm7', id: `${long}:7` });
    });

    it('first/after from the start and through the end', async () => {
      const p1 = await page(t, ten, { first: 3 });
      expect(seqsOf(p1)).toEqual([0, 1, 2]);
      expect(p1.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: p1.edges[0]!.cursor,
        endCursor: p1.edges[2]!.cursor,
      });
      const p2 = await page(t, ten, { first: 3, after: p1.pageInfo.endCursor! });
      expect(seqsOf(p2)).toEqual([3, 4, 5]);
      expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(p2.pageInfo.startCursor).toBe(p2.edges[0]!.cursor);
      expect(p2.pageInfo.endCursor).toBe(p2.edges[2]!.cursor);
      const p3 = await page(t, ten, { first: 4, after: p2.pageInfo.endCursor! });
      expect(seqsOf(p3)).toEqual([6, 7, 8, 9]);
      expect(p3.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const p4 = await page(t, ten, { first: 4, after: p3.pageInfo.endCursor! });
      expect(p4.edges).toEqual([]);
      expect(p4.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: null,
        endCursor: null,
      });
      const all = await page(t, ten, { first: 10 });
      expect(seqsOf(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(all.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      const more = await page(t, ten, { first: 11 });
      expect(more.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
      const nine = await page(t, ten, { first: 9 });
      expect(nine.pageInfo).toMatchObject({ hasNextPage: true });
      // Cursors are stable: the same item has the same cursor on every page.
      expect([...p1.edges, ...p2.edges, ...p3.edges].map((e) => e.cursor)).toEqual(cursors);
    });

    it('last/before from the end and through the start', async () => {
      const p1 = await page(t, ten, { last: 3 });
      expect(seqsOf(p1)).toEqual([7, 8, 9]);
      expect(p1.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: cursors[7],
        endCursor: cursors[9],
      });
      const p2 = await page(t, ten, { last: 3, before: p1.pageInfo.startCursor! });
      expect(seqsOf(p2)).toEqual([4, 5, 6]);
      expect(p2.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: true,
        startCursor: cursors[4],
        endCursor: cursors[6],
      });
      const p3 = await page(t, ten, { last: 5, before: p2.pageInfo.startCursor! });
      expect(seqsOf(p3)).toEqual([0, 1, 2, 3]);
      expect(p3.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const p4 = await page(t, ten, { last: 5, before: cursors[0] });
      expect(p4.edges).toEqual([]);
      expect(p4.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: null,
        endCursor: null,
      });
      expect((await page(t, ten, { last: 10 })).pageInfo).toMatchObject({
        hasNextPage: false,
        hasPreviousPage: false,
      });
      expect((await page(t, ten, { last: 9 })).pageInfo).toMatchObject({ hasPreviousPage: true });
    });

    it('after and before together bound the page on both sides', async () => {
      const c = await page(t, ten, { first: 10, after: cursors[2], before: cursors[7] });
      expect(seqsOf(c)).toEqual([3, 4, 5, 6]);
      expect(c.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const b = await page(t, ten, { last: 2, after: cursors[2], before: cursors[7] });
      expect(seqsOf(b)).toEqual([5, 6]);
      expect(b.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect((await page(t, ten, { after: cursors[5], before: cursors[5] })).edges).toEqual([]);
      expect((await page(t, ten, { after: cursors[5], before: cursors[6] })).edges).toEqual([]);
    });

    it('first: 0 and last: 0 give empty pages; 500 is allowed', async () => {
      const none = await page(t, ten, { first: 0 });
      expect(none.edges).toEqual([]);
      // Like the thread list: the flag in the read direction says whether items exist.
      expect(none.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const noneBack = await page(t, ten, { last: 0 });
      expect(noneBack.edges).toEqual([]);
      expect(noneBack.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
      expect(seqsOf(await page(t, long, { first: 500 }))).toHaveLength(120);
      expect(seqsOf(await page(t, long, { last: 500 }))).toHaveLength(120);
    });

    it('walks 120 items forward in pages of 25, every seq once and in order', async () => {
      const seen: number[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const c = await page(t, long, { first: 25, after });
        pages += 1;
        seen.push(...seqsOf(c));
        expect(c.pageInfo.hasPreviousPage).toBe(pages > 1);
        expect(c.totalCount).toBe(120);
        if (!c.pageInfo.hasNextPage) break;
        after = c.pageInfo.endCursor!;
        expect(pages).toBeLessThan(10);
      }
      expect(pages).toBe(5);
      expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i));
    });

    it('walks 120 items backward in pages of 25, every seq once', async () => {
      const pagesSeen: number[][] = [];
      let before: string | undefined;
      for (;;) {
        const c = await page(t, long, { last: 25, before });
        pagesSeen.push(seqsOf(c));
        expect(c.pageInfo.hasNextPage).toBe(pagesSeen.length > 1);
        if (!c.pageInfo.hasPreviousPage) break;
        before = c.pageInfo.startCursor!;
        expect(pagesSeen.length).toBeLessThan(10);
      }
      expect(pagesSeen).toHaveLength(5);
      expect(pagesSeen[0]).toEqual(Array.from({ length: 25 }, (_, i) => 95 + i));
      expect(pagesSeen.at(-1)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(pagesSeen.reverse().flat()).toEqual(Array.from({ length: 120 }, (_, i) => i));
    });

    it('afterSeq and beforeSeq are exclusive bounds', async () => {
      const a = await page(t, ten, { afterSeq: 5, first: 3 });
      expect(seqsOf(a)).toEqual([6, 7, 8]);
      expect(a.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(a.totalCount).toBe(10);
      const b = await page(t, ten, { beforeSeq: 5, last: 2 });
      expect(seqsOf(b)).toEqual([3, 4]);
      expect(b.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(seqsOf(await page(t, ten, { beforeSeq: 3 }))).toEqual([0, 1, 2]);
      expect(seqsOf(await page(t, ten, { afterSeq: 2, beforeSeq: 6 }))).toEqual([3, 4, 5]);
      expect(seqsOf(await page(t, ten, { afterSeq: 8 }))).toEqual([9]);
      expect(seqsOf(await page(t, ten, { afterSeq: 9 }))).toEqual([]);
      expect(seqsOf(await page(t, ten, { afterSeq: 5, beforeSeq: 6 }))).toEqual([]);
      expect(seqsOf(await page(t, ten, { afterSeq: 6, beforeSeq: 2 }))).toEqual([]);
      expect(seqsOf(await page(t, ten, { beforeSeq: 0 }))).toEqual([]);
      expect(seqsOf(await page(t, ten, { beforeSeq: 1000 }))).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ]);
      const bounded = await page(t, ten, { afterSeq: 2, beforeSeq: 6 });
      expect(bounded.totalCount).toBe(10);
    });

    it('a negative afterSeq means from the first item', async () => {
      for (const afterSeq of [-1, -5, -(2 ** 31)]) {
        const c = await page(t, ten, { afterSeq, first: 2 });
        expect(seqsOf(c)).toEqual([0, 1]);
        expect(c.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      }
      expect(seqsOf(await page(t, ten, { afterSeq: 0, first: 2 }))).toEqual([1, 2]);
    });

    it('with cursors and seq bounds together, the tighter bound wins', async () => {
      expect(seqsOf(await page(t, ten, { after: cursors[2], afterSeq: 5, first: 2 }))).toEqual([
        6, 7,
      ]);
      expect(seqsOf(await page(t, ten, { after: cursors[7], afterSeq: 2, first: 5 }))).toEqual([
        8, 9,
      ]);
      expect(seqsOf(await page(t, ten, { before: cursors[8], beforeSeq: 3 }))).toEqual([0, 1, 2]);
      expect(seqsOf(await page(t, ten, { before: cursors[3], beforeSeq: 8 }))).toEqual([0, 1, 2]);
      expect(seqsOf(await page(t, ten, { after: cursors[1], beforeSeq: 4 }))).toEqual([2, 3]);
      expect(seqsOf(await page(t, ten, { afterSeq: 5, before: cursors[8], last: 5 }))).toEqual([
        6, 7,
      ]);
    });

    describe('types filter', () => {
      let mixed: string;

      beforeAll(async () => {
        // seq % 3 === 0: reasoning, otherwise message; 12 items.
        mixed = await createThread(t);
        await append(
          t,
          mixed,
          Array.from({ length: 12 }, (_, i) =>
            i % 3 === 0 ? { reasoning: { text: `r${i}` } } : message(`m${i}`),
          ),
        );
      });

      it('filters by type; totalCount counts matching items whatever the cursors and bounds', async () => {
        const r = await page(t, mixed, { types: ['reasoning'] });
        expect(seqsOf(r)).toEqual([0, 3, 6, 9]);
        expect(r.totalCount).toBe(4);
        expect(r.edges.every((e) => e.node.__typename === 'ReasoningItem')).toBe(true);
        const m = await page(t, mixed, { types: ['message'], first: 2, afterSeq: 4 });
        expect(seqsOf(m)).toEqual([5, 7]);
        expect(m.totalCount).toBe(8);
        expect(m.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
        const bounded = await page(t, mixed, { types: ['reasoning'], afterSeq: 5, beforeSeq: 7 });
        expect(seqsOf(bounded)).toEqual([6]);
        expect(bounded.totalCount).toBe(4);
        const both = await page(t, mixed, { types: ['reasoning', 'message', 'tool_call'] });
        expect(both.totalCount).toBe(12);
        expect(seqsOf(both)).toHaveLength(12);
        const none = await page(t, mixed, { types: ['tool_call'] });
        expect(none.edges).toEqual([]);
        expect(none.totalCount).toBe(0);
        expect(none.pageInfo).toEqual({
          hasNextPage: false,
          hasPreviousPage: false,
          startCursor: null,
          endCursor: null,
        });
        expect((await page(t, mixed)).totalCount).toBe(12);
      });

      it('pages through the filtered log with cursors', async () => {
        const p1 = await page(t, mixed, { types: ['reasoning'], first: 2 });
        expect(seqsOf(p1)).toEqual([0, 3]);
        expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
        const p2 = await page(t, mixed, {
          types: ['reasoning'],
          first: 2,
          after: p1.pageInfo.endCursor!,
        });
        expect(seqsOf(p2)).toEqual([6, 9]);
        expect(p2.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
        const back = await page(t, mixed, {
          types: ['reasoning'],
          last: 1,
          before: p2.pageInfo.startCursor!,
        });
        expect(seqsOf(back)).toEqual([3]);
        expect(back.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
        // Earlier items exist, but none of this type: nothing before in this connection.
        const messages = await page(t, mixed, { types: ['message'], afterSeq: 0, first: 1 });
        expect(seqsOf(messages)).toEqual([1]);
        expect(messages.pageInfo.hasPreviousPage).toBe(false);
      });
    });

    describe('bad page arguments are BAD_USER_INPUT, never INTERNAL_SERVER_ERROR', () => {
      const bad = async (args: PageArgs, thread = ten): Promise<string> => {
        const error = await pageError(t, thread, args);
        expect(error.code).toBe('BAD_USER_INPUT');
        return error.message;
      };

      it('first or last negative or over 500, or both given', async () => {
        expect(await bad({ first: -1 })).toMatch(/first/);
        expect(await bad({ first: 501 })).toMatch(/first/);
        expect(await bad({ last: -1 })).toMatch(/last/);
        expect(await bad({ last: 501 })).toMatch(/last/);
        expect(await bad({ first: 1, last: 1 })).toMatch(/first.*last|last.*first/);
      });

      it('an empty types list', async () => {
        expect(await bad({ types: [] })).toMatch(/types/);
      });

      it.each<[string, string]>([
        ['garbage', 'not a cursor!'],
        ['empty', ''],
        ['not base64 JSON', 'Zm9v'],
        ['JSON null', rawCursor(null)],
        ['JSON number', rawCursor(5)],
        ['JSON string', rawCursor('abc')],
        ['JSON array', rawCursor([1, 2])],
        ['missing seq', rawCursor({ t: 'x' })],
        ['fractional seq', rawCursor({ t: 'x', s: 1.5 })],
        ['seq as a string', rawCursor({ t: 'x', s: '1' })],
      ])('a malformed cursor (%s)', async (_name, cursor) => {
        expect(await bad({ after: cursor })).toMatch(/after/);
        expect(await bad({ before: cursor, last: 2 })).toMatch(/before/);
      });

      it('a cursor of this thread with a seq no item can have', async () => {
        for (const s of [-1, 2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
          expect(await bad({ after: rawCursor({ t: ten, s }) })).toMatch(/after/);
          expect(await bad({ before: rawCursor({ t: ten, s }) })).toMatch(/before/);
        }
        // The same shape with a real seq is accepted: the checks above are about the seq.
        expect(seqsOf(await page(t, ten, { after: rawCursor({ t: ten, s: 7 }) }))).toEqual([8, 9]);
      });

      it('a cursor of another thread, or of the thread list', async () => {
        const foreign = (await page(t, long, { first: 3 })).edges[1]!.cursor;
        expect(await bad({ after: foreign })).toMatch(/another thread/);
        expect(await bad({ before: foreign })).toMatch(/another thread/);
        const list = await t.execute<{ threads: { edges: { cursor: string }[] } }>(
          'query { threads(first: 1) { edges { cursor } } }',
        );
        const threadCursor = list.threads.edges[0]!.cursor;
        expect(await bad({ after: threadCursor })).toMatch(/after/);
      });
    });
  });

  describe('item, lastItem, counters', () => {
    it('item(threadId, seq): the item, or null when missing', async () => {
      const threadId = await createThread(t);
      await append(t, threadId, [message('zero'), { reasoning: { text: 'one' } }]);
      expect(await getItem(t, threadId, 1)).toMatchObject({
        __typename: 'ReasoningItem',
        id: `${threadId}:1`,
        seq: 1,
        text: 'one',
      });
      expect(await getItem(t, threadId, 0)).toMatchObject({
        __typename: 'MessageItem',
        content: 'zero',
      });
      expect(await getItem(t, threadId, 2)).toBeNull();
      expect(await getItem(t, threadId, -1)).toBeNull();
      expect(await getItem(t, 'unknown-thread', 0)).toBeNull();
      expect(await getItem(t, 'not a valid id', 0)).toBeNull();
    });

    it('node(id) finds an item by "<threadId>:<seq>"; null for a missing or huge seq', async () => {
      const threadId = await createThread(t);
      await append(t, threadId, [message('n0'), message('n1')]);
      const data = await t.execute<{
        nodes: ({ id: string; seq?: number; content?: string } | null)[];
      }>('query($ids: [ID!]!) { nodes(ids: $ids) { id ... on MessageItem { seq content } } }', {
        ids: [`${threadId}:1`, `${threadId}:2`, `${threadId}:99999999999`, `${threadId}:0`],
      });
      expect(data.nodes).toEqual([
        { id: `${threadId}:1`, seq: 1, content: 'n1' },
        null,
        null,
        { id: `${threadId}:0`, seq: 0, content: 'n0' },
      ]);
      const one = await t.execute<{ node: { id: string } | null }>(
        'query($id: ID!) { node(id: $id) { id } }',
        {
          id: `${threadId}:9999999999999999`,
        },
      );
      expect(one.node).toBeNull();
    });

    it('lastItem is the newest item; lastSeq, nextSeq, itemCount follow appends', async () => {
      const threadId = await createThread(t);
      await append(t, threadId, [message('a'), message('b')]);
      let state = await threadState(t, threadId);
      expect(state).toMatchObject({ nextSeq: 2, lastSeq: 1, itemCount: 2 });
      expect(state.lastItem).toMatchObject({ seq: 1, content: 'b', id: `${threadId}:1` });
      await append(t, threadId, [{ terminal: { stream: 'stdout', text: 'done' } }]);
      state = await threadState(t, threadId);
      expect(state).toMatchObject({ nextSeq: 3, lastSeq: 2, itemCount: 3 });
      expect(state.lastItem).toMatchObject({ __typename: 'TerminalItem', seq: 2, text: 'done' });
    });

    it('lastItem over a thread list is right for each thread', async () => {
      const agentId = `preview-${Date.now()}`;
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        const id = await createThread(t, { agentId });
        ids.push(id);
        if (i > 0)
          await append(
            t,
            id,
            Array.from({ length: i }, (_, j) => message(`t${i}-${j}`)),
          );
      }
      const data = await t.execute<{
        threads: {
          edges: { node: { id: string; lastItem: { seq: number; content: string } | null } }[];
        };
      }>(
        `query($agentId: String!) {
          threads(first: 10, filter: { agentId: $agentId }) {
            edges { node { id lastItem { ... on MessageItem { seq content } } } }
          }
        }`,
        { agentId },
      );
      const byId = new Map(data.threads.edges.map((e) => [e.node.id, e.node.lastItem]));
      expect(byId.size).toBe(4);
      expect(byId.get(ids[0]!)).toBeNull();
      expect(byId.get(ids[1]!)).toEqual({ seq: 0, content: 't1-0' });
      expect(byId.get(ids[2]!)).toEqual({ seq: 1, content: 't2-1' });
      expect(byId.get(ids[3]!)).toEqual({ seq: 2, content: 't3-2' });
    });
  });

  describe('purgeItems', () => {
    const purge = async (threadId: string, before: string) =>
      (
        await t.execute<{ purgeItems: { itemsDeleted: number; thread: ThreadOut } }>(PURGE, {
          input: { threadId, before },
        })
      ).purgeItems;

    it('deletes by createdAt, keeps counters and never reuses seqs', async () => {
      const threadId = await createThread(t);
      // seq 4, the newest, has the oldest createdAt.
      await append(t, threadId, [
        { ...message('s0'), createdAt: '2021-01-01T00:00:00.000Z' },
        { ...message('s1'), createdAt: '2021-01-02T00:00:00.000Z' },
        message('s2'),
        { ...message('s3'), createdAt: '2090-01-01T00:00:00.000Z' },
        { ...message('s4'), createdAt: '2001-01-01T00:00:00.000Z' },
      ]);
      const first = await purge(threadId, '2021-01-01T12:00:00.000Z');
      expect(first.itemsDeleted).toBe(2);
      expect(first.thread).toMatchObject({ nextSeq: 5, lastSeq: 4, itemCount: 3 });
      expect(first.thread.lastItem).toMatchObject({ seq: 3, content: 's3' });
      expect(seqsOf(await page(t, threadId))).toEqual([1, 2, 3]);
      expect((await page(t, threadId)).totalCount).toBe(3);
      expect(await getItem(t, threadId, 4)).toBeNull();
      expect(await getItem(t, threadId, 0)).toBeNull();
      const state = await threadState(t, threadId);
      expect(state).toMatchObject({ nextSeq: 5, lastSeq: 4, itemCount: 3 });
      expect(state.lastItem).toMatchObject({ seq: 3 });

      // `before` is exclusive: an item created exactly then stays.
      const none = await purge(threadId, '2021-01-02T00:00:00.000Z');
      expect(none.itemsDeleted).toBe(0);
      expect(none.thread.itemCount).toBe(3);
      // An offset is converted: 2021-01-02T01:00:00+02:00 is 2021-01-01T23:00:00Z.
      expect((await purge(threadId, '2021-01-02T01:00:00.000+02:00')).itemsDeleted).toBe(0);
      expect((await purge(threadId, '2021-01-02T03:00:00.001+02:00')).itemsDeleted).toBe(1);

      expect(await append(t, threadId, [message('s5')])).toEqual([5]);
      expect(await threadState(t, threadId)).toMatchObject({
        nextSeq: 6,
        lastSeq: 5,
        itemCount: 3,
      });
      expect(seqsOf(await page(t, threadId))).toEqual([2, 3, 5]);

      // Paging around the holes.
      const back = await page(t, threadId, { last: 2 });
      expect(seqsOf(back)).toEqual([3, 5]);
      expect(back.pageInfo.hasPreviousPage).toBe(true);
      const fwd = await page(t, threadId, { afterSeq: 1, first: 1 });
      expect(seqsOf(fwd)).toEqual([2]);
      expect(fwd.pageInfo.hasPreviousPage).toBe(false);

      const all = await purge(threadId, '2100-01-01T00:00:00.000Z');
      expect(all.itemsDeleted).toBe(3);
      expect(all.thread).toEqual({
        id: threadId,
        nextSeq: 6,
        lastSeq: 5,
        itemCount: 0,
        lastItem: null,
      });
      const empty = await page(t, threadId);
      expect(empty.edges).toEqual([]);
      expect(empty.totalCount).toBe(0);
      expect(await append(t, threadId, [message('s6')])).toEqual([6]);
      const after = await threadState(t, threadId);
      expect(after).toMatchObject({ nextSeq: 7, lastSeq: 6, itemCount: 1 });
      expect(after.lastItem).toMatchObject({ seq: 6, content: 's6' });
    });

    it('an idempotent retry after a purge does not write again', async () => {
      const threadId = await createThread(t);
      const input = { threadId, items: [message('x')], idempotencyKey: 'purged-key' };
      await appendItems(t, input);
      await purge(threadId, '2100-01-01T00:00:00.000Z');
      const retry = await appendItems(t, input);
      expect(retry.replayed).toBe(true);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 1, itemCount: 0 });
    });

    it('an unknown thread is NOT_FOUND', async () => {
      const error = await t.expectError(PURGE, {
        input: { threadId: 'missing-thread', before: '2100-01-01T00:00:00.000Z' },
      });
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toContain('missing-thread');
    });
  });

  describe('text and JSON round trips', () => {
    const texts = [
      'emoji 😀👩🏽‍💻🏳️‍🌈 and a flag 🇯🇵',
      'CJK 中文 日本語 한국어',
      'Arabic مرحبا بالعالم and Hebrew שלום עולם',
      'combining: e\u0301 a\u0308 n\u0303 Z\u0351\u0352\u0353',
      'nul \u0000 in the middle\u0000',
      '',
      'quotes " \' \\ and newlines\r\n\ttabs',
      '\u2028\u2029 line separators and \uFEFF BOM',
    ];

    const deep = (depth: number): unknown => (depth === 0 ? ['bottom'] : [deep(depth - 1)]);

    const values: unknown[] = [
      { nested: { a: { b: { c: [1, { d: 'e' }] } } }, empty: {}, list: [] },
      { a: null, b: [null, 1, null], c: { d: null } },
      { max: 2 ** 53 - 1, min: -(2 ** 53 - 1), neg: -42, zero: 0 },
      { f1: 0.1, f2: 1e-7, f3: 1.5e300, f4: -2.5, f5: 123456.789 },
      { empty: '', space: ' ', unicode: 'ключ 😀', 'key with \u0000 nul': true, ключ: 'значение' },
      deep(60),
      [1, 'two', true, false, null, { three: 3 }],
      'a plain string',
      42,
      true,
      0,
    ];

    it('message content keeps emoji, CJK, RTL, combining marks and NUL exactly', async () => {
      const threadId = await createThread(t);
      const res = await appendItems(t, { threadId, items: texts.map((text) => message(text)) });
      expect(res.items.map((i) => i.content)).toEqual(texts);
      const read = await page(t, threadId);
      expect(read.edges.map((e) => e.node.content)).toEqual(texts);
      expect(read.edges.map((e) => (e.node.data as { content: string }).content)).toEqual(texts);
      for (const [seq, text] of texts.entries()) {
        expect((await getItem(t, threadId, seq))!.content).toBe(text);
      }
    });

    it('other text fields keep their text too', async () => {
      const threadId = await createThread(t);
      const text = texts.join(' | ');
      const res = await appendItems(t, {
        threadId,
        items: [
          { reasoning: { text } },
          { terminal: { stream: 'stdout', text } },
          { slashCommand: { command: '/say', args: text } },
          { error: { reason: text } },
          { createdBy: '用户 😀', responseId: 'مرحبا', message: { role: 'user', content: text } },
        ],
      });
      const read = (await page(t, threadId)).edges.map((e) => e.node);
      expect(read).toEqual(res.items);
      expect(read[0]!.text).toBe(text);
      expect(read[1]!.text).toBe(text);
      expect(read[2]!.args).toBe(text);
      expect(read[3]!.reason).toBe(text);
      expect(read[4]).toMatchObject({ createdBy: '用户 😀', responseId: 'مرحبا', content: text });
    });

    it('JSON values in toolCall.arguments and other.data round-trip deep-equal', async () => {
      const threadId = await createThread(t);
      const items = values.flatMap((value) => [
        { toolCall: { callId: 'c', name: 'n', arguments: value } },
        { other: { type: 'json_value', data: value } },
      ]);
      const accepted: NewItem[] = items;
      const res = await appendItems(t, { threadId, items: accepted });
      const read = (await page(t, threadId, { first: 100 })).edges.map((e) => e.node);
      expect(read).toEqual(res.items);
      const expected = accepted.map((item) =>
        'toolCall' in item
          ? (item as { toolCall: { arguments: unknown } }).toolCall.arguments
          : (item as { other: { data: unknown } }).other.data,
      );
      const actual = read.map((node) =>
        node.__typename === 'ToolCallItem' ? node.arguments : node.data,
      );
      expect(actual).toEqual(expected);
      // Byte-exact too: the JSON text of what comes back is the JSON text of what went in.
      expect(actual.map((v) => JSON.stringify(v))).toEqual(expected.map((v) => JSON.stringify(v)));
      expect(read.filter((n) => n.__typename === 'OtherItem').at(-1)!.data).toBe(0);
    });

    it('message parts and resourceEvent payload round-trip deep-equal', async () => {
      const threadId = await createThread(t);
      const parts = [
        { type: 'text', text: texts[0] },
        { type: 'data', value: values[3] },
        { type: 'x', v: null },
      ];
      const res = await appendItems(t, {
        threadId,
        items: [
          { message: { role: 'user', parts } },
          { resourceEvent: { kind: 'k', payload: values[1] } },
          { toolResult: { callId: 'c', output: values[2] } },
        ],
      });
      const read = (await page(t, threadId)).edges.map((e) => e.node);
      expect(read).toEqual(res.items);
      expect(read[0]!.parts).toEqual(parts);
      expect(read[1]!.payload).toEqual(values[1]);
      expect(read[2]!.output).toEqual(values[2]);
    });
  });

  describe('SQL statements', () => {
    it('a single-item append without idempotency key takes at most 2 statements', async () => {
      const threadId = await createThread(t);
      await append(t, threadId, [message('warm up')]);
      const { count, log } = await t.countStatements(() =>
        t.execute(
          `mutation($input: AppendItemsInput!) {
            appendItems(input: $input) { items { ... on ConversationItem { seq } } }
          }`,
          { input: { threadId, items: [message('counted')] } },
        ),
      );
      expect(count, log.join('\n')).toBeGreaterThanOrEqual(1);
      expect(count, log.join('\n')).toBeLessThanOrEqual(2);
      expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 2 });
    });

    it('a 50-item history page takes at most 2 statements', async () => {
      const threadId = await createThread(t);
      await append(
        t,
        threadId,
        Array.from({ length: 60 }, (_, i) =>
          i % 2 ? message(`m${i}`) : { reasoning: { text: `r${i}` } },
        ),
      );
      let data: { thread: { items: { edges: { node: { __typename: string } }[] } } } | undefined;
      const { count, log } = await t.countStatements(async () => {
        data = await t.execute(
          'query($id: ID!) { thread(id: $id) { items(first: 50) { edges { node { __typename } } } } }',
          { id: threadId },
        );
      });
      expect(data!.thread.items.edges).toHaveLength(50);
      expect(data!.thread.items.edges[0]!.node.__typename).toBe('ReasoningItem');
      expect(data!.thread.items.edges[1]!.node.__typename).toBe('MessageItem');
      expect(count, log.join('\n')).toBeGreaterThanOrEqual(1);
      expect(count, log.join('\n')).toBeLessThanOrEqual(2);
    });
  });
});

describe('item size limit (MAX_ITEM_BYTES=1000)', () => {
  let t: TestApp;
  let threadId: string;

  beforeAll(async () => {
    t = await buildTestApp({ MAX_ITEM_BYTES: '1000' });
    threadId = await createThread(t);
  });

  afterAll(async () => {
    await t.close();
  });

  const envelope = JSON.stringify({ role: 'user', content: '' }).length;

  it('counts UTF-8 bytes of the data JSON: 1000 passes, 1001 is PAYLOAD_TOO_LARGE', async () => {
    const ok = await appendItems(t, {
      threadId,
      items: [{ message: { role: 'user', content: 'x'.repeat(1000 - envelope) } }],
    });
    expect(ok.items[0]!.seq).toBe(0);
    const error = await appendError(t, {
      threadId,
      items: [{ message: { role: 'user', content: 'x'.repeat(1001 - envelope) } }],
    });
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toMatch(/1001 bytes/);
    // "€" is 3 bytes in UTF-8: 324 fit with the envelope of 28, 325 do not.
    expect(envelope + 3 * 324).toBe(1000);
    expect(
      (
        await appendItems(t, {
          threadId,
          items: [{ message: { role: 'user', content: '€'.repeat(324) } }],
        })
      ).items,
    ).toHaveLength(1);
    expect(
      (
        await appendError(t, {
          threadId,
          items: [{ message: { role: 'user', content: '€'.repeat(325) } }],
        })
      ).code,
    ).toBe('PAYLOAD_TOO_LARGE');
    expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 2, itemCount: 2 });
  });

  it('applies to every item type and fails the whole batch', async () => {
    const big = 'y'.repeat(1200);
    for (const bad of [
      { toolCall: { callId: 'c', name: 'n', arguments: { big } } },
      { toolResult: { callId: 'c', output: big } },
      { reasoning: { text: big } },
      { other: { type: 'blob', data: [big] } },
      { resourceEvent: { kind: 'k', payload: { big } } },
      { terminal: { stream: 'stdout', text: big } },
    ]) {
      const error = await appendError(t, {
        threadId,
        items: [message('fine'), bad, message('fine too')],
      });
      expect(error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(error.message).toContain('items[1]');
    }
    expect(await threadState(t, threadId)).toMatchObject({ nextSeq: 2, itemCount: 2 });
  });
});
