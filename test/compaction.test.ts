/**
 * Compaction through the GraphQL endpoint: addCompaction (record, marker, range and tool-pairing
 * rules), clearCompactions, Thread.compactions and Thread.context, and purges under records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { append, createThread, message } from './testkit/seed.js';

let t: TestApp;

/** A small item limit, so the summary size rule can be tested with small strings. */
const MAX_ITEM_BYTES = 2048;

beforeAll(async () => {
  t = await buildTestApp({ MAX_ITEM_BYTES: String(MAX_ITEM_BYTES) });
});

afterAll(async () => {
  await t?.close();
});

const OLD = '2000-01-01T00:00:00.000Z';
const PURGE_BEFORE = '2001-01-01T00:00:00.000Z';

const ADD_COMPACTION = `mutation($input: AddCompactionInput!) {
  addCompaction(input: $input) {
    compaction { id threadId startSeq endSeq summary createdAt createdBy markerSeq }
    marker {
      __typename id threadId seq type status createdAt createdBy data summary startSeq endSeq
    }
    thread {
      id nextSeq lastSeq itemCount updatedAt
      compactions { id startSeq endSeq }
      lastItem { ... on ConversationItem { seq type } }
    }
  }
}`;

const CLEAR_COMPACTIONS = `mutation($input: ClearCompactionsInput!) {
  clearCompactions(input: $input) {
    compactionsDeleted
    thread { id updatedAt compactions { id } }
  }
}`;

const STATE = `query($id: ID!) {
  thread(id: $id) {
    nextSeq lastSeq itemCount updatedAt
    items(first: 500) { edges { node { ... on ConversationItem { seq type } } } }
    compactions { id threadId startSeq endSeq summary markerSeq createdBy createdAt }
    context {
      __typename
      ... on CompactionRecord { startSeq endSeq summary }
      ... on ConversationItem { seq type }
    }
  }
}`;

interface RecordData {
  id: string;
  threadId: string;
  startSeq: number;
  endSeq: number;
  summary: string;
  markerSeq: number;
  createdBy: string | null;
  createdAt: string;
}

interface ContextEntry {
  __typename: string;
  startSeq?: number;
  endSeq?: number;
  summary?: string;
  seq?: number;
  type?: string;
}

interface ThreadState {
  nextSeq: number;
  lastSeq: number | null;
  itemCount: number;
  updatedAt: string;
  items: { edges: { node: { seq: number; type: string } }[] };
  compactions: RecordData[];
  context: ContextEntry[];
}

async function state(threadId: string): Promise<ThreadState> {
  const data = await t.execute<{ thread: ThreadState }>(STATE, { id: threadId });
  return data.thread;
}

/** The thread's items as "<seq>:<type>". */
function itemsOf(s: ThreadState): string[] {
  return s.items.edges.map((e) => `${e.node.seq}:${e.node.type}`);
}

/** The thread's context as "<start>-<end>" for records and the seq for items. */
function contextOf(s: ThreadState): string[] {
  return s.context.map((e) =>
    e.__typename === 'CompactionRecord' ? `${e.startSeq}-${e.endSeq}` : String(e.seq),
  );
}

async function addCompaction(
  threadId: string,
  startSeq: number,
  endSeq: number,
  extra: { summary?: string; createdBy?: string } = {},
) {
  const data = await t.execute(ADD_COMPACTION, {
    input: {
      threadId,
      startSeq,
      endSeq,
      summary: extra.summary ?? `summary ${startSeq}-${endSeq}`,
      ...extra,
    },
  });
  return data.addCompaction as {
    compaction: RecordData;
    marker: {
      __typename: string;
      id: string;
      threadId: string;
      seq: number;
      type: string;
      status: string;
      createdAt: string;
      createdBy: string | null;
      data: unknown;
      summary: string;
      startSeq: number;
      endSeq: number;
    };
    thread: {
      id: string;
      nextSeq: number;
      lastSeq: number | null;
      itemCount: number;
      updatedAt: string;
      compactions: { id: string; startSeq: number; endSeq: number }[];
      lastItem: { seq: number; type: string } | null;
    };
  };
}

