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

/**
 * The tokens of `text` as search-text.ts makes them (tokensOf), each with where it is in the
 * original text: exact when folding kept the run's length (nearly every run), else the run.
 */
function sourceTokens(text: string): SourceToken[] {
  const out: SourceToken[] = [];
  for (const run of text.matchAll(RUN)) {
    const folded = foldText(run[0]);
    const aligned = folded.length === run[0].length;
    const at = (s: number, e: number): [number, number] =>
      aligned ? [run.index + s, run.index + e] : [run.index, run.index + run[0].length];
    for (const segment of segmentsOf(folded)) {
      if (segment.kind !== 'nospace') {
        const [start, end] = at(segment.index, segment.index + segment.text.length);
        out.push({ token: cutToken(segment.text), start, end, nospace: false });
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
      chars.forEach(([c], i) => {
        const next = chars[i + 1];
        if (next) {
          const [start, end] = at(from(i), to(i + 1));
          out.push({ token: c + next[0], start, end, nospace: true });
        }
      });
      const last = chars.length - 1;
      const [start, end] = at(from(last), to(last));
      out.push({ token: chars[last]![0], start, end, nospace: true });
    }
  }
  return out;
}

/**
 * Ranges [start, end) of `text` to mark, in order, not overlapping: each place where a term's
 * tokens occur next to each other (a prefix term's last token as a prefix; there only the
 * prefix of a no-space bigram is marked).
 */
function matchRanges(text: string, terms: readonly Term[]): [number, number][] {
  const tokens = sourceTokens(text);
  const ranges: [number, number][] = [];
  for (const term of terms) {
    const n = term.tokens.length;
    for (let i = 0; i + n <= tokens.length; i++) {
      let ok = true;
      for (let k = 0; k < n && ok; k++) {
        const want = term.tokens[k]!;
        const have = tokens[i + k]!.token;
        ok = k === n - 1 && term.prefix ? have.startsWith(want) : have === want;
      }
      if (!ok) continue;
      const first = tokens[i]!;
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
      ranges.push([first.start, end]);
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
  const end = Math.min(text.length, start + SNIPPET_LENGTH);
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
