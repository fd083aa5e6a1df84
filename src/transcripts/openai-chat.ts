/**
 * OPENAI_CHAT: Chat Completions messages `[{role, content, tool_calls, tool_call_id, ...}]`.
 *
 * Sources decode accepts: a messages array; an object holding it under `messages` (pydantic-ai),
 * `traj` (a tau-bench run) or `history` (a SWE-agent trajectory, whose tool messages name their
 * call in a `tool_call_ids` list); an array of such objects (one conversation each). The keys
 * around the messages go to `meta`. Each message becomes: a tool message one tool_result per
 * call id; any other message a message item (when it has content, or no tool calls) and one
 * tool_call item per tool_calls entry (split rule: envelope.ts). Assistant items share the
 * responseId `msg-<index>` (Chat messages carry no id).
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { parseArguments } from './arguments.js';
import {
  argumentsText,
  contentDrops,
  contextEntries,
  dropped,
  isCompaction,
  type Neutral,
  neutralOf,
  outputText,
  type Segment,
  segmentDrops,
  summaryText,
} from './common.js';
import { isEnvelope, readRecords, splitRaws, str } from './envelope.js';
import { chatToolOrder, pairedEntries } from './pairs.js';
import { checkRecord } from './record-check.js';
import { isElement, recordGroups } from './source-records.js';
import {
  type CompactionRecord,
  type DecodedConversation,
  type Dropped,
  type Encoded,
  type ItemDraft,
  type JsonObject,
  type ModelContext,
  type StoredItem,
  TranscriptError,
} from './types.js';

const FORMAT = 'OPENAI_CHAT' as const;
const CONVERSATION_KEYS = ['messages', 'traj', 'history'] as const;

/** True for a value that looks like one Chat message. */
export function isChatMessage(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.role === 'string' && !('parts' in value);
}

/** The conversations of a Chat source (see the module docstring). */
export function decode(source: unknown): DecodedConversation[] {
  if (Array.isArray(source) && (source.length === 0 || isChatMessage(source[0]))) {
    return [decodeConversation(source, {}, 0, '')];
  }
  if (Array.isArray(source)) {
    return source.map((c, i) => fromObject(c, i, `[${i}]`));
  }
  return [fromObject(source, 0, '')];
}

function fromObject(value: unknown, index: number, where: string): DecodedConversation {
  if (!isJsonObject(value)) {
    throw new TranscriptError(where || null, 'expected a messages array or an object holding one');
  }
  const key = CONVERSATION_KEYS.find((k) => Array.isArray(value[k]));
  if (!key) {
    throw new TranscriptError(where || null, 'no "messages", "traj" or "history" array');
  }
  const meta: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (k !== key) meta[k] = v;
  const at = where ? `${where}.${key}` : key;
  return decodeConversation(value[key] as JsonValue[], meta, index, at);
}

function decodeConversation(
  messages: JsonValue[],
  meta: JsonObject,
  index: number,
  where: string,
): DecodedConversation {
  const model = str(meta.model);
  const items: ItemDraft[] = [];
  const locations: string[] = [];
  messages.forEach((m, j) => {
    for (const d of messageDrafts(m, j, model, `${where}[${j}]`)) {
      items.push(d);
      locations.push(`${where}[${j}]`);
    }
  });
  return { index, items, compactions: [], meta, locations };
}

