/**
 * Transcripts across formats (issue 11, points 3 and 4), through the real GraphQL endpoint on
 * the run's database: encrypted reasoning goes only to the provider it belongs to; every tool
 * call in Thread.modelContext is answered in the place its provider wants (unanswered calls
 * left out and listed, an AI SDK denial sent as a result), while Thread.transcript keeps the
 * log as it is; and the blocks of one split source record make one message in every format.
 * Values are compared whole; dropped lists entry by entry (seq, what, why).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsFromEnv } from '../src/context.js';
import { parseEnv } from '../src/env.js';
import { anonymousIdentity } from '../src/identity/identity.js';
import { findThread } from '../src/threads/thread.service.js';
import { exportChunks } from '../src/transcripts/export-stream.js';
import type { TranscriptFormat } from '../src/transcripts/types.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { checkAnthropic, checkChat, checkResponses } from './transcripts-checks.js';

type Obj = Record<string, unknown>;

const IMPORT = `mutation($input: ImportTranscriptInput!) {
  importTranscript(input: $input) { thread { id } itemsImported } }`;
const FIELD = (field: string) => `query($id: ID!, $format: TranscriptFormat!) {
  thread(id: $id) { ${field}(format: $format) } }`;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Imports a transcript; the new thread's id. */
async function imported(format: string, transcript: unknown): Promise<string> {
  const res = await t.execute<{ importTranscript: { thread: { id: string } } }>(IMPORT, {
    input: { format, transcript, agentId: 'pairs' },
  });
  return res.importTranscript.thread.id;
}

/** Thread.transcript or Thread.modelContext, with extensions.transcriptDropped as [seq, what, why]. */
async function read(field: 'transcript' | 'modelContext', id: string, format: string) {
  const res = await t.request(FIELD(field), { id, format });
  expect(res.errors).toBeUndefined();
  const dropped = ((res as { extensions?: Obj }).extensions?.transcriptDropped ?? []) as Obj[];
  return {
    value: (res.data as { thread: Obj }).thread[field] as Obj | Obj[],
    dropped: dropped.map((d) => [d.seq, d.what, d.why]),
  };
}

/**
 * The thread streamed as GET /threads/<id>/export and npm run export read it (export-stream.ts),
 * one item a page so a chunk may end after any item: the values put together.
 */
async function streamed(id: string, format: TranscriptFormat): Promise<unknown[]> {
  const ctx = {
    db: t.app.db,
    identity: anonymousIdentity('local'),
    tenantId: 'local',
    events: t.app.events,
    limits: limitsFromEnv(parseEnv({ DATABASE_URL: t.url })),
  };
  const thread = (await findThread(ctx, id))!;
  const values: unknown[] = [];
  for await (const chunk of exportChunks(ctx, thread, format, undefined, { pageItems: 1 })) {
    values.push(...chunk.values);
  }
  return values;
}

const CHECKS = {
  OPENAI_CHAT: checkChat,
  OPENAI_RESPONSES: checkResponses,
  ANTHROPIC_MESSAGES: checkAnthropic,
} as const;

/** modelContext in `format`, checked against the provider's request rules. */
async function context(id: string, format: keyof typeof CHECKS) {
  const got = await read('modelContext', id, format);
  expect(CHECKS[format](got.value as Obj), format).toEqual([]);
  return got;
}

const NOT_ANTHROPIC =
  "Anthropic takes back only its own redacted_thinking data; this encrypted reasoning is not known to be Anthropic's";
const UNANSWERED =
  'a tool call without a result: a model request must answer every call (run it and append its result first)';
const fn = (id: string, name = 'f', args = '{}') => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

