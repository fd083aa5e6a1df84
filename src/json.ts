/**
 * JSON helpers for stored payloads: canonical text for comparisons and hashes, and byte sizes
 * for the item size limit.
 */
import { createHash } from 'node:crypto';

/** A JSON value as JSON.parse returns it. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** True for a plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, JsonValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON text with object keys sorted at every depth, so two deep-equal values give the same
 * text. `undefined` members are left out, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (isJsonObject(v)) {
      // fromEntries defines own properties, so a "__proto__" key stays a key.
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, v[k]]),
      );
    }
    return v;
  });
}

/** SHA-256 (hex) of the canonical JSON of a value. */
export function jsonHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/** Size in bytes of a value's JSON text in UTF-8. */
export function jsonBytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Canonical JSON for equality filters in SQL: canonicalJson with U+0000 in keys and strings
 * replaced by U+10FFFF (a noncharacter), because PostgreSQL's jsonb cannot hold U+0000. Stored
 * metadata and filter values go through the same mapping, so equality is preserved.
 */
export function filterableJson(value: unknown): string {
  const map = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replaceAll('\u0000', '\u{10FFFF}');
    if (Array.isArray(v)) return v.map(map);
    if (isJsonObject(v)) {
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k.replaceAll('\u0000', '\u{10FFFF}'), map(x)]),
      );
    }
    return v;
  };
  return canonicalJson(map(value));
}

/** Deepest nesting of arrays and objects we store (deeper values overflow JSON.stringify's stack). */
export const MAX_JSON_DEPTH = 100;

/** Nesting depth of a JSON value (0 for a scalar), computed without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (level > MAX_JSON_DEPTH) return level; // deep enough to refuse; stop walking
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, level]);
  }
  return deepest;
}

/** Dates we store: years 0001 to 9999, as ISO-8601 and both databases represent them alike. */
export function isStorableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
}
