/**
 * Transcript codecs (src/transcripts/) on the real transcripts in ../shared/fixtures: every
 * conversation of every file decodes, goes through storage (seq and id assigned, every value
 * through JSON.stringify/JSON.parse as the database keeps it) and encodes back in its own format
 * to the same JSON text: deep equality including key order, no normalisation. Then the typed
 * fields, conversion across formats (what is dropped is listed), and the model-context shapes
 * checked against the providers' documented request rules (transcripts-checks.ts).
 */
import { describe, expect, it } from 'vitest';
import { pairToolCalls } from '../src/compaction/context.js';
import * as aiSdk from '../src/transcripts/ai-sdk.js';
import * as anthropic from '../src/transcripts/anthropic-messages.js';
import * as claudeCode from '../src/transcripts/claude-code.js';
import { storedFromDraft } from '../src/transcripts/envelope.js';
import { CODECS, detect, modelContext } from '../src/transcripts/index.js';
import * as chat from '../src/transcripts/openai-chat.js';
import * as responses from '../src/transcripts/openai-responses.js';
import type { DecodedConversation, StoredItem } from '../src/transcripts/types.js';
import { checkAnthropic, checkChat, checkResponses } from './transcripts-checks.js';
import { type Body, type Cassettes, sources, text } from './transcripts-sources.js';

/** What the store gives back: seqs and ids, every value through JSON. */
function store(conversation: DecodedConversation): StoredItem[] {
  return conversation.items.map((d, seq) => storedFromDraft(d, seq));
}

describe('round trip in the source format', () => {
  for (const source of sources()) {
    it(`${source.file}: every conversation comes back exactly`, () => {
      expect(detect(source.value)).toBe(source.format);
      const codec = CODECS[source.format]!;
      const conversations = codec.decode(source.value);
      expect(conversations).toHaveLength(source.expected.length);
      conversations.forEach((c, i) => {
        const encoded = codec.encode(store(c));
        expect(JSON.stringify(encoded.value)).toBe(JSON.stringify(source.expected[i]));
        expect(encoded.dropped).toEqual([]);
      });
    });
  }

  it('claude code: the written lines are the file byte for byte', () => {
    const ccText = text('anthropic/claude-code-transcript-python-to-rust-port.jsonl');
    const [conversation] = claudeCode.decode(ccText);
    const { value } = claudeCode.encode(store(conversation!));
    const written = `${(value as unknown[]).map((l) => JSON.stringify(l)).join('\n')}\n`;
    expect(written).toBe(ccText);
  });
});

/** The conversations of a source file, decoded and stored. */
function storedConversations(file: string): StoredItem[][] {
  const source = sources().find((s) => s.file === file)!;
  return CODECS[source.format]!.decode(source.value).map(store);
}
const dataOf = (item: StoredItem) => item.data as Record<string, unknown>;

