/**
 * AI_SDK_UI_MESSAGES: the Vercel AI SDK's `UIMessage[]` (`[{id, role, metadata?, parts}]`).
 *
 * One item per part (split rule, envelope.ts, along `parts`), except a tool part
 * (`tool-<name>` or `dynamic-tool`) whose state carries the output: it becomes a tool_call and a
 * tool_result item, both made from (and holding as raw) that part; encode puts the part back
 * once. A part in state output-denied is answered too, as the AI SDK answers it for the model
 * (convertToModelMessages): a tool_result with isError and the approval's reason, default
 * "Tool execution denied.". Other states without output are a tool_call alone (modelContext
 * leaves such calls out, pairs.ts). text -> message; reasoning -> reasoning (providerMetadata.anthropic.signature and
 * redactedData, providerMetadata.openai.reasoningEncryptedContent kept as typed fields); file ->
 * message with the part in parts; step-start, source-*, data-* -> other items. Assistant items
 * share the message id as responseId.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import {
  contentDrops,
  dropped,
  isWebCitation,
  type Neutral,
  neutralOf,
  segmentDrops,
} from './common.js';
import { isEnvelope, otherType, readRecords, splitRaws, str } from './envelope.js';
import { checkRecord } from './record-check.js';
import { isElement, reasoningProvider, recordGroups } from './source-records.js';
import {
  type DecodedConversation,
  type Dropped,
  type Encoded,
  type ItemDraft,
  type JsonObject,
  type StoredItem,
  TranscriptError,
} from './types.js';

const FORMAT = 'AI_SDK_UI_MESSAGES' as const;

/** True for a UIMessage. */
export function isUiMessage(value: unknown): value is JsonObject {
  return isJsonObject(value) && typeof value.role === 'string' && Array.isArray(value.parts);
}

/** The one conversation of a UIMessage list. */
export function decode(source: unknown): DecodedConversation[] {
  const messages =
    isJsonObject(source) && Array.isArray(source.messages) ? source.messages : source;
  if (!Array.isArray(messages)) throw new TranscriptError(null, 'expected a UIMessage array');
  const items: ItemDraft[] = [];
  const locations: string[] = [];
  messages.forEach((m, i) => {
    for (const d of messageDrafts(m, `[${i}]`)) {
      items.push(d);
      locations.push(`[${i}]`);
    }
  });
  return [{ index: 0, items, compactions: [], meta: {}, locations }];
}

type Body = Omit<ItemDraft, 'raw' | 'rawFormat' | 'responseId' | 'createdBy' | 'createdAt'>;

function messageDrafts(message: JsonValue, where: string): ItemDraft[] {
  checkRecord(FORMAT, message, where);
  if (!isUiMessage(message)) throw new TranscriptError(where, 'a UIMessage needs role and parts');
  const role = message.role as string;
  const base = {
    responseId: role === 'assistant' ? str(message.id) : null,
    createdBy: null,
    createdAt: null,
    rawFormat: FORMAT,
  };
  const parts = message.parts as JsonValue[];
  const bodies: { body: Body; part: JsonValue | undefined }[] = [];
  if (parts.length === 0)
    bodies.push({ body: { message: { role, content: '' } }, part: undefined });
  parts.forEach((part, k) => {
    if (!isJsonObject(part)) throw new TranscriptError(`${where}.parts[${k}]`, 'not a part');
    for (const body of partBodies(part, role)) bodies.push({ body, part });
  });
  const raws = splitRaws(
    message,
    ['parts'],
    bodies.map((b) => b.part),
  );
  return bodies.map(({ body }, i) => ({ ...base, ...body, raw: raws[i]! }));
}

const isToolPart = (part: JsonObject) =>
  typeof part.type === 'string' && (part.type.startsWith('tool-') || part.type === 'dynamic-tool');

