/**
 * Anthropic content blocks: block -> item body (decode), item -> verbatim block (items whose raw
 * holds one: ANTHROPIC_MESSAGES and CLAUDE_CODE_JSONL), and the message builder that encode and
 * modelContext share.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { parseArguments } from './arguments.js';
import {
  blockOf,
  contentDrops,
  dropped,
  type FileRef,
  isCompaction,
  type Neutral,
  neutralOf,
  outputText,
  segmentDrops,
  summaryText,
} from './common.js';
import { isEnvelope, otherType, readRecords, valueAt } from './envelope.js';
import { isElement, reasoningProvider, recordGroups } from './source-records.js';
import {
  type ContextEntry,
  type Dropped,
  type Encoded,
  type EncodeState,
  type ItemDraft,
  type JsonObject,
  newEncodeState,
  type StoredItem,
} from './types.js';

type Body = Pick<ItemDraft, 'message' | 'toolCall' | 'toolResult' | 'reasoning' | 'other'>;

/** The item body of one content block of a message with `role`. */
export function blockBody(block: JsonObject, role: string): Body {
  switch (block.type) {
    case 'text':
      return { message: { role, content: typeof block.text === 'string' ? block.text : '' } };
    case 'image':
    case 'document':
      return { message: { role, content: null, parts: [block] } };
    case 'thinking':
      return {
        reasoning: {
          text: typeof block.thinking === 'string' ? block.thinking : '',
          signature: typeof block.signature === 'string' ? block.signature : null,
        },
      };
    case 'redacted_thinking':
      return { reasoning: { text: '', encryptedContent: String(block.data ?? '') } };
    case 'tool_use':
      return {
        toolCall: {
          callId: String(block.id),
          name: String(block.name),
          arguments: parseArguments(block.input ?? {}),
        },
      };
    case 'tool_result':
      return {
        toolResult: {
          callId: String(block.tool_use_id),
          output: block.content ?? '',
          isError: block.is_error === true,
        },
      };
    default:
      // server_tool_use, web_search_tool_result, mcp_tool_use...: run by the provider, no
      // client tool pair; kept whole.
      return { other: { type: otherType('anthropic', block.type), data: block } };
  }
}

/** The role of the Anthropic message an item belongs in. */
function roleOf(item: StoredItem): string {
  const d = isJsonObject(item.data) ? item.data : {};
  if (item.type === 'message') return String(d.role);
  if (item.type === 'tool_result') return 'user';
  const line = isJsonObject(item.raw) ? valueAt(item.raw, ['message', 'role']) : undefined;
  return typeof line === 'string' ? line : 'assistant';
}

type Mode = 'encode' | 'context';

/** Anthropic messages being built. */
class Builder {
  messages: JsonObject[] = [];
  system: JsonValue | undefined;
  systemTexts: string[] = [];
  dropped: Dropped[] = [];
  private open: { role: string; responseId: string | null; blocks: JsonValue[] } | null = null;
  /**
   * @param state tool_use ids given out and calls waiting for a result, carried from earlier
   *   runs of the thread (a stream's chunks, a Claude Code session's runs of converted items)
   */
  constructor(
    readonly mode: Mode,
    private readonly state: EncodeState,
    /** The format's name in dropped reasons. */
    readonly target: string,
  ) {}

  record(value: JsonObject): void {
    this.open = null;
    if (!('role' in value)) {
      this.system = value.system;
      return;
    }
    const reduced: JsonObject = { role: value.role ?? 'user', content: value.content ?? '' };
    this.messages.push(this.mode === 'context' ? reduced : value);
  }

  add(role: string, blocks: JsonValue[], responseId: string | null, merge: boolean): void {
    if (blocks.length === 0) return;
    const o = this.open;
    if (o && merge && o.role === role && (role === 'user' || o.responseId === responseId)) {
      o.blocks.push(...blocks);
      return;
    }
    const content: JsonValue[] = [...blocks];
    this.messages.push({ role, content });
    this.open = { role, responseId, blocks: content };
  }

