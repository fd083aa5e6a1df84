/**
 * Unchecked input of transcripts (issue 11 review): a transcript sent with the wrong format, a
 * raw that is not of its rawFormat, compaction records that separate a tool pair or cut a
 * response apart (addCompaction, dump restores), size errors that name the source record, and
 * the size rule for data and raw. Through the importTranscript mutation, appendItems,
 * addCompaction and `npm run import` (a real process); every refusal writes nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { runToExit } from './testkit/process.js';
import { type Cassettes, sources } from './transcripts-sources.js';

type Obj = Record<string, unknown>;

const IMPORT = `mutation($input: ImportTranscriptInput!) {
  importTranscript(input: $input) { itemsImported compactionsImported thread { id } }
}`;
const APPEND = `mutation($input: AppendItemsInput!) {
  appendItems(input: $input) { items { ... on ConversationItem { seq } } }
}`;
const COMPACT = `mutation($input: AddCompactionInput!) {
  addCompaction(input: $input) { compaction { startSeq endSeq } }
}`;

/** The first Anthropic exchange with a tool_use, as a messages array (request, then response). */
function anthropicWithTools(): Obj[] {
  const ant = sources().find((s) => s.format === 'ANTHROPIC_MESSAGES')!.value as Cassettes;
  const exchange = ant.cassettes
    .flatMap((c) => c.interactions)
    .find((x) => JSON.stringify(x).includes('"tool_use"'))!;
  return [...(exchange.request_body.messages as Obj[]), exchange.response_body];
}

/** A 600 KB tool output in an OpenAI Chat conversation (one tool pair). */
function bigToolOutput(): Obj[] {
  return [
    { role: 'user', content: 'read the log' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"f":"log"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'x'.repeat(600_000) },
  ];
}

