/**
 * OPENAI_RESPONSES: Responses API input/output items `[{type: message | reasoning |
 * function_call | function_call_output | ...}]` (typeless `{role, content}` messages included).
 *
 * Sources decode accepts: an item array; a request body `{input, ...}` (its other keys, such as
 * instructions, model and tools, go to `meta`; non-empty instructions also become a system
 * message item first, raw `{instructions}`, so they convert as the system prompt); a response `{object: "response", output}`;
 * recorded exchanges (exchanges.ts), each the conversation `[...request.input,
 * ...response.output]`. One item per source item, raw verbatim (nothing is split). Output items
 * get responseId, createdBy and createdAt from their response (id, model, created_at).
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { parseArguments } from './arguments.js';
import {
  argumentsText,
  contentDrops,
  contextEntries,
  dropped,
  type FileRef,
  isCompaction,
  isWebCitation,
  type Neutral,
  neutralOf,
  outputText,
  partsText,
  segmentDrops,
  summaryText,
} from './common.js';
import { isoTime, otherType, readRecords, str } from './envelope.js';
import { exchangesOf, without } from './exchanges.js';
import { pairedEntries } from './pairs.js';
import { checkRecord, isInstructionsRecord } from './record-check.js';
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
      const out = joined(
        instructionsDrafts(x.request, x.where ? `${x.where}.request_body` : 'request'),
        inputDrafts(x.request.input, where),
      );
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
    const out = joined(instructionsDrafts(source, 'request'), inputDrafts(source.input, 'input'));
    return [{ index: 0, ...out, compactions: [], meta: without(source, 'input') }];
  }
  throw new TranscriptError(null, 'expected an item array, a request with input, or a response');
}

/** Drafts and where each one's source item is (DecodedConversation.locations). */
type Located = { items: ItemDraft[]; locations: string[] };

/** Two located lists as one, in order. */
function joined(a: Located, b: Located): Located {
  return { items: [...a.items, ...b.items], locations: [...a.locations, ...b.locations] };
}

/**
 * A request's `instructions` (the API's "system (or developer) message inserted into the
 * model's context") as a system message item with raw `{instructions}`, so other formats get
 * them as their system prompt; none when they are absent, null or empty. Encode in this format
 * leaves the item out of the item list (instructions are a request key, like model and tools);
 * modelContext sends it back as `instructions`.
 */
function instructionsDrafts(request: JsonObject, where: string): Located {
  const instructions = request.instructions;
  if (typeof instructions !== 'string' || instructions === '') return { items: [], locations: [] };
  const message = { role: 'system', content: instructions };
  const draft: ItemDraft = { ...NO_ORIGIN, message, raw: { instructions }, rawFormat: FORMAT };
  return { items: [draft], locations: [`${where}.instructions`] };
}

