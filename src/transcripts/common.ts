/**
 * The common core every format converts through when an item's raw is not in the target format:
 * text (with images by reference), tool calls, tool results, reasoning. Anything else is
 * reported as dropped by the caller.
 */
import { assembleContext } from '../compaction/context.js';
import { isJsonObject, type JsonValue } from '../json.js';
import { isEnvelope } from './envelope.js';
import type { CompactionRecord, ContextEntry, Dropped, JsonObject, StoredItem } from './types.js';

/**
 * One text part of a message, unaltered (a message's text parts are kept apart so no target joins
 * them with a separator the model never wrote), with what the source attached to it:
 * `citations` are Anthropic citation objects (a text block's `citations`: the whole block is the
 * cited claim); `annotations` are OpenAI Responses output_text annotations (url_citation ...,
 * indices into this text).
 */
export interface Segment {
  text: string;
  citations: JsonObject[];
  annotations: JsonObject[];
}

/** An item in format-neutral terms. */
export type Neutral =
  | {
      kind: 'text';
      role: string;
      /** The text parts joined by newlines (for a target that takes one string, such as a system prompt). */
      text: string;
      segments: Segment[];
      images: string[];
      /** Per image, the detail the source asked for (OpenAI `detail`), or null. */
      details: (string | null)[];
      /** Documents and files (Anthropic `document`, Responses `input_file`, AI SDK file parts). */
      files: FileRef[];
      /** Refusal texts (Responses `refusal` parts, Chat `refusal`). */
      refusals: string[];
      item: StoredItem;
    }
  | { kind: 'call'; callId: string; name: string; arguments: JsonValue; item: StoredItem }
  | {
      kind: 'result';
      callId: string;
      name: string | null;
      output: JsonValue;
      isError: boolean;
      item: StoredItem;
    }
  | {
      kind: 'reasoning';
      text: string;
      signature: string | null;
      encryptedContent: string | null;
      summary: JsonValue;
      item: StoredItem;
    };

/** A dropped-list entry for an item. */
export function dropped(item: StoredItem, what: string, why: string): Dropped {
  return { itemId: item.id, seq: item.seq, what, why };
}

const data = (item: StoredItem): JsonObject => (isJsonObject(item.data) ? item.data : {});

/**
 * The neutral form of an item, or null (with an entry in `out`) for a type no format shares.
 * @param target the format's name, for the reason given
 */
export function neutralOf(item: StoredItem, target: string, out: Dropped[]): Neutral | null {
  const d = data(item);
  switch (item.type) {
    case 'message': {
      const parts = d.parts;
      const text = typeof d.content === 'string' ? d.content : partsText(parts);
      const segments = segmentsOf(item, d);
      const { images, details, files, refusals } = contentOf(item, target, out);
      return {
        kind: 'text',
        role: String(d.role),
        text,
        segments,
        images,
        details,
        files,
        refusals,
        item,
      };
    }
    case 'tool_call':
      return {
        kind: 'call',
        callId: String(d.callId),
        name: String(d.name),
        arguments: d.arguments ?? null,
        item,
      };
    case 'tool_result':
      return {
        kind: 'result',
        callId: String(d.callId),
        name: typeof d.name === 'string' ? d.name : null,
        output: d.output ?? null,
        isError: d.isError === true,
        item,
      };
    case 'reasoning':
      return {
        kind: 'reasoning',
        text: typeof d.text === 'string' ? d.text : '',
        signature: typeof d.signature === 'string' ? d.signature : null,
        encryptedContent: typeof d.encryptedContent === 'string' ? d.encryptedContent : null,
        summary: d.summary ?? null,
        item,
      };
    default:
      out.push(dropped(item, 'the whole item', `${target} has no ${item.type} records`));
      return null;
  }
}

/**
 * A document or file by reference: `url` is an http(s) or data: URL; `fileId` an OpenAI file id
 * (Chat `file.file_id`, Responses `input_file.file_id`; other providers' ids are not OpenAI's);
 * `mediaType` when the source says or implies it (an Anthropic document is a PDF).
 */
