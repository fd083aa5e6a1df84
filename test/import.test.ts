import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv, type ServiceContext } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { importConversation } from '../src/import/import.service.js';
import { jsonErrorOffset } from '../src/import/json-errors.js';
import {
  type ParsedConversation,
  parseTranscriptFile,
  TranscriptFormatError,
} from '../src/import/openai-chat.js';
import type { NewItemInput } from '../src/items/item.service.js';
import type { ThreadEventPayload } from '../src/pubsub/topics.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { startServer } from './testkit/process.js';

const root = join(import.meta.dirname, '..');
const fixtures = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'openai-chat');
const TAU = join(fixtures, 'tau-bench-gpt-4o-airline-sample.json');
const PYDANTIC = join(fixtures, 'pydantic-ai-gpt-4o-conversations.json');

/** A Chat Completions message as the fixtures hold it. */
interface SourceMessage {
  role: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[] | null;
}
interface TauRun {
  task_id: number;
  trial: number;
  reward: number;
  traj: SourceMessage[];
}
interface PydanticEntry {
  source: string;
  model: string;
  messages: SourceMessage[];
}

const tauRuns = JSON.parse(readFileSync(TAU, 'utf8')) as TauRun[];
const pydanticEntries = JSON.parse(readFileSync(PYDANTIC, 'utf8')) as PydanticEntry[];

/** An item reduced to what the source determines. */
interface Expected {
  type: string;
  role?: string;
  content?: unknown;
  callId?: string;
  name?: string | null;
  arguments?: unknown;
  output?: unknown;
}

/** True when a source message has text to store as a message item. */
function hasText(m: SourceMessage): boolean {
  return typeof m.content === 'string' && m.content !== '';
}

/**
 * What the source says a conversation becomes, computed here without the parser: text ->
 * message, each tool_calls entry -> tool_call (after the assistant's text), tool -> tool_result.
 */
function expectedItems(messages: SourceMessage[]): Expected[] {
  return messages.flatMap((m): Expected[] => {
    if (m.role === 'tool') {
      const output = m.content;
      return [{ type: 'tool_result', callId: m.tool_call_id, name: m.name ?? null, output }];
    }
    const calls = m.tool_calls ?? [];
    const text: Expected[] =
      hasText(m) || calls.length === 0
        ? [{ type: 'message', role: m.role, content: m.content ?? null }]
        : [];
    return [
      ...text,
      ...calls.map((c) => ({
        type: 'tool_call',
        callId: c.id,
        name: c.function.name,
        arguments: JSON.parse(c.function.arguments) as unknown,
      })),
    ];
  });
}

/** Items per type as the source counts them: messages with text (or nothing else), tool calls, tool messages. */
function sourceCounts(messages: SourceMessage[]): Record<string, number> {
  const counts: Record<string, number> = {
    message: messages.filter((m) => m.role !== 'tool' && (hasText(m) || !m.tool_calls?.length))
      .length,
    tool_call: messages.flatMap((m) => m.tool_calls ?? []).length,
    tool_result: messages.filter((m) => m.role === 'tool').length,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

/** Items per type. */
function countTypes(items: { type: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.type] = (counts[item.type] ?? 0) + 1;
  return counts;
}

/** A parsed NewItem reduced to the shape of Expected. */
function fromInput(item: NewItemInput): Expected {
  if (item.message) {
    return { type: 'message', role: item.message.role as string, content: item.message.content };
  }
  if (item.toolCall) {
    const { callId, name } = item.toolCall as { callId: string; name: string };
    return { type: 'tool_call', callId, name, arguments: item.toolCall.arguments };
  }
  const { callId, name } = item.toolResult as { callId: string; name: string | null };
  return { type: 'tool_result', callId, name, output: item.toolResult!.output };
}

/** The source's call ids in order: of tool_calls entries, and of tool messages. */
function sourceCallIds(messages: SourceMessage[]): { calls: string[]; results: string[] } {
  return {
    calls: messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.id)),
    results: messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id!),
  };
}

/** Tool calls whose id an earlier call of the same conversation already used. */
function reusedCallIds(messages: SourceMessage[]): number {
  const seen = new Set<string>();
  let reused = 0;
  for (const id of sourceCallIds(messages).calls) {
    if (seen.has(id)) reused += 1;
    seen.add(id);
  }
  return reused;
}

