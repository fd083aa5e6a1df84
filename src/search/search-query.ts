/**
 * The search query language (contract: Query.searchItems) and its rendering for each
 * database. The parser is tolerant: any string parses, a malformed query degrades to plain
 * words, and user text never reaches FTS5 MATCH or a tsquery except as quoted tokens made by
 * search-text.ts.
 *
 * Syntax, terms separated by white space:
 * - `word`: the word (case- and accent-insensitive, search-text.ts foldText).
 * - `word*`: a word starting with it.
 * - `"several words"`: the words next to each other in that order (a phrase); a quote left
 *   open closes at the end of the query; `"..."*`: the phrase's last word is a prefix.
 * - `-term`: items without the term (a word, prefix or phrase).
 * - `a OR b`: either term (upper-case OR between two terms that are not excluded; `a OR b OR c`
 *   chains); anything else named OR is the word "or".
 * - A term of several tokens (`foo.bar`, `東京タワー`, `e-mail`) is a phrase of them. Text of
 *   scripts written without spaces matches as a substring: a phrase of its bigrams, or for one
 *   character, a prefix of a token (search-text.ts).
 * - Punctuation is a separator; a term without a token (`*`, `-`, `""`) is left out.
 * All terms must match. A query without a term to match (empty, only exclusions) finds nothing.
 */
import type { FullTextQuery } from '../db/dialect.js';
import { bigrams, cutToken, foldText, RUN, segmentsOf } from './search-text.js';

/** Tokens next to each other; `prefix`: the last one is a prefix. One token: a word. */
export interface Term {
  tokens: string[];
  prefix: boolean;
}

/** A parsed query: every clause (one of its terms) must match, no excluded term may. */
export interface SearchQuery {
  clauses: Term[][];
  excluded: Term[];
}

/** The tokens of one term as a query matches them (search-text.ts, tokensOf, for stored text). */
export function termTokens(text: string): { tokens: string[]; endsInNoSpace: boolean } {
  const segments = [...text.matchAll(RUN)].flatMap((m) => segmentsOf(foldText(m[0])));
  const tokens: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment.kind !== 'nospace') {
      tokens.push(cutToken(segment.text));
      return;
    }
    const chars = Array.from(segment.text);
    // Inside the term the run ends where the stored run ends: its last character is a token
    // of its own there too. At the end of the term the stored run may go on.
    if (chars.length === 1) tokens.push(chars[0]!);
    else tokens.push(...bigrams(segment.text), ...(last ? [] : [chars.at(-1)!]));
  });
  const lastSegment = segments.at(-1);
  return {
    tokens,
    endsInNoSpace: lastSegment?.kind === 'nospace' && Array.from(lastSegment.text).length === 1,
  };
}

interface RawTerm {
  text: string;
  phrase: boolean;
  prefix: boolean;
  excluded: boolean;
}

/** Splits a query into raw terms and OR markers. */
function lex(query: string): (RawTerm | 'OR')[] {
  const out: (RawTerm | 'OR')[] = [];
  let i = 0;
  const n = query.length;
  const space = (c: string | undefined) => c !== undefined && /\s/u.test(c);
  while (i < n) {
    if (space(query[i])) {
      i++;
      continue;
    }
    let excluded = false;
    if (query[i] === '-' && i + 1 < n && !space(query[i + 1])) {
      excluded = true;
      i++;
    }
    if (query[i] === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close === -1 ? n : close;
      const text = query.slice(i + 1, end);
      i = close === -1 ? n : close + 1;
      const prefix = query[i] === '*';
      while (i < n && !space(query[i]) && query[i] !== '"') i++;
      out.push({ text, phrase: true, prefix, excluded });
      continue;
    }
    const start = i;
    while (i < n && !space(query[i]) && query[i] !== '"') i++;
    const text = query.slice(start, i);
    if (text === 'OR' && !excluded) out.push('OR');
    else out.push({ text, phrase: false, prefix: text.endsWith('*'), excluded });
  }
  return out;
}

/** A raw term's Term, or null when it holds no token. */
function toTerm(raw: RawTerm): Term | null {
  const { tokens, endsInNoSpace } = termTokens(raw.text);
  if (tokens.length === 0) return null;
  // A one-character no-space ending matches as a prefix of a bigram (a substring).
  return { tokens, prefix: raw.prefix || endsInNoSpace };
}

/** Most distinct terms that rank a PostgreSQL match (dialect.ts, pgRank); all of them match. */
export const MAX_RANK_TERMS = 16;