describe('transcript input checks', () => {
  let t: TestApp;
  const threadCount = async () =>
    (
      await t.execute<{ threads: { totalCount: number } }>(
        '{ threads(filter: { includeArchived: true }) { totalCount } }',
      )
    ).threads.totalCount;
  const importPiece = (input: Obj, app: TestApp = t) =>
    app.request<{ importTranscript: { itemsImported: number; thread: { id: string } } }>(IMPORT, {
      input: { agentId: 'input-checks', ...input },
    });
  const newThread = async () =>
    (
      await t.execute<{ createThread: { thread: { id: string } } }>(
        'mutation { createThread(input: { agentId: "input-checks" }) { thread { id } } }',
      )
    ).createThread.thread.id;

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a transcript of another format, naming the record and the format it looks like', async () => {
    const before = await threadCount();
    const messages = anthropicWithTools();
    const asChat = await importPiece({ format: 'OPENAI_CHAT', transcript: messages });
    expect(asChat.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(asChat.errors?.[0]?.message).toMatch(
      /^transcript: \[\d+\]: not a record of OPENAI_CHAT: content\[\d+\] has type "(thinking|tool_use|tool_result)", an Anthropic type; it looks like ANTHROPIC_MESSAGES\.$/,
    );
    const asResponses = await importPiece({ format: 'OPENAI_RESPONSES', transcript: messages });
    expect(asResponses.errors?.[0]?.message).toMatch(
      /^transcript: \[\d+\]: not a record of OPENAI_RESPONSES: .*it looks like ANTHROPIC_MESSAGES\.$/,
    );

    const tau = (sources().find((s) => s.file === 'tau-bench')!.value as { traj: Obj[] }[])[0]!;
    const chatAsAnthropic = await importPiece({
      format: 'ANTHROPIC_MESSAGES',
      transcript: tau.traj,
    });
    expect(chatAsAnthropic.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(chatAsAnthropic.errors?.[0]?.message).toBe(
      'transcript: messages[0]: not a record of ANTHROPIC_MESSAGES: role "system" is not one of user, assistant; it looks like OPENAI_CHAT.',
    );
    const chatAsResponses = await importPiece({ format: 'OPENAI_RESPONSES', transcript: tau.traj });
    expect(chatAsResponses.errors?.[0]?.message).toMatch(
      /^transcript: \[\d+\]: not a record of OPENAI_RESPONSES: a Responses item carries tool calls as function_call items, not "tool_calls"\/"tool_call_id"; it looks like OPENAI_CHAT\.$/,
    );
    const cc = sources().find((s) => s.format === 'CLAUDE_CODE_JSONL')!.value as Obj[];
    const ccAsResponses = await importPiece({ format: 'OPENAI_RESPONSES', transcript: cc });
    expect(ccAsResponses.errors?.[0]?.message).toMatch(
      /^transcript: \[0\]: not a record of OPENAI_RESPONSES: type "[a-z-]+" is a Claude Code line type; it looks like CLAUDE_CODE_JSONL\.$/,
    );
    expect(await threadCount()).toBe(before);

    // What the format does not know but cannot mistake is kept in raw.
    const extra = { role: 'user', content: 'hi', x_trace: { id: 7 } };
    const ok = await importPiece({ format: 'OPENAI_CHAT', transcript: [extra] });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.importTranscript.itemsImported).toBe(1);
  });

  it('refuses a raw that is not a record of its rawFormat on appendItems', async () => {
    const id = await newThread();
    const message = { role: 'user', content: 'hi' };
    const append = (raw: unknown, rawFormat: string) =>
      t.request(APPEND, { input: { threadId: id, items: [{ message, raw, rawFormat }] } });

    const tool = { role: 'tool', tool_call_id: 'c1', content: 'out' };
    const wrong = await append(tool, 'ANTHROPIC_MESSAGES');
    expect(wrong.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(wrong.errors?.[0]?.message).toBe(
      'items[0].raw is not a record of ANTHROPIC_MESSAGES: an Anthropic message carries tool calls as content blocks, not "tool_calls"/"tool_call_id". Send the source record as the format has it (or leave raw and rawFormat out).',
    );
    const block = { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} };
    const blockAsChat = await append(block, 'OPENAI_CHAT');
    expect(blockAsChat.errors?.[0]?.message).toMatch(
      /^items\[0\]\.raw is not a record of OPENAI_CHAT: a message needs a "role"/,
    );
    const notObject = await append('hello', 'OPENAI_RESPONSES');
    expect(notObject.errors?.[0]?.message).toMatch(
      /^items\[0\]\.raw is not a record of OPENAI_RESPONSES: a record must be a JSON object/,
    );
    const items = await t.execute<{ thread: { itemCount: number } }>(
      'query($id: ID!) { thread(id: $id) { itemCount } }',
      { id },
    );
    expect(items.thread.itemCount).toBe(0);

    // A whole record, a split record's envelope and one of its blocks are all raws of the format.
    for (const [raw, format] of [
      [tool, 'OPENAI_CHAT'],
      [block, 'ANTHROPIC_MESSAGES'],
      [{ record: { role: 'assistant', content: 2 }, block }, 'ANTHROPIC_MESSAGES'],
      [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }, 'OPENAI_RESPONSES'],
    ] as const) {
      const ok = await append(raw, format);
      expect(ok.errors, JSON.stringify(raw)).toBeUndefined();
    }
  });

  it('refuses an addCompaction range that cuts a response apart', async () => {
    const id = await newThread();
    const r1 = { responseId: 'msg_01' };
    await t.execute(APPEND, {
      input: {
        threadId: id,
        items: [
          { message: { role: 'user', content: 'weather?' } },
          { ...r1, reasoning: { text: 'look it up', signature: 'c2ln' } },
          { ...r1, message: { role: 'assistant', content: 'Checking.' } },
          { ...r1, toolCall: { callId: 'toolu_1', name: 'weather', arguments: {} } },
          { toolResult: { callId: 'toolu_1', output: 'sunny' } },
          { message: { role: 'assistant', content: 'Sunny.' } },
        ],
      },
    });
    const compact = (startSeq: number, endSeq: number) =>
      t.request(COMPACT, { input: { threadId: id, startSeq, endSeq, summary: 's' } });
    const cut = await compact(0, 1);
    expect(cut.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(cut.errors?.[0]?.message).toBe(
      `The range 0..1 cuts response "msg_01" apart (its item at seq 1 inside, at seq 2 outside); a provider refuses a replayed response missing some of its items (Anthropic: thinking without its text and tool_use). Include all of the response's items or none.`,
    );
    expect(cut.errors?.[0]?.extensions).toMatchObject({
      responseId: 'msg_01',
      insideSeq: 1,
      outsideSeq: 2,
    });
    const cutEnd = await compact(2, 5);
    expect(cutEnd.errors?.[0]?.message).toMatch(/^The range 2\.\.5 cuts response "msg_01" apart/);
    const read = await t.execute<{ thread: { compactions: Obj[]; nextSeq: number } }>(
      'query($id: ID!) { thread(id: $id) { nextSeq compactions { startSeq } } }',
      { id },
    );
    expect(read.thread).toEqual({ nextSeq: 6, compactions: [] });
    const whole = await compact(0, 4);
    expect(whole.errors).toBeUndefined();
  });

  it('refuses a dump whose compaction record separates a tool call from its result or cuts a response', async () => {
    const before = await threadCount();
    const at = (seq: number) => `2025-01-02T03:04:0${seq}.000Z`;
    const item = (seq: number, type: string, data: Obj, responseId: string | null = null) => ({
      kind: 'item',
      seq,
      type,
      status: 'COMPLETED',
      responseId,
      createdAt: at(seq),
      createdBy: null,
      data,
      raw: null,
      rawFormat: null,
    });
    const dump = (id: string, records: [number, number][], responseId: string | null) => [
      {
        kind: 'thread',
        version: 1,
        id,
        agentId: 'dumper',
        name: null,
        archived: false,
        metadata: {},
        createdAt: at(0),
        updatedAt: at(9),
        nextSeq: 3 + records.length,
      },
      item(0, 'tool_call', { callId: 'c1', name: 'f', arguments: {} }, responseId),
      item(1, 'tool_result', { callId: 'c1', output: 'ok', isError: false }),
      item(2, 'message', { role: 'assistant', content: 'done' }, responseId),
      ...records.map(([startSeq, endSeq], i) =>
        item(3 + i, 'compaction', { summary: 's', startSeq, endSeq }),
      ),
      ...records.map(([startSeq, endSeq], i) => ({
        kind: 'compaction',
        startSeq,
        endSeq,
        summary: 's',
        createdAt: at(3 + i),
        createdBy: null,
        markerSeq: 3 + i,
      })),
    ];
    const split = await importPiece({
      format: 'THREADSTORE_JSONL',
      agentId: 'dumper',
      transcript: dump('dump-split-pair', [[0, 0]], null),
    });
    expect(split.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(split.errors?.[0]?.message).toBe(
      'transcript: line 6: The range 0..0 separates the tool call at seq 0 from its result at seq 1; include both or neither.',
    );
    const cut = await importPiece({
      format: 'THREADSTORE_JSONL',
      agentId: 'dumper',
      transcript: dump('dump-cut-response', [[0, 1]], 'msg_9'),
    });
    expect(cut.errors?.[0]?.message).toMatch(
      /^transcript: line 6: The range 0\.\.1 cuts response "msg_9" apart/,
    );
    expect(await threadCount()).toBe(before);
    const ok = await importPiece({
      format: 'THREADSTORE_JSONL',
      agentId: 'dumper',
      transcript: dump('dump-ok', [[0, 2]], 'msg_9'),
    });
    expect(ok.errors).toBeUndefined();
  });

  it('names the source record of an item over the size limit', async () => {
    const small = await buildTestApp({ MAX_ITEM_BYTES: '200' }, {}, { url: t.url });
    try {
      const messages = [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'ok',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
            { id: 'c2', type: 'function', function: { name: 'g', arguments: 'y'.repeat(300) } },
          ],
        },
      ];
      // The big call is the third item (items[2]); its source record is messages[1].
      const big = await importPiece({ format: 'OPENAI_CHAT', transcript: messages }, small);
      expect(big.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
      expect(big.errors?.[0]?.message).toMatch(
        /^transcript: \[1\]: its data is \d+ bytes of JSON; the limit is 200 bytes/,
      );
      const body = { model: 'm', messages: [{ role: 'user', content: 'z'.repeat(300) }] };
      const request = await importPiece({ format: 'ANTHROPIC_MESSAGES', transcript: body }, small);
      expect(request.errors?.[0]?.message).toMatch(/^transcript: messages\[0\]: its data is/);
    } finally {
      await small.close();
    }
  });

  it('imports a 600 KB tool output with its raw, as appendItems takes it without', async () => {
    const result = await importPiece({ format: 'OPENAI_CHAT', transcript: bigToolOutput() });
    expect(result.errors).toBeUndefined();
    const id = result.data!.importTranscript.thread.id;
    expect(result.data!.importTranscript.itemsImported).toBe(3);
    const read = await t.execute<{ thread: { items: { edges: { node: Obj }[] } } }>(
      `query($id: ID!) { thread(id: $id) { items(first: 5) { edges { node {
        ... on ToolResultItem { seq output rawFormat } } } } } }`,
      { id },
    );
    const node = read.thread.items.edges[2]!.node;
    expect(node).toMatchObject({ seq: 2, rawFormat: 'OPENAI_CHAT' });
    expect((node.output as string).length).toBe(600_000);
  });
});