function parseError(text: string, file: string): TranscriptFormatError {
  try {
    parseTranscriptFile(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(TranscriptFormatError);
    return error as TranscriptFormatError;
  }
  throw new Error('expected a TranscriptFormatError');
}

/** An assistant's tool_calls entry. */
const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('parseTranscriptFile', () => {
  it('turns text into messages, tool_calls into tool_call items, tool messages into results', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          call('c1', 'weather', '{"city":"Paris"}'),
          call('c2', 'weather', '{city: Rome'),
        ],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'weather', content: 'sunny' },
      { role: 'tool', tool_call_id: 'c2', content: 'rain' },
      { role: 'assistant', content: null, tool_calls: [call('c3', 'time', '{}')] },
      { role: 'tool', tool_call_id: 'c3', content: '' },
      { role: 'assistant', content: 'Paris sunny, Rome rain.' },
    ];
    const [conversation, ...rest] = parseTranscriptFile(JSON.stringify(messages), 'dir/cut.json');
    expect(rest).toHaveLength(0);
    expect(conversation!.index).toBe(0);
    expect(conversation!.label).toBe('cut.json #0');
    expect(conversation!.metadata).toEqual({
      importedFrom: 'cut.json',
      conversationIndex: 0,
      format: 'openai-chat',
    });
    const weather = (callId: string, args: unknown) => ({
      responseId: 'msg-2',
      toolCall: { callId, name: 'weather', arguments: args },
    });
    expect(conversation!.items).toEqual([
      { responseId: null, message: { role: 'system', content: 'Be brief.' } },
      { responseId: null, message: { role: 'user', content: 'Weather in Paris and Rome?' } },
      { responseId: 'msg-2', message: { role: 'assistant', content: 'Checking both.' } },
      weather('c1', { city: 'Paris' }),
      // Invalid JSON arguments are kept as the string (contract: ToolCallItem.arguments).
      weather('c2', '{city: Rome'),
      { toolResult: { callId: 'c1', name: 'weather', output: 'sunny' } },
      { toolResult: { callId: 'c2', name: null, output: 'rain' } },
      { responseId: 'msg-5', toolCall: { callId: 'c3', name: 'time', arguments: {} } },
      { toolResult: { callId: 'c3', name: null, output: '' } },
      { responseId: 'msg-7', message: { role: 'assistant', content: 'Paris sunny, Rome rain.' } },
    ]);
  });

  it('keeps content parts as parts, with the text parts joined as content', () => {
    const parts = [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'text', text: 'Be short.' },
    ];
    const imageOnly = [{ type: 'image_url', image_url: { url: 'https://example.com/b.png' } }];
    const messages = [
      { role: 'user', content: parts },
      { role: 'user', content: imageOnly },
    ];
    const [conversation] = parseTranscriptFile(JSON.stringify({ messages }), 'parts.json');
    expect(conversation!.items).toEqual([
      { responseId: null, message: { role: 'user', content: 'What is this?\nBe short.', parts } },
      { responseId: null, message: { role: 'user', content: null, parts: imageOnly } },
    ]);
  });

  it('reads an object with messages, an array of them, tau-bench runs and both kinds of JSONL', () => {
    const hi = [{ role: 'user', content: 'hi' }];
    const single = parseTranscriptFile(
      JSON.stringify({ model: 'gpt-4o', messages: hi }),
      'one.json',
    );
    expect(single.map((c) => [c.label, c.metadata, c.items.length])).toEqual([
      [
        'one.json #0',
        { importedFrom: 'one.json', conversationIndex: 0, model: 'gpt-4o', format: 'openai-chat' },
        1,
      ],
    ]);

    const entries = parseTranscriptFile(
      JSON.stringify([
        { source: 'tests/cassettes/a.yaml', model: 'gpt-4o', messages: hi },
        { messages: [...hi, { role: 'assistant', content: 'hello' }] },
      ]),
      'many.json',
    );
    expect(entries.map((c) => [c.index, c.label, c.items.length])).toEqual([
      [0, 'many.json #0 (a.yaml)', 1],
      [1, 'many.json #1', 2],
    ]);
    expect(entries[0]!.metadata).toEqual({
      importedFrom: 'many.json',
      conversationIndex: 0,
      source: 'tests/cassettes/a.yaml',
      model: 'gpt-4o',
      format: 'openai-chat',
    });

    // Two real runs, cut after their first six messages (an assistant turn answered by a tool).
    const cut = tauRuns.slice(0, 2).map((run) => ({ ...run, traj: run.traj.slice(0, 6) }));
    const runs = parseTranscriptFile(JSON.stringify(cut), 'tau.json');
    expect(runs.map((c) => c.label)).toEqual([
      'tau-bench task 0 trial 0',
      'tau-bench task 3 trial 0',
    ]);
    expect(runs[1]!.metadata).toEqual({
      importedFrom: 'tau.json',
      conversationIndex: 1,
      task_id: 3,
      trial: 0,
      reward: 0,
      format: 'tau-bench',
    });
    runs.forEach((run, i) => {
      expect(run.items.map(fromInput)).toEqual(expectedItems(cut[i]!.traj));
    });

    const jsonl = parseTranscriptFile(
      `${JSON.stringify({ messages: hi })}\n\n${JSON.stringify(hi)}\n`,
      'c.jsonl',
    );
    expect(jsonl.map((c) => [c.index, c.metadata.line, c.items.length])).toEqual([
      [0, 1, 1],
      [1, 3, 1],
    ]);

    const perLine = parseTranscriptFile(
      `${JSON.stringify(hi[0])}\n${JSON.stringify({ role: 'assistant', content: 'hello' })}\n`,
      'm.jsonl',
    );
    expect(perLine).toHaveLength(1);
    expect(perLine[0]!.items.map((i) => i.message?.content)).toEqual(['hi', 'hello']);
  });

  it('accepts a call id used again after its first call was answered', () => {
    const messages = [
      { role: 'assistant', content: null, tool_calls: [call('same', 'a', '{}')] },
      { role: 'tool', tool_call_id: 'same', content: 'one' },
      { role: 'assistant', content: null, tool_calls: [call('same', 'b', '{}')] },
      { role: 'tool', tool_call_id: 'same', content: 'two' },
    ];
    const [conversation] = parseTranscriptFile(JSON.stringify(messages), 'reuse.json');
    expect(conversation!.items.map(fromInput)).toEqual([
      { type: 'tool_call', callId: 'same', name: 'a', arguments: {} },
      { type: 'tool_result', callId: 'same', name: null, output: 'one' },
      { type: 'tool_call', callId: 'same', name: 'b', arguments: {} },
      { type: 'tool_result', callId: 'same', name: null, output: 'two' },
    ]);
  });

  it.each([
    [
      'invalid JSON on a JSONL line',
      'bad.jsonl',
      '{"messages":[]}\n{"messages":[]}\n{oops\n',
      'line 3',
      /^invalid JSON at column 2: Expected property name or '}'$/,
    ],
    [
      'invalid JSON in a JSON document',
      'bad.json',
      '[\n  {"role": "user", "content": "hi"},\n  {"role": "user" "content": "yo"}\n]',
      null,
      /^invalid JSON at line 3, column 19: Expected ',' or '}' after property value$/,
    ],
    [
      'a tool message without tool_call_id',
      'x.json',
      JSON.stringify([
        { messages: [{ role: 'user', content: 'hi' }] },
        {
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', tool_calls: [call('c1', 'f', '{}')] },
            { role: 'tool', content: 'result' },
          ],
        },
      ]),
      'conversation 1, message 2',
      /^a tool message needs a tool_call_id/,
    ],
    [
      'a message without role',
      'x.json',
      '[{"role":"user","content":"a"},{"content":"b"}]',
      'message 1',
      /^the message has no role$/,
    ],
    [
      'a tool call without id',
      'x.json',
      JSON.stringify([
        { role: 'assistant', tool_calls: [{ function: { name: 'f', arguments: '{}' } }] },
      ]),
      'message 0, tool_calls[0]',
      /^the tool call has no id$/,
    ],
    [
      'a tool call without function.name',
      'x.json',
      JSON.stringify([
        {
          role: 'assistant',
          tool_calls: [call('c1', 'f', '{}'), { id: 'c2', function: { arguments: '{}' } }],
        },
      ]),
      'message 0, tool_calls[1]',
      /^the tool call has no function.name$/,
    ],
    [
      'a second result for one call',
      'x.json',
      JSON.stringify([
        { role: 'assistant', tool_calls: [call('c1', 'f', '{}')] },
        { role: 'tool', tool_call_id: 'c1', content: 'a' },
        { role: 'tool', tool_call_id: 'c1', content: 'b' },
      ]),
      'message 2',
      /^the tool message answers tool_call_id "c1", but no earlier tool call with that id is/,
    ],
    [
      'a line of one-message-per-line JSONL without role',
      'm.jsonl',
      '{"role":"user","content":"a"}\n{"content":"b"}\n',
      'line 2',
      /^expected a message object/,
    ],
    [
      'an empty conversation',
      'x.json',
      '{"messages": []}',
      null,
      /^the conversation has no messages$/,
    ],
    [
      'an unknown layout',
      'x.json',
      '[{"turns": []}]',
      'conversation 0',
      /^expected a messages array/,
    ],
    ['an empty file', 'x.json', ' \n', null, /^the file is empty$/],
  ])('rejects %s, naming the file and where', (_case, file, text, location, reason) => {
    const error = parseError(text, file);
    expect(error.file).toBe(file);
    expect(error.location).toBe(location);
    expect(error.reason).toMatch(reason);
    expect(error.message).toBe(
      location ? `${file}: ${location}: ${error.reason}` : `${file}: ${error.reason}`,
    );
  });

  it('finds where JSON.parse stopped', () => {
    expect(jsonErrorOffset('[1,,2]')).toBe(3);
    expect(jsonErrorOffset('{"a" 1}')).toBe(5);
    expect(jsonErrorOffset('[1] x')).toBe(4);
    expect(jsonErrorOffset('"a\\u12G4"')).toBe(6);
    expect(jsonErrorOffset('[1,2')).toBe(4);
  });

  it('reads the whole tau-bench fixture: 8 runs, 356 messages, 111 tool calls and results', () => {
    const conversations = parseTranscriptFile(readFileSync(TAU, 'utf8'), TAU);
    expect(conversations).toHaveLength(8);
    const messages = tauRuns.flatMap((r) => r.traj);
    expect(messages).toHaveLength(356);
    expect(messages.flatMap((m) => m.tool_calls ?? [])).toHaveLength(111);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(111);
    // README: the model re-used tool_call_ids 14 times (in 6 of the 8 runs).
    expect(tauRuns.map((r) => reusedCallIds(r.traj)).reduce((a, b) => a + b)).toBe(14);
    expect(tauRuns.filter((r) => reusedCallIds(r.traj) > 0)).toHaveLength(6);

    const items = conversations.flatMap((c) => c.items);
    expect(items.filter((i) => i.toolCall)).toHaveLength(111);
    expect(items.filter((i) => i.toolResult)).toHaveLength(111);
    conversations.forEach((conversation, i) => {
      const run = tauRuns[i]!;
      expect(conversation.label).toBe(`tau-bench task ${run.task_id} trial ${run.trial}`);
      expect(conversation.items.map(fromInput)).toEqual(expectedItems(run.traj));
    });
  });

  it('reads the pydantic-ai fixture, parallel calls included', () => {
    const conversations = parseTranscriptFile(readFileSync(PYDANTIC, 'utf8'), PYDANTIC);
    expect(conversations.map((c) => c.label)).toEqual([
      'pydantic-ai-gpt-4o-conversations.json #0 (test_complex_agent_run.yaml)',
      'pydantic-ai-gpt-4o-conversations.json #1 (test_temporal_agent_with_model_retry.yaml)',
    ]);
    // Message 1 of the first conversation makes two calls at once: one response, two items.
    const parallel = conversations[0]!.items.filter((i) => i.responseId === 'msg-1');
    expect(parallel.map((i) => i.toolCall?.name)).toEqual(['get_country', 'get_product_name']);
    conversations.forEach((conversation, i) => {
      const source = pydanticEntries[i]!.messages;
      expect(countTypes(conversation.items.map(fromInput))).toEqual(sourceCounts(source));
      expect(conversation.items.map(fromInput)).toEqual(expectedItems(source));
    });
  });
});

