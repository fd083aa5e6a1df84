/**
 * Search snippets (contract: ItemSearchEdge.snippet): a window of an item's text around its
 * first match, HTML-escaped, each match wrapped in <mark></mark>. Made here from the text, not
 * by a database, so both databases give the same snippet.
 */
import type { Term } from './search-query.js';
import { foldText, RUN, segmentsOf } from './search-text.js';

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

/** What a token of text matches: whole words, prefixes, and no-space substrings. */
interface Matcher {
  words: Set<string>;
  prefixes: string[];
}

function matcherOf(terms: readonly Term[]): Matcher {
  const m: Matcher = { words: new Set(), prefixes: [] };
  for (const term of terms) {
    term.tokens.forEach((token, i) => {
      const last = i === term.tokens.length - 1;
      if (last && term.prefix) m.prefixes.push(token);
      else m.words.add(token);
    });
  }
  return m;
}

/** Ranges [start, end) of `text` to mark, in order, not overlapping. */
function matchRanges(text: string, terms: readonly Term[]): [number, number][] {
  const m = matcherOf(terms);
  const ranges: [number, number][] = [];
  for (const run of text.matchAll(RUN)) {
    const folded = foldText(run[0]);
    // Offsets of the folded run map onto the run when folding kept its length (nearly every
    // run); otherwise the whole run is marked.
    const aligned = folded.length === run[0].length;
    for (const segment of segmentsOf(folded)) {
      const found: [number, number][] = [];
      if (segment.kind === 'nospace') {
        // Only no-space tokens can occur inside the segment: substrings.
        for (const token of [...m.words, ...m.prefixes]) {
          for (let at = segment.text.indexOf(token); at !== -1; ) {
            found.push([segment.index + at, segment.index + at + token.length]);
            at = segment.text.indexOf(token, at + token.length);
          }
        }
      } else if (m.words.has(segment.text) || m.prefixes.some((p) => segment.text.startsWith(p))) {
        found.push([segment.index, segment.index + segment.text.length]);
      }
      for (const [s, e] of found) {
        ranges.push(
          aligned ? [run.index + s, run.index + e] : [run.index, run.index + run[0].length],
        );
      }
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