/**
 * Asserts that addCompaction fails with `code` and writes nothing (same counters, items,
 * records and updatedAt as before). Returns the error message.
 */
async function expectRejected(
  threadId: string,
  startSeq: number,
  endSeq: number,
  code: string,
  extra: { summary?: string; createdBy?: string } = {},
): Promise<string> {
  const before = await state(threadId);
  const error = await t.expectError(ADD_COMPACTION, {
    input: { threadId, startSeq, endSeq, summary: 'should not be written', ...extra },
  });
  expect(error.code, `${startSeq}..${endSeq}: ${error.message}`).toBe(code);
  const after = await state(threadId);
  expect(after).toEqual(before);
  return error.message;
}

const toolCall = (callId: string, name = 'search'): { toolCall: unknown } => ({
  toolCall: { callId, name, arguments: { q: callId } },
});
const toolResult = (callId: string): { toolResult: unknown } => ({
  toolResult: { callId, output: 'ok' },
});

/** Creates a thread holding `n` messages (seqs 0..n-1). */
async function threadWithMessages(n: number): Promise<string> {
  const id = await createThread(t);
  if (n > 0)
    await append(
      t,
      id,
      Array.from({ length: n }, (_, i) => message(`m${i}`)),
    );
  return id;
}

/** Purges the thread's items created before PURGE_BEFORE; returns how many were deleted. */
async function purge(threadId: string): Promise<number> {
  const data = await t.execute<{ purgeItems: { itemsDeleted: number } }>(
    'mutation($input: PurgeItemsInput!) { purgeItems(input: $input) { itemsDeleted } }',
    { input: { threadId, before: PURGE_BEFORE } },
  );
  return data.purgeItems.itemsDeleted;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('addCompaction', () => {
  it('writes a record and a marker at the next seq, and bumps nextSeq and updatedAt', async () => {
    const id = await threadWithMessages(3);
    const before = await state(id);
    expect(before.nextSeq).toBe(3);
    await sleep(5);

    const payload = await addCompaction(id, 0, 1, {
      summary: 'The user said hi twice.',
      createdBy: 'robot-1',
    });

    const { compaction, marker, thread } = payload;
    expect(compaction).toEqual({
      id: `${id}:compaction:3`,
      threadId: id,
      startSeq: 0,
      endSeq: 1,
      summary: 'The user said hi twice.',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      createdBy: 'robot-1',
      markerSeq: 3,
    });
    expect(Date.parse(compaction.createdAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(marker).toEqual({
      __typename: 'CompactionItem',
      id: `${id}:3`,
      threadId: id,
      seq: 3,
      type: 'compaction',
      status: 'COMPLETED',
      createdAt: compaction.createdAt,
      createdBy: 'robot-1',
      data: { summary: 'The user said hi twice.', startSeq: 0, endSeq: 1 },
      summary: 'The user said hi twice.',
      startSeq: 0,
      endSeq: 1,
    });
    expect(thread).toEqual({
      id,
      nextSeq: 4,
      lastSeq: 3,
      itemCount: 4,
      updatedAt: compaction.createdAt,
      compactions: [{ id: compaction.id, startSeq: 0, endSeq: 1 }],
      lastItem: { seq: 3, type: 'compaction' },
    });

    const after = await state(id);
    expect(after.nextSeq).toBe(4);
    expect(after.updatedAt).toBe(compaction.createdAt);
    expect(itemsOf(after)).toEqual(['0:message', '1:message', '2:message', '3:compaction']);
    expect(after.compactions).toEqual([compaction]);
    expect(contextOf(after)).toEqual(['0-1', '2']);
    expect(after.context[0]).toEqual({
      __typename: 'CompactionRecord',
      startSeq: 0,
      endSeq: 1,
      summary: 'The user said hi twice.',
    });

    // The next append lands after the marker.
    expect(await append(t, id, [message('after')])).toEqual([4]);
  });

  it('resolves CompactionRecord.id and the marker id with node(id)', async () => {
    const id = await threadWithMessages(2);
    const { compaction, marker } = await addCompaction(id, 0, 1, { summary: 'node test' });
    const data = await t.execute<{ record: unknown; marker: unknown; missing: unknown }>(
      `query($rid: ID!, $mid: ID!, $missing: ID!) {
        record: node(id: $rid) {
          __typename id
          ... on CompactionRecord { threadId startSeq endSeq summary markerSeq createdAt createdBy }
        }
        marker: node(id: $mid) { __typename id ... on CompactionItem { seq summary } }
        missing: node(id: $missing) { id }
      }`,
      { rid: compaction.id, mid: marker.id, missing: `${id}:compaction:0` },
    );
    expect(data.record).toEqual({ __typename: 'CompactionRecord', ...compaction });
    expect(data.marker).toEqual({
      __typename: 'CompactionItem',
      id: `${id}:2`,
      seq: 2,
      summary: 'node test',
    });
    expect(data.missing).toBeNull();
  });

  it('leaves createdBy null when not given', async () => {
    const id = await threadWithMessages(1);
    const { compaction, marker } = await addCompaction(id, 0, 0);
    expect(compaction.createdBy).toBeNull();
    expect(marker.createdBy).toBeNull();
  });
});

describe('addCompaction input limits', () => {
  it('holds the marker data, summary and range, to the item size limit', async () => {
    const id = await threadWithMessages(1);
    // {"summary":"<n chars>","startSeq":0,"endSeq":0} is n + 38 bytes.
    const overhead = JSON.stringify({ summary: '', startSeq: 0, endSeq: 0 }).length;
    expect(overhead).toBe(38);
    const msg = await expectRejected(id, 0, 0, 'PAYLOAD_TOO_LARGE', {
      summary: 'x'.repeat(MAX_ITEM_BYTES - overhead + 1),
    });
    expect(msg).toContain(String(MAX_ITEM_BYTES));
    const { marker } = await addCompaction(id, 0, 0, {
      summary: 'x'.repeat(MAX_ITEM_BYTES - overhead),
    });
    expect(JSON.stringify(marker.data)).toHaveLength(MAX_ITEM_BYTES);
  });

  it('holds createdBy to 256 characters, as appended items are', async () => {
    const id = await threadWithMessages(1);
    const msg = await expectRejected(id, 0, 0, 'BAD_USER_INPUT', { createdBy: 'r'.repeat(257) });
    expect(msg).toMatch(/createdBy/);
    const { compaction, marker } = await addCompaction(id, 0, 0, { createdBy: 'r'.repeat(256) });
    expect(compaction.createdBy).toHaveLength(256);
    expect(marker.createdBy).toBe(compaction.createdBy);
  });
});

describe('addCompaction range rules', () => {
  it('rejects a reversed range, a negative start and an end past lastSeq', async () => {
    const id = await threadWithMessages(5);
    expect(await expectRejected(id, 3, 2, 'BAD_USER_INPUT')).toMatch(/revers/i);
    expect(await expectRejected(id, -1, 2, 'BAD_USER_INPUT')).toMatch(/startSeq/);
    expect(await expectRejected(id, 0, 5, 'BAD_USER_INPUT')).toMatch(/4/);
    expect(await expectRejected(id, 5, 5, 'BAD_USER_INPUT')).toMatch(/last seq/);
    // The last item itself is fine.
    const { compaction } = await addCompaction(id, 4, 4);
    expect(compaction).toMatchObject({ startSeq: 4, endSeq: 4, markerSeq: 5 });
  });

  it('rejects any range on a thread with no items', async () => {
    const id = await threadWithMessages(0);
    await expectRejected(id, 0, 0, 'BAD_USER_INPUT');
  });

  it('rejects an unknown thread with NOT_FOUND', async () => {
    const error = await t.expectError(ADD_COMPACTION, {
      input: { threadId: 'no-such-thread', startSeq: 0, endSeq: 0, summary: 's' },
    });
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('no-such-thread');
  });

  it('rejects a range holding only a marker, only purged items, or both', async () => {
    const id = await createThread(t);
    // New items at 0, 1, 3, 4 and 8; old ones (to purge) at 2, 6 and 7; a marker at 5.
    await append(t, id, [message('m0'), message('m1')]);
    await append(t, id, [{ ...message('old2'), createdAt: OLD }]);
    await append(t, id, [message('m3'), message('m4')]);
    await addCompaction(id, 0, 0); // marker at 5
    await append(t, id, [
      { ...message('old6'), createdAt: OLD },
      { ...message('old7'), createdAt: OLD },
    ]);
    await append(t, id, [message('m8')]);

    expect(await purge(id)).toBe(3);
    expect(itemsOf(await state(id))).toEqual([
      '0:message',
      '1:message',
      '3:message',
      '4:message',
      '5:compaction',
      '8:message',
    ]);

    expect(await expectRejected(id, 5, 5, 'BAD_USER_INPUT')).toMatch(/no stored item/);
    expect(await expectRejected(id, 2, 2, 'BAD_USER_INPUT')).toMatch(/no stored item/);
    expect(await expectRejected(id, 6, 7, 'BAD_USER_INPUT')).toMatch(/no stored item/);
    expect(await expectRejected(id, 5, 7, 'BAD_USER_INPUT')).toMatch(/no stored item/);
    // With one stored item in it, a range over purged items and a marker is fine.
    const { compaction } = await addCompaction(id, 5, 8);
    expect(compaction).toMatchObject({ startSeq: 5, endSeq: 8, markerSeq: 9 });
    expect(contextOf(await state(id))).toEqual(['0-0', '1', '3', '4', '5-8']);
  });

  it('rejects overlap with a record with CONFLICT and accepts adjacent ranges', async () => {
    const id = await threadWithMessages(12);
    await addCompaction(id, 4, 6); // marker at 12
    const overlapping: [number, number][] = [
      [2, 5], // partial, from the left
      [5, 9], // partial, from the right
      [5, 5], // contained
      [4, 6], // the same range
      [3, 8], // containing
      [0, 4], // touching the first seq
      [6, 7], // touching the last seq
    ];
    for (const [start, end] of overlapping) {
      const message = await expectRejected(id, start, end, 'CONFLICT');
      expect(message).toContain('4..6');
    }
    await addCompaction(id, 0, 3);
    await addCompaction(id, 7, 8);
    const s = await state(id);
    expect(s.compactions.map((c) => [c.startSeq, c.endSeq, c.markerSeq])).toEqual([
      [0, 3, 13],
      [4, 6, 12],
      [7, 8, 14],
    ]);
    expect(contextOf(s)).toEqual(['0-3', '4-6', '7-8', '9', '10', '11']);
  });
});

describe('addCompaction and tool pairing', () => {
  it('rejects a range that separates a call from its result, naming both seqs', async () => {
    const id = await createThread(t);
    await append(t, id, [message('m0'), toolCall('c1'), toolResult('c1'), message('m3')]);
    // Call inside, result outside.
    let msg = await expectRejected(id, 0, 1, 'BAD_USER_INPUT');
    expect(msg).toMatch(/seq 1\b/);
    expect(msg).toMatch(/seq 2\b/);
    // Result inside, call outside.
    msg = await expectRejected(id, 2, 3, 'BAD_USER_INPUT');
    expect(msg).toMatch(/seq 1\b/);
    expect(msg).toMatch(/seq 2\b/);
    // Both inside, or both outside.
    await addCompaction(id, 1, 2);
    await addCompaction(id, 3, 3);
    expect(contextOf(await state(id))).toEqual(['0', '1-2', '3-3']);
  });

  it('treats a call with no result yet as no pair', async () => {
    const id = await createThread(t);
    await append(t, id, [message('m0'), toolCall('open')]);
    const { compaction } = await addCompaction(id, 0, 1);
    expect(compaction).toMatchObject({ startSeq: 0, endSeq: 1 });
  });

  it('pairs re-used callIds call by call: [call A, result A, call A, result A]', async () => {
    const id = await createThread(t);
    await append(t, id, [toolCall('A'), toolResult('A'), toolCall('A'), toolResult('A')]);
    const msg = await expectRejected(id, 1, 2, 'BAD_USER_INPUT');
    expect(msg).toMatch(/seq 0\b/);
    expect(msg).toMatch(/seq 1\b/);
    await expectRejected(id, 0, 2, 'BAD_USER_INPUT');
    await expectRejected(id, 1, 3, 'BAD_USER_INPUT');
    await addCompaction(id, 0, 1);
    await addCompaction(id, 2, 3);
    expect(contextOf(await state(id))).toEqual(['0-1', '2-3']);
  });

  it('pairs nested re-use with the nearest open call: [A, A, result A, result A]', async () => {
    const items = [toolCall('A'), toolCall('A'), toolResult('A'), toolResult('A')];
    const id = await createThread(t);
    await append(t, id, items);
    // 0 pairs with 3, 1 with 2.
    const msg = await expectRejected(id, 0, 2, 'BAD_USER_INPUT');
    expect(msg).toMatch(/seq 0\b/);
    expect(msg).toMatch(/seq 3\b/);
    await expectRejected(id, 1, 1, 'BAD_USER_INPUT');
    await expectRejected(id, 2, 3, 'BAD_USER_INPUT');
    await addCompaction(id, 1, 2);

    const whole = await createThread(t);
    await append(t, whole, items);
    await addCompaction(whole, 0, 3);
    expect(contextOf(await state(whole))).toEqual(['0-3']);
  });

  it('pairs parallel calls by callId: [call A, call B, result B, result A]', async () => {
    const items = [toolCall('A'), toolCall('B'), toolResult('B'), toolResult('A')];
    const id = await createThread(t);
    await append(t, id, items);
    const msg = await expectRejected(id, 0, 2, 'BAD_USER_INPUT');
    expect(msg).toMatch(/seq 0\b/);
    expect(msg).toMatch(/seq 3\b/);
    await expectRejected(id, 1, 3, 'BAD_USER_INPUT');
    await expectRejected(id, 0, 1, 'BAD_USER_INPUT');
    await addCompaction(id, 1, 2);

    const whole = await createThread(t);
    await append(t, whole, items);
    await addCompaction(whole, 0, 3);
    expect(contextOf(await state(whole))).toEqual(['0-3']);
  });
});

describe('Thread.context and clearCompactions', () => {
  it('equals every item except markers when there are no records', async () => {
    const id = await createThread(t);
    await append(t, id, [
      message('m0'),
      toolCall('x'),
      toolResult('x'),
      { reasoning: { text: 'hm' } },
    ]);
    const s = await state(id);
    expect(s.compactions).toEqual([]);
    expect(s.context).toEqual([
      { __typename: 'MessageItem', seq: 0, type: 'message' },
      { __typename: 'ToolCallItem', seq: 1, type: 'tool_call' },
      { __typename: 'ToolResultItem', seq: 2, type: 'tool_result' },
      { __typename: 'ReasoningItem', seq: 3, type: 'reasoning' },
    ]);
  });

  it('interleaves two records with the items between and after them', async () => {
    const id = await threadWithMessages(10);
    // Added out of order: markerSeq order differs from startSeq order.
    await addCompaction(id, 5, 7, { summary: 'second' }); // marker 10
    await addCompaction(id, 1, 2, { summary: 'first' }); // marker 11
    await append(t, id, [message('m12')]);

    const s = await state(id);
    expect(s.compactions.map((c) => [c.startSeq, c.endSeq, c.markerSeq, c.summary])).toEqual([
      [1, 2, 11, 'first'],
      [5, 7, 10, 'second'],
    ]);
    expect(contextOf(s)).toEqual(['0', '1-2', '3', '4', '5-7', '8', '9', '12']);
    expect(s.context[1]).toEqual({
      __typename: 'CompactionRecord',
      startSeq: 1,
      endSeq: 2,
      summary: 'first',
    });
    expect(s.context.filter((e) => e.type === 'compaction')).toEqual([]);

    // The context costs a small, constant number of statements.
    const { count, log } = await t.countStatements(() =>
      t.execute(`query($id: ID!) { thread(id: $id) { context { __typename } } }`, { id }),
    );
    expect(count, log.join('\n')).toBeGreaterThan(0);
    expect(count, log.join('\n')).toBeLessThanOrEqual(3);

    // clearCompactions deletes the records; the markers stay in the log.
    const beforeClear = s.updatedAt;
    await sleep(5);
    const cleared = await t.execute<{
      clearCompactions: {
        compactionsDeleted: number;
        thread: { id: string; updatedAt: string; compactions: unknown[] };
      };
    }>(CLEAR_COMPACTIONS, { input: { threadId: id } });
    expect(cleared.clearCompactions.compactionsDeleted).toBe(2);
    expect(cleared.clearCompactions.thread.id).toBe(id);
    expect(cleared.clearCompactions.thread.compactions).toEqual([]);
    const clearedAt = Date.parse(cleared.clearCompactions.thread.updatedAt);
    expect(clearedAt).toBeGreaterThan(Date.parse(beforeClear));

    const after = await state(id);
    expect(after.compactions).toEqual([]);
    expect(after.nextSeq).toBe(13);
    expect(itemsOf(after)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `${i}:message`),
      '10:compaction',
      '11:compaction',
      '12:message',
    ]);
    expect(contextOf(after)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '12']);
    expect(after.context.every((e) => e.__typename === 'MessageItem')).toBe(true);

    // A second clear deletes nothing; the old ranges can be compacted again.
    const again = await t.execute<{ clearCompactions: { compactionsDeleted: number } }>(
      CLEAR_COMPACTIONS,
      { input: { threadId: id } },
    );
    expect(again.clearCompactions.compactionsDeleted).toBe(0);
    const { compaction } = await addCompaction(id, 0, 9);
    expect(compaction.markerSeq).toBe(13);
    expect(contextOf(await state(id))).toEqual(['0-9', '12']);
  });

  it('rejects clearCompactions on an unknown thread with NOT_FOUND', async () => {
    const error = await t.expectError(CLEAR_COMPACTIONS, { input: { threadId: 'no-such-thread' } });
    expect(error.code).toBe('NOT_FOUND');
  });

  it('keeps a record after the purge of the items it covers', async () => {
    const id = await createThread(t);
    await append(t, id, [
      { ...message('old0'), createdAt: OLD },
      { ...message('old1'), createdAt: OLD },
      { ...toolCall('p'), createdAt: OLD },
      { ...toolResult('p'), createdAt: OLD },
    ]);
    await append(t, id, [message('m4')]);
    const { compaction } = await addCompaction(id, 0, 3, { summary: 'old stuff' }); // marker 5

    expect(await purge(id)).toBe(4);

    const s = await state(id);
    expect(itemsOf(s)).toEqual(['4:message', '5:compaction']);
    expect(s.compactions).toEqual([compaction]);
    expect(s.context).toEqual([
      { __typename: 'CompactionRecord', startSeq: 0, endSeq: 3, summary: 'old stuff' },
      { __typename: 'MessageItem', seq: 4, type: 'message' },
    ]);
    const node = await t.execute<{ node: { id: string } | null }>(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: compaction.id },
    );
    expect(node.node).toEqual({ id: compaction.id });
    // The purged range is still covered.
    await expectRejected(id, 1, 2, 'CONFLICT');
  });
});