/** The drafts of one message. */
function messageDrafts(
  message: JsonValue,
  j: number,
  model: string | null,
  where: string,
): ItemDraft[] {
  checkRecord(FORMAT, message, where);
  if (!isChatMessage(message)) throw new TranscriptError(where, 'a message needs a role');
  const role = message.role as string;
  const createdBy = str(message.agent) ?? (role === 'assistant' ? model : null);
  const base = { responseId: null, createdBy, createdAt: null, rawFormat: FORMAT };
  if (role === 'tool') return toolDrafts(message, base, where);
  const calls = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw new TranscriptError(`${where}.tool_calls`, 'must be a list');
  const content = message.content;
  const hasText =
    (typeof content === 'string' && content !== '') || (Array.isArray(content) && content.length);
  const drafts: ItemDraft[] = [];
  const responseId = role === 'assistant' ? `msg-${j}` : null;
  if (hasText || calls.length === 0) {
    drafts.push({ ...base, responseId, message: messageBody(role, content), raw: null });
  }
  calls.forEach((call, k) => {
    const fn = isJsonObject(call) && isJsonObject(call.function) ? call.function : null;
    if (!isJsonObject(call) || typeof call.id !== 'string' || !fn || typeof fn.name !== 'string') {
      throw new TranscriptError(
        `${where}.tool_calls[${k}]`,
        'a tool call needs id and function.name',
      );
    }
    const args = parseArguments(fn.arguments ?? null);
    drafts.push({
      ...base,
      responseId,
      toolCall: { callId: call.id, name: fn.name, arguments: args },
      raw: null,
    });
  });
  const parts = [...(hasText || calls.length === 0 ? [undefined] : []), ...calls];
  const raws = splitRaws(message, ['tool_calls'], parts);
  return drafts.map((d, i) => ({ ...d, raw: raws[i]! }));
}

/** A tool message: one tool_result per call id (tool_call_id, or SWE-agent's tool_call_ids). */
function toolDrafts(message: JsonObject, base: Omit<ItemDraft, 'raw'>, where: string): ItemDraft[] {
  const ids =
    typeof message.tool_call_id === 'string' ? [message.tool_call_id] : message.tool_call_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string')) {
    throw new TranscriptError(where, 'a tool message needs tool_call_id (or tool_call_ids)');
  }
  const name = str(message.name);
  const output = message.content ?? null;
  const raws =
    typeof message.tool_call_id === 'string'
      ? [message]
      : splitRaws(message, ['tool_call_ids'], ids);
  return (ids as string[]).map((callId, i) => ({
    ...base,
    toolResult: { callId, name, output, isError: false },
    raw: raws[i]!,
  }));
}

function messageBody(role: string, content: JsonValue | undefined): ItemDraft['message'] {
  if (Array.isArray(content)) {
    const texts = content.flatMap((p) =>
      isJsonObject(p) && typeof p.text === 'string' ? [p.text] : [],
    );
    return { role, content: texts.length ? texts.join('\n') : null, parts: content };
  }
  return { role, content: typeof content === 'string' ? content : null };
}

/** The split list of a Chat record: tool_call_ids for a SWE-agent tool message, else tool_calls. */
const pathOf = (record: JsonObject) => ['tool_call_ids' in record ? 'tool_call_ids' : 'tool_calls'];

const TARGET = 'OpenAI Chat';

/**
 * Items back to a Chat messages array: records of this format from raw, others converted
 * (text, images by URL, tool calls and results); reasoning and other types are dropped, and so
 * are what Chat messages have no field for: citations and annotations on text, images in an
 * assistant message (its content takes text and refusal parts only). An assistant message's
 * several text parts stay apart as `{type: "text"}` parts. Converted text items of one split
 * source record (an Anthropic user message's blocks; source-records.ts) make one message.
 */