describe('encrypted reasoning goes only to its own provider', () => {
  it("OpenAI's encrypted_content is listed, not sent to Anthropic as redacted_thinking", async () => {
    const id = await imported('OPENAI_RESPONSES', [
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'a1', annotations: [] }],
      },
    ]);
    const expected = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'a1' }] },
      ],
    };
    for (const field of ['transcript', 'modelContext'] as const) {
      const got = await read(field, id, 'ANTHROPIC_MESSAGES');
      expect(got.value, field).toEqual(expected);
      expect(got.dropped, field).toEqual([[1, 'reasoning (encryptedContent)', NOT_ANTHROPIC]]);
    }
  });

  it('an AI SDK part with OpenAI metadata is listed; one with Anthropic metadata is redacted_thinking', async () => {
    const id = await imported('AI_SDK_UI_MESSAGES', [
      { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'q' }] },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            text: '',
            providerMetadata: { openai: { itemId: 'rs_1', reasoningEncryptedContent: 'OPENAI' } },
          },
          {
            type: 'reasoning',
            text: '',
            providerMetadata: { anthropic: { redactedData: 'ANTHROPIC' } },
          },
          { type: 'text', text: 'a1' },
        ],
      },
    ]);
    const got = await context(id, 'ANTHROPIC_MESSAGES');
    expect(got.value).toEqual({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'redacted_thinking', data: 'ANTHROPIC' },
            { type: 'text', text: 'a1' },
          ],
        },
      ],
    });
    expect(got.dropped).toEqual([[1, 'reasoning (encryptedContent)', NOT_ANTHROPIC]]);
  });

  it("Anthropic's redacted data and signatures never become Responses encrypted_content", async () => {
    const id = await imported('ANTHROPIC_MESSAGES', {
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 'SIG' },
            { type: 'redacted_thinking', data: 'RED' },
            { type: 'text', text: 'a' },
          ],
        },
      ],
    });
    const got = await context(id, 'OPENAI_RESPONSES');
    expect(got.value).toEqual({
      input: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
      ],
    });
    const why = 'OpenAI takes back only its own reasoning items';
    expect(got.dropped).toEqual([
      [1, 'reasoning', why],
      [2, 'reasoning', why],
    ]);
  });
});

