/**
 * The transcript codecs by format, and format detection for the CLI.
 * THREADSTORE_JSONL is not here: it needs the stored thread, not just its items.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import * as aiSdk from './ai-sdk.js';
import * as anthropic from './anthropic-messages.js';
import * as claudeCode from './claude-code.js';
import * as chat from './openai-chat.js';
import * as responses from './openai-responses.js';
import { RecordError, recordProblem } from './record-check.js';
import {
  type CompactionRecord,
  type DecodedConversation,
  type ModelContext,
  type StoredItem,
  type TranscriptCodec,
  TranscriptError,
  type TranscriptFormat,
} from './types.js';

/**
 * A decode error with, for a record of another format, the format it looks like
 * ("...; it looks like ANTHROPIC_MESSAGES"); other errors unchanged.
 */
export function withFormatHint(error: unknown): unknown {
  if (!(error instanceof RecordError)) return error;
  // Detection first (it knows Claude Code lines by their keys), then the first format whose
  // record check passes, most specific first.
  const candidates = [detect([error.record]), ...HINT_ORDER];
  const looks = candidates.find(
    (f) => f && !error.family.includes(f) && recordProblem(f, error.record) === null,
  );
  if (!looks) return error;
  return new TranscriptError(error.location, `${error.reason}; it looks like ${looks}`);
}

const HINT_ORDER: TranscriptFormat[] = [
  'AI_SDK_UI_MESSAGES',
  'ANTHROPIC_MESSAGES',
  'OPENAI_CHAT',
  'OPENAI_RESPONSES',
  'CLAUDE_CODE_JSONL',
];

/** A decode function whose record errors carry the format hint. */
function hinted(decode: (source: unknown) => DecodedConversation[]) {
  return (source: unknown) => {
    try {
      return decode(source);
    } catch (error) {
      throw withFormatHint(error);
    }
  };
}

/** decode/encode per format. decode refuses records of another format (record-check.ts). */
export const CODECS: Partial<Record<TranscriptFormat, TranscriptCodec>> = {
  OPENAI_CHAT: {
    format: 'OPENAI_CHAT',
    decode: hinted(chat.decode),
    encode: chat.encode,
    startsValue: chat.startsValue,
  },
  OPENAI_RESPONSES: {
    format: 'OPENAI_RESPONSES',
    decode: hinted(responses.decode),
    encode: responses.encode,
    startsValue: responses.startsValue,
  },
  ANTHROPIC_MESSAGES: {
    format: 'ANTHROPIC_MESSAGES',
    decode: hinted(anthropic.decode),
    encode: anthropic.encode,
    startsValue: anthropic.startsValue,
  },
  CLAUDE_CODE_JSONL: {
    format: 'CLAUDE_CODE_JSONL',
    decode: hinted(claudeCode.decode),
    encode: claudeCode.encode,
    startsValue: claudeCode.startsValue,
  },
  AI_SDK_UI_MESSAGES: {
    format: 'AI_SDK_UI_MESSAGES',
    decode: hinted(aiSdk.decode),
    encode: aiSdk.encode,
    startsValue: aiSdk.startsValue,
  },
};

/** The formats modelContext speaks (contract: Thread.modelContext). */
export type ContextFormat = 'OPENAI_CHAT' | 'OPENAI_RESPONSES' | 'ANTHROPIC_MESSAGES';

/**
 * A provider request for the items with the compaction records applied.
 * @param items the thread's items in seq order (markers included; they are left out)
 * @param compactions the thread's compaction records
 */
export function modelContext(
  format: ContextFormat,
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[] = [],
): ModelContext {
  const fn = { OPENAI_CHAT: chat, OPENAI_RESPONSES: responses, ANTHROPIC_MESSAGES: anthropic }[
    format
  ];
  return fn.modelContext(items, compactions);
}

const RESPONSES_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'web_search_call',
  'mcp_call',
  'mcp_list_tools',
  'item_reference',
]);
const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** Which of the message-list formats a list of messages/items is in. */
function listFormat(list: readonly JsonValue[]): TranscriptFormat | null {
  const first = list.find(isJsonObject);
  if (!first) return null;
  if (aiSdk.isUiMessage(first)) return 'AI_SDK_UI_MESSAGES';
  if ('sessionId' in first || 'parentUuid' in first) return 'CLAUDE_CODE_JSONL';
  let format: TranscriptFormat | null = null;
  for (const m of list) {
    if (!isJsonObject(m)) continue;
    if (typeof m.type === 'string' && RESPONSES_TYPES.has(m.type)) return 'OPENAI_RESPONSES';
    if (m.type === 'message' && Array.isArray(m.content)) return 'ANTHROPIC_MESSAGES';
    if ('tool_calls' in m || m.role === 'tool') return 'OPENAI_CHAT';
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (!isJsonObject(b)) continue;
      if (ANTHROPIC_BLOCKS.has(String(b.type))) return 'ANTHROPIC_MESSAGES';
      if (/^(input|output)_/.test(String(b.type))) return 'OPENAI_RESPONSES';
    }
    if (typeof m.role === 'string') format ??= 'OPENAI_CHAT';
  }
  return format;
}

/**
 * The format of a parsed source, or null when it is none of them. Ambiguous plain `{role,
 * content: string}` lists count as OPENAI_CHAT.
 */
export function detect(value: unknown): TranscriptFormat | null {
  if (typeof value === 'string') {
    try {
      return detect(claudeCode.linesOf(value));
    } catch {
      return null;
    }
  }
  if (Array.isArray(value)) {
    const first = value.find(isJsonObject);
    if (first && !('role' in first) && ('traj' in first || 'messages' in first)) {
      return detect(first);
    }
    return listFormat(value);
  }
  if (!isJsonObject(value)) return null;
  if (Array.isArray(value.cassettes)) {
    const exchange = value.cassettes.flatMap((c) =>
      isJsonObject(c) && Array.isArray(c.interactions) ? c.interactions : [],
    )[0];
    return isJsonObject(exchange) ? detect(exchange) : null;
  }
  if ('request_body' in value) {
    const response = value.response_body;
    if (isJsonObject(response) && response.type === 'message') return 'ANTHROPIC_MESSAGES';
    return detect(value.request_body);
  }
  if ('input' in value || value.object === 'response') return 'OPENAI_RESPONSES';
  if (Array.isArray(value.traj) || Array.isArray(value.history)) return 'OPENAI_CHAT';
  if (value.type === 'message' && Array.isArray(value.content)) return 'ANTHROPIC_MESSAGES';
  if (Array.isArray(value.messages)) {
    if ('system' in value) return 'ANTHROPIC_MESSAGES';
    return listFormat(value.messages);
  }
  return null;
}