  close(): void {
    this.open = null;
  }

  /**
   * The tool_use id for a converted call. Anthropic wants tool_use ids unique in a request, but
   * models re-use callIds (tau-bench): a re-used one gets a suffix, and its result follows it.
   */
  callId(callId: string, item: StoredItem): string {
    let id = callId;
    const { usedIds, waiting } = this.state;
    for (let k = 2; usedIds.has(id); k++) id = `${callId}_${k}`;
    if (id !== callId) {
      this.dropped.push(
        dropped(item, 'callId', `re-used callId sent as ${id} (tool_use ids must be unique)`),
      );
    }
    usedIds.add(id);
    waiting.set(callId, [...(waiting.get(callId) ?? []), id]);
    return id;
  }

  /** The tool_use id a converted result answers: the nearest waiting call with its callId. */
  resultId(callId: string): string {
    const stack = this.state.waiting.get(callId);
    const id = stack?.pop() ?? callId;
    if (stack?.length === 0) this.state.waiting.delete(callId);
    return id;
  }
}

/**
 * Adds one item that has no record of this format: its block verbatim, or converted.
 * @param sameRecord the item is of the same split source record as the item before it (its
 *   blocks join that item's message)
 */
function addLoose(b: Builder, item: StoredItem, sameRecord = false): void {
  const block = blockOf(item);
  if (block) {
    b.add(roleOf(item), [block], item.responseId, true);
    return;
  }
  const n = neutralOf(item, b.target, b.dropped);
  if (!n) return;
  if (n.kind === 'reasoning') {
    const block = thinkingBlock(n);
    if (block) b.add('assistant', [block], item.responseId, true);
    else if (n.encryptedContent && !n.signature && !n.text) {
      const why =
        "Anthropic takes back only its own redacted_thinking data; this encrypted reasoning is not known to be Anthropic's";
      b.dropped.push(dropped(item, 'reasoning (encryptedContent)', why));
    } else {
      const why = 'Anthropic takes thinking back only as its own signed thinking block';
      b.dropped.push(dropped(item, 'reasoning', why));
    }
  } else if (n.kind === 'text' && (n.role === 'system' || n.role === 'developer')) {
    // Anthropic has one system prompt, before the messages: a system text after a message is
    // moved there (listed: its place in the conversation is lost); its images and files have
    // no place in it.
    b.systemTexts.push(n.text);
    if (b.messages.length > 0) {
      const why = `${b.target} has one system prompt, before the messages: this system text was moved into it`;
      b.dropped.push(dropped(item, 'position (moved to system)', why));
    }
    b.dropped.push(...segmentDrops(item, n.segments, b.target, () => false));
    const inSystem = { detail: false, file: () => false, refusal: false };
    b.dropped.push(...contentDrops(n, b.target, inSystem));
    const why = `${b.target} system prompts take text only`;
    for (const _ of n.images) b.dropped.push(dropped(item, 'image', why));
  } else if (n.kind === 'text') {
    const blocks = textBlocks(n);
    b.dropped.push(...segmentDrops(item, n.segments, 'Anthropic Messages', () => false));
    const carries = {
      detail: false,
      file: (f: FileRef) => documentSource(f) !== null,
      refusal: false,
    };
    b.dropped.push(...contentDrops(n, b.target, carries));
    if (blocks.length === 0) {
      // Anthropic refuses empty text blocks and has no empty message: listed, not silently gone.
      const why = `empty message: ${b.target} has no empty message (it refuses empty text blocks)`;
      b.dropped.push(dropped(item, 'the whole item', why));
      return;
    }
    // A text without a responseId is not known to belong to the message before it: its own
    // message (a stream may cut before it; export-stream.ts). Calls still join it.
    b.add(
      n.role === 'assistant' ? 'assistant' : 'user',
      blocks,
      item.responseId,
      (n.role === 'assistant' && item.responseId !== null) || sameRecord,
    );
  } else if (n.kind === 'call') {
    let input = n.arguments;
    if (!isJsonObject(input)) {
      b.dropped.push(
        dropped(
          item,
          'arguments shape',
          'tool_use input must be an object; sent as {"arguments": <value>}',
        ),
      );
      input = { arguments: input };
    }
    const use = { type: 'tool_use', id: b.callId(n.callId, item), name: n.name, input };
    b.add('assistant', [use], item.responseId, true);
  } else {
    const content =
      typeof n.output === 'string' ||
      (Array.isArray(n.output) && n.output.every((p) => isJsonObject(p) && p.type === 'text'))
        ? n.output
        : outputText(n.output);
    const result: JsonObject = { type: 'tool_result', tool_use_id: b.resultId(n.callId), content };
    if (n.isError) result.is_error = true;
    b.add('user', [result], null, true);
  }
}

