/**
 * What an item says about the source record it came from, for every target format: which items
 * form one split record (envelope.ts split rule), whether an item is a later list element of
 * one, and which provider a reasoning item's encrypted content belongs to.
 */
import { isJsonObject, type JsonValue } from '../json.js';
import { isEnvelope, valueAt } from './envelope.js';
import type { JsonObject, StoredItem, TranscriptFormat } from './types.js';

/** Where each format that splits records keeps the split list (envelope.ts). */
function splitPath(format: TranscriptFormat, record: JsonObject): readonly string[] | null {
  switch (format) {
    case 'ANTHROPIC_MESSAGES':
      return ['content'];
    case 'CLAUDE_CODE_JSONL':
      return ['message', 'content'];
    case 'AI_SDK_UI_MESSAGES':
      return ['parts'];
    case 'OPENAI_CHAT':
      return ['tool_call_ids' in record ? 'tool_call_ids' : 'tool_calls'];
    default:
      return null;
  }
}

/** True for a raw that is a whole record of its format (not a list element). */
function isWholeRecord(format: TranscriptFormat, raw: JsonValue): boolean {
  if (!isJsonObject(raw)) return false;
  switch (format) {
    case 'ANTHROPIC_MESSAGES':
      return 'role' in raw || (Object.keys(raw).length === 1 && 'system' in raw);
    case 'CLAUDE_CODE_JSONL':
      return 'message' in raw || 'uuid' in raw || 'sessionId' in raw;
    case 'AI_SDK_UI_MESSAGES':
      return typeof raw.role === 'string' && Array.isArray(raw.parts);
    case 'OPENAI_CHAT':
      return typeof raw.role === 'string';
    default:
      return true;
  }
}

/**
 * True for an item whose raw is a later list element of a split record (not its envelope, not
 * a whole record): it belongs to the record of an item before it, so no format starts a message
 * with it.
 */
export function isElement(item: StoredItem): boolean {
  if (item.raw === null || item.rawFormat === null || isEnvelope(item.raw)) return false;
  return splitPath(item.rawFormat, {}) !== null && !isWholeRecord(item.rawFormat, item.raw);
}

/** The element an item was made from: an envelope's block, else its raw. */
function elementOf(item: StoredItem): JsonValue | undefined {
  return isEnvelope(item.raw) ? item.raw.block : item.raw;
}

/**
 * The split record each item belongs to: item id -> the id of the record's first item (its
 * envelope), for the items of records split into several items; items of a one-item record
 * are not in the map. An envelope takes the items after it of its format that are list
 * elements, as many as its count (an AI SDK tool result made from the same tool part as the
 * call before it counts with that call).
 */
export function recordGroups(items: readonly StoredItem[]): Map<string, string> {
  const groups = new Map<string, string>();
  let open: { id: string; format: TranscriptFormat; left: number; last: StoredItem } | null = null;
  for (const item of items) {
    if (open && item.rawFormat === open.format && isElement(item)) {
      const prev = elementOf(open.last);
      const companion =
        item.type === 'tool_result' &&
        open.last.type === 'tool_call' &&
        isJsonObject(item.raw) &&
        isJsonObject(prev) &&
        item.raw.toolCallId === prev.toolCallId;
      if (companion || open.left > 0) {
        if (!companion) open.left--;
        groups.set(item.id, open.id);
        open.last = item;
        continue;
      }
    }
    open = null;
    if (item.rawFormat === null || !isEnvelope(item.raw)) continue;
    const path = splitPath(item.rawFormat, item.raw.record);
    const count = path ? valueAt(item.raw.record, path) : undefined;
    if (typeof count !== 'number') continue;
    const left = item.raw.block === undefined ? count : count - 1;
    groups.set(item.id, item.id);
    open = { id: item.id, format: item.rawFormat, left, last: item };
  }
  return groups;
}

const ANTHROPIC_FAMILY = new Set<TranscriptFormat>(['ANTHROPIC_MESSAGES', 'CLAUDE_CODE_JSONL']);

/**
 * The provider a reasoning item's signature or encrypted content belongs to, as its source
 * record says: 'anthropic' for an Anthropic or Claude Code record, or an AI SDK reasoning part
 * with providerMetadata.anthropic; 'openai' for an OpenAI Responses record, or an AI SDK part
 * with providerMetadata.openai; null when the item has no record saying (written without raw).
 * Each provider takes back only its own encrypted reasoning (issue 11: replayed reasoning must
 * be the provider's own).
 */
export function reasoningProvider(item: StoredItem): 'anthropic' | 'openai' | null {
  if (item.rawFormat === null) return null;
  if (ANTHROPIC_FAMILY.has(item.rawFormat)) return 'anthropic';
  if (item.rawFormat === 'OPENAI_RESPONSES') return 'openai';
  if (item.rawFormat === 'AI_SDK_UI_MESSAGES') {
    const part = elementOf(item);
    const meta = isJsonObject(part) ? part.providerMetadata : undefined;
    if (isJsonObject(meta) && isJsonObject(meta.anthropic)) return 'anthropic';
    if (isJsonObject(meta) && isJsonObject(meta.openai)) return 'openai';
  }
  return null;
}