describe('modelContext answers every tool call; the transcript keeps the log', () => {
  const tool = (id: string, state: string, extra: Obj = {}) => ({
    type: 'tool-f',
    toolCallId: id,
    state,
    input: {},
    ...extra,
  });
  const uiMessages = [
    { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'do' }] },
    {
      id: 'a1',
      role: 'assistant',
      parts: [
        tool('c0', 'output-available', { output: 'ok' }),
        tool('c1', 'input-streaming'),
        tool('c2', 'input-available'),
        tool('c3', 'approval-requested', { approval: { id: 'ap3' } }),
        tool('c4', 'output-denied', { approval: { id: 'ap4', approved: false, reason: 'no' } }),
        tool('c5', 'approval-responded', { approval: { id: 'ap5', approved: true } }),
      ],
    },
  ];

  it('AI SDK tool parts without output are left out and listed; a denial is a result', async () => {
    const id = await imported('AI_SDK_UI_MESSAGES', uiMessages);
    // Items: 0 user text, 1-2 c0 call and result, 3 c1, 4 c2, 5 c3, 6-7 c4 call and its
    // denial, 8 c5.
    const unanswered = [3, 4, 5, 8].map((seq) => [seq, 'the whole item', UNANSWERED]);
    const call = (callId: string) => ({ type: 'tool_use', id: callId, name: 'f', input: {} });
    const anthropic = await context(id, 'ANTHROPIC_MESSAGES');
    expect(anthropic.value).toEqual({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'do' }] },
        { role: 'assistant', content: [call('c0')] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c0', content: 'ok' }] },
        { role: 'assistant', content: [call('c4')] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'c4', content: 'no', is_error: true }],
        },
      ],
    });
    expect(anthropic.dropped).toEqual(unanswered);
    const chat = await context(id, 'OPENAI_CHAT');
    expect(chat.value).toEqual({
      messages: [
        { role: 'user', content: 'do' },
        { role: 'assistant', content: null, tool_calls: [fn('c0')] },
        { role: 'tool', content: 'ok', tool_call_id: 'c0' },
        { role: 'assistant', content: null, tool_calls: [fn('c4')] },
        { role: 'tool', content: 'no', tool_call_id: 'c4' },
      ],
    });
    // The denial's error flag has no field in Chat or Responses: listed (as for any result).
    expect(chat.dropped).toEqual([
      ...unanswered,
      [7, 'isError', 'an OpenAI Chat tool message has no error flag'],
    ]);
    const responses = await context(id, 'OPENAI_RESPONSES');
    const fc = (callId: string) => ({
      type: 'function_call',
      call_id: callId,
      name: 'f',
      arguments: '{}',
    });
    expect(responses.value).toEqual({
      input: [
        { role: 'user', content: 'do' },
        fc('c0'),
        { type: 'function_call_output', call_id: 'c0', output: 'ok' },
        fc('c4'),
        { type: 'function_call_output', call_id: 'c4', output: 'no' },
      ],
    });
    expect(responses.dropped).toEqual([
      ...unanswered,
      [7, 'isError', 'an OpenAI Responses function_call_output has no error flag'],
    ]);
    // The transcript is the log: every part comes back in its state.
    const log = await read('transcript', id, 'AI_SDK_UI_MESSAGES');
    expect(JSON.stringify(log.value)).toBe(JSON.stringify(uiMessages));
    expect(log.dropped).toEqual([]);
  });

  it('a call the conversation never answers is left out of modelContext, kept in the transcript', async () => {
    const source = [
      { role: 'user', content: 'x' },
      { role: 'assistant', content: null, tool_calls: [fn('a')] },
      { role: 'user', content: 'never mind' },
    ];
    const id = await imported('OPENAI_CHAT', source);
    const dropped = [[1, 'the whole item', UNANSWERED]];
    const chat = await context(id, 'OPENAI_CHAT');
    expect(chat).toEqual({
      value: {
        messages: [
          { role: 'user', content: 'x' },
          { role: 'user', content: 'never mind' },
        ],
      },
      dropped,
    });
    const responses = await context(id, 'OPENAI_RESPONSES');
    expect(responses).toEqual({
      value: {
        input: [
          { role: 'user', content: 'x' },
          { role: 'user', content: 'never mind' },
        ],
      },
      dropped,
    });
    const anthropic = await context(id, 'ANTHROPIC_MESSAGES');
    expect(anthropic).toEqual({
      value: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'x' },
              { type: 'text', text: 'never mind' },
            ],
          },
        ],
      },
      dropped,
    });
    const log = await read('transcript', id, 'OPENAI_CHAT');
    expect(JSON.stringify(log.value)).toBe(JSON.stringify(source));
    const asAnthropic = await read('transcript', id, 'ANTHROPIC_MESSAGES');
    expect(asAnthropic.value).toEqual({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'x' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'never mind' }] },
      ],
    });
    expect(asAnthropic.dropped).toEqual([]);
  });

  it('Responses: reasoning that led to a call left out goes with it (OpenAI refuses it alone)', async () => {
    const id = await imported('OPENAI_RESPONSES', [
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
    ]);
    expect(await context(id, 'OPENAI_RESPONSES')).toEqual({
      value: { input: [{ role: 'user', content: 'q' }] },
      dropped: [
        [1, 'the whole item', 'the provider takes it only with the item after it, a call left out'],
        [2, 'the whole item', UNANSWERED],
      ],
    });
  });

  it('Responses: an assistant message between calls and results joins the Chat message with the tool_calls', async () => {
    const id = await imported('OPENAI_RESPONSES', [
      { role: 'user', content: 'q' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call', call_id: 'c2', name: 'g', arguments: '{"x":1}' },
      { type: 'message', role: 'assistant', content: 'interleaved' },
      { type: 'function_call_output', call_id: 'c2', output: 'r2' },
      { type: 'function_call_output', call_id: 'c1', output: 'r1' },
    ]);
    const chat = await context(id, 'OPENAI_CHAT');
    expect(chat).toEqual({
      value: {
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: 'interleaved',
            tool_calls: [fn('c1'), fn('c2', 'g', '{"x":1}')],
          },
          { role: 'tool', content: 'r2', tool_call_id: 'c2' },
          { role: 'tool', content: 'r1', tool_call_id: 'c1' },
        ],
      },
      dropped: [],
    });
    const anthropic = await context(id, 'ANTHROPIC_MESSAGES');
    expect(anthropic).toEqual({
      value: {
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'c1', name: 'f', input: {} },
              { type: 'tool_use', id: 'c2', name: 'g', input: { x: 1 } },
              { type: 'text', text: 'interleaved' },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'c2', content: 'r2' },
              { type: 'tool_result', tool_use_id: 'c1', content: 'r1' },
            ],
          },
        ],
      },
      dropped: [],
    });
    await context(id, 'OPENAI_RESPONSES');
  });

  it('Anthropic: a user turn [text, tool_result, text] gives Chat the tool message first', async () => {
    const id = await imported('ANTHROPIC_MESSAGES', {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'before' },
            { type: 'tool_result', tool_use_id: 't1', content: 'R' },
            { type: 'text', text: 'after' },
          ],
        },
      ],
    });
    const chat = await context(id, 'OPENAI_CHAT');
    expect(chat).toEqual({
      value: {
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, tool_calls: [fn('t1')] },
          { role: 'tool', content: 'R', tool_call_id: 't1' },
          { role: 'user', content: 'before' },
          { role: 'user', content: 'after' },
        ],
      },
      dropped: [],
    });
    const responses = await context(id, 'OPENAI_RESPONSES');
    expect(responses.value).toEqual({
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 't1', name: 'f', arguments: '{}' },
        { role: 'user', content: 'before' },
        { type: 'function_call_output', call_id: 't1', output: 'R' },
        { role: 'user', content: 'after' },
      ],
    });
    const anthropic = await context(id, 'ANTHROPIC_MESSAGES');
    expect((anthropic.value as { messages: Obj[] }).messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'R' },
        { type: 'text', text: 'before' },
        { type: 'text', text: 'after' },
      ],
    });
  });
});

