/**
 * ANTHROPIC_MESSAGES: `{system?, messages: [{role, content: string | blocks}]}`.
 *
 * Sources decode accepts: that object (a request body; its other keys go to `meta`); a messages
 * array; one response message (`{type: "message", id, role, content, ...}`); recorded exchanges
 * (exchanges.ts), where each exchange is `{system?, messages: [...request.messages, response]}`.
 * A message with a block list becomes one item per block (split rule: envelope.ts), sharing
 * the message's `id` as responseId (`msg-<index>` for an assistant message without one). The
 * system prompt is one message item with role system and raw `{system: <the value>}`.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { blockBody, buildMessages, startsMessage } from './anthropic-blocks.js';
import { contextEntries } from './common.js';
import { splitRaws, str } from './envelope.js';
import { exchangesOf, without } from './exchanges.js';
import { pairedEntries } from './pairs.js';
import { checkRecord } from './record-check.js';
import {
  type CompactionRecord,
  type ContextEntry,
  type DecodedConversation,
  type Dropped,
  type Encoded,
  type EncodeState,
  type ItemDraft,
  type JsonObject,
  type ModelContext,
  type StoredItem,
  TranscriptError,
} from './types.js';

const FORMAT = 'ANTHROPIC_MESSAGES' as const;

/** The conversations of an Anthropic Messages source (see the module docstring). */
export function decode(source: unknown): DecodedConversation[] {
  const exchanges = exchangesOf(source);
  if (exchanges) {
    return exchanges.map((x, index) => {
      const messages = Array.isArray(x.request.messages) ? [...x.request.messages] : [];
      if (x.response) messages.push(x.response);
      const meta = without(x.request, 'messages', 'system');
      if (x.source) meta.source = x.source;
      const where = x.where ? `${x.where}.request_body` : 'request_body';
      return conversation({ system: x.request.system, messages }, meta, index, where);
    });
  }
  if (Array.isArray(source)) return [conversation({ messages: source }, {}, 0, '')];
  if (isJsonObject(source) && source.type === 'message') {
    return [conversation({ messages: [source] }, {}, 0, '')];
  }
  if (isJsonObject(source) && Array.isArray(source.messages)) {
    return [conversation(source, without(source, 'messages', 'system'), 0, '')];
  }
  throw new TranscriptError(null, 'expected {system?, messages}, a messages array or a message');
}

function conversation(
  value: { system?: JsonValue; messages?: JsonValue },
  meta: JsonObject,
  index: number,
  where: string,
): DecodedConversation {
  const items: ItemDraft[] = [];
  const locations: string[] = [];
  const at = where ? `${where}.` : '';
  const base = { responseId: null, createdBy: null, createdAt: null, rawFormat: FORMAT };
  if (value.system !== undefined) {
    locations.push(`${at}system`);
    const system = value.system;
    const parts = Array.isArray(system) ? { parts: system } : {};
    const content = typeof system === 'string' ? system : textOf(system);
    items.push({ ...base, message: { role: 'system', content, ...parts }, raw: { system } });
  }
  const model = str(meta.model);
  const messages = value.messages as JsonValue[];
  messages.forEach((m, j) => {
    for (const d of messageDrafts(m, j, model, `${at}messages[${j}]`)) {
      items.push(d);
      locations.push(`${at}messages[${j}]`);
    }
  });
  return { index, items, compactions: [], meta, locations };
}

function textOf(blocks: JsonValue | undefined): string | null {
  if (!Array.isArray(blocks)) return null;
  return blocks
    .map((b) => (isJsonObject(b) && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}

/**
 * The drafts of one Anthropic message: one per content block, or one message item for string
 * (or empty) content. Exported for the Claude Code codec, which wraps the same messages.
 * @param defaults responseId/createdBy/createdAt to use where the message does not say
 */
export function messageDrafts(
  message: JsonValue,
  j: number,
  model: string | null,
  where: string,
  defaults: Partial<Pick<ItemDraft, 'createdAt' | 'createdBy' | 'responseId'>> = {},
): ItemDraft[] {
  checkRecord(FORMAT, message, where);
  if (!isJsonObject(message) || typeof message.role !== 'string') {
    throw new TranscriptError(where, 'a message needs a role');
  }
  const role = message.role;
  const assistant = role === 'assistant';
  const draftBase = {
    responseId: str(message.id) ?? defaults.responseId ?? (assistant ? `msg-${j}` : null),
    createdBy: str(message.model) ?? defaults.createdBy ?? (assistant ? model : null),
    createdAt: defaults.createdAt ?? null,
    rawFormat: FORMAT,
  };
  const content = message.content;
  if (!Array.isArray(content) || content.length === 0) {
    if (content !== undefined && typeof content !== 'string' && !Array.isArray(content)) {
      throw new TranscriptError(`${where}.content`, 'must be a string or a list of blocks');
    }
    const text = typeof content === 'string' ? content : '';
    const parts = Array.isArray(content) ? { parts: content } : {};
    return [{ ...draftBase, message: { role, content: text, ...parts }, raw: message }];
  }
  const raws = splitRaws(message, ['content'], content);
  return content.map((block, k) => {
    if (!isJsonObject(block)) throw new TranscriptError(`${where}.content[${k}]`, 'not a block');
    return { ...draftBase, ...blockBody(block, role), raw: raws[k]! };
  });
}

/** True for a whole record of this format: a message, or the system wrapper. */
export function isAnthropicRecord(raw: JsonValue): boolean {
  return (
    isJsonObject(raw) &&
    (typeof raw.role === 'string' || (Object.keys(raw).length === 1 && 'system' in raw))
  );
}

/**
 * Items back to `{system?, messages}`: records of this format from raw; Claude Code items by
 * their verbatim blocks; others converted (text, images by URL, tool_use, tool_result). Reasoning
 * without an Anthropic signature and other item types are dropped.
 */
export function encode(
  items: readonly StoredItem[],
  _compactions?: readonly CompactionRecord[],
  state?: EncodeState,
): Encoded {
  return buildMessages(items, 'encode', state);
}

/** TranscriptCodec.startsValue: see startsMessage (anthropic-blocks.ts). */
export const startsValue = startsMessage;

/**
 * The request `{system?, messages}` for the compacted context: only role and content per message,
 * consecutive same-role messages merged (roles alternate), tool_result blocks first in their user
 * message, blocks (thinking signatures included) unchanged, each compaction record a marked
 * user text block; unpaired tool calls and results left out and listed (pairs.ts).
 */
export function modelContext(
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[] = [],
): ModelContext {
  const side: Dropped[] = [];
  const entries: ContextEntry[] = pairedEntries(contextEntries(items, compactions, side), side);
  const { value, dropped } = buildMessages(entries, 'context');
  const request = value as JsonObject;
  // No system prompt: the key is left out (the API takes an absent system, not an empty one).
  return { request, dropped: [...side, ...dropped] };
}
