/**
 * Importing transcripts (issue 11): every fixture conversation through the importTranscript
 * mutation and through `npm run import` (a real process), read back through GraphQL: typed
 * fields from the source, raw as the codec decodes it, idempotent re-imports, failures that
 * name the line and write nothing, THREADSTORE_JSONL restores.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ThreadItemsPayload, threadKey } from '../src/pubsub/topics.js';
import { storedFromDraft } from '../src/transcripts/envelope.js';
import { CODECS, detect } from '../src/transcripts/index.js';
import type { ItemDraft, TranscriptFormat } from '../src/transcripts/types.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { runToExit } from './testkit/process.js';
import { type Body, type Cassettes, FIXTURES, sources } from './transcripts-sources.js';

type Obj = Record<string, unknown>;

/** One conversation of a fixture, as one importTranscript call sends it. */
interface Piece {
  name: string;
  format: TranscriptFormat;
  transcript: unknown;
}

/** Every fixture conversation as its own transcript. */
function pieces(): Piece[] {
  const out: Piece[] = [];
  for (const s of sources()) {
    const value = s.value;
    if (s.format === 'ANTHROPIC_MESSAGES' || s.format === 'OPENAI_RESPONSES') {
      const exchanges = (value as Cassettes).cassettes.flatMap((c) => c.interactions);
      exchanges.forEach((x, i) => {
        out.push({ name: `${s.file} #${i}`, format: s.format, transcript: x });
      });
    } else if (Array.isArray(value) && s.format === 'OPENAI_CHAT') {
      value.forEach((c, i) => {
        out.push({ name: `${s.file} #${i}`, format: s.format, transcript: c });
      });
    } else {
      out.push({ name: s.file, format: s.format, transcript: value });
    }
  }
  return out;
}

const IMPORT = `mutation($input: ImportTranscriptInput!) {
  importTranscript(input: $input) {
    itemsImported compactionsImported replayed
    thread { id agentId itemCount nextSeq metadata }
  }
}`;

const ITEMS = `query($id: ID!) {
  thread(id: $id) {
    items(first: 500) { edges { node {
      ... on ConversationItem { seq type status responseId createdAt createdBy data raw rawFormat }
      ... on ReasoningItem { text signature encryptedContent summary }
      ... on ToolCallItem { callId name arguments }
      ... on ToolResultItem { resultCallId: callId output isError }
    } } }
  }
}`;

interface Node extends Obj {
  seq: number;
  type: string;
  responseId: string | null;
  createdAt: string;
  createdBy: string | null;
  data: Obj;
  raw: unknown;
  rawFormat: string | null;
}

interface ImportPayload {
  itemsImported: number;
  compactionsImported: number;
  replayed: boolean;
  thread: { id: string; agentId: string; itemCount: number; nextSeq: number; metadata: Obj };
}

/** The drafts the codec makes of a transcript (its only conversation). */
function drafts(format: TranscriptFormat, transcript: unknown): ItemDraft[] {
  const conversations = CODECS[format]!.decode(transcript);
  expect(conversations).toHaveLength(1);
  return conversations[0]!.items;
}

/**
 * Asserts that stored items are the drafts: type, data (typed fields) as the store keeps a
 * draft, raw verbatim, rawFormat, responseId, createdBy, createdAt when the source has one.
 */
function expectItemsAreDrafts(nodes: Node[], expected: ItemDraft[]): void {
  expect(nodes.map((n) => n.seq)).toEqual(expected.map((_, i) => i));
  nodes.forEach((node, i) => {
    const draft = expected[i]!;
    const stored = storedFromDraft(draft, i);
    expect({ seq: i, type: node.type, data: node.data }).toEqual({
      seq: i,
      type: stored.type,
      data: stored.data,
    });
    expect(node.raw).toEqual(draft.raw);
    expect(node.rawFormat).toBe(draft.rawFormat);
    expect(node.responseId).toBe(draft.responseId);
    expect(node.createdBy).toBe(draft.createdBy);
    if (draft.createdAt !== null) expect(node.createdAt).toBe(draft.createdAt);
  });
}