/**
 * The blocks of a converted text item: one text block per non-empty text part (Anthropic
 * refuses empty ones; the text is not re-joined), then images, then documents.
 */
function textBlocks(n: Extract<Neutral, { kind: 'text' }>): JsonValue[] {
  const blocks: JsonValue[] = n.segments
    .filter((s) => s.text !== '')
    .map((s) => ({ type: 'text', text: s.text }));
  for (const url of n.images) blocks.push({ type: 'image', source: imageSource(url) });
  for (const f of n.files) {
    const source = documentSource(f);
    if (source) blocks.push({ type: 'document', source });
  }
  return blocks;
}

/**
 * An Anthropic document source for a file: a PDF by URL or inline (base64); null for what
 * Anthropic documents do not take (another media type, an OpenAI file id).
 */
function documentSource(f: FileRef): JsonObject | null {
  if (f.url === null || (f.mediaType !== null && f.mediaType !== 'application/pdf')) return null;
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(f.url);
  if (m) return { type: 'base64', media_type: m[1]!, data: m[2]! };
  return /^https?:/.test(f.url) ? { type: 'url', url: f.url } : null;
}

/**
 * True when buildMessages surely starts a new message with the item, whatever came before
 * (TranscriptCodec.startsValue of ANTHROPIC_MESSAGES; CLAUDE_CODE_JSONL asks it for items that
 * are no line of its own): an Anthropic message record (not one of its blocks, not the system
 * wrapper), or a converted user text, or assistant text without a responseId, that has a
 * block. Blocks of Claude Code lines, calls, results and reasoning may join the open message,
 * and so does a later block of a split source record of another format (recordGroups).
 */
export function startsMessage(item: StoredItem): boolean {
  if (item.rawFormat === 'ANTHROPIC_MESSAGES' && item.raw !== null) {
    return isEnvelope(item.raw) || (isJsonObject(item.raw) && typeof item.raw.role === 'string');
  }
  if (item.type !== 'message' || blockOf(item) || isElement(item)) return false;
  const n = neutralOf(item, '', []);
  if (n?.kind !== 'text' || n.role === 'system' || n.role === 'developer') return false;
  if (n.role === 'assistant' && item.responseId !== null) return false;
  return textBlocks(n).length > 0;
}

/**
 * A reasoning item written without an Anthropic record, as the block Anthropic takes back:
 * `thinking` with its signature (signatures are Anthropic's only), or `redacted_thinking` with
 * the encrypted data when that data is Anthropic's (source-records.ts reasoningProvider: an AI
 * SDK part with providerMetadata.anthropic; OpenAI's encrypted_content is not); null otherwise
 * (unsigned thinking and another provider's encrypted reasoning are refused by the API).
 */
