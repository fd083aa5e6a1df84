/**
 * JSON helpers for stored payloads: canonical text for comparisons and hashes, and byte sizes
 * for the item size limit.
 */
import { createHash } from 'node:crypto';
import { quote } from './errors.js';

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

/**
 * Deepest nesting of arrays and objects stored in item data (the item's JSON arguments wrapped
 * in its body, so a few levels above MAX_JSON_ARGUMENT_DEPTH). A backstop for values that do
 * not come through the JSON scalar (the importer).
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Deepest nesting of arrays and objects in one JSON argument (item data, metadata, filters):
 * `1` and `"x"` are depth 0, `{}` and `[]` depth 1, `{"a":[1]}` depth 2. Checked by the JSON
 * scalar on every JSON argument, variables and inline literals alike.
 */
export const MAX_JSON_ARGUMENT_DEPTH = 64;

/** A path inside a JSON value as messages show it: `args.x`, `parts[2].text`, `["a b"]`. */
function pathText(path: readonly (string | number)[]): string {
  return path
    .map((step, i) => {
      if (typeof step === 'number') return `[${step}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(step)) return i === 0 ? step : `.${step}`;
      return `[${quote(step, 40)}]`;
    })
    .join('');
}

/** Why a JSON value cannot be stored the same on both databases, and where. */
export interface JsonProblem {
  /** Steps from the value's root to the offending part (keys and array indexes). */
  path: (string | number)[];
  /** The path as text (`args.x`, `parts[2]`; empty for the root). */
  at: string;
  /** What is wrong and what to send instead. */
  reason: string;
}

/** A UTF-16 surrogate that is not half of a pair (with the u flag, pairs are one code point). */
const LONE_SURROGATE = /\p{Cs}/u;

/** True when `text` holds a lone surrogate (String.prototype.isWellFormed, before ES2024 types). */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** Said after the string or key, which is quoted with the surrogate shown as U+FFFD. */
const LONE_SURROGATE_REASON =
  'a lone surrogate (half of a UTF-16 pair), which SQLite and PostgreSQL store differently; send well-formed Unicode (a pair whole, or U+FFFD)';

/** The reason a scalar is refused (a number that JSON text cannot keep, a lone surrogate), or null. */
function scalarProblem(v: unknown, numbers: boolean): string | null {
  if (numbers && typeof v === 'number') {
    if (!Number.isFinite(v)) {
      return 'the number is not a finite double (1e400 overflows to Infinity, which JSON text turns into null); send a number within ±1.7976931348623157e308, or a string';
    }
    if (Object.is(v, -0)) return '-0 cannot be stored the same on both databases; send 0';
  }
  if (typeof v === 'string' && hasLoneSurrogate(v)) {
    return `the string ${quote(v, 40)} holds ${LONE_SURROGATE_REASON}`;
  }
  return null;
}

/** An array or object being walked: its members are visited in order from `next`. */
interface Frame {
  value: object;
  keys: string[] | null;
  next: number;
  /** The key or index of this container in its parent (none for the root). */
  step: string | number | null;
}

/**
 * The first part of `value` that threadstore refuses to store, found without recursion and
 * with memory in proportion to the depth, not the size (a value nested 200,000 levels is
 * refused, not a stack overflow): nesting deeper than `maxDepth` levels, a number that is not
 * a finite double or is -0 (JSON text would turn them into null and 0), a lone surrogate in a
 * string or key (SQLite and PostgreSQL would store it differently). `undefined` members (an
 * unset variable inside a literal) are skipped.
 * @param options.maxDepth levels allowed (Infinity: any); options.numbers false skips numbers
 * @returns null when the value can be stored as sent
 */
export function jsonProblem(
  value: unknown,
  options?: { maxDepth?: number; numbers?: boolean },
): JsonProblem | null {
  // Module-level helpers, not closures: this runs for every stored value, and the dev loader
  // (tsx) names every closure it creates (2% of a 100-item append's CPU, bench S2).
  const walk: Walk = {
    frames: [],
    maxDepth: options?.maxDepth ?? MAX_JSON_ARGUMENT_DEPTH,
    numbers: options?.numbers ?? true,
  };
  const { frames } = walk;
  const first = visitMember(walk, value, null);
  if (first) return first;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const length = frame.keys ? frame.keys.length : (frame.value as unknown[]).length;
    if (frame.next >= length) {
      frames.pop();
      continue;
    }
    const index = frame.next++;
    if (frame.keys) {
      const key = frame.keys[index]!;
      if (hasLoneSurrogate(key)) {
        return problemAt(frames, null, `the key ${quote(key, 40)} holds ${LONE_SURROGATE_REASON}`);
      }
      const found = visitMember(walk, (frame.value as Record<string, unknown>)[key], key);
      if (found) return found;
    } else {
      const found = visitMember(walk, (frame.value as unknown[])[index], index);
      if (found) return found;
    }
  }
  return null;
}

/** The state of one jsonProblem walk. */
interface Walk {
  frames: Frame[];
  maxDepth: number;
  numbers: boolean;
}

/** The problem `reason` at the walk's position, then `last` (a key or index) when given. */
function problemAt(frames: Frame[], last: string | number | null, reason: string): JsonProblem {
  const path = frames.map((f) => f.step).filter((s) => s !== null);
  if (last !== null) path.push(last);
  return { path, at: pathText(path), reason };
}

/** Checks `v` (reached by `step`); pushes it on the walk when it is a container. */
function visitMember(walk: Walk, v: unknown, step: string | number | null): JsonProblem | null {
  const reason = scalarProblem(v, walk.numbers);
  if (reason) return problemAt(walk.frames, step, reason);
  if (typeof v !== 'object' || v === null) return null;
  if (walk.frames.length >= walk.maxDepth) {
    return problemAt(
      walk.frames,
      step,
      `the value is nested more than ${walk.maxDepth} levels deep; flatten it, or send the deep part as a string`,
    );
  }
  walk.frames.push({ value: v, keys: Array.isArray(v) ? null : Object.keys(v), next: 0, step });
  return null;
}

/** Dates we store: years 0001 to 9999, as ISO-8601 and both databases represent them alike. */
export function isStorableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
}