/** The item bodies of one part (two for a tool part with its output). */
function partBodies(part: JsonObject, role: string): Body[] {
  const meta = isJsonObject(part.providerMetadata) ? part.providerMetadata : {};
  const anthropic = isJsonObject(meta.anthropic) ? meta.anthropic : {};
  const openai = isJsonObject(meta.openai) ? meta.openai : {};
  if (part.type === 'text') return [{ message: { role, content: String(part.text ?? '') } }];
  if (part.type === 'file') return [{ message: { role, content: null, parts: [part] } }];
  if (part.type === 'reasoning') {
    const encryptedContent = str(anthropic.redactedData) ?? str(openai.reasoningEncryptedContent);
    const reasoning = {
      text: String(part.text ?? ''),
      signature: str(anthropic.signature),
      encryptedContent,
    };
    return [{ reasoning }];
  }
  if (!isToolPart(part)) return [{ other: { type: otherType('ai_sdk', part.type), data: part } }];
  const callId = String(part.toolCallId);
  const name = part.type === 'dynamic-tool' ? String(part.toolName) : String(part.type).slice(5);
  const call: Body = { toolCall: { callId, name, arguments: part.input ?? null } };
  if (part.state === 'input-streaming') call.status = 'IN_PROGRESS';
  if (part.state === 'output-available') {
    return [call, { toolResult: { callId, name, output: part.output ?? null, isError: false } }];
  }
  if (part.state === 'output-denied') {
    // The AI SDK's convertToModelMessages sends a denied call to the model as a tool result
    // with the approval's reason (error-text), default 'Tool execution denied.'.
    const approval = isJsonObject(part.approval) ? part.approval : {};
    const output = str(approval.reason) ?? 'Tool execution denied.';
    return [call, { toolResult: { callId, name, output, isError: true } }];
  }
  if (part.state === 'output-error') {
    const output = part.errorText ?? part.output ?? null;
    return [call, { toolResult: { callId, name, output, isError: true } }];
  }
  return [call];
}

/** A tool_result made from the same tool part as the tool_call before it. */
function companion(item: StoredItem, previous: StoredItem): boolean {
  const element = isEnvelope(previous.raw) ? previous.raw.block : previous.raw;
  return (
    item.type === 'tool_result' &&
    previous.type === 'tool_call' &&
    isJsonObject(item.raw) &&
    isJsonObject(element) &&
    item.raw.toolCallId === element.toolCallId
  );
}

const TARGET = 'AI SDK UIMessage';

/**
 * True when encode surely starts a new UIMessage with the item (TranscriptCodec.startsValue):
 * a UIMessage record (not one of its parts), or a converted text that is not an assistant's
 * or has no responseId. A converted tool result goes into an earlier tool part: never. A later
 * block of a split source record joins its record's message (recordGroups): never.
 */
export function startsValue(item: StoredItem): boolean {
  if (item.rawFormat === FORMAT && item.raw !== null) {
    return isEnvelope(item.raw) || isUiMessage(item.raw);
  }
  if (item.type !== 'message' || !isJsonObject(item.data) || isElement(item)) return false;
  return item.data.role !== 'assistant' || item.responseId === null;
}

/**
 * Items back to `UIMessage[]`: messages of this format from raw; others converted (text and
 * images as file parts, reasoning with its provider metadata, tool parts with their output).
 */
export function encode(items: readonly StoredItem[]): Encoded {
  const out: JsonObject[] = [];
  const drop: Dropped[] = [];
  let open: { message: JsonObject; responseId: string | null; group?: string } | null = null;
  // Items of one split source record (an Anthropic user message's blocks) make one message.
  const groups = recordGroups(items);
  for (const unit of readRecords(items, FORMAT, () => ['parts'], isUiMessage, companion)) {
    if (unit.kind === 'record') {
      out.push(unit.value as JsonObject);
      open = null;
      continue;
    }
    const n = neutralOf(unit.item, TARGET, drop);
    if (!n) continue;
    if (n.kind === 'result') {
      if (!attachResult(out, n)) {
        drop.push(dropped(n.item, 'the whole item', 'no tool part with this toolCallId before it'));
      }
      continue;
    }
    const role = n.kind === 'text' ? n.role : 'assistant';
    const responseId = n.item.responseId;
    // A text without a responseId is not known to belong to the message before it: its own
    // message (a stream may cut before it; export-stream.ts). Calls and reasoning still join it.
    const joins = n.kind !== 'text' || responseId !== null;
    const group = groups.get(n.item.id);
    const sameRecord =
      open !== null && group !== undefined && open.group === group && open.message.role === role;
    if (
      open === null ||
      !(
        sameRecord ||
        (joins &&
          role === 'assistant' &&
          open.message.role === role &&
          open.responseId === responseId)
      )
    ) {
      const message: JsonObject = { id: responseId ?? `msg-${n.item.seq}`, role, parts: [] };
      out.push(message);
      open = { message, responseId, ...(group === undefined ? {} : { group }) };
    }
    if (n.kind === 'text') {
      drop.push(...segmentDrops(n.item, n.segments, TARGET, isWebCitation));
      // A file part needs a URL (or data: URL) and a media type.
      const file = (f: { url: string | null; mediaType: string | null }) =>
        f.url !== null && f.mediaType !== null;
      drop.push(...contentDrops(n, TARGET, { detail: false, file, refusal: false }));
    }
    if (n.kind === 'reasoning' && n.encryptedContent && !reasoningMetadata(n)) {
      const why = 'the encrypted reasoning names no provider (no source record) to put it under';
      drop.push(dropped(n.item, 'encryptedContent', why));
    }
    (open.message.parts as JsonValue[]).push(...partsOf(n));
  }
  return { value: out, dropped: drop };
}