describe('typed fields', () => {
  it('anthropic: one item per block sharing the message id; thinking, redacted thinking, tools', () => {
    const file = sources().find((s) => s.file === 'anthropic cassettes')!;
    const conversations = anthropic.decode(file.value);
    const first = store(conversations[0]!); // test_anthropic_tool_with_thinking, first exchange
    const response = (file.value as Cassettes).cassettes[0]!.interactions[0]!.response_body;
    const own = first.filter((i) => i.responseId === response.id);
    expect(own.map((i) => i.type)).toEqual(['reasoning', 'message', 'tool_call']);
    const blocks = response.content as Body[];
    expect(dataOf(own[0]!)).toEqual({ text: blocks[0]!.thinking, signature: blocks[0]!.signature });
    expect(own.every((i) => i.createdBy === response.model)).toBe(true);
    expect(dataOf(own[2]!)).toMatchObject({ callId: blocks[2]!.id, name: blocks[2]!.name });

    const all = conversations.flatMap(store);
    const redacted = all.filter((i) => i.type === 'reasoning' && dataOf(i).encryptedContent);
    expect(redacted.length).toBeGreaterThan(0);
    for (const r of redacted) {
      expect(dataOf(r).text).toBe('');
      expect(dataOf(r).encryptedContent).toBe(
        (r.raw as Body).data ?? ((r.raw as Body).block as Body).data,
      );
    }
    // Four parallel tool_use blocks, answered in one user message by four tool_result blocks.
    const parallel = store(conversations[3]!); // test_multiple_parallel_tool_calls, second exchange
    const calls = parallel.filter((i) => i.type === 'tool_call');
    const results = parallel.filter((i) => i.type === 'tool_result');
    expect(calls).toHaveLength(4);
    expect(results.map((r) => dataOf(r).callId)).toEqual(calls.map((c) => dataOf(c).callId));
    expect(new Set(calls.map((c) => c.responseId)).size).toBe(1);
    // Server tools are kept whole as other items, not client tool pairs.
    expect(all.some((i) => i.type === 'server_tool_use')).toBe(true);
    expect(all.some((i) => i.type === 'web_search_tool_result')).toBe(true);
  });

  it('responses: encrypted reasoning, summaries, calls and their response', () => {
    const file = sources().find((s) => s.file === 'responses cassettes')!;
    const all = responses.decode(file.value).flatMap(store);
    const reasoning = all.filter((i) => i.type === 'reasoning');
    expect(reasoning.length).toBeGreaterThan(0);
    for (const r of reasoning) {
      expect(dataOf(r).encryptedContent).toBe((r.raw as Body).encrypted_content);
      expect(dataOf(r).summary).toEqual((r.raw as Body).summary);
    }
    expect(reasoning.some((r) => (dataOf(r).summary as unknown[]).length >= 5)).toBe(true);
    const call = all.find((i) => i.type === 'tool_call' && i.responseId !== null)!;
    expect(call.responseId).toMatch(/^resp_/);
    expect(call.createdBy).toBeTruthy();
    expect(call.createdAt).toMatch(/^20\d\d-/);
    expect(dataOf(call).callId).toBe((call.raw as Body).call_id);
    expect(dataOf(call).arguments).toEqual(JSON.parse((call.raw as Body).arguments as string));
    for (const t of ['web_search_call', 'mcp_call', 'mcp_list_tools']) {
      expect(all.some((i) => i.type === t)).toBe(true);
    }
  });

  it('chat: tau-bench calls pair with their results, re-used callIds included', () => {
    const runs = storedConversations('tau-bench');
    let calls = 0;
    let results = 0;
    let pairs = 0;
    let reused = 0;
    for (const items of runs) {
      const tools = items.filter((i) => i.type === 'tool_call' || i.type === 'tool_result');
      const refs = tools.map((i) => ({
        seq: i.seq,
        type: i.type,
        callId: dataOf(i).callId as string,
      }));
      calls += refs.filter((r) => r.type === 'tool_call').length;
      results += refs.filter((r) => r.type === 'tool_result').length;
      pairs += pairToolCalls(refs).length;
      const ids = refs.filter((r) => r.type === 'tool_call').map((r) => r.callId);
      reused += ids.length - new Set(ids).size;
    }
    expect({ calls, results, pairs }).toEqual({ calls: 111, results: 111, pairs: 111 });
    expect(reused).toBeGreaterThan(0);
  });

  it('swe-agent: tool_call_ids answer calls; extra keys stay in raw; the agent wrote it', () => {
    const [items] = storedConversations('swe-agent');
    const results = items!.filter((i) => i.type === 'tool_result');
    expect(results).toHaveLength(11);
    for (const r of results) {
      expect([dataOf(r).callId]).toEqual((r.raw as Body).tool_call_ids);
      expect((r.raw as Body).message_type).toBe('observation');
    }
    // An assistant message with text and a call: the text item holds the envelope.
    const text = items!.find((i) => i.type === 'message' && dataOf(i).role === 'assistant')!;
    const record = (text.raw as Body).record as Body;
    expect(record.tool_calls).toBe(1);
    expect(record.thought).toBe(record.content);
    expect(text.createdBy).toBe('main');
    expect(items!.find((i) => i.type === 'tool_call')!.createdBy).toBe('main');
  });

  it('claude code: lines of one message.id share a responseId; timestamps kept', () => {
    const [items] = storedConversations('claude code');
    const calls = items!.filter((i) => i.type === 'tool_call');
    expect(calls).toHaveLength(39);
    const assistant = items!.filter((i) => i.responseId !== null);
    expect(new Set(assistant.map((i) => i.responseId)).size).toBe(39);
    expect(assistant.every((i) => i.createdBy === 'claude-opus-4-5-20251101')).toBe(true);
    for (const i of items!) expect(i.createdAt).toBe((i.raw as Body).timestamp);
    expect(items![0]!.type).toBe('resource_event');
    expect(dataOf(items![0]!).kind).toBe('queue-operation');
  });

  it('claude code: a compact boundary becomes a compaction record over the items before it', () => {
    const lines = sources().find((s) => s.file === 'claude code')!.value as Body[];
    const at = 20;
    const boundary = {
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'manual', preTokens: 1234 },
      uuid: 'b-1',
      sessionId: 's',
      timestamp: '2026-01-21T07:00:00.000Z',
    };
    const summary = {
      type: 'user',
      isCompactSummary: true,
      uuid: 's-1',
      sessionId: 's',
      timestamp: '2026-01-21T07:00:00.001Z',
      message: { role: 'user', content: 'Summary: the port is half done.' },
    };
    const edited = [...lines.slice(0, at), boundary, summary, ...lines.slice(at)];
    const [conversation] = claudeCode.decode(edited);
    const markerIndex = conversation!.items.findIndex(
      (i) => i.resourceEvent?.kind === 'system:compact_boundary',
    );
    expect(conversation!.compactions).toEqual([
      {
        startIndex: 0,
        endIndex: markerIndex - 1,
        summary: 'Summary: the port is half done.',
        createdAt: '2026-01-21T07:00:00.000Z',
        createdBy: 'claude-code',
      },
    ]);
    expect(JSON.stringify(claudeCode.encode(store(conversation!)).value)).toBe(
      JSON.stringify(edited),
    );
    // The model is sent the summary once: as the marked record, not again as the user line.
    const records = conversation!.compactions.map((c) => ({
      startSeq: c.startIndex,
      endSeq: c.endIndex,
      summary: c.summary,
    }));
    for (const format of ['ANTHROPIC_MESSAGES', 'OPENAI_CHAT'] as const) {
      const json = JSON.stringify(modelContext(format, store(conversation!), records).request);
      expect(json.split('Summary: the port is half done.').length - 1).toBe(1);
    }
  });

  it('ai sdk: tool parts become a call and a result; reasoning keeps its signature', () => {
    const [items] = storedConversations('ai sdk');
    expect(items!.map((i) => i.type)).toEqual([
      'message',
      'step_start',
      'reasoning',
      'tool_call',
      'tool_result',
      'step_start',
      'message',
      'message',
      'tool_call',
      'tool_result',
      'message',
    ]);
    expect(dataOf(items![2]!).signature).toBe('EqQBCkYIBxgC');
    expect(dataOf(items![4]!)).toEqual({
      callId: 'toolu_1',
      name: 'weather',
      output: { tempC: 21 },
      isError: false,
    });
    expect(dataOf(items![9]!)).toMatchObject({ output: 'timeout', isError: true });
    expect(items![3]!.responseId).toBe('a1');
  });
});