describe('the blocks of one source record make one message in every format', () => {
  it('an Anthropic user message [image, image, text] is one user message', async () => {
    const image = (name: string) => ({
      type: 'image',
      source: { type: 'url', url: `https://x.test/${name}.png` },
    });
    const id = await imported('ANTHROPIC_MESSAGES', {
      messages: [
        { role: 'user', content: [image('a'), image('b'), { type: 'text', text: 'what?' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'two images' }] },
      ],
    });
    const url = (name: string) => `https://x.test/${name}.png`;
    const chatUser = {
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: url('a') } },
        { type: 'image_url', image_url: { url: url('b') } },
        { type: 'text', text: 'what?' },
      ],
    };
    const responsesUser = {
      role: 'user',
      content: [
        { type: 'input_image', image_url: url('a') },
        { type: 'input_image', image_url: url('b') },
        { type: 'input_text', text: 'what?' },
      ],
    };
    const chat = { value: [chatUser, { role: 'assistant', content: 'two images' }], dropped: [] };
    expect(await read('transcript', id, 'OPENAI_CHAT')).toEqual(chat);
    expect(await context(id, 'OPENAI_CHAT')).toEqual({ ...chat, value: { messages: chat.value } });
    const responses = {
      value: [responsesUser, { role: 'assistant', content: 'two images' }],
      dropped: [],
    };
    expect(await read('transcript', id, 'OPENAI_RESPONSES')).toEqual(responses);
    expect(await context(id, 'OPENAI_RESPONSES')).toEqual({
      ...responses,
      value: { input: responses.value },
    });
    // The stream does not cut between the blocks: it writes the same.
    expect(await streamed(id, 'OPENAI_CHAT')).toEqual(chat.value);
    expect(await streamed(id, 'OPENAI_RESPONSES')).toEqual(responses.value);
    const ui = await read('transcript', id, 'AI_SDK_UI_MESSAGES');
    expect(ui).toEqual({
      value: [
        {
          id: 'msg-0',
          role: 'user',
          parts: [
            { type: 'file', mediaType: 'image/*', url: url('a') },
            { type: 'file', mediaType: 'image/*', url: url('b') },
            { type: 'text', text: 'what?' },
          ],
        },
        { id: 'msg-1', role: 'assistant', parts: [{ type: 'text', text: 'two images' }] },
      ],
      dropped: [],
    });
    expect(await streamed(id, 'AI_SDK_UI_MESSAGES')).toEqual(ui.value);
  });

  it('an AI SDK user message [text, file] is one Anthropic and one Chat user message', async () => {
    const id = await imported('AI_SDK_UI_MESSAGES', [
      {
        id: 'u1',
        role: 'user',
        parts: [
          { type: 'text', text: 'see' },
          { type: 'file', mediaType: 'image/png', url: 'https://x.test/c.png' },
        ],
      },
    ]);
    expect(await read('transcript', id, 'ANTHROPIC_MESSAGES')).toEqual({
      value: {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'see' },
              { type: 'image', source: { type: 'url', url: 'https://x.test/c.png' } },
            ],
          },
        ],
      },
      dropped: [],
    });
    expect(await read('transcript', id, 'OPENAI_CHAT')).toEqual({
      value: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'image_url', image_url: { url: 'https://x.test/c.png' } },
          ],
        },
      ],
      dropped: [],
    });
  });
});