export function encode(items: readonly StoredItem[]): Encoded {
  const out: JsonValue[] = [];
  const drop: Dropped[] = [];
  let open: { message: JsonObject; responseId: string | null } | null = null;
  // Items of one split source record (an Anthropic user message's blocks) make one message.
  const groups = recordGroups(items);
  let openText: { message: JsonObject; group: string } | null = null;
  for (const unit of readRecords(items, FORMAT, pathOf, isChatMessage)) {
    if (unit.kind === 'record') {
      out.push(unit.value);
      open = null;
      continue;
    }
    const n = neutralOf(unit.item, TARGET, drop);
    if (!n) continue;
    if (n.kind === 'text') {
      drop.push(...segmentDrops(n.item, n.segments, TARGET, () => false));
      // Chat takes files only by OpenAI's own upload; refusals on an assistant message.
      const assistant = n.role === 'assistant';
      drop.push(
        ...contentDrops(n, TARGET, { detail: !assistant, file: () => false, refusal: assistant }),
      );
    }
    if (n.kind === 'text' && n.role === 'assistant' && n.images.length > 0) {
      const why = 'an OpenAI Chat assistant message takes text and refusal parts only, no images';
      for (const _ of n.images) drop.push(dropped(n.item, 'image', why));
      if (n.segments.length === 0 && n.refusals.length === 0) continue;
    }
    if (n.kind === 'result' && n.isError) {
      drop.push(dropped(n.item, 'isError', 'an OpenAI Chat tool message has no error flag'));
    }
    if (n.kind === 'reasoning') {
      drop.push(dropped(n.item, 'reasoning', 'OpenAI Chat messages carry no reasoning'));
      continue;
    }
    const responseId = n.item.responseId;
    const assistantSide = n.kind === 'call' || (n.kind === 'text' && n.role === 'assistant');
    // A text without a responseId is not known to belong to the message before it: its own
    // message (a stream may cut before it; export-stream.ts). Calls still join it.
    const joins = n.kind === 'call' || responseId !== null;
    if (assistantSide && joins && open && open.responseId === responseId) {
      appendToAssistant(open.message, n, drop);
      continue;
    }
    open = null;
    if (n.kind === 'result') {
      out.push({ role: 'tool', tool_call_id: n.callId, content: outputText(n.output) });
    } else if (n.kind === 'text' && n.role !== 'assistant') {
      const group = groups.get(n.item.id);
      const last = out[out.length - 1];
      if (openText && openText.message === last && openText.group === group) {
        if (openText.message.role === n.role) {
          openText.message.content = joinedContent(openText.message.content, n);
          continue;
        }
      }
      const message: JsonObject = {
        role: n.role,
        content: chatContent(n.segments, n.images, n.details),
      };
      out.push(message);
      openText = group === undefined ? null : { message, group };
    } else {
      const message: JsonObject = { role: 'assistant', content: null };
      appendToAssistant(message, n, drop);
      out.push(message);
      open = { message, responseId };
    }
  }
  return { value: out, dropped: drop };
}

function appendToAssistant(
  message: JsonObject,
  n: ReturnType<typeof neutralOf>,
  drop: Dropped[],
): void {
  if (n?.kind === 'call') {
    const calls = (message.tool_calls ?? []) as JsonValue[];
    calls.push({
      id: n.callId,
      type: 'function',
      function: { name: n.name, arguments: argumentsText(n.arguments) },
    });
    message.tool_calls = calls;
  } else if (n?.kind === 'text') {
    // The message's refusal field holds one refusal; a second one has no place.
    for (const refusal of n.refusals) {
      if (message.refusal === undefined) message.refusal = refusal;
      else drop.push(dropped(n.item, 'refusal', 'an OpenAI Chat message has one refusal field'));
    }
    // Text parts of one response stay apart (a string while there is one): joining them would
    // add text the model never wrote.
    const before = message.content;
    const texts = [
      ...(typeof before === 'string' ? [before] : []),
      ...(Array.isArray(before) ? before.map((p) => String((p as JsonObject).text)) : []),
      ...n.segments.map((s) => s.text),
    ];
    message.content =
      texts.length === 0 ? null : texts.length === 1 ? texts[0]! : texts.map(textPart);
  }
}

const textPart = (text: string): JsonObject => ({ type: 'text', text });

/**
 * True when encode surely starts a new message with the item (TranscriptCodec.startsValue): a
 * Chat record (not one of its tool_calls elements), a converted tool result, a converted
 * non-assistant text, or an assistant text without a responseId that has text (one with images
 * only is left out and keeps the open message open). A later block of a split source record
 * (source-records.ts isElement) may join its record's message: never.
 */