const CHECKS = {
  OPENAI_CHAT: checkChat,
  OPENAI_RESPONSES: checkResponses,
  ANTHROPIC_MESSAGES: checkAnthropic,
} as const;

describe('across formats', () => {
  it('anthropic -> chat: reasoning and server tools are listed as dropped, tools convert', () => {
    const items = storedConversations('anthropic cassettes')[1]!; // tool_with_thinking, 2nd exchange
    const { value, dropped } = chat.encode(items);
    const reasoning = items.filter((i) => i.type === 'reasoning');
    expect(dropped).toEqual(
      reasoning.map((i) => ({
        itemId: i.id,
        seq: i.seq,
        what: 'reasoning',
        why: 'OpenAI Chat messages carry no reasoning',
      })),
    );
    expect(checkChat({ messages: value })).toEqual([]);
    const back = store(chat.decode(value)[0]!);
    const kinds = (xs: StoredItem[]) => xs.filter((i) => i.type !== 'reasoning').map((i) => i.type);
    expect(kinds(back)).toEqual(kinds(items));
    const web = storedConversations('anthropic cassettes').at(-1)!;
    const whys = chat.encode(web).dropped.map((d) => d.why);
    expect(whys).toContain('OpenAI Chat has no server_tool_use records');
  });

  it('chat -> anthropic -> chat keeps text and tool pairs; re-used ids get unique tool_use ids', () => {
    for (const items of storedConversations('tau-bench')) {
      const { value, dropped } = anthropic.encode(items);
      expect(dropped.every((d) => d.what === 'callId')).toBe(true);
      const again = store(anthropic.decode(value)[0]!);
      const back = chat.encode(again);
      expect(back.dropped).toEqual([]);
      const messages = back.value as Body[];
      expect(checkChat({ messages })).toEqual([]);
      const count = (t: string) => again.filter((i) => i.type === t).length;
      expect(count('tool_call')).toBe(items.filter((i) => i.type === 'tool_call').length);
      expect(count('tool_result')).toBe(count('tool_call'));
    }
  });

  it('anthropic -> ai sdk keeps signatures and redacted data as provider metadata', () => {
    for (const items of storedConversations('anthropic cassettes')) {
      const { value } = aiSdk.encode(items);
      const parts = (value as Body[]).flatMap((m) => m.parts as Body[]);
      const thinking = items.filter((i) => i.type === 'reasoning');
      const reasoningParts = parts.filter((p) => p.type === 'reasoning');
      expect(reasoningParts).toHaveLength(thinking.length);
      thinking.forEach((t, k) => {
        const meta = (reasoningParts[k]!.providerMetadata as Body).anthropic as Body;
        expect(meta.signature ?? meta.redactedData).toBe(
          dataOf(t).signature ?? dataOf(t).encryptedContent,
        );
      });
      const answered = parts.filter((x) => x.state === 'output-available');
      expect(answered).toHaveLength(items.filter((i) => i.type === 'tool_result').length);
    }
  });

  it('every conversation encodes in every format, listing what it drops', () => {
    const targets = Object.values(CODECS);
    for (const source of sources()) {
      for (const items of CODECS[source.format]!.decode(source.value).map(store)) {
        for (const codec of targets) {
          const { value, dropped } = codec.encode(items);
          expect(codec.decode(value).length).toBe(1);
          for (const d of dropped) expect(items.some((i) => i.id === d.itemId)).toBe(true);
          if (codec.format === source.format) expect(dropped).toEqual([]);
        }
      }
    }
  });
});