/** True for the item of a request's instructions (see instructionsDrafts). */
function isInstructions(item: StoredItem): boolean {
  return item.rawFormat === FORMAT && isInstructionsRecord(item.raw);
}

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
 * types are dropped. The item of a request's instructions is left out: they are a request key
 * beside the item list, as model and tools are (modelContext sends them as `instructions`).
 * Converted messages of one split source record (an Anthropic message's blocks; source-records.ts)
 * make one message, a content part each.
 */
export function encode(items: readonly StoredItem[]): Encoded {
  const out: JsonValue[] = [];
  const drop: Dropped[] = [];
  const rest = items.filter((item) => !isInstructions(item));
  // Converted items of one split source record (an Anthropic user message's blocks) make one
  // message: `open` is the last message converted from such a record.
  const groups = recordGroups(rest);
  let open: { message: JsonObject; group: string } | null = null;
  for (const unit of readRecords(rest, FORMAT, () => [], isJsonObject)) {
    if (unit.kind === 'record') {
      out.push(unit.value);
      continue;
    }
    const converted = convert(unit.item, drop);
    if (!converted) continue;
    const group = groups.get(unit.item.id);
    const isMessage = typeof converted.role === 'string' && converted.type === undefined;
    if (
      isMessage &&
      open &&
      out[out.length - 1] === open.message &&
      open.group === group &&
      open.message.role === converted.role
    ) {
      const role = String(converted.role);
      open.message.content = [
        ...contentParts(open.message.content, role),
        ...contentParts(converted.content, role),
      ];
      continue;
    }
    out.push(converted);
    open = isMessage && group !== undefined ? { message: converted, group } : null;
  }
  return { value: out, dropped: drop };
}

const TARGET = 'OpenAI Responses';

/**
 * True when encode surely starts a new element of the item list with the item
 * (TranscriptCodec.startsValue): every item but a later block of a split source record
 * (source-records.ts isElement), which may join its record's message as a content part.
 */
export const startsValue = (item: StoredItem): boolean => !isElement(item);

/** A converted message's content as parts: a string is one input_text (output_text) part. */
function contentParts(content: JsonValue | undefined, role: string): JsonValue[] {
  if (Array.isArray(content)) return content;
  if (typeof content !== 'string' || content === '') return [];
  return [
    role === 'assistant'
      ? { type: 'output_text', text: content, annotations: [] }
      : { type: 'input_text', text: content },
  ];
}

function convert(item: StoredItem, drop: Dropped[]): JsonObject | null {
  const n = neutralOf(item, TARGET, drop);
  if (!n) return null;
  switch (n.kind) {
    case 'text': {
      if (n.role === 'assistant') return assistantMessage(n, drop);
      drop.push(...segmentDrops(item, n.segments, TARGET, () => false));
      drop.push(...contentDrops(n, TARGET, { detail: true, file: () => true, refusal: false }));
      if (n.images.length === 0 && n.files.length === 0 && n.segments.length <= 1) {
        return { role: n.role, content: n.segments[0]?.text ?? '' };
      }
      const parts: JsonValue[] = n.segments
        .filter((s) => s.text !== '')
        .map((s) => ({ type: 'input_text', text: s.text }));
      n.images.forEach((url, k) => {
        const detail = n.details[k];
        parts.push({ type: 'input_image', image_url: url, ...(detail ? { detail } : {}) });
      });
      for (const f of n.files) parts.push(inputFile(f));
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
      if (n.isError) {
        drop.push(
          dropped(item, 'isError', 'an OpenAI Responses function_call_output has no error flag'),
        );
      }
      return { type: 'function_call_output', call_id: n.callId, output: outputText(n.output) };
    case 'reasoning':
      drop.push(dropped(item, 'reasoning', 'OpenAI takes back only its own reasoning items'));
      return null;
  }
}

/**
 * An `input_file` part: by OpenAI file id, by URL (`file_url`), or inline (`file_data`, a data:
 * URL, as the API takes it).
 */
function inputFile(f: FileRef): JsonObject {
  const part: JsonObject = { type: 'input_file' };
  if (f.fileId !== null) part.file_id = f.fileId;
  else if (f.url?.startsWith('data:')) part.file_data = f.url;
  else if (f.url !== null) part.file_url = f.url;
  if (f.filename !== null) part.filename = f.filename;
  return part;
}

/**
 * An assistant message from another format. Plain text stays `{role, content: text}`; several
 * text parts, or text with Anthropic web search citations, become `output_text` parts (the
 * assistant's own content type), one per text part so nothing is joined. A web search citation
 * becomes a `url_citation` annotation spanning its whole part (an Anthropic citation supports
 * its whole text block); indices count characters (Unicode code points), as the API's docs
 * word them. What has no place is listed: a citation's cited_text and encrypted_index, other
 * citation types, and images (an assistant message takes output_text and refusal parts only;
 * input_image is for user, system and developer messages).
 */
function assistantMessage(
  n: Extract<Neutral, { kind: 'text' }>,
  drop: Dropped[],
): JsonObject | null {
  const item = n.item;
  const why =
    'an OpenAI Responses assistant message takes output_text and refusal parts only, no images';
  for (const _ of n.images) drop.push(dropped(item, 'image', why));
  drop.push(...segmentDrops(item, n.segments, TARGET, isWebCitation));
  drop.push(...contentDrops(n, TARGET, { detail: true, file: () => false, refusal: true }));
  const refusals = n.refusals.map((refusal) => ({ type: 'refusal', refusal }));
  if (n.segments.length === 0 && refusals.length === 0)
    return n.images.length > 0 || n.files.length > 0 ? null : { role: 'assistant', content: '' };
  const cited = n.segments.some((s) => s.citations.some(isWebCitation));
  if (!cited && n.segments.length === 1 && refusals.length === 0)
    return { role: 'assistant', content: n.segments[0]!.text };
  const texts = n.segments.map((s, k) => {
    const web = s.citations.filter(isWebCitation);
    if (web.length > 0) {
      const why = 'a url_citation annotation carries url, title and the span only';
      drop.push(
        dropped(item, `text part ${k}: citations[].cited_text, citations[].encrypted_index`, why),
      );
    }
    const end = [...s.text].length;
    const annotations = web.map((c) => ({
      type: 'url_citation',
      start_index: 0,
      end_index: end,
      url: c.url as string,
      title: typeof c.title === 'string' ? c.title : '',
    }));
    return { type: 'output_text', text: s.text, annotations };
  });
  // A Chat refusal beside empty content: the refusal alone.
  const content = refusals.length > 0 ? texts.filter((t) => t.text !== '') : texts;
  return { role: 'assistant', content: [...content, ...refusals] };
}

/**
 * The request `{input}` for the compacted context: items as encode gives them, each compaction
 * record a marked user message in place of the items it covers; unpaired tool calls and results
 * left out and listed (pairs.ts).
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
  // A reasoning item of this format is taken only with the item it led to (pairs.ts).
  const leadsIn = (item: StoredItem) => item.type === 'reasoning' && item.rawFormat === FORMAT;
  for (const entry of pairedEntries(contextEntries(items, compactions, drop), drop, leadsIn)) {
    if (!isCompaction(entry)) {
      run.push(entry);
      continue;
    }
    flush();
    input.push({ role: 'user', content: summaryText(entry) });
  }
  flush();
  // A Responses request's own instructions go back where they came from.
  const instructions = items.filter(isInstructions).map((i) => (i.raw as JsonObject).instructions);
  const request: JsonObject =
    instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {};
  request.input = input;
  return { request, dropped: drop };
}