export interface FileRef {
  url: string | null;
  fileId: string | null;
  mediaType: string | null;
  filename: string | null;
}

const str = (v: JsonValue | undefined): string | null => (typeof v === 'string' ? v : null);

/**
 * What a message item's content parts hold besides text: images (with OpenAI detail), files,
 * refusals. Every part the neutral form has no field for (audio, an Anthropic file-id image or
 * text document, a type no format shares ...) is listed in `out` as "content part k (type)":
 * this is the one place where a converted message can lose a part, so no encoder loses one
 * silently. Text parts are segments (segmentsOf).
 */
function contentOf(item: StoredItem, target: string, out: Dropped[]) {
  const d = data(item);
  const images: string[] = [];
  const details: (string | null)[] = [];
  const files: FileRef[] = [];
  const refusals: string[] = [];
  // Chat keeps an assistant's refusal as a message key, which decode leaves in raw.
  const record = isEnvelope(item.raw) ? item.raw.record : item.raw;
  if (
    item.rawFormat === 'OPENAI_CHAT' &&
    isJsonObject(record) &&
    typeof record.refusal === 'string'
  ) {
    refusals.push(record.refusal);
  }
  const parts = Array.isArray(d.parts) ? d.parts : [];
  parts.forEach((p, k) => {
    if (!isJsonObject(p) || typeof p.text === 'string') return;
    const image = imageRefs([p])[0];
    if (image !== undefined) {
      images.push(image);
      const detail = isJsonObject(p.image_url) ? p.image_url.detail : p.detail;
      details.push(typeof detail === 'string' ? detail : null);
      return;
    }
    const file = fileRef(p);
    if (file) {
      files.push(file);
      return;
    }
    if (p.type === 'refusal' && typeof p.refusal === 'string') {
      refusals.push(p.refusal);
      return;
    }
    const why = `${target} has no equivalent of this part (the neutral form carries text, images by URL, files by URL or OpenAI file id, refusals)`;
    out.push(dropped(item, `content part ${k} (${String(p.type)})`, why));
  });
  return { images, details, files, refusals };
}

/** A file or document part of any format as a FileRef, or null when it is none (or by another provider's file id). */
function fileRef(p: JsonObject): FileRef | null {
  if (p.type === 'document' && isJsonObject(p.source)) {
    // Anthropic: url and base64 sources are PDFs; text, content and file sources have no URL.
    const src = p.source;
    const mediaType = str(src.media_type) ?? 'application/pdf';
    if (src.type === 'url' && typeof src.url === 'string') {
      return { url: src.url, fileId: null, mediaType, filename: null };
    }
    if (src.type === 'base64' && typeof src.data === 'string') {
      return {
        url: `data:${mediaType};base64,${src.data}`,
        fileId: null,
        mediaType,
        filename: null,
      };
    }
    return null;
  }
  if (p.type === 'input_file') {
    // OpenAI Responses.
    const url = str(p.file_url) ?? str(p.file_data);
    const fileId = str(p.file_id);
    if (url === null && fileId === null) return null;
    const mediaType = url ? (/^data:([^;,]+)/.exec(url)?.[1] ?? null) : null;
    return { url, fileId, mediaType, filename: str(p.filename) };
  }
  if (p.type === 'file' && isJsonObject(p.file)) {
    // OpenAI Chat: {file: {file_id} | {file_data, filename}}.
    const url = str(p.file.file_data);
    const fileId = str(p.file.file_id);
    if (url === null && fileId === null) return null;
    const mediaType = url ? (/^data:([^;,]+)/.exec(url)?.[1] ?? null) : null;
    return { url, fileId, mediaType, filename: str(p.file.filename) };
  }
  if (p.type === 'file' && typeof p.url === 'string') {
    // AI SDK (images are taken as images before this).
    return { url: p.url, fileId: null, mediaType: str(p.mediaType), filename: str(p.filename) };
  }
  return null;
}