const ITEMS_QUERY = `query($id: ID!) {
  thread(id: $id) {
    id name agentId metadata itemCount nextSeq
    items(first: 500) {
      totalCount
      edges { node {
        __typename
        ... on ConversationItem { seq type responseId }
        ... on MessageItem { role content }
        ... on ToolCallItem { callId name arguments }
        ... on ToolResultItem { callId resultName: name output isError }
      } }
    }
  }
}`;

interface StoredNode {
  seq: number;
  type: string;
  responseId: string | null;
  role?: string;
  content?: string | null;
  callId?: string;
  name?: string;
  arguments?: unknown;
  resultName?: string | null;
  output?: unknown;
  isError?: boolean;
}
interface StoredThread {
  id: string;
  name: string;
  agentId: string;
  metadata: Record<string, unknown>;
  itemCount: number;
  nextSeq: number;
  items: { totalCount: number; edges: { node: StoredNode }[] };
}

/** A stored item reduced to the shape of Expected. */
function fromStored(node: StoredNode): Expected {
  if (node.type === 'message') return { type: node.type, role: node.role, content: node.content };
  if (node.type === 'tool_call') {
    return { type: node.type, callId: node.callId, name: node.name, arguments: node.arguments };
  }
  return { type: node.type, callId: node.callId, name: node.resultName, output: node.output };
}

