import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedFromDraft } from '../src/transcripts/envelope.js';
import * as chat from '../src/transcripts/openai-chat.js';
import type { DecodedConversation, StoredItem } from '../src/transcripts/types.js';

const FIXTURES = join(import.meta.dirname, '../../shared/fixtures');
const fixture = (path: string): unknown => JSON.parse(readFileSync(join(FIXTURES, path), 'utf8'));

/** What the store gives back: seqs and ids, every value through JSON. */
function store(conversation: DecodedConversation): StoredItem[] {
  return conversation.items.map((d, seq) => storedFromDraft(d, seq));
}

describe('OPENAI_CHAT', () => {
  it('round-trips tau-bench', () => {
    const runs = fixture('openai-chat/tau-bench-gpt-4o-airline-sample.json') as { traj: unknown }[];
    const conversations = chat.decode(runs);
    expect(conversations).toHaveLength(8);
    conversations.forEach((c, i) => {
      const encoded = chat.encode(store(c));
      expect(JSON.stringify(encoded.value)).toBe(JSON.stringify(runs[i]!.traj));
      expect(encoded.dropped).toEqual([]);
    });
  });
});

import * as anthropic from '../src/transcripts/anthropic-messages.js';

interface Cassettes {
  cassettes: { interactions: { request_body: Record<string, unknown>; response_body: unknown }[] }[];
}
/** Each exchange as one conversation: `{system?, messages: [...request.messages, response]}`. */
function anthropicConversations(file: Cassettes): unknown[] {
  return file.cassettes.flatMap((c) =>
    c.interactions.map(({ request_body: rq, response_body: rs }) => ({
      ...(rq.system === undefined ? {} : { system: rq.system }),
      messages: [...(rq.messages as unknown[]), rs],
    })),
  );
}

describe('ANTHROPIC_MESSAGES', () => {
  const file = fixture('anthropic/pydantic-ai-anthropic-messages-cassettes.json') as Cassettes;
  it('round-trips every exchange', () => {
    const expected = anthropicConversations(file);
    const conversations = anthropic.decode(file);
    expect(conversations).toHaveLength(expected.length);
    conversations.forEach((c, i) => {
      const encoded = anthropic.encode(store(c));
      expect(JSON.stringify(encoded.value)).toBe(JSON.stringify(expected[i]));
      expect(encoded.dropped).toEqual([]);
    });
  });
});

import * as responses from '../src/transcripts/openai-responses.js';

describe('OPENAI_RESPONSES', () => {
  const file = fixture('responses/pydantic-ai-openai-responses-cassettes.json') as Cassettes;
  const expected = file.cassettes.flatMap((c) =>
    c.interactions.map(({ request_body: rq, response_body: rs }) => [
      ...(rq.input as unknown[]),
      ...((rs as { output: unknown[] }).output ?? []),
    ]),
  );
  it('round-trips every exchange', () => {
    const conversations = responses.decode(file);
    expect(conversations).toHaveLength(expected.length);
    conversations.forEach((c, i) => {
      const encoded = responses.encode(store(c));
      expect(JSON.stringify(encoded.value)).toBe(JSON.stringify(expected[i]));
      expect(encoded.dropped).toEqual([]);
    });
  });
});

import * as claudeCode from '../src/transcripts/claude-code.js';

describe('CLAUDE_CODE_JSONL', () => {
  const text = readFileSync(
    join(FIXTURES, 'anthropic/claude-code-transcript-python-to-rust-port.jsonl'),
    'utf8',
  );
  const lines = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  it('round-trips the session line for line, byte for byte', () => {
    const [conversation] = claudeCode.decode(lines);
    const encoded = claudeCode.encode(store(conversation!));
    expect(JSON.stringify(encoded.value)).toBe(JSON.stringify(lines));
    expect(encoded.dropped).toEqual([]);
    // The fixture is compact JSON, one value a line, with a final newline: re-serialising each
    // line gives the file back byte for byte (no normalisation needed).
    const written = `${(encoded.value as unknown[]).map((l) => JSON.stringify(l)).join('\n')}\n`;
    expect(written).toBe(text);
  });
});