/**
 * Dropped-list entries for what a target has no place for in a converted text item: each
 * image's detail (`detail` false), each file `acceptFile` refuses, each refusal (`refusal`
 * false). Each entry names the part and says why.
 */
export function contentDrops(
  n: Extract<Neutral, { kind: 'text' }>,
  target: string,
  carries: { detail: boolean; file: (f: FileRef) => boolean; refusal: boolean },
): Dropped[] {
  const out: Dropped[] = [];
  if (!carries.detail) {
    n.details.forEach((d, k) => {
      if (d !== null)
        out.push(
          dropped(n.item, `image ${k}: detail (${d})`, `${target} images have no detail setting`),
        );
    });
  }
  n.files.forEach((f, k) => {
    if (carries.file(f)) return;
    const ref =
      f.fileId !== null && f.url === null ? `file id ${f.fileId}` : (f.mediaType ?? 'a file');
    out.push(dropped(n.item, `file ${k} (${ref})`, `${target} takes no such file in this message`));
  });
  if (!carries.refusal) {
    for (const _ of n.refusals)
      out.push(dropped(n.item, 'refusal', `${target} has no refusal field`));
  }
  return out;
}

const objects = (v: JsonValue | undefined): JsonObject[] =>
  Array.isArray(v) ? v.filter(isJsonObject) : [];

/**
 * A message item's text parts: each text part of its `parts` list (any format's), or its
 * `content` string as one part with the citations of the Anthropic text block it came from.
 */
function segmentsOf(item: StoredItem, d: JsonObject): Segment[] {
  const parts = objects(d.parts).filter((p) => typeof p.text === 'string');
  if (parts.length > 0) {
    return parts.map((p) => ({
      text: p.text as string,
      citations: objects(p.citations),
      annotations: objects(p.annotations),
    }));
  }
  if (typeof d.content !== 'string') return [];
  const citations = objects(blockOf(item)?.citations);
  return [{ text: d.content, citations, annotations: [] }];
}

const ANTHROPIC_FAMILY = new Set(['ANTHROPIC_MESSAGES', 'CLAUDE_CODE_JSONL']);

/**
 * The verbatim block an item was made from, when its raw is Anthropic-shaped (an Anthropic
 * message or Claude Code line with one block, an envelope, or a block); null otherwise.
 */
export function blockOf(item: StoredItem): JsonObject | null {
  if (!item.rawFormat || !ANTHROPIC_FAMILY.has(item.rawFormat)) return null;
  const raw = item.raw;
  if (isEnvelope(raw)) return isJsonObject(raw.block) ? raw.block : null;
  if (!isJsonObject(raw)) return null;
  const content = isJsonObject(raw.message) ? raw.message.content : raw.content;
  if ('role' in raw || isJsonObject(raw.message)) {
    return Array.isArray(content) && content.length === 1 && isJsonObject(content[0])
      ? content[0]
      : null;
  }
  // A Claude Code line that is not a message (queue-operation, summary, system, ...) carries
  // its envelope keys: it is a record of the session, not a content block.
  if ('uuid' in raw || 'sessionId' in raw) return null;
  return typeof raw.type === 'string' ? raw : null;
}

/**
 * Dropped-list entries for what a target cannot carry of a text item's segments: each
 * Anthropic citation `accept` does not take, and every Responses annotation (`annotations`
 * false) — each entry names the field and says why.
 */
export function segmentDrops(
  item: StoredItem,
  segments: readonly Segment[],
  target: string,
  accept: (citation: JsonObject) => boolean,
  annotations = false,
): Dropped[] {
  const out: Dropped[] = [];
  segments.forEach((s, k) => {
    for (const c of s.citations.filter((c) => !accept(c))) {
      const why = `${target} has no equivalent of an Anthropic ${String(c.type)} citation`;
      out.push(dropped(item, `text part ${k}: citations (${String(c.type)})`, why));
    }
    if (!annotations && s.annotations.length > 0) {
      const types = [...new Set(s.annotations.map((a) => String(a.type)))].join(', ');
      const why = `${target} has no field for OpenAI Responses output_text annotations`;
      out.push(dropped(item, `text part ${k}: annotations (${types})`, why));
    }
  });
  return out;
}