function partsOf(n: Exclude<Neutral, { kind: 'result' }>): JsonValue[] {
  if (n.kind === 'call') {
    return [
      {
        type: `tool-${n.name}`,
        toolCallId: n.callId,
        state: 'input-available',
        input: n.arguments,
      },
    ];
  }
  if (n.kind === 'reasoning') {
    const summary = Array.isArray(n.summary)
      ? n.summary
          .map((s) => (isJsonObject(s) && typeof s.text === 'string' ? s.text : ''))
          .join('\n')
      : '';
    const part: JsonObject = { type: 'reasoning', text: n.text || summary };
    const metadata = reasoningMetadata(n);
    if (metadata) part.providerMetadata = metadata;
    return [part];
  }
  // One text part per source text part (unjoined); an Anthropic web search citation becomes a
  // source-url part right after its text, its cited_text and encrypted_index in providerMetadata.
  const parts: JsonValue[] = [];
  n.segments.forEach((s, k) => {
    if (s.text !== '') parts.push({ type: 'text', text: s.text });
    s.citations.filter(isWebCitation).forEach((c, j) => {
      const part: JsonObject = {
        type: 'source-url',
        sourceId: `${n.item.id}:${k}:${j}`,
        url: c.url as string,
      };
      if (typeof c.title === 'string') part.title = c.title;
      part.providerMetadata = {
        anthropic: { citedText: c.cited_text ?? null, encryptedIndex: c.encrypted_index ?? null },
      };
      parts.push(part);
    });
  });
  for (const url of n.images) {
    const mediaType = /^data:([^;,]+)/.exec(url)?.[1] ?? 'image/*';
    parts.push({ type: 'file', mediaType, url });
  }
  for (const f of n.files) {
    if (f.url === null || f.mediaType === null) continue; // listed by encode
    const part: JsonObject = { type: 'file', mediaType: f.mediaType, url: f.url };
    if (f.filename !== null) part.filename = f.filename;
    parts.push(part);
  }
  return parts;
}

/** The AI SDK providers' metadata for a reasoning item's signature or encrypted content. */
function reasoningMetadata(n: Extract<Neutral, { kind: 'reasoning' }>): JsonObject | null {
  if (n.item.rawFormat === 'OPENAI_RESPONSES') {
    const id = isJsonObject(n.item.raw) ? str(n.item.raw.id) : null;
    return { openai: { itemId: id, reasoningEncryptedContent: n.encryptedContent } };
  }
  if (n.signature) return { anthropic: { signature: n.signature } };
  // Encrypted reasoning goes under the provider it belongs to (OpenAI's is handled above; one
  // written without a record says no provider and is listed by the caller).
  if (n.encryptedContent && reasoningProvider(n.item) === 'anthropic') {
    return { anthropic: { redactedData: n.encryptedContent } };
  }
  return null;
}

/** Puts a result into the nearest earlier tool part of its call that has no output yet. */
function attachResult(out: JsonObject[], n: Extract<Neutral, { kind: 'result' }>): boolean {
  for (let i = out.length - 1; i >= 0; i--) {
    const parts = out[i]!.parts as JsonValue[];
    for (let k = parts.length - 1; k >= 0; k--) {
      const p = parts[k];
      if (!isJsonObject(p) || p.toolCallId !== n.callId || p.state !== 'input-available') continue;
      if (n.isError) {
        const errorText = typeof n.output === 'string' ? n.output : JSON.stringify(n.output);
        parts[k] = { ...p, state: 'output-error', errorText };
      } else {
        parts[k] = { ...p, state: 'output-available', output: n.output };
      }
      return true;
    }
  }
  return false;
}