function thinkingBlock(n: Extract<Neutral, { kind: 'reasoning' }>): JsonObject | null {
  if (n.signature) return { type: 'thinking', thinking: n.text, signature: n.signature };
  if (n.encryptedContent && !n.text && reasoningProvider(n.item) === 'anthropic') {
    return { type: 'redacted_thinking', data: n.encryptedContent };
  }
  return null;
}

function imageSource(url: string): JsonObject {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { type: 'base64', media_type: m[1]!, data: m[2]! } : { type: 'url', url };
}

const isRecord = (raw: JsonValue) =>
  isJsonObject(raw) &&
  (typeof raw.role === 'string' || (Object.keys(raw).length === 1 && 'system' in raw));

/**
 * Builds `{system?, messages}` from items and (context mode) compaction records.
 * encode: records of ANTHROPIC_MESSAGES verbatim. context: role and content only, then
 * consecutive same-role messages merged with tool_result blocks first.
 * @param state carried from earlier runs of the same thread (EncodeState); fresh by default
 * @param target the format's name in dropped reasons (CLAUDE_CODE_JSONL wraps these messages)
 */
export function buildMessages(
  entries: readonly ContextEntry[],
  mode: Mode,
  state: EncodeState = newEncodeState(),
  target = 'Anthropic Messages',
): Encoded {
  const b = new Builder(mode, state, target);
  let run: StoredItem[] = [];
  const flush = () => {
    const pathOf = () => ['content'];
    const groups = recordGroups(run);
    let previous: StoredItem | null = null;
    for (const unit of readRecords(run, 'ANTHROPIC_MESSAGES', pathOf, isRecord)) {
      if (unit.kind === 'record') b.record(unit.value as JsonObject);
      else {
        const group = groups.get(unit.item.id);
        addLoose(
          b,
          unit.item,
          group !== undefined && previous !== null && groups.get(previous.id) === group,
        );
      }
      previous = unit.kind === 'record' ? unit.items[unit.items.length - 1]! : unit.item;
    }
    run = [];
  };
  for (const entry of entries) {
    if (!isCompaction(entry)) {
      run.push(entry);
      continue;
    }
    flush();
    b.close();
    b.add('user', [{ type: 'text', text: summaryText(entry) }], null, false);
    b.close();
  }
  flush();
  const messages = mode === 'context' ? alternate(b.messages) : b.messages;
  const value: JsonObject = {};
  const system = joinSystem(b.system, b.systemTexts);
  if (system !== undefined) value.system = system;
  value.messages = messages;
  return { value, dropped: b.dropped };
}

function joinSystem(system: JsonValue | undefined, texts: string[]): JsonValue | undefined {
  if (texts.length === 0) return system;
  if (system === undefined) return texts.join('\n\n');
  if (typeof system === 'string') return [system, ...texts].join('\n\n');
  return [...(system as JsonValue[]), ...texts.map((text) => ({ type: 'text', text }))];
}

/** Merges consecutive same-role messages; in user messages tool_result blocks come first. */
function alternate(messages: JsonObject[]): JsonObject[] {
  const out: { role: JsonValue; content: JsonValue[] }[] = [];
  // Anthropic refuses empty text blocks; a message left with no block is left out.
  const empty = (b: JsonValue) => isJsonObject(b) && b.type === 'text' && b.text === '';
  for (const m of messages) {
    const blocks = (
      typeof m.content === 'string'
        ? [{ type: 'text', text: m.content }]
        : [...((m.content ?? []) as JsonValue[])]
    ).filter((b) => !empty(b));
    if (blocks.length === 0) continue;
    const last = out[out.length - 1];
    if (last && last.role === m.role) last.content.push(...blocks);
    else out.push({ role: m.role ?? 'user', content: blocks });
  }
  for (const m of out) {
    if (m.role !== 'user') continue;
    const isResult = (b: JsonValue) => isJsonObject(b) && b.type === 'tool_result';
    m.content = [...m.content.filter(isResult), ...m.content.filter((b) => !isResult(b))];
  }
  return out;
}