/** True for an Anthropic web search citation, which names its source by url and title. */
export function isWebCitation(c: JsonObject): boolean {
  return c.type === 'web_search_result_location' && typeof c.url === 'string';
}

/** The text parts of a content-part list (any format's text parts), joined by newlines. */
export function partsText(parts: JsonValue | undefined): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .flatMap((p) => (isJsonObject(p) && typeof p.text === 'string' ? [p.text] : []))
    .join('\n');
}

/** Image URLs (http(s) or data:) referenced by content parts in any format. */
export function imageRefs(parts: JsonValue | undefined): string[] {
  if (!Array.isArray(parts)) return [];
  const urls: string[] = [];
  for (const p of parts) {
    if (!isJsonObject(p)) continue;
    const chat = isJsonObject(p.image_url) ? p.image_url.url : null; // Chat
    const responses = p.type === 'input_image' ? p.image_url : null; // Responses
    const src = p.type === 'image' && isJsonObject(p.source) ? p.source : null; // Anthropic
    const anthropic =
      src?.type === 'url'
        ? src.url
        : src?.type === 'base64'
          ? `data:${String(src.media_type)};base64,${String(src.data)}`
          : null;
    const file = p.type === 'file' && String(p.mediaType ?? '').startsWith('image/') ? p.url : null; // AI SDK
    const url = chat ?? responses ?? anthropic ?? file;
    if (typeof url === 'string') urls.push(url);
  }
  return urls;
}

/** Tool output as text: strings as they are, text-part lists joined, anything else as JSON. */
export function outputText(output: JsonValue): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output) && output.every((p) => isJsonObject(p) && p.type === 'text')) {
    return partsText(output);
  }
  return JSON.stringify(output);
}

/** Tool arguments as the JSON string OpenAI formats carry. */
export function argumentsText(args: JsonValue): string {
  return typeof args === 'string' ? args : JSON.stringify(args);
}

/** True when the entry is a compaction record rather than an item. */
export function isCompaction(
  entry: ContextEntry,
): entry is { kind: 'compaction' } & CompactionRecord {
  return 'kind' in entry && entry.kind === 'compaction';
}

/**
 * The text a model is given for a compaction record: marked as a summary from the store, so
 * the model does not take it for something the user said.
 */
export function summaryText(record: CompactionRecord): string {
  return (
    `[threadstore compaction summary of items ${record.startSeq}-${record.endSeq}; ` +
    `the original messages were replaced by this summary]\n${record.summary}`
  );
}

/** The Claude Code line an item came from, or null. */
function claudeLine(item: StoredItem): JsonObject | null {
  if (item.rawFormat !== 'CLAUDE_CODE_JSONL' || !isJsonObject(item.raw)) return null;
  return isJsonObject(item.raw.record) ? item.raw.record : item.raw;
}

/** True for an item from a Claude Code side-chain line (a sub-agent's own conversation). */
function isSideChain(item: StoredItem): boolean {
  return claudeLine(item)?.isSidechain === true;
}

/**
 * Applies compaction records to stored items (contract: Thread.context): each record in place of
 * the items it covers, markers left out. Claude Code side-chain items (a sub-agent's own
 * conversation, kept in the log) are left out of the model's context and listed in `out`.
 */
export function contextEntries(
  items: readonly StoredItem[],
  records: readonly CompactionRecord[],
  out: Dropped[],
): ContextEntry[] {
  const wrapped = records.map((r) => ({ kind: 'compaction' as const, ...r }));
  const main = items.filter((item) => {
    // Claude Code's own summary line after a compact boundary: its compaction record carries
    // the same text, sent once as the marked summary.
    if (records.length > 0 && claudeLine(item)?.isCompactSummary === true) return false;
    if (!isSideChain(item)) return true;
    out.push(dropped(item, 'the whole item', "a side chain is a sub-agent's conversation"));
    return false;
  });
  return assembleContext(wrapped, main);
}
