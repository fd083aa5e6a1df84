/**
 * OPENAI_RESPONSES: Responses API input/output items `[{type: message | reasoning |
 * function_call | function_call_output | ...}]` (typeless `{role, content}` messages included).
 *
 * Sources decode accepts: an item array; a request body `{input, ...}` (its other keys, such as
 * instructions, model and tools, go to `meta`); a response `{object: "response", output}`;
 * recorded exchanges (exchanges.ts), each the conversation `[...request.input,
 * ...response.output]`. One item per source item, raw verbatim (nothing is split). Output items
 * get responseId, createdBy and createdAt from their response (id, model, created_at).
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { parseArguments } from './arguments.js';
import {
  argumentsText,
  contextEntries,
  dropped,
  isCompaction,
  neutralOf,
  outputText,
  partsText,
  summaryText,
} from './common.js';
import { isoTime, otherType, readRecords, str } from './envelope.js';
import { exchangesOf, without } from './exchanges.js';
import { checkRecord } from './record-check.js';
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

const FORMAT = 'OPENAI_RESPONSES' as const;

type Origin = Pick<ItemDraft, 'responseId' | 'createdBy' | 'createdAt'>;
const NO_ORIGIN: Origin = { responseId: null, createdBy: null, createdAt: null };

function originOf(response: JsonObject): Origin {
  return {
    responseId: str(response.id),
    createdBy: str(response.model),
    createdAt: isoTime(response.created_at),
  };
}

/** The conversations of a Responses source (see the module docstring). */
export function decode(source: unknown): DecodedConversation[] {
  const exchanges = exchangesOf(source);
  if (exchanges) {
    return exchanges.map((x, index) => {
      const where = x.where ? `${x.where}.request_body.input` : 'input';
      const out = inputDrafts(x.request.input, where);
      if (x.response) {
        const output = outputDrafts(x.response, `${x.where}.response_body.output`);
        out.items.push(...output.items);
        out.locations.push(...output.locations);
      }
      const meta = without(x.request, 'input');
      if (x.source) meta.source = x.source;
      return { index, ...out, compactions: [], meta };
    });
  }
  if (Array.isArray(source)) {
    return [{ index: 0, ...inputDrafts(source, ''), compactions: [], meta: {} }];
  }
  if (isJsonObject(source) && Array.isArray(source.output) && !('input' in source)) {
    const meta = without(source, 'output');
    return [{ index: 0, ...outputDrafts(source, 'output'), compactions: [], meta }];
  }
  if (isJsonObject(source) && 'input' in source) {
    const out = inputDrafts(source.input, 'input');
    return [{ index: 0, ...out, compactions: [], meta: without(source, 'input') }];
  }
  throw new TranscriptError(null, 'expected an item array, a request with input, or a response');
}

/** Drafts and where each one's source item is (DecodedConversation.locations). */
type Located = { items: ItemDraft[]; locations: string[] };

function inputDrafts(input: JsonValue | undefined, where: string): Located {
  if (typeof input === 'string') {
    // A bare string input is one user message; it comes back as [{role: "user", content}].
    const raw = { role: 'user', content: input };
    const draft = {
      ...NO_ORIGIN,
      message: { role: 'user', content: input },
      raw,
      rawFormat: FORMAT,
    };
    return { items: [draft], locations: [where || 'input'] };
  }
  if (!Array.isArray(input)) throw new TranscriptError(where || null, 'input must be a list');
  return {
    items: input.map((item, i) => itemDraft(item, NO_ORIGIN, `${where}[${i}]`)),
    locations: input.map((_, i) => `${where}[${i}]`),
  };
}

function outputDrafts(response: JsonObject, where: string): Located {
  const output = response.output;
  if (!Array.isArray(output)) return { items: [], locations: [] };
  const origin = originOf(response);
  return {
    items: output.map((item, i) => itemDraft(item, origin, `${where}[${i}]`)),
    locations: output.map((_, i) => `${where}[${i}]`),
  };
}

