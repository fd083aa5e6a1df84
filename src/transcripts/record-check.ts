/**
 * Is a value a record of a format? A cheap structural check shared by the decoders (each source
 * record before it is decoded) and by appendItems (NewItem.raw against its rawFormat), so a
 * transcript sent with the wrong `format` is refused instead of decoded into the wrong items
 * (issue 11: Anthropic tool_use blocks read as OpenAI Chat lost their tool pairs).
 *
 * The rule: refuse only what the declared format cannot mean — a missing required key, a role
 * the format has no such thing as, a content block/part/item type that belongs to another
 * format, a key that carries another format's tool pairing. Unknown extra keys and types no
 * format here knows are accepted (raw keeps them).
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { isEnvelope, replaceAt, valueAt } from './envelope.js';
import { type JsonObject, TranscriptError, type TranscriptFormat } from './types.js';

/** Content block/part types of each format (the providers' published types). */
const CHAT_PARTS = ['text', 'image_url', 'input_audio', 'file', 'refusal'];
const RESPONSES_PARTS = [
  'input_text',
  'input_image',
  'input_file',
  'input_audio',
  'output_text',
  'refusal',
  'summary_text',
  'reasoning_text',
  'text',
];
const RESPONSES_ITEMS = [
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'item_reference',
  'compaction',
];
const ANTHROPIC_BLOCKS = [
  'text',
  'image',
  'document',
  'search_result',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
];
const AI_SDK_PARTS = [
  'text',
  'reasoning',
  'file',
  'step-start',
  'source-url',
  'source-document',
  'dynamic-tool',
];
const isAiSdkPartType = (t: string) =>
  AI_SDK_PARTS.includes(t) || t.startsWith('tool-') || t.startsWith('data-');
/** Claude Code line types (a line is no Responses item, though both have a "type"). */
const CLAUDE_LINES = [
  'user',
  'assistant',
  'system',
  'summary',
  'queue-operation',
  'file-history-snapshot',
  'progress',
];

/** Own block types per format; a type another format owns and this one does not is foreign. */
const OWN: Record<
  'chat' | 'responses' | 'anthropic' | 'aiSdk' | 'claudeCode',
  (t: string) => boolean
> = {
  chat: (t) => CHAT_PARTS.includes(t),
  responses: (t) => RESPONSES_PARTS.includes(t) || RESPONSES_ITEMS.includes(t),
  anthropic: (t) => ANTHROPIC_BLOCKS.includes(t),
  aiSdk: isAiSdkPartType,
  claudeCode: (t) => CLAUDE_LINES.includes(t),
};
type Family = keyof typeof OWN;

/** The other family that owns `type`, when `family` does not; null when none or it is ours. */
function foreignOwner(family: Family, type: string): Family | null {
  if (OWN[family](type)) return null;
  return (Object.keys(OWN) as Family[]).find((f) => f !== family && OWN[f](type)) ?? null;
}

const FAMILY_NAME: Record<Family, string> = {
  chat: 'an OpenAI Chat',
  responses: 'an OpenAI Responses',
  anthropic: 'an Anthropic',
  aiSdk: 'an AI SDK',
  claudeCode: 'a Claude Code line',
};

/** Why a list of blocks/parts is not of `family`, or null. */
function blocksProblem(family: Family, blocks: JsonValue[], key: string): string | null {
  for (const [k, b] of blocks.entries()) {
    if (!isJsonObject(b) || typeof b.type !== 'string') {
      return `${key}[${k}] needs a "type"`;
    }
    const owner = foreignOwner(family, b.type);
    if (owner) return `${key}[${k}] has type "${b.type}", ${FAMILY_NAME[owner]} type`;
  }
  return null;
}

const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const RESPONSES_ROLES = ['system', 'developer', 'user', 'assistant'];
const ANTHROPIC_ROLES = ['user', 'assistant'];
const UI_ROLES = ['system', 'user', 'assistant'];