/** Parses a search query; never throws (see the module comment for the syntax). */
export function parseSearchQuery(query: string): SearchQuery {
  const lexed = lex(query);
  const clauses: Term[][] = [];
  const excluded: Term[] = [];
  let joinNext = false;
  for (const [i, item] of lexed.entries()) {
    if (item === 'OR') {
      // An operator only between two terms to match; otherwise the word "or".
      const prev = lexed[i - 1];
      const next = lexed[i + 1];
      const isTerm = (x: RawTerm | 'OR' | undefined) =>
        x !== undefined && x !== 'OR' && !x.excluded && toTerm(x) !== null;
      if (isTerm(prev) && isTerm(next) && clauses.length > 0) {
        joinNext = true;
        continue;
      }
      clauses.push([{ tokens: ['or'], prefix: false }]);
      joinNext = false;
      continue;
    }
    const term = toTerm(item);
    if (term === null) continue;
    if (item.excluded) excluded.push(term);
    else if (joinNext) clauses.at(-1)!.push(term);
    else clauses.push([term]);
    joinNext = false;
  }
  // Repeats change nothing a query matches ("a a" is "a"); kept, they only cost (each term is
  // ranked and marked per row).
  const key = (t: Term) => `${t.prefix ? '*' : ''}${t.tokens.join(' ')}`;
  const clauseKey = (c: Term[]) => [...new Set(c.map(key))].sort().join('|');
  const unique = <T>(list: T[], keyOf: (x: T) => string) => [
    ...new Map(list.map((x) => [keyOf(x), x])).values(),
  ];
  return {
    clauses: unique(
      clauses.map((c) => unique(c, key)),
      clauseKey,
    ),
    excluded: unique(excluded, key),
  };
}

/** FTS5 syntax of a term: quoted tokens (they hold no quote or ASCII punctuation). */
function fts5Term(term: Term): string {
  return `"${term.tokens.join(' ')}"${term.prefix ? ' *' : ''}`;
}

/**
 * The FTS5 MATCH expression of a query (table tokenizer `ascii`: tokens split at ASCII
 * non-alphanumerics only, so each quoted token stays one token). Null: nothing can match.
 */
export function toFts5Match(q: SearchQuery): string | null {
  if (q.clauses.length === 0) return null;
  const positive = q.clauses
    .map((clause) => `(${clause.map(fts5Term).join(' OR ')})`)
    .join(' AND ');
  if (q.excluded.length === 0) return positive;
  return `(${positive}) NOT (${q.excluded.map(fts5Term).join(' OR ')})`;
}

function lexeme(token: string, prefix: boolean): string {
  // Tokens hold letters, digits and emoji only; quoted by the tsquery rules all the same.
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'${prefix ? ':*' : ''}`;
}

/** The tsquery of a term: its words, all of them (a phrase's order is checked apart). */
function tsTerm(term: Term): string {
  const parts = term.tokens.map((t, i) => lexeme(t, term.prefix && i === term.tokens.length - 1));
  return parts.length === 1 ? parts[0]! : `(${parts.join(' & ')})`;
}

/**
 * A term as a substring of " " + searchText + " " (tokens are joined by single spaces): its
 * tokens with a space before each and after the last, unless that one is a prefix.
 */
function needleOf(term: Term): string {
  return ` ${term.tokens.join(' ')}${term.prefix ? '' : ' '}`;
}

/**
 * A query rendered for both databases (src/db/dialect.ts, FullTextQuery); null when nothing
 * can match (no term to match).
 */
export function toFullTextQuery(q: SearchQuery): FullTextQuery | null {
  const fts5 = toFts5Match(q);
  if (fts5 === null) return null;
  const positive = q.clauses.map((c) => `(${c.map(tsTerm).join(' | ')})`);
  const excludedWords = q.excluded.filter((t) => t.tokens.length === 1).map((t) => `!${tsTerm(t)}`);
  return {
    fts5,
    tsquery: [...positive, ...excludedWords].join(' & '),
    clauses: q.clauses
      .filter((c) => c.some((t) => t.tokens.length > 1))
      .map((c) => ({
        any: c.map(needleOf),
      })),
    excludedNeedles: q.excluded.filter((t) => t.tokens.length > 1).map(needleOf),
    // Ranking reads every matching row once per term: the first MAX_RANK_TERMS distinct terms
    // rank, every term still has to match.
    rankTerms: [
      ...new Map(q.clauses.flat().map((t) => [`${t.prefix}${t.tokens.join(' ')}`, t])).values(),
    ]
      .slice(0, MAX_RANK_TERMS)
      .map((t) =>
        t.tokens.length > 1
          ? { needle: needleOf(t) }
          : t.prefix
            ? { prefix: t.tokens[0]! }
            : { word: t.tokens[0]! },
      ),
  };
}

/** Every positive term of a query, for snippets. */
export function positiveTerms(q: SearchQuery): Term[] {
  return q.clauses.flat();
}
