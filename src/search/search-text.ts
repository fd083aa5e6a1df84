/**
 * The text of an item and the search tokens made of it (contract: Query.searchItems). Both
 * databases index the same tokens, made here and nowhere else, so the same query finds the
 * same items on SQLite and PostgreSQL:
 *
 * - An item's text (itemText): message content and the `text` of its parts, reasoning text,
 *   tool names, the string and number leaves of tool arguments and outputs, error reasons and
 *   codes, terminal text. Other types (compaction markers, resource events, slash commands,
 *   OtherItem) have none.
 * - Folding (foldText): NFKD, accents (the combining diacritical marks of Latin, Greek and
 *   Cyrillic) dropped, NFC, case-folded as thread names are (thread.service.ts, foldCase).
 *   Marks other scripts spell with (Devanagari vowel signs, kana dakuten) are kept.
 * - Tokens: runs of letters and digits; each emoji a token of its own; scripts written without
 *   spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) as overlapping bigrams plus the
 *   run's last character alone, so any substring of such a run is a phrase of bigrams (or, for
 *   one character, a prefix of a token). Tokens longer than MAX_TOKEN_LENGTH characters are cut.
 * - Item.searchText: the tokens joined by single spaces, at most MAX_SEARCH_TEXT characters
 *   (the start of a longer text is searchable, the rest not).
 */

/** Characters of a token kept; longer tokens (hashes, base64) are cut to this many. */
export const MAX_TOKEN_LENGTH = 64;
/** Characters of Item.searchText (PostgreSQL's tsvector holds at most 1 MB). */
export const MAX_SEARCH_TEXT = 65_536;
/** Characters of an item's text that are tokenized. */
const MAX_ITEM_TEXT = 200_000;

/** Combining diacritical marks: the accents search ignores. */
const ACCENTS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;

/** A run of text that may hold tokens: letters, digits, marks, emoji and their joiners. */
export const RUN = /[\p{L}\p{N}\p{M}\p{Extended_Pictographic}\u200d]+/gu;

/**
 * Letters of scripts matched by substring (a lookahead keeps their punctuation out): those
 * written without spaces, and Korean, whose words carry their particles (한국 finds 한국어를).
 */
const NO_SPACE =
  '(?:(?=[\\p{L}\\p{N}\\p{M}])[\\p{scx=Han}\\p{scx=Hira}\\p{scx=Kana}\\p{scx=Thai}\\p{scx=Laoo}\\p{scx=Khmr}\\p{scx=Mymr}\\p{scx=Hang}])';

/** Segments of a folded run: an emoji, a no-space run, or a word. */
const SEGMENT = new RegExp(
  `(\\p{Extended_Pictographic})|(${NO_SPACE}+)|((?:(?!${NO_SPACE})[\\p{L}\\p{N}])+)`,
  'gu',
);

/**
 * Folds text for matching: NFKD, accents dropped, NFC, case-folded (ß as ss, final sigma as σ).
 * The same for stored text and queries.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(ACCENTS, '')
    .normalize('NFC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFC')
    .replace(/ς/g, 'σ');
}

/** One segment of folded text: its kind, text and offset in the folded string. */
export interface Segment {
  kind: 'word' | 'emoji' | 'nospace';
  text: string;
  index: number;
}

/** The segments of folded text, in order. */
export function segmentsOf(folded: string): Segment[] {
  const out: Segment[] = [];
  for (const m of folded.matchAll(SEGMENT)) {
    const kind = m[1] ? 'emoji' : m[2] ? 'nospace' : 'word';
    out.push({ kind, text: m[0], index: m.index });
  }
  return out;
}

/** A word cut to MAX_TOKEN_LENGTH characters (code points). */
export function cutToken(word: string): string {
  if (word.length <= MAX_TOKEN_LENGTH) return word;
  return Array.from(word).slice(0, MAX_TOKEN_LENGTH).join('');
}

