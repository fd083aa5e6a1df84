/**
 * Search snippets (contract: ItemSearchEdge.snippet): a window of an item's text around its
 * first match, HTML-escaped, each match wrapped in <mark></mark>. Made here from the text, not
 * by a database, so both databases give the same snippet.
 */
import type { Term } from './search-query.js';
import { cutToken, foldText, RUN, segmentsOf } from './search-text.js';

/** Characters of text a snippet shows at most (plus "…" at a cut end). */
export const SNIPPET_LENGTH = 200;
/** Characters shown before the first match. */
const LEAD = 60;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text with & < > " ' as HTML entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A token of the text with the range [start, end) of the original text it came from. */
interface SourceToken {
  token: string;
  start: number;
  end: number;
  /** Made of a script written without spaces (a bigram or a run's last character). */
  nospace: boolean;
}

/** Most characters of an item's text scanned for a first match (the index holds less). */
const MAX_SCAN = 200_000;
/** Most distinct terms a snippet marks (a query may repeat or chain hundreds). */
const MAX_MARKED_TERMS = 32;

/**
 * For a run and its folded text: the range of the run each folded offset came from, or null
 * when folding the run's code points one by one does not give the folded run (then a token is
 * placed on the whole run). Folding drops accents and may lengthen a character (ﬁ -> fi), so
 * offsets are mapped per code point, not assumed equal.
 */
function foldedOffsets(run: string, folded: string): { from: number[]; to: number[] } | null {
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const c of run) {
    const f = foldText(c);
    for (let k = 0; k < f.length; k++) {
      from.push(at);
      to.push(at + c.length);
    }
    // A character folded away (an accent) belongs to the one before it.
    if (f.length === 0 && to.length > 0) to[to.length - 1] = at + c.length;
    at += c.length;
  }
  return from.length === folded.length && from.length > 0 ? { from, to } : null;
}

/**
 * The tokens of `text` as search-text.ts makes them (tokensOf), each with where it is in the
 * original text (exact, or the whole run when folding is not per code point), lazily: a
 * snippet stops reading at the end of its window.
 */
function* sourceTokens(text: string): Generator<SourceToken> {
  for (const run of text.matchAll(RUN)) {
    const folded = foldText(run[0]);
    // ASCII letters and digits (the only ASCII in a run) fold offset for offset.
    const ascii = /^[0-9A-Za-z]*$/.test(run[0]);
    const map = ascii ? null : foldedOffsets(run[0], folded);
    const at = (s: number, e: number): [number, number] =>
      ascii
        ? [run.index + s, run.index + e]
        : map
          ? [run.index + map.from[s]!, run.index + map.to[e - 1]!]
          : [run.index, run.index + run[0].length];
    for (const segment of segmentsOf(folded)) {
      if (segment.kind !== 'nospace') {
        const [start, end] = at(segment.index, segment.index + segment.text.length);
        yield { token: cutToken(segment.text), start, end, nospace: false };
        continue;
      }
      // Code points with their UTF-16 offsets in the segment.
      const chars: [string, number][] = [];
      let offset = 0;
      for (const c of segment.text) {
        chars.push([c, offset]);
        offset += c.length;
      }
      const from = (i: number) => segment.index + chars[i]![1];
      const to = (i: number) => segment.index + chars[i]![1] + chars[i]![0].length;
      for (let i = 0; i + 1 < chars.length; i++) {
        const [start, end] = at(from(i), to(i + 1));
        yield { token: chars[i]![0] + chars[i + 1]![0], start, end, nospace: true };
      }
      const last = chars.length - 1;
      const [start, end] = at(from(last), to(last));
      yield { token: chars[last]![0], start, end, nospace: true };
    }
  }
}

/** A term's identity: equal terms mark the same places. */
const termKey = (term: Term) => `${term.prefix ? '*' : ''}${term.tokens.join(' ')}`;