/** A conversation of `n` user messages "m0".."m{n-1}". */
function bigConversation(n: number): ParsedConversation {
  const messages = Array.from({ length: n }, (_, i) => ({ role: 'user', content: `m${i}` }));
  return parseTranscriptFile(JSON.stringify(messages), 'big.json')[0]!;
}

describe('importing through the service layer', () => {
  let t: TestApp;
  let ctx: ServiceContext;
  const options = { agentId: 'importer-test' };

  beforeAll(async () => {
    t = await buildTestApp();
    const env = parseEnv({});
    ctx = {
      db: t.app.db,
      identity: anonymousIdentity(env.DEFAULT_TENANT),
      tenantId: env.DEFAULT_TENANT,
      events: t.app.events,
      limits: limitsFromEnv(env),
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  const readThread = async (id: string) =>
    (await t.execute<{ thread: StoredThread }>(ITEMS_QUERY, { id })).thread;
  const threadCount = async () =>
    (
      await t.execute<{ threads: { totalCount: number } }>(
        '{ threads(filter: { includeArchived: true }) { totalCount } }',
      )
    ).threads.totalCount;

  it('stores both fixture files completely: items per type and callIds as in the source', async () => {
    const sources = [
      { file: TAU, conversations: tauRuns.map((r) => r.traj) },
      { file: PYDANTIC, conversations: pydanticEntries.map((e) => e.messages) },
    ];
    const events: ThreadEventPayload[] = [];
    const stop = t.app.events.listen('thread-events', ctx.tenantId, (e) => events.push(e));
    const imported: string[] = [];
    const tauTotals: Record<string, number> = {};
    for (const { file, conversations } of sources) {
      const parsed = parseTranscriptFile(readFileSync(file, 'utf8'), file);
      expect(parsed).toHaveLength(conversations.length);
      for (const [i, conversation] of parsed.entries()) {
        const written = await importConversation(ctx, conversation, options);
        imported.push(written.id);
        const stored = await readThread(written.id);
        const source = conversations[i]!;
        const expected = expectedItems(source);
        const nodes = stored.items.edges.map((e) => e.node);

        expect(stored.name).toBe(conversation.label);
        expect(stored.agentId).toBe('importer-test');
        expect(stored.metadata).toEqual(conversation.metadata);
        expect(stored.itemCount).toBe(expected.length);
        expect(stored.nextSeq).toBe(expected.length);
        expect(stored.items.totalCount).toBe(expected.length);
        expect(nodes.map((n) => n.seq)).toEqual(expected.map((_, seq) => seq));

        expect(countTypes(nodes)).toEqual(sourceCounts(source));
        const ids = sourceCallIds(source);
        const callIds = (type: string) => nodes.filter((n) => n.type === type).map((n) => n.callId);
        expect(callIds('tool_call')).toEqual(ids.calls);
        expect(callIds('tool_result')).toEqual(ids.results);
        expect(nodes.map(fromStored)).toEqual(expected);
        expect(nodes.filter((n) => n.type === 'tool_result').every((n) => !n.isError)).toBe(true);
        // Items of one assistant message share a responseId; other roles have none.
        for (const node of nodes) {
          const fromAssistant = node.type === 'tool_call' || node.role === 'assistant';
          expect(node.responseId !== null).toBe(fromAssistant);
        }
        if (file === TAU) {
          for (const [type, n] of Object.entries(countTypes(nodes))) {
            tauTotals[type] = (tauTotals[type] ?? 0) + n;
          }
        }
      }
    }
    stop();
    expect(tauTotals.tool_call).toBe(111);
    expect(tauTotals.tool_result).toBe(111);
    expect(imported).toHaveLength(10);
    expect(events.map((e) => [e.type, e.threadId])).toEqual(
      imported.flatMap((id) => [
        ['CREATED', id],
        ['ITEMS_APPENDED', id],
      ]),
    );
    const mine = await t.execute<{ threads: { totalCount: number } }>(
      '{ threads(filter: { agentId: "importer-test" }) { totalCount } }',
    );
    expect(mine.threads.totalCount).toBe(10);
  });

  it('stores re-used callIds so that addCompaction pairs each result with the nearest open call', async () => {
    const run = tauRuns.find((r) => reusedCallIds(r.traj) > 0)!;
    const [conversation] = parseTranscriptFile(JSON.stringify([run]), 'tau-cut.json');
    const thread = await importConversation(ctx, conversation!, options);
    const nodes = (await readThread(thread.id)).items.edges.map((e) => e.node);
    // The first call whose id an earlier, already answered call used, and its own result.
    const seen = new Set<string>();
    const reused = nodes.find((n) => {
      if (n.type !== 'tool_call') return false;
      const again = seen.has(n.callId!);
      seen.add(n.callId!);
      return again;
    })!;
    const firstCall = nodes.find((n) => n.type === 'tool_call' && n.callId === reused.callId)!;
    const result = nodes.find(
      (n) => n.type === 'tool_result' && n.callId === reused.callId && n.seq > reused.seq,
    )!;
    expect(firstCall.seq).toBeLessThan(reused.seq);

    const compact = (endSeq: number) =>
      t.request<{ addCompaction: { compaction: { endSeq: number } } }>(
        'mutation($input: AddCompactionInput!) { addCompaction(input: $input) { compaction { endSeq } } }',
        { input: { threadId: thread.id, startSeq: 0, endSeq, summary: 'so far' } },
      );
    // Ending at the re-used call separates it from its own result, not the first call's.
    const split = await compact(reused.seq);
    expect(split.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(split.errors?.[0]?.message).toContain(
      `separates the tool call at seq ${reused.seq} from its result at seq ${result.seq}`,
    );
    const whole = await compact(result.seq);
    expect(whole.errors).toBeUndefined();
    expect(whole.data?.addCompaction.compaction.endSeq).toBe(result.seq);
  });

  it('writes over 500 items of one conversation in one transaction with consecutive seqs', async () => {
    const thread = await importConversation(ctx, bigConversation(1200), options);
    expect(thread.itemCount).toBe(1200);
    expect(thread.nextSeq).toBe(1200);
    const last = await t.execute<{ item: { seq: number; content: string } }>(
      'query($id: ID!) { item(threadId: $id, seq: 1199) { ... on MessageItem { seq content } } }',
      { id: thread.id },
    );
    expect(last.item).toEqual({ seq: 1199, content: 'm1199' });
  });

  it('writes nothing of a conversation whose write fails halfway', async () => {
    const before = await threadCount();
    let inserts = 0;
    // The second insert statement fails: the thread and the first 500 items must roll back.
    const failing = new Proxy(t.app.db.prisma, {
      get(target, prop) {
        if (prop !== '$transaction') return Reflect.get(target, prop);
        return (work: (tx: unknown) => Promise<unknown>, txOptions: unknown) =>
          target.$transaction(
            (tx) =>
              work(
                new Proxy(tx, {
                  get(txTarget, txProp) {
                    // Items are written with raw multi-row INSERTs (src/items/item.service.ts).
                    if (txProp !== '$executeRaw') return Reflect.get(txTarget, txProp);
                    return async (strings: TemplateStringsArray, ...values: unknown[]) => {
                      inserts += 1;
                      if (inserts === 2) throw new Error('disk full');
                      return txTarget.$executeRaw(strings, ...values);
                    };
                  },
                }),
              ),
            txOptions as never,
          );
      },
    });
    const failingCtx = { ...ctx, db: { ...ctx.db, prisma: failing } };
    await expect(importConversation(failingCtx, bigConversation(1200), options)).rejects.toThrow(
      'disk full',
    );
    expect(inserts).toBe(2);
    expect(await threadCount()).toBe(before);
  });

  it('checks every item before writing: a too large item writes no thread', async () => {
    const before = await threadCount();
    const [conversation] = parseTranscriptFile(JSON.stringify([tauRuns[0]]), 'tau-cut.json');
    const small = { ...ctx, limits: { ...ctx.limits, maxItemBytes: 2000 } };
    await expect(importConversation(small, conversation!, options)).rejects.toThrow(
      /^tau-bench task 0 trial 0: items\[0\]: its data is \d+ bytes of JSON; the limit is 2000 bytes per item\.$/,
    );
    expect(await threadCount()).toBe(before);
  });
});

/** Runs the real CLI (`npx tsx src/import/cli.ts ...`); resolves with its exit code and output. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/import/cli.ts', ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run import', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    // A database of the run's provider (a SQLite file or a PostgreSQL database) that no other
    // connection holds while the CLI migrates it.
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'threadstore-import-'));
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the fixtures, skips bad files naming the line; the server lists the threads', async () => {
    const total = [...tauRuns.map((r) => r.traj), ...pydanticEntries.map((e) => e.messages)]
      .map((m) => expectedItems(m).length)
      .reduce((a, b) => a + b);
    const good = await runCli(['--database', database.url, TAU, PYDANTIC]);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    const lines = good.stdout.trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^[0-9a-f-]{36} {2}tau-bench task 0 trial 0 {2}32 items$/);
    expect(lines.at(-1)).toBe(`imported 10 threads with ${total} items from 2 of 2 files`);

    const badJsonl = join(dir, 'bad.jsonl');
    const first = JSON.stringify({ messages: [{ role: 'user', content: 'a' }] });
    writeFileSync(badJsonl, `${first}\n{"messages": []}\n{oops\n`);
    const noCallId = join(dir, 'no-call-id.json');
    writeFileSync(
      noCallId,
      JSON.stringify([
        { role: 'assistant', tool_calls: [call('c1', 'f', '{}')] },
        { role: 'tool', content: 'x' },
      ]),
    );
    const mixed = await runCli([
      '--database',
      database.url,
      '--agent',
      'second-run',
      badJsonl,
      noCallId,
      PYDANTIC,
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr.trim().split('\n')).toEqual([
      `${badJsonl}: line 3: invalid JSON at column 2: Expected property name or '}'`,
      `${noCallId}: message 1: a tool message needs a tool_call_id (the id of the call it answers)`,
    ]);
    expect(mixed.stdout.trim().split('\n').at(-1)).toBe(
      'imported 2 threads with 13 items from 1 of 3 files; 2 failed (see above)',
    );

    // What `npm start` on that database serves (and GraphiQL browses).
    const server = await startServer({ DATABASE_URL: database.url });
    try {
      const count = async (filter: Record<string, unknown>) => {
        const result = await server.graphql<{ threads: { totalCount: number } }>(
          'query($filter: ThreadFilter) { threads(filter: $filter) { totalCount } }',
          { filter: { includeArchived: true, ...filter } },
        );
        expect(result.errors).toBeUndefined();
        return result.data!.threads.totalCount;
      };
      expect(await count({})).toBe(12);
      expect(await count({ agentId: 'openai-chat-import' })).toBe(10);
      expect(await count({ agentId: 'second-run' })).toBe(2);
      expect(await count({ metadata: { importedFrom: 'bad.jsonl' } })).toBe(0);
      expect(await count({ metadata: { importedFrom: 'no-call-id.json' } })).toBe(0);
      expect(await count({ metadata: { format: 'tau-bench', task_id: 33 } })).toBe(2);
      const firstThread = await server.graphql<{ thread: { name: string; itemCount: number } }>(
        'query($id: ID!) { thread(id: $id) { name itemCount } }',
        { id: lines[0]!.split(' ')[0] },
      );
      expect(firstThread.data?.thread).toEqual({
        name: 'tau-bench task 0 trial 0',
        itemCount: expectedItems(tauRuns[0]!.traj).length,
      });
    } finally {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  });
});
