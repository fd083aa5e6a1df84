/**
 * The split rule for `raw`, shared by every codec, and small helpers.
 *
 * Split rule: a source record (a message, a Responses item, a JSONL line) that becomes ONE item
 * is that item's raw, verbatim. A record that becomes SEVERAL items is split along one list in
 * it (Anthropic `content`, Claude Code `message.content`, Chat `tool_calls`, SWE-agent
 * `tool_call_ids`, AI SDK `parts`):
 * - the first item's raw is `{record, block}`: `record` is the record with that list replaced by
 *   its length (so key order and every other key survive, and the reader knows how many
 *   elements follow); `block` is the list's first element, left out when the first item was
 *   made from the record itself (Chat text beside tool_calls);
 * - every later item's raw is its own list element, verbatim.
 * Encode puts the elements back into the list in seq order.
 */
import { type BodyField, bodyToData } from '../items/item-types.js';
import { isJsonObject, type JsonValue } from '../json.js';
import type { ItemDraft, JsonObject, StoredItem, TranscriptFormat } from './types.js';

/** A copy of `record` with the value at `path` replaced; key order kept. */
export function replaceAt(
  record: JsonObject,
  path: readonly string[],
  value: JsonValue,
): JsonObject {
  const [head, ...rest] = path;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== head) out[k] = v;
    else out[k] = rest.length === 0 ? value : replaceAt(v as JsonObject, rest, value);
  }
  return out;
}

/** The value at `path` in `record`, or undefined. */
export function valueAt(record: JsonValue, path: readonly string[]): JsonValue | undefined {
  let v: JsonValue | undefined = record;
  for (const k of path) v = isJsonObject(v) ? v[k] : undefined;
  return v;
}

/**
 * The raws of the items made from one record (split rule above).
 * @param record the source record
 * @param path where the split list is in it
 * @param parts for each item, the list element it was made from; undefined (only at index 0)
 *   for an item made from the record itself
 */
export function splitRaws(
  record: JsonObject,
  path: readonly string[],
  parts: readonly (JsonValue | undefined)[],
): JsonValue[] {
  if (parts.length === 1) return [record];
  const list = valueAt(record, path);
  const length = Array.isArray(list) ? list.length : 0;
  const first: JsonObject = { record: replaceAt(record, path, length) };
  if (parts[0] !== undefined) first.block = parts[0];
  return [first, ...(parts.slice(1) as JsonValue[])];
}

/** True for the first item's raw of a split record. */
export function isEnvelope(raw: JsonValue): raw is { record: JsonObject; block?: JsonValue } {
  return (
    isJsonObject(raw) &&
    isJsonObject(raw.record) &&
    Object.keys(raw).every((k) => k === 'record' || k === 'block')
  );
}

/** A unit of encode's input: a record rebuilt from raw, or an item to convert. */
export type Unit =
  | { kind: 'record'; value: JsonValue; items: StoredItem[] }
  | { kind: 'loose'; item: StoredItem };

/**
 * Groups items back into source records: a whole-record raw is one record; an envelope takes
 * the following items' raws as its list elements (as many as its count; fewer when some are
 * gone). Everything else is loose (another format, no raw, an element without its envelope).
 * @param isRecord tells a whole record of this format from a list element
 * @param pathOf where the split list is in a record (given the envelope's record)
 * @param companion items made from the same element as the item before them (AI SDK tool
 *   results): they join the record without adding an element
 */
export function readRecords(
  items: readonly StoredItem[],
  format: TranscriptFormat,
  pathOf: (record: JsonObject) => readonly string[],
  isRecord: (raw: JsonValue) => boolean,
  companion: (item: StoredItem, previous: StoredItem) => boolean = () => false,
): Unit[] {
  const units: Unit[] = [];
  let i = 0;
  const ours = (item: StoredItem | undefined) =>
    item !== undefined && item.rawFormat === format && item.raw !== null;
  while (i < items.length) {
    const item = items[i++]!;
    if (!ours(item)) {
      units.push({ kind: 'loose', item });
    } else if (isEnvelope(item.raw)) {
      const path = pathOf(item.raw.record);
      const count = valueAt(item.raw.record, path);
      const elements: JsonValue[] = item.raw.block === undefined ? [] : [item.raw.block];
      const group = [item];
      const wanted = typeof count === 'number' ? count : 0;
      while (ours(items[i]) && !isEnvelope(items[i]!.raw) && !isRecord(items[i]!.raw)) {
        const next = items[i]!;
        if (companion(next, group[group.length - 1]!)) {
          group.push(next);
          i++;
          continue;
        }
        if (elements.length >= wanted) break;
        elements.push(next.raw);
        group.push(next);
        i++;
      }
      units.push({
        kind: 'record',
        value: replaceAt(item.raw.record, path, elements),
        items: group,
      });
    } else if (isRecord(item.raw)) {
      const group = [item];
      while (ours(items[i]) && companion(items[i]!, group[group.length - 1]!))
        group.push(items[i++]!);
      units.push({ kind: 'record', value: item.raw, items: group });
    } else {
      units.push({ kind: 'loose', item });
    }
  }
  return units;
}

/** Known item types, which an OtherItem may not use. */
const KNOWN = new Set([
  'message',
  'tool_call',
  'tool_result',
  'reasoning',
  'error',
  'compaction',
  'resource_event',
  'slash_command',
  'terminal',
]);

/**
 * An OtherItem type for a source record type: snake_case of it, prefixed when it would be a
 * known type or not start with a letter (contract: OtherItemInput.type).
 */
export function otherType(prefix: string, sourceType: unknown): string {
  const base = String(sourceType ?? 'unknown')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .slice(0, 40);
  const ok = /^[a-z][a-z0-9_]*$/.test(base) && !KNOWN.has(base);
  return ok ? base : `${prefix}_${base}`.replace(/_+/g, '_').slice(0, 64);
}

/** The body field a draft sets. */
export function bodyFieldOf(draft: ItemDraft): BodyField & keyof ItemDraft {
  const fields = [
    'message',
    'toolCall',
    'toolResult',
    'reasoning',
    'resourceEvent',
    'other',
  ] as const;
  const field = fields.find((f) => draft[f] != null);
  if (!field) throw new Error('an item draft without a body field');
  return field;
}

/**
 * What the store gives back for a draft written at `seq` (type and data as item-types.ts
 * builds them, every value through JSON as the database keeps it). For tests and for callers
 * that convert drafts without a database.
 */
export function storedFromDraft(draft: ItemDraft, seq: number, threadId = 't'): StoredItem {
  const field = bodyFieldOf(draft);
  const { type, data } = bodyToData(field, draft[field] as Record<string, unknown>);
  const stored: StoredItem = {
    id: `${threadId}:${seq}`,
    seq,
    type,
    status: draft.status ?? 'COMPLETED',
    responseId: draft.responseId,
    createdAt: draft.createdAt ?? new Date(0).toISOString(),
    createdBy: draft.createdBy,
    data: data as JsonValue,
    raw: draft.raw,
    rawFormat: draft.rawFormat,
  };
  return JSON.parse(JSON.stringify(stored)) as StoredItem;
}

/** An ISO-8601 timestamp from Unix seconds or an ISO string; null when neither. */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    return new Date(value * 1000).toISOString();
  }
  if (typeof value === 'string') {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  }
  return null;
}

/** A string field of an object, or null. */
export function str(value: JsonValue | undefined): string | null {
  return typeof value === 'string' ? value : null;
}