/**
 * Ranges [start, end) of `text` to mark, in order, not overlapping: each place where a term's
 * tokens occur next to each other (a prefix term's last token as a prefix; there only the
 * prefix of a no-space bigram is marked), from the first match to SNIPPET_LENGTH after it.
 * Bounded whatever the query and text: distinct terms only (at most MAX_MARKED_TERMS), tokens
 * read lazily up to the window's end, at most MAX_SCAN characters searched for a first match.
 */
function matchRanges(text: string, allTerms: readonly Term[]): [number, number][] {
  const terms = [...new Map(allTerms.map((t) => [termKey(t), t])).values()].slice(
    0,
    MAX_MARKED_TERMS,
  );
  if (terms.length === 0) return [];
  const longest = Math.max(...terms.map((t) => t.tokens.length));
  const source = sourceTokens(text);
  const tokens: SourceToken[] = [];
  let done = false;
  /** Reads tokens until index `i` exists (or the text ends). */
  const upTo = (i: number) => {
    while (!done && tokens.length <= i) {
      const next = source.next();
      if (next.done) done = true;
      else tokens.push(next.value);
    }
    return tokens.length > i;
  };
  const ranges: [number, number][] = [];
  let windowEnd = Number.POSITIVE_INFINITY;
  for (let i = 0; upTo(i); i++) {
    const at = tokens[i]!;
    if (at.start >= windowEnd) break;
    if (ranges.length === 0 && at.start > MAX_SCAN) break;
    upTo(i + longest - 1);
    for (const term of terms) {
      const n = term.tokens.length;
      if (i + n > tokens.length) continue;
      let ok = true;
      for (let k = 0; k < n && ok; k++) {
        const want = term.tokens[k]!;
        const have = tokens[i + k]!.token;
        ok = k === n - 1 && term.prefix ? have.startsWith(want) : have === want;
      }
      if (!ok) continue;
      const last = tokens[i + n - 1]!;
      let end = last.end;
      // A one-character no-space prefix marks that character, not the whole bigram.
      if (
        term.prefix &&
        n === 1 &&
        last.nospace &&
        last.token !== term.tokens[0] &&
        last.end - last.start === last.token.length
      ) {
        end = last.start + term.tokens[0]!.length;
      }
      if (ranges.length === 0) windowEnd = at.start + SNIPPET_LENGTH;
      ranges.push([at.start, end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** `at` moved off the second half of a surrogate pair (a cut never splits a character). */
function onCharBoundary(text: string, at: number, direction: 1 | -1): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff && at > 0 ? at + direction : at;
}

/**
 * The snippet of an item's text for a query's positive terms: up to SNIPPET_LENGTH characters
 * from a little before the first match (white space collapsed), "…" where text was cut.
 */
export function snippetOf(text: string | null, terms: readonly Term[]): string {
  if (text === null) return '';
  const ranges = matchRanges(text, terms);
  let start = 0;
  const first = ranges[0];
  if (first && first[0] > LEAD) {
    start = first[0] - LEAD;
    // Start at a word boundary when one is near.
    const space = text.slice(start, first[0]).search(/\s/u);
    if (space !== -1 && space < LEAD / 2) start += space + 1;
  }
  start = onCharBoundary(text, start, 1);
  const end = onCharBoundary(text, Math.min(text.length, start + SNIPPET_LENGTH), -1);
  const piece = (s: number, e: number) => escapeHtml(text.slice(s, e).replace(/\s+/gu, ' '));
  let out = start > 0 ? '…' : '';
  let at = start;
  for (const [s, e] of ranges) {
    if (e <= start) continue;
    if (s >= end) break;
    const from = Math.max(s, start);
    const to = Math.min(e, end);
    out += `${piece(at, from)}<mark>${piece(from, to)}</mark>`;
    at = to;
  }
  out += piece(at, end);
  if (end < text.length) out += '…';
  return out.trim();
}
