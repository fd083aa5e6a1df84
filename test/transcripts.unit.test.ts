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