function roleProblem(record: JsonObject, roles: readonly string[]): string | null {
  if (typeof record.role !== 'string') return 'a message needs a "role"';
  if (!roles.includes(record.role)) {
    return `role "${record.role}" is not one of ${roles.join(', ')}`;
  }
  return null;
}

function chatProblem(m: JsonObject): string | null {
  if ('parts' in m && !('content' in m)) return 'a Chat message has "content", not "parts"';
  const role = roleProblem(m, CHAT_ROLES);
  if (role) return role;
  const c = m.content;
  if (c !== undefined && c !== null && typeof c !== 'string' && !Array.isArray(c)) {
    return 'content must be a string, null or a list of parts';
  }
  return Array.isArray(c) ? blocksProblem('chat', c, 'content') : null;
}

function anthropicProblem(m: JsonObject): string | null {
  if ('parts' in m && !('content' in m)) return 'an Anthropic message has "content", not "parts"';
  if ('tool_calls' in m || 'tool_call_id' in m) {
    return 'an Anthropic message carries tool calls as content blocks, not "tool_calls"/"tool_call_id"';
  }
  const role = roleProblem(m, ANTHROPIC_ROLES);
  if (role) return role;
  const c = m.content;
  if (c !== undefined && typeof c !== 'string' && !Array.isArray(c)) {
    return 'content must be a string or a list of blocks';
  }
  return Array.isArray(c) ? blocksProblem('anthropic', c, 'content') : null;
}

function responsesProblem(item: JsonObject): string | null {
  if ('tool_calls' in item || 'tool_call_id' in item) {
    return 'a Responses item carries tool calls as function_call items, not "tool_calls"/"tool_call_id"';
  }
  if (item.type === undefined || item.type === 'message') {
    if ('parts' in item && !('content' in item)) {
      return 'a Responses message has "content", not "parts"';
    }
    const role = roleProblem(item, RESPONSES_ROLES);
    if (role) return item.type === undefined ? `${role} (or a "type")` : role;
    const c = item.content;
    return Array.isArray(c) ? blocksProblem('responses', c, 'content') : null;
  }
  if (typeof item.type !== 'string') return '"type" must be a string';
  const owner = foreignOwner('responses', item.type);
  return owner ? `type "${item.type}" is ${FAMILY_NAME[owner]} type` : null;
}

function uiProblem(m: JsonObject): string | null {
  if (!Array.isArray(m.parts)) return 'a UIMessage needs a "parts" list';
  return roleProblem(m, UI_ROLES) ?? blocksProblem('aiSdk', m.parts, 'parts');
}

function claudeLineProblem(line: JsonObject): string | null {
  if (isJsonObject(line.message)) {
    const p = anthropicProblem(line.message);
    return p ? `message: ${p}` : null;
  }
  if (typeof line.type !== 'string') {
    return 'a Claude Code line needs a "type" (and a "message" for user and assistant lines)';
  }
  if ('role' in line) return 'a Claude Code line holds its message under "message"';
  return null;
}

/**
 * Why `record` is not one whole source record of `format`, or null when it is.
 * Records: a Chat message; an Anthropic message or the `{system}` wrapper; a Responses item; a
 * Claude Code line; a UIMessage; a THREADSTORE_JSONL line.
 */
export function recordProblem(format: TranscriptFormat, record: JsonValue): string | null {
  if (!isJsonObject(record)) return 'a record must be a JSON object';
  switch (format) {
    case 'OPENAI_CHAT':
      return chatProblem(record);
    case 'ANTHROPIC_MESSAGES':
      if (Object.keys(record).length === 1 && 'system' in record) return null;
      return anthropicProblem(record);
    case 'OPENAI_RESPONSES':
      return responsesProblem(record);
    case 'CLAUDE_CODE_JSONL':
      return claudeLineProblem(record);
    case 'AI_SDK_UI_MESSAGES':
      return uiProblem(record);
    case 'THREADSTORE_JSONL':
      return ['thread', 'item', 'compaction'].includes(String(record.kind))
        ? null
        : 'a dump line needs "kind": thread, item or compaction';
  }
}