describe('npm run import input checks', () => {
  let database: TestDatabase;
  let dir: string;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runToExit(
      { DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...env },
      { script: 'src/import/cli.ts', args, timeoutMs: 120_000 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'threadstore-input-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the file and record of a transcript of another format, and of an item too large', async () => {
    const wrong = join(dir, 'anthropic.json');
    writeFileSync(wrong, JSON.stringify(anthropicWithTools(), null, 2)); // a JSON document
    const run = await cli(['--format', 'OPENAI_CHAT', wrong]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^${wrong}: \\[\\d+\\]: not a record of OPENAI_CHAT: .*; it looks like ANTHROPIC_MESSAGES\\n$`,
      ),
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('created threads:');

    // A Claude Code session with a blank line: the big line is the file's line 4.
    const session = join(dir, 'session.jsonl');
    const line = (n: number, text: string) =>
      JSON.stringify({
        type: 'user',
        sessionId: 's',
        uuid: `u${n}`,
        timestamp: '2026-01-01T00:00:00.000Z',
        message: { role: 'user', content: text },
      });
    writeFileSync(session, [line(1, 'a'), line(2, 'b'), '', line(3, 'c'.repeat(400))].join('\n'));
    const big = await cli(['--format', 'CLAUDE_CODE_JSONL', session], { MAX_ITEM_BYTES: '300' });
    expect(big.code).toBe(1);
    expect(big.stderr).toMatch(
      new RegExp(`^${session}: line 4: its data is \\d+ bytes of JSON; the limit is 300 bytes`),
    );
    expect(big.stdout.trim().split('\n').at(-1)).toBe('created threads:');
  });

  it('imports a file with a 600 KB tool output', async () => {
    const file = join(dir, 'big-output.json');
    writeFileSync(file, JSON.stringify({ messages: bigToolOutput() }));
    const run = await cli([file]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ {2}big-output\.json #0 {2}3 items\n/);
  });
});