/** The draft of one Responses item. */
function itemDraft(item: JsonValue, origin: Origin, where: string): ItemDraft {
  checkRecord(FORMAT, item, where);
  if (!isJsonObject(item)) throw new TranscriptError(where, 'an input item must be an object');
  const base = { ...origin, raw: item, rawFormat: FORMAT };
  const type = item.type ?? (typeof item.role === 'string' ? 'message' : undefined);
  switch (type) {
    case 'message': {
      const role = typeof item.role === 'string' ? item.role : 'assistant';
      const c = item.content;
      const message = Array.isArray(c)
        ? { role, content: partsText(c), parts: c }
        : { role, content: typeof c === 'string' ? c : null };
      return { ...base, createdBy: role === 'assistant' ? origin.createdBy : null, message };
    }
    case 'reasoning': {
      const content = Array.isArray(item.content) ? partsText(item.content) : '';
      const reasoning = {
        text: content,
        encryptedContent: str(item.encrypted_content),
        summary: item.summary ?? null,
      };
      return { ...base, reasoning };
    }
    case 'function_call':
    case 'custom_tool_call': {
      const args = parseArguments(item.arguments ?? item.input ?? null);
      const toolCall = { callId: String(item.call_id), name: String(item.name), arguments: args };
      return { ...base, toolCall };
    }
    case 'function_call_output':
    case 'custom_tool_call_output': {
      const toolResult = {
        callId: String(item.call_id),
        output: item.output ?? '',
        isError: false,
      };
      return { ...base, toolResult };
    }
    default:
      // web_search_call, mcp_call, mcp_list_tools, item_reference...: provider-run, kept whole.
      return { ...base, other: { type: otherType('openai', type), data: item } };
  }
}

/**
 * Items back to an input-item array: records of this format verbatim; others converted (easy
 * messages, function_call, function_call_output). Reasoning from other providers and other item
 * types are dropped.
 */
export function encode(items: readonly StoredItem[]): Encoded {
  const out: JsonValue[] = [];
  const drop: Dropped[] = [];
  for (const unit of readRecords(items, FORMAT, () => [], isJsonObject)) {
    if (unit.kind === 'record') out.push(unit.value);
    else {
      const converted = convert(unit.item, drop);
      if (converted) out.push(converted);
    }
  }
  return { value: out, dropped: drop };
}

function convert(item: StoredItem, drop: Dropped[]): JsonObject | null {
  const n = neutralOf(item, 'OpenAI Responses', drop);
  if (!n) return null;
  switch (n.kind) {
    case 'text': {
      if (n.images.length === 0) return { role: n.role, content: n.text };
      const parts: JsonValue[] = n.text ? [{ type: 'input_text', text: n.text }] : [];
      for (const url of n.images) parts.push({ type: 'input_image', image_url: url });
      return { role: n.role, content: parts };
    }
    case 'call':
      return {
        type: 'function_call',
        call_id: n.callId,
        name: n.name,
        arguments: argumentsText(n.arguments),
      };
    case 'result':
      return { type: 'function_call_output', call_id: n.callId, output: outputText(n.output) };
    case 'reasoning':
      drop.push(dropped(item, 'reasoning', 'OpenAI takes back only its own reasoning items'));
      return null;
  }
}

/**
 * The request `{input}` for the compacted context: items as encode gives them, each compaction
 * record a marked user message in place of the items it covers.
 */
export function modelContext(
  items: readonly StoredItem[],
  compactions: readonly CompactionRecord[] = [],
): ModelContext {
  const input: JsonValue[] = [];
  const drop: Dropped[] = [];
  let run: StoredItem[] = [];
  const flush = () => {
    const { value, dropped: d } = encode(run);
    input.push(...(value as JsonValue[]));
    drop.push(...d);
    run = [];
  };
  for (const entry of contextEntries(items, compactions, drop)) {
    if (!isCompaction(entry)) {
      run.push(entry);
      continue;
    }
    flush();
    input.push({ role: 'user', content: summaryText(entry) });
  }
  flush();
  return { request: { input }, dropped: drop };
}