describe('modelContext', () => {
  it('is a valid request in each provider shape for every conversation', () => {
    for (const source of sources()) {
      for (const items of CODECS[source.format]!.decode(source.value).map(store)) {
        for (const [format, check] of Object.entries(CHECKS)) {
          const { request } = modelContext(format as keyof typeof CHECKS, items);
          expect({ source: source.file, format, problems: check(request) }).toEqual({
            source: source.file,
            format,
            problems: [],
          });
        }
      }
    }
  });

  it('anthropic: thinking blocks and signatures go back unchanged, grouped by response', () => {
    for (const items of storedConversations('anthropic cassettes')) {
      const { request } = modelContext('ANTHROPIC_MESSAGES', items);
      const sent = (request.messages as Body[]).flatMap((m) => m.content as Body[]);
      const thinking = (xs: Body[]) => xs.filter((b) => String(b.type).includes('thinking'));
      const original = items.flatMap((i) => {
        const raw = i.raw as Body;
        const block = (raw.block ?? (Array.isArray(raw.content) ? raw.content : [raw])) as
          | Body
          | Body[];
        return Array.isArray(block) ? block : [block];
      });
      expect(thinking(sent)).toEqual(thinking(original));
    }
  });

  it("anthropic: reasoning without an Anthropic record goes back as thinking, or redacted_thinking when the data is Anthropic's", () => {
    const at = (
      seq: number,
      type: string,
      data: Record<string, unknown>,
      responseId: string | null,
      raw: Record<string, unknown> | null = null,
    ) =>
      ({
        id: `t:${seq}`,
        seq,
        type,
        data,
        responseId,
        raw,
        rawFormat: raw ? 'AI_SDK_UI_MESSAGES' : null,
      }) as unknown as StoredItem;
    // An AI SDK reasoning part whose provider metadata says Anthropic (not the first part).
    const part = {
      type: 'reasoning',
      text: '',
      providerMetadata: { anthropic: { redactedData: 'ENC' } },
    };
    const items = [
      at(0, 'message', { role: 'user', content: 'What is 2+2?' }, null),
      at(1, 'reasoning', { text: 'Simple arithmetic.', signature: 'SIG' }, 'msg_1'),
      at(2, 'reasoning', { text: '', encryptedContent: 'ENC' }, 'msg_1', part),
      // No record says whose encrypted reasoning this is: not sent, listed.
      at(3, 'reasoning', { text: '', encryptedContent: 'WHOSE' }, 'msg_1'),
      at(4, 'message', { role: 'assistant', content: '4' }, 'msg_1'),
    ];
    const { request, dropped } = modelContext('ANTHROPIC_MESSAGES', items);
    expect(dropped).toEqual([
      {
        itemId: 't:3',
        seq: 3,
        what: 'reasoning (encryptedContent)',
        why: "Anthropic takes back only its own redacted_thinking data; this encrypted reasoning is not known to be Anthropic's",
      },
    ]);
    expect((request.messages as Body[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Simple arithmetic.', signature: 'SIG' },
        { type: 'redacted_thinking', data: 'ENC' },
        { type: 'text', text: '4' },
      ],
    });
  });

  it('a compaction record stands in for its items as a marked summary', () => {
    const items = storedConversations('tau-bench')[0]!;
    // End the range just before a user message, so no tool pair is cut.
    const end =
      items.findIndex((i, k) => k > 5 && i.type === 'message' && dataOf(i).role === 'user') - 1;
    const record = { startSeq: 1, endSeq: end, summary: 'The customer wants to change a flight.' };
    for (const [format, check] of Object.entries(CHECKS)) {
      const { request } = modelContext(format as keyof typeof CHECKS, items, [record]);
      expect(check(request)).toEqual([]);
      const json = JSON.stringify(request);
      expect(json).toContain('[threadstore compaction summary of items 1-');
      expect(json).toContain('The customer wants to change a flight.');
      // The covered items are gone: the first user message's text is not sent.
      const covered = dataOf(items[1]!).content as string;
      expect(json.includes(JSON.stringify(covered).slice(1, -1))).toBe(false);
    }
    const chatRequest = modelContext('OPENAI_CHAT', items, [record]).request.messages as Body[];
    expect(chatRequest[1]!.content).toMatch(/^\[threadstore compaction summary/);
  });
});

describe('side chains', () => {
  it('are kept in the log and round trip, but left out of the model context', () => {
    const lines = sources().find((s) => s.file === 'claude code')!.value as Body[];
    const side = lines.map((l, i) => (i === 2 || i === 3 ? { ...l, isSidechain: true } : l));
    const items = store(claudeCode.decode(side)[0]!);
    expect(JSON.stringify(claudeCode.encode(items).value)).toBe(JSON.stringify(side));
    const { request, dropped } = modelContext('ANTHROPIC_MESSAGES', items);
    const sideSeqs = items
      .filter((i) => i.raw && (i.raw as Body).isSidechain === true)
      .map((i) => i.seq);
    expect(sideSeqs).toHaveLength(2);
    expect(dropped.filter((d) => d.why.includes('side chain')).map((d) => d.seq)).toEqual(sideSeqs);
    expect(checkAnthropic(request)).toEqual([]);
  });
});

describe('the request checks catch what providers refuse', () => {
  const use = { type: 'tool_use', id: 't1', name: 'f', input: {} };
  const result = { type: 'tool_result', tool_use_id: 't1', content: 'ok' };
  it('anthropic', () => {
    const ok = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [use] },
      { role: 'user', content: [result, { type: 'text', text: 'go on' }] },
    ];
    expect(checkAnthropic({ system: '', messages: ok })).toEqual([]);
    const twoUsers = [ok[0], { role: 'user', content: 'again' }];
    expect(checkAnthropic({ system: '', messages: twoUsers })).toHaveLength(1);
    const textFirst = [
      ok[0],
      ok[1],
      { role: 'user', content: [{ type: 'text', text: 'x' }, result] },
    ];
    expect(checkAnthropic({ system: '', messages: textFirst })).toHaveLength(1);
    const unanswered = [ok[0], ok[1], { role: 'user', content: 'x' }];
    expect(checkAnthropic({ system: '', messages: unanswered })).toHaveLength(1);
    // A request may not end with calls waiting either.
    expect(checkAnthropic({ messages: [ok[0], ok[1]] })).toEqual([
      'messages[1] tool_use t1 unanswered next',
    ]);
  });
  it('chat and responses', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const early = [
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'user', content: 'x' },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ];
    expect(checkChat({ messages: early })).toHaveLength(2);
    const orphan = [{ type: 'function_call_output', call_id: 'c1', output: 'ok' }];
    expect(checkResponses({ input: orphan })).toHaveLength(1);
    const last = [{ role: 'user', content: 'x' }, early[0]];
    expect(checkChat({ messages: last })).toEqual(['the calls c1 are never answered']);
    const unanswered = [{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }];
    expect(checkResponses({ input: unanswered })).toEqual(['function_call c1 never answered']);
  });
});

describe('bad sources', () => {
  it('name the index or line and the reason', () => {
    expect(() =>
      chat.decode([
        { role: 'user', content: 'x' },
        { role: 'tool', content: 'y' },
      ]),
    ).toThrow('[1]: a tool message needs tool_call_id (or tool_call_ids)');
    expect(() =>
      anthropic.decode({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, 3] }] }),
    ).toThrow('messages[0]: not a record of ANTHROPIC_MESSAGES: content[1] needs a "type"');
    expect(() => claudeCode.decode('{"type":"user"}\n{oops\n')).toThrow(/^line 2: not JSON/);
    expect(() => responses.decode({ input: [1] })).toThrow(
      'input[0]: not a record of OPENAI_RESPONSES: a record must be a JSON object',
    );
    expect(detect({ hello: 'world' })).toBeNull();
  });
});