/** Where each format splits a record (envelope.ts): the lists an element can come from. */
const SPLIT_PATHS: Partial<Record<TranscriptFormat, readonly (readonly string[])[]>> = {
  OPENAI_CHAT: [['tool_calls'], ['tool_call_ids']],
  ANTHROPIC_MESSAGES: [['content']],
  CLAUDE_CODE_JSONL: [['message', 'content']],
  AI_SDK_UI_MESSAGES: [['parts']],
};

/** Why `element` is not one element of a split record of `format`, or null. */
function elementProblem(format: TranscriptFormat, element: JsonValue): string | null {
  switch (format) {
    case 'OPENAI_CHAT': {
      if (typeof element === 'string') return null; // a SWE-agent tool_call_ids entry
      const fn = isJsonObject(element) ? element.function : undefined;
      return isJsonObject(element) && typeof element.id === 'string' && isJsonObject(fn)
        ? null
        : 'a tool_calls entry needs "id" and "function"';
    }
    case 'ANTHROPIC_MESSAGES':
    case 'CLAUDE_CODE_JSONL':
      return blocksProblem('anthropic', [element], 'block');
    case 'AI_SDK_UI_MESSAGES':
      return blocksProblem('aiSdk', [element], 'part');
    default:
      return 'this format does not split records';
  }
}

/**
 * Why `raw` is not what an item of `format` keeps as raw (the split rule, envelope.ts): a whole
 * record, a split record's envelope `{record, block?}`, or one element of a split list; null
 * when it is.
 */
export function rawProblem(format: TranscriptFormat, raw: JsonValue): string | null {
  const paths = SPLIT_PATHS[format] ?? [];
  // A Responses request's instructions, kept as a system item (openai-responses.ts).
  if (format === 'OPENAI_RESPONSES' && isInstructionsRecord(raw)) return null;
  if (isEnvelope(raw)) {
    const path = paths.find((p) => typeof valueAt(raw.record, p) === 'number');
    if (!path) return 'an envelope {record, block} needs a split list replaced by its length';
    const list = raw.block === undefined ? [] : [raw.block];
    return recordProblem(format, replaceAt(raw.record, path, list));
  }
  const whole = recordProblem(format, raw);
  if (whole === null || paths.length === 0) return whole;
  // Not a whole record: one element of a split list, else the record's problem.
  return elementProblem(format, raw) === null ? null : whole;
}

/** `{instructions: string}`: the raw of a Responses request's instructions item. */
export function isInstructionsRecord(raw: JsonValue): boolean {
  return (
    typeof raw === 'object' &&
    raw !== null &&
    !Array.isArray(raw) &&
    Object.keys(raw).length === 1 &&
    typeof raw.instructions === 'string'
  );
}

/** A record that is not of the declared format; index.ts adds the format it looks like. */
export class RecordError extends TranscriptError {
  constructor(
    location: string | null,
    reason: string,
    readonly record: JsonValue,
    /** The declared format and those whose records it shares (Claude Code wraps Anthropic's). */
    readonly family: readonly TranscriptFormat[],
  ) {
    super(location, reason);
  }
}

/**
 * Throws when `record` is not a record of `format`.
 * @param where the record's location ("messages[3]", "line 12")
 * @throws RecordError "<where>: not a record of <format>: <why>"
 */
export function checkRecord(
  format: TranscriptFormat,
  record: JsonValue,
  where: string,
  family: readonly TranscriptFormat[] = [format],
): void {
  const problem = recordProblem(format, record);
  if (problem === null) return;
  throw new RecordError(where || null, `not a record of ${format}: ${problem}`, record, family);
}