/** Every tool result answers an earlier tool call with its callId. */
function expectToolPairs(nodes: Node[]): void {
  const open = new Map<string, number>();
  for (const n of nodes) {
    if (n.type === 'tool_call') open.set(String(n.callId), (open.get(String(n.callId)) ?? 0) + 1);
    if (n.type === 'tool_result') {
      const id = String(n.resultCallId);
      expect(open.get(id) ?? 0, `result ${id} at seq ${n.seq} has a call`).toBeGreaterThan(0);
      open.set(id, open.get(id)! - 1);
    }
  }
}

describe('importTranscript', () => {
  let t: TestApp;
  const readItems = async (id: string): Promise<Node[]> => {
    const data = await t.execute<{ thread: { items: { edges: { node: Node }[] } } }>(ITEMS, { id });
    return data.thread.items.edges.map((e) => e.node);
  };
  const threadCount = async () =>
    (
      await t.execute<{ threads: { totalCount: number } }>(
        '{ threads(filter: { includeArchived: true }) { totalCount } }',
      )
    ).threads.totalCount;
  const importPiece = (input: Obj) =>
    t.request<{ importTranscript: ImportPayload }>(IMPORT, {
      input: { agentId: 'importer', ...input },
    });

  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(pieces())('imports $name with typed fields, raw and source times', async (piece) => {
    const expected = drafts(piece.format, piece.transcript);
    const result = await importPiece({ format: piece.format, transcript: piece.transcript });
    expect(result.errors).toBeUndefined();
    const payload = result.data!.importTranscript;
    expect(payload).toMatchObject({
      itemsImported: expected.length,
      compactionsImported: 0,
      replayed: false,
      thread: { agentId: 'importer', itemCount: expected.length, nextSeq: expected.length },
    });
    const nodes = await readItems(payload.thread.id);
    expectItemsAreDrafts(nodes, expected);
    expectToolPairs(nodes);
  });

  it('makes one item per Anthropic block, sharing the response id, signatures and data kept', async () => {
    const ant = sources().find((s) => s.format === 'ANTHROPIC_MESSAGES')!;
    const exchanges = (ant.value as Cassettes).cassettes.flatMap((c) => c.interactions);
    let thinking = 0;
    let redacted = 0;
    let fourBlocks = 0;
    for (const x of exchanges) {
      const response = x.response_body as Body & { id: string; content: Obj[]; model: string };
      const result = await importPiece({ format: 'ANTHROPIC_MESSAGES', transcript: x });
      expect(result.errors).toBeUndefined();
      const nodes = (await readItems(result.data!.importTranscript.thread.id)).filter(
        (n) => n.responseId === response.id,
      );
      // The response is the last message: one item per block, in block order.
      expect(nodes.map((n) => n.type)).toEqual(
        response.content.map(
          (b) =>
            ({
              thinking: 'reasoning',
              redacted_thinking: 'reasoning',
              text: 'message',
              tool_use: 'tool_call',
            })[String(b.type)] ?? expect.any(String),
        ),
      );
      if (response.content.length >= 4) fourBlocks += 1;
      response.content.forEach((block, i) => {
        const node = nodes[i]!;
        expect(node.createdBy).toBe(response.model);
        if (block.type === 'thinking') {
          thinking += 1;
          expect([node.text, node.signature]).toEqual([block.thinking, block.signature]);
        }
        if (block.type === 'redacted_thinking') {
          redacted += 1;
          expect([node.text, node.encryptedContent]).toEqual(['', block.data]);
        }
        if (block.type === 'tool_use') {
          expect([node.callId, node.name, node.arguments]).toEqual([
            block.id,
            block.name,
            block.input,
          ]);
        }
      });
    }
    expect(thinking).toBeGreaterThan(0);
    expect(redacted).toBeGreaterThan(0);
    expect(fourBlocks).toBeGreaterThan(0);
  });

  it('keeps OpenAI Responses reasoning encrypted_content and summary', async () => {
    const resp = sources().find((s) => s.format === 'OPENAI_RESPONSES')!;
    const exchanges = (resp.value as Cassettes).cassettes.flatMap((c) => c.interactions);
    let checked = 0;
    for (const x of exchanges.slice(0, 4)) {
      const output = (x.response_body as { output: Obj[] }).output;
      const result = await importPiece({ format: 'OPENAI_RESPONSES', transcript: x });
      expect(result.errors).toBeUndefined();
      const nodes = await readItems(result.data!.importTranscript.thread.id);
      const reasoning = nodes
        .filter((n) => n.type === 'reasoning')
        .slice(-output.filter((o) => o.type === 'reasoning').length || nodes.length);
      for (const source of output.filter((o) => o.type === 'reasoning')) {
        const node = reasoning.find((n) => n.encryptedContent === source.encrypted_content);
        expect(node, 'a reasoning item with the encrypted content').toBeDefined();
        expect(node!.summary).toEqual(source.summary);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('keeps Claude Code line timestamps and sessions as one thread', async () => {
    const cc = sources().find((s) => s.format === 'CLAUDE_CODE_JSONL')!;
    const lines = cc.value as Obj[];
    const result = await importPiece({ format: 'CLAUDE_CODE_JSONL', transcript: lines });
    const nodes = await readItems(result.data!.importTranscript.thread.id);
    const times = new Set(lines.map((l) => new Date(String(l.timestamp)).toISOString()));
    expect(nodes.every((n) => times.has(n.createdAt))).toBe(true);
    // Lines that share message.id share the responseId: 39 responses on 55 assistant lines.
    const responses = new Set(
      nodes
        .filter((n) => n.type !== 'tool_result' && n.responseId?.startsWith('msg_'))
        .map((n) => n.responseId),
    );
    expect(responses.size).toBe(39);
  });

  it('replays an import with the same idempotencyKey and writes nothing', async () => {
    const piece = pieces().find((p) => p.format === 'CLAUDE_CODE_JSONL')!;
    const input = { format: piece.format, transcript: piece.transcript, idempotencyKey: 'cc-1' };
    const first = await importPiece(input);
    expect(first.errors).toBeUndefined();
    const before = await threadCount();
    const again = await importPiece(input);
    expect(again.errors).toBeUndefined();
    expect(again.data!.importTranscript).toEqual({
      ...first.data!.importTranscript,
      replayed: true,
    });
    expect(await threadCount()).toBe(before);
    // The key with other content is a CONFLICT naming the thread.
    const other = await importPiece({
      ...input,
      transcript: (piece.transcript as unknown[]).slice(0, 5),
    });
    expect(other.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    expect(other.errors?.[0]?.message).toContain(first.data!.importTranscript.thread.id);
    expect(await threadCount()).toBe(before);
  });

  it('fails naming the line or index and writes nothing', async () => {
    const before = await threadCount();
    const cc = sources().find((s) => s.format === 'CLAUDE_CODE_JSONL')!;
    const text = (cc.value as Obj[]).slice(0, 4).map((l) => JSON.stringify(l));
    text.splice(2, 0, '{oops');
    const bad = await importPiece({ format: 'CLAUDE_CODE_JSONL', transcript: text.join('\n') });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toMatch(/^transcript: line 3: not JSON/);

    const chat = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function' }] },
    ];
    const badChat = await importPiece({ format: 'OPENAI_CHAT', transcript: chat });
    expect(badChat.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(badChat.errors?.[0]?.message).toMatch(/^transcript: \[1\]/);

    const tooBig = await buildTestApp({ MAX_ITEM_BYTES: '300' }, {}, { url: t.url });
    try {
      const big = await tooBig.request(IMPORT, {
        input: { agentId: 'importer', format: 'CLAUDE_CODE_JSONL', transcript: cc.value },
      });
      expect(big.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
      // Named by the source line (cc.value[1] is the first line over 300 bytes of data).
      expect(big.errors?.[0]?.message).toMatch(/^transcript: line 2: its data is \d+ bytes/);
    } finally {
      await tooBig.close();
    }
    const two = await importPiece({
      format: 'OPENAI_CHAT',
      transcript: sources().find((s) => s.file === 'tau-bench')!.value,
    });
    expect(two.errors?.[0]?.message).toMatch(/^transcript holds 8 conversations/);
    expect(await threadCount()).toBe(before);
  });

  it('imports a Claude Code compact boundary as a compaction record with its marker', async () => {
    const line = (type: string, extra: Obj) => ({
      type,
      sessionId: 's',
      uuid: `u${JSON.stringify(extra).length}`,
      timestamp: '2026-01-01T00:00:00.000Z',
      ...extra,
    });
    const lines = [
      line('user', { message: { role: 'user', content: 'port it' } }),
      line('assistant', {
        message: {
          id: 'msg_1',
          role: 'assistant',
          model: 'm',
          content: [{ type: 'text', text: 'ok' }],
        },
      }),
      line('system', { subtype: 'compact_boundary', content: 'Conversation compacted' }),
      line('user', { isCompactSummary: true, message: { role: 'user', content: 'We ported it.' } }),
    ];
    const result = await importPiece({ format: 'CLAUDE_CODE_JSONL', transcript: lines });
    expect(result.errors).toBeUndefined();
    const { thread, ...counts } = result.data!.importTranscript;
    expect(counts).toEqual({ itemsImported: 4, compactionsImported: 1, replayed: false });
    expect(thread.nextSeq).toBe(5);
    const read = await t.execute<{ thread: { compactions: Obj[] } }>(
      'query($id: ID!) { thread(id: $id) { compactions { startSeq endSeq summary markerSeq } } }',
      { id: thread.id },
    );
    expect(read.thread.compactions).toEqual([
      { startSeq: 0, endSeq: 1, summary: 'We ported it.', markerSeq: 4 },
    ]);
    const nodes = await readItems(thread.id);
    expect(nodes.map((n) => n.type)).toEqual([
      'message',
      'message',
      'resource_event',
      'message',
      'compaction',
    ]);
  });

  it('stores NewItem.raw with rawFormat, holds it to the item size on its own, and sends it live', async () => {
    const created = await t.execute<{ createThread: { thread: { id: string } } }>(
      'mutation { createThread(input: { agentId: "raw" }) { thread { id } } }',
    );
    const id = created.createThread.thread.id;
    const payloads: ThreadItemsPayload[] = [];
    const stop = t.app.events.listen('thread-items', threadKey('local', id), (p) =>
      payloads.push(p),
    );
    const APPEND = `mutation($input: AppendItemsInput!) { appendItems(input: $input) {
      items { ... on ReasoningItem { seq raw rawFormat text signature encryptedContent summary } } } }`;
    const raw = { type: 'thinking', thinking: 'hm', signature: 'c2ln', unknown: [null, 1.5] };
    const reasoning = {
      text: 'hm',
      signature: 'c2ln',
      encryptedContent: 'enc',
      summary: [{ a: 1 }],
    };
    const ok = await t.execute<{ appendItems: { items: Obj[] } }>(APPEND, {
      input: { threadId: id, items: [{ reasoning, raw, rawFormat: 'ANTHROPIC_MESSAGES' }] },
    });
    stop();
    expect(ok.appendItems.items).toEqual([
      { seq: 0, raw, rawFormat: 'ANTHROPIC_MESSAGES', ...reasoning },
    ]);
    const live = payloads.flatMap((p) => (p.kind === 'appended' ? p.items : []));
    expect(live.map((i) => [i.raw, i.rawFormat])).toEqual([[raw, 'ANTHROPIC_MESSAGES']]);

    const alone = await t.request(APPEND, { input: { threadId: id, items: [{ reasoning, raw }] } });
    expect(alone.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(alone.errors?.[0]?.message).toMatch(/^items\[0\]: raw and rawFormat go together/);
    const small = await buildTestApp({ MAX_ITEM_BYTES: '150' }, {}, { url: t.url });
    try {
      // data and raw are each under 150 bytes, together they are not: the limit is on each.
      const both = await small.request(APPEND, {
        input: { threadId: id, items: [{ reasoning, raw, rawFormat: 'ANTHROPIC_MESSAGES' }] },
      });
      expect(both.errors).toBeUndefined();
      const padded = { ...raw, pad: 'x'.repeat(150) };
      const big = await small.request(APPEND, {
        input: {
          threadId: id,
          items: [{ reasoning, raw: padded, rawFormat: 'ANTHROPIC_MESSAGES' }],
        },
      });
      expect(big.errors?.[0]?.extensions?.code).toBe('PAYLOAD_TOO_LARGE');
      expect(big.errors?.[0]?.message).toMatch(/^items\[0\]: its raw is \d+ bytes of JSON/);
    } finally {
      await small.close();
    }
  });

  it('restores a THREADSTORE_JSONL dump with its seqs, times, raw and compaction records', async () => {
    const dump: Obj[] = [
      {
        kind: 'thread',
        version: 1,
        id: 'restored-1',
        agentId: 'dumper',
        name: 'a dump',
        archived: true,
        metadata: { a: 1 },
        createdAt: '2025-01-02T03:04:05.678Z',
        updatedAt: '2025-01-03T03:04:05.678Z',
        nextSeq: 6,
      },
      ...[0, 1, 3].map((seq) => ({
        kind: 'item',
        seq,
        type: 'message',
        status: 'COMPLETED',
        responseId: null,
        createdAt: `2025-01-02T03:04:0${seq}.000Z`,
        createdBy: null,
        data: { role: 'user', content: `m${seq}` },
        raw: { role: 'user', content: `m${seq}`, extra: null },
        rawFormat: 'OPENAI_CHAT',
      })),
      {
        kind: 'item',
        seq: 5,
        type: 'compaction',
        status: 'COMPLETED',
        responseId: null,
        createdAt: '2025-01-02T03:05:00.000Z',
        createdBy: 'me',
        data: { summary: 's', startSeq: 0, endSeq: 1 },
        raw: null,
        rawFormat: null,
      },
      {
        kind: 'compaction',
        startSeq: 0,
        endSeq: 1,
        summary: 's',
        createdAt: '2025-01-02T03:05:00.000Z',
        createdBy: 'me',
        markerSeq: 5,
      },
    ];
    // The dump's agentId is kept: another one is refused, naming it, and nothing is written.
    const before = await threadCount();
    const other = await importPiece({
      format: 'THREADSTORE_JSONL',
      transcript: dump,
      agentId: 'someone-else',
    });
    expect(other.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      field: 'agentId',
      dumpAgentId: 'dumper',
    });
    expect(other.errors?.[0]?.message).toMatch(
      /^agentId: a restore keeps the dump's agentId "dumper"/,
    );
    expect(await threadCount()).toBe(before);
    const result = await importPiece({
      format: 'THREADSTORE_JSONL',
      transcript: dump,
      agentId: 'dumper',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.importTranscript).toMatchObject({
      itemsImported: 4,
      compactionsImported: 1,
      thread: { id: 'restored-1', agentId: 'dumper', itemCount: 4, nextSeq: 6, metadata: { a: 1 } },
    });
    const thread = await t.execute<{ thread: Obj }>(
      `{ thread(id: "restored-1") { name archived createdAt updatedAt
          compactions { startSeq endSeq summary createdAt createdBy markerSeq } } }`,
    );
    expect(thread.thread).toEqual({
      name: 'a dump',
      archived: true,
      createdAt: dump[0]!.createdAt,
      updatedAt: dump[0]!.updatedAt,
      compactions: [dump.at(-1)!].map(({ kind: _kind, ...c }) => c),
    });
    const nodes = await readItems('restored-1');
    expect(
      nodes.map(({ seq, type, createdAt, createdBy, data, raw, rawFormat }) => ({
        kind: 'item',
        seq,
        type,
        status: 'COMPLETED',
        responseId: null,
        createdAt,
        createdBy,
        data,
        raw,
        rawFormat,
      })),
    ).toEqual(dump.slice(1, -1));
    const bad = await importPiece({
      format: 'THREADSTORE_JSONL',
      transcript: [
        { ...dump[0], id: 'restored-2' },
        { ...dump[1], seq: 9 },
      ],
    });
    expect(bad.errors?.[0]?.message).toMatch(/^transcript: line 2: seq must be/);
  });
});

describe('npm run import', () => {
  let database: TestDatabase;
  let dir: string;
  const FILES = [
    'openai-chat/tau-bench-gpt-4o-airline-sample.json',
    'openai-chat/pydantic-ai-gpt-4o-conversations.json',
    'anthropic/claude-code-transcript-python-to-rust-port.jsonl',
    'anthropic/pydantic-ai-anthropic-messages-cassettes.json',
    'responses/pydantic-ai-openai-responses-cassettes.json',
    'trajectories/swe-agent-marshmallow-1867-function-calling.traj',
  ].map((f) => join(FIXTURES, f));
  const cli = (args: string[]) =>
    runToExit(
      { DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      { script: 'src/import/cli.ts', args, timeoutMs: 120_000 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'threadstore-transcripts-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports every fixture file, detecting its format; a second run creates nothing', async () => {
    const total = pieces().filter((p) => p.format !== 'AI_SDK_UI_MESSAGES').length;
    const first = await cli(FILES);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines.filter((l) => l.endsWith('(detected)'))).toEqual([
      `${FILES[0]}: format OPENAI_CHAT (detected)`,
      `${FILES[1]}: format OPENAI_CHAT (detected)`,
      `${FILES[2]}: format CLAUDE_CODE_JSONL (detected)`,
      `${FILES[3]}: format ANTHROPIC_MESSAGES (detected)`,
      `${FILES[4]}: format OPENAI_RESPONSES (detected)`,
      `${FILES[5]}: format OPENAI_CHAT (detected)`,
    ]);
    const created = lines
      .at(-1)!
      .replace(/^created threads:/, '')
      .trim()
      .split(' ');
    expect(created).toHaveLength(total);

    // The Claude Code session, read back through the API: items are the codec's drafts.
    const cc = lines.find((l) => / {2}claude-code-transcript.* items$/.test(l))!.split(' ')[0]!;
    const t = await buildTestApp({}, {}, { url: database.url });
    try {
      const data = await t.execute<{ thread: { items: { edges: { node: Node }[] } } }>(ITEMS, {
        id: cc,
      });
      const ccSource = sources().find((s) => s.format === 'CLAUDE_CODE_JSONL')!;
      expectItemsAreDrafts(
        data.thread.items.edges.map((e) => e.node),
        drafts('CLAUDE_CODE_JSONL', ccSource.value),
      );
    } finally {
      await t.close();
    }

    const again = await cli(FILES);
    expect(again.code).toBe(0);
    const againLines = again.stdout.trim().split('\n');
    expect(againLines.at(-1)).toBe('created threads:');
    expect(againLines.filter((l) => l.endsWith('already imported, nothing written'))).toHaveLength(
      total,
    );
  });

  it('reads a minified one-line JSON file as one document, not as a JSONL line', async () => {
    const tau = sources().find((s) => s.file === 'tau-bench')!.value as Obj[];
    const ant = sources().find((s) => s.file === 'anthropic cassettes')!.value as Cassettes;
    // A request with Anthropic blocks (one of plain string messages reads as OPENAI_CHAT).
    const request = ant.cassettes
      .flatMap((c) => c.interactions.map((x) => x.request_body))
      .find((r) => detect(r) === 'ANTHROPIC_MESSAGES')!;
    // A Chat messages array (another conversation than the runs': each is imported once).
    const chat = sources().find((s) => s.file === 'pydantic-ai chat')!.expected[0];
    const files = {
      runs: [join(dir, 'tau-runs.min.json'), tau],
      chat: [join(dir, 'chat-conversation.min.json'), chat],
      anthropic: [join(dir, 'anthropic-request.min.json'), request],
    } as const;
    for (const [path, value] of Object.values(files)) writeFileSync(path, JSON.stringify(value));
    const run = await cli(['--agent', 'minified', ...Object.values(files).map(([f]) => f)]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines.filter((l) => l.endsWith('(detected)'))).toEqual([
      `${files.runs[0]}: format OPENAI_CHAT (detected)`,
      `${files.chat[0]}: format OPENAI_CHAT (detected)`,
      `${files.anthropic[0]}: format ANTHROPIC_MESSAGES (detected)`,
    ]);
    // The runs' conversations, the one conversation, the request's conversation: as decoded
    // (created, or already imported by the test above from the pretty-printed fixture).
    const counts = (file: string) =>
      lines
        .filter((l) => l.includes(`  ${file} #`))
        .map((l) => {
          const m = /(\d+) items$/.exec(l);
          if (m) return Number(m[1]);
          expect(l).toMatch(/already imported, nothing written$/);
          return 'replayed';
        });
    const decoded = (format: TranscriptFormat, value: unknown, file: string) => {
      const created = counts(file);
      const items = CODECS[format]!.decode(value).map((c) => c.items.length);
      return items.map((n, k) => (created[k] === 'replayed' ? 'replayed' : n));
    };
    expect(counts('tau-runs.min.json')).toEqual(decoded('OPENAI_CHAT', tau, 'tau-runs.min.json'));
    expect(counts('tau-runs.min.json')).toHaveLength(tau.length);
    const one = 'chat-conversation.min.json';
    expect(counts(one)).toEqual(decoded('OPENAI_CHAT', chat, one));
    expect(counts(one)).toHaveLength(1);
    const req = 'anthropic-request.min.json';
    expect(counts(req)).toEqual(decoded('ANTHROPIC_MESSAGES', request, req));
    expect(counts(req)).toHaveLength(1);
  });

  it('restores a dump with its own id, or the --id-prefix before it; --agent must be its own', async () => {
    const dump = [
      {
        kind: 'thread',
        version: 1,
        id: 'dumped-thread',
        agentId: 'dump-agent',
        name: null,
        archived: false,
        metadata: {},
        createdAt: '2025-01-02T03:04:05.678Z',
        updatedAt: '2025-01-02T03:04:05.678Z',
        nextSeq: 1,
      },
      {
        kind: 'item',
        seq: 0,
        type: 'message',
        status: 'COMPLETED',
        responseId: null,
        createdAt: '2025-01-02T03:04:05.678Z',
        createdBy: null,
        data: { role: 'user', content: 'hi' },
        raw: null,
        rawFormat: null,
      },
    ];
    const file = join(dir, 'thread.dump.jsonl');
    writeFileSync(file, dump.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const last = (stdout: string) => stdout.trim().split('\n').at(-1);
    const copy = await cli(['--id-prefix', 'copy-', file]);
    expect(copy.stderr).toBe('');
    expect(last(copy.stdout)).toBe('created threads: copy-dumped-thread');
    const again = await cli(['--id-prefix', 'copy-', file]);
    expect(again.stdout).toContain(
      'copy-dumped-thread  thread.dump.jsonl (dump)  already imported',
    );
    expect(last(again.stdout)).toBe('created threads:');
    const plain = await cli([file]);
    expect(last(plain.stdout)).toBe('created threads: dumped-thread');
    const agent = await cli(['--agent', 'other', '--id-prefix', 'other-', file]);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toMatch(
      /^.*thread\.dump\.jsonl: agentId: a restore keeps the dump's agentId "dump-agent"/,
    );
    const t = await buildTestApp({}, {}, { url: database.url });
    try {
      const read = await t.execute<{ threads: { edges: { node: Obj }[] } }>(
        '{ threads(filter: { agentId: "dump-agent" }) { edges { node { id agentId } } } }',
      );
      expect(read.threads.edges.map((e) => e.node.id).sort()).toEqual([
        'copy-dumped-thread',
        'dumped-thread',
      ]);
    } finally {
      await t.close();
    }
  });

  it('names the file and line of a failure and writes nothing of that conversation', async () => {
    const bad = join(dir, 'bad-session.jsonl');
    const cc = sources().find((s) => s.format === 'CLAUDE_CODE_JSONL')!.value as Obj[];
    writeFileSync(bad, [...cc.slice(0, 3).map((l) => JSON.stringify(l)), '{oops', ''].join('\n'));
    const perLine = join(dir, 'chats.jsonl');
    writeFileSync(
      perLine,
      [
        JSON.stringify({ messages: [{ role: 'user', content: 'one' }] }),
        JSON.stringify({ messages: [{ content: 'no role' }] }),
        JSON.stringify({ messages: [{ role: 'user', content: 'three' }] }),
      ].join('\n'),
    );
    const run = await cli(['--agent', 'bad-run', '--id-prefix', 'imp-', bad, perLine]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `${bad}: line 4: invalid JSON at column 2: Expected property name or '}'`,
      expect.stringMatching(new RegExp(`^${perLine}: line 2: messages\\[0\\]: `)),
    ]);
    const created = run.stdout.trim().split('\n').at(-1)!.replace('created threads:', '').trim();
    const ids = created.split(' ');
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => /^imp-[0-9a-f]{32}$/.test(id))).toBe(true);
    const t = await buildTestApp({}, {}, { url: database.url });
    try {
      const mine = await t.execute<{ threads: { edges: { node: { name: string } }[] } }>(
        '{ threads(filter: { agentId: "bad-run" }) { edges { node { name } } } }',
      );
      expect(mine.threads.edges.map((e) => e.node.name).sort()).toEqual([
        'chats.jsonl #0',
        'chats.jsonl #2',
      ]);
    } finally {
      await t.close();
    }
  });
});