/** The bigrams of a no-space run (code points), or the run itself when it is one character. */
export function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** The stored tokens of one segment. */
function segmentTokens(segment: Segment): string[] {
  if (segment.kind !== 'nospace') return [cutToken(segment.text)];
  const chars = Array.from(segment.text);
  return chars.length < 2 ? chars : [...bigrams(segment.text), chars.at(-1)!];
}

/** Text of ASCII characters only, and its runs (what RUN and SEGMENT make of ASCII text). */
const ASCII_ONLY = /^\p{ASCII}*$/u;
const ASCII_RUN = /[A-Za-z0-9]+/g;

/** The search tokens of a text, in order (see the module comment). */
export function tokensOf(text: string): string[] {
  // ASCII text (most agent output): folding is lower-casing and every run is one word, so the
  // Unicode regexes and normalisations are skipped (a fifth of a 100-item append's CPU).
  if (ASCII_ONLY.test(text)) {
    return (text.match(ASCII_RUN) ?? []).map((word) => cutToken(word.toLowerCase()));
  }
  const out: string[] = [];
  for (const m of text.matchAll(RUN)) {
    for (const segment of segmentsOf(foldText(m[0]))) out.push(...segmentTokens(segment));
  }
  return out;
}

/**
 * Item.searchText of a text: its tokens joined by single spaces, cut at a token boundary to
 * MAX_SEARCH_TEXT characters; null when it has no token.
 */
export function searchTextOf(text: string | null): string | null {
  if (text === null) return null;
  const tokens = tokensOf(text.length > MAX_ITEM_TEXT ? text.slice(0, MAX_ITEM_TEXT) : text);
  let length = -1;
  let n = 0;
  while (n < tokens.length && length + 1 + tokens[n]!.length <= MAX_SEARCH_TEXT) {
    length += 1 + tokens[n]!.length;
    n++;
  }
  return n === 0 ? null : tokens.slice(0, n).join(' ');
}

/** The string and number leaves of a JSON value, depth first (keys left out). */
function leaves(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) leaves(v, out);
  }
}

/** The `text` strings of message parts (any part with a string `text`). */
function partTexts(parts: unknown, out: string[]): void {
  if (!Array.isArray(parts)) return;
  for (const part of parts) {
    if (typeof part === 'object' && part !== null && 'text' in part) {
      const text = (part as { text: unknown }).text;
      if (typeof text === 'string') out.push(text);
    }
  }
}

/** The item types that have text (itemText); other types never have searchText. */
export const TEXT_TYPES = [
  'message',
  'reasoning',
  'tool_call',
  'tool_result',
  'error',
  'terminal',
] as const;

/** Adds `v` to `out` when it is a string (a module function: see jsonProblem in json.ts). */
function pushString(out: string[], v: unknown): void {
  if (typeof v === 'string') out.push(v);
}

/**
 * The searchable text of an item (stored `data` of its type), lines joined by "\n"; null for
 * types without text and items whose text is empty.
 */
export function itemText(type: string, data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const out: string[] = [];
  switch (type) {
    case 'message':
      pushString(out, d.content);
      partTexts(d.parts, out);
      break;
    case 'reasoning':
      pushString(out, d.text);
      break;
    case 'tool_call':
      pushString(out, d.name);
      leaves(d.arguments, out);
      break;
    case 'tool_result':
      pushString(out, d.name);
      leaves(d.output, out);
      break;
    case 'error':
      pushString(out, d.reason);
      pushString(out, d.code);
      break;
    case 'terminal':
      pushString(out, d.text);
      break;
    default:
      return null;
  }
  const text = out.filter((s) => s.length > 0).join('\n');
  return text.length > 0 ? text : null;
}

/** Item.searchText of an item's stored type and data. */
export function itemSearchText(type: string, data: unknown): string | null {
  return searchTextOf(itemText(type, data));
}