export function startsValue(item: StoredItem): boolean {
  if (item.rawFormat === FORMAT && item.raw !== null) {
    return isEnvelope(item.raw) || isChatMessage(item.raw);
  }
  if (item.type === 'tool_result') return true;
  if (isElement(item)) return false;
  const n = item.type === 'message' ? neutralOf(item, TARGET, []) : null;
  if (n?.kind !== 'text') return false;
  if (n.role !== 'assistant') return true;
  return item.responseId === null && (n.segments.length > 0 || n.refusals.length > 0);
}

/**
 * A user (system, developer) message's content with a later text item of the same source
 * record added: text and image parts in item order, a string while it is one text part.
 */
function joinedContent(before: JsonValue | undefined, n: Extract<Neutral, { kind: 'text' }>) {
  const parts: JsonValue[] =
    typeof before === 'string' ? (before === '' ? [] : [textPart(before)]) : [];
  if (Array.isArray(before)) parts.push(...before);
  const added = chatContent(n.segments, n.images, n.details);
  if (typeof added === 'string') {
    if (added !== '') parts.push(textPart(added));
  } else parts.push(...(added as JsonValue[]));
  const only = parts.length === 1 && isJsonObject(parts[0]) && parts[0].type === 'text';
  return only ? (parts[0] as JsonObject).text! : parts;
}

/**
 * Chat content of a user, system or developer message: a string when it is one text part, else
 * text parts (unjoined) then image_url parts.
 */
export function chatContent(
  segments: readonly Segment[],
  images: readonly string[],
  details: readonly (string | null)[] = [],
): JsonValue {
  if (images.length === 0 && segments.length <= 1) return segments[0]?.text ?? '';
  const parts: JsonValue[] = segments.filter((s) => s.text !== '').map((s) => textPart(s.text));
  images.forEach((url, k) => {
    const detail = details[k];
    parts.push({ type: 'image_url', image_url: detail ? { url, detail } : { url } });
  });
  return parts;
}

/** Keys the Chat Completions API takes on a message of each role (others are dropped). */
const REQUEST_KEYS: Record<string, readonly string[]> = {
  tool: ['role', 'content', 'tool_call_id'],
  assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio'],
};
const DEFAULT_KEYS = ['role', 'content', 'name'];

/** A message reduced to the keys the API takes; SWE-agent tool_call_ids become tool messages. */
function requestMessages(message: JsonObject): JsonObject[] {
  const keys = REQUEST_KEYS[String(message.role)] ?? DEFAULT_KEYS;
  const out: JsonObject = {};
  for (const k of keys) if (message[k] !== undefined) out[k] = message[k];
  if (message.role === 'tool' && out.tool_call_id === undefined) {
    const ids = Array.isArray(message.tool_call_ids) ? message.tool_call_ids : [];
    return ids.map((id) => ({ role: 'tool', tool_call_id: id, content: message.content ?? '' }));
  }
  return [out];
}

/**
 * The request `{messages}` for the compacted context: messages as encode gives them, reduced to
 * the keys the API takes; each compaction record a marked user message in place of the items it
 * covers; unpaired tool calls and results left out and listed, and the tool messages right after
 * their assistant message (pairs.ts).
 */
export function modelContext(
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[] = [],
): ModelContext {
  const messages: JsonValue[] = [];
  const drop: Dropped[] = [];
  let run: StoredItem[] = [];
  const flush = () => {
    const { value, dropped: d } = encode(run);
    for (const m of value as JsonObject[]) messages.push(...requestMessages(m));
    drop.push(...d);
    run = [];
  };
  for (const entry of pairedEntries(contextEntries(items, compactions, drop), drop)) {
    if (!isCompaction(entry)) {
      run.push(entry);
      continue;
    }
    flush();
    messages.push({ role: 'user', content: summaryText(entry) });
  }
  flush();
  return { request: { messages: chatToolOrder(messages as JsonObject[]) }, dropped: drop };
}
