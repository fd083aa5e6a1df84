/**
 * The SQL that differs between SQLite and PostgreSQL, in one place. Stores build their
 * statements with Prisma.sql and ask the dialect for the few fragments that differ; every
 * other statement is the same text on both databases.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Provider } from './migrations.js';

/** SQL fragments whose text depends on the database. */
export interface Dialect {
  /** True when `haystack` contains `needle` (exact characters; fold case before). */
  contains(haystack: Prisma.Sql, needle: string): Prisma.Sql;
  /**
   * `column` for ordering and comparing in bytewise order: SQLite's default, PostgreSQL's
   * `COLLATE "C"` (its default collation sorts "B" after "a"), so both list in one order.
   */
  bytewise(column: Prisma.Sql): Prisma.Sql;
  /**
   * `column` as the planner must not use an index for (a condition that should filter, not
   * choose the plan): SQLite's unary `+`; PostgreSQL's planner needs no such hint.
   */
  unindexed(column: Prisma.Sql): Prisma.Sql;
  /**
   * Appended to a SELECT of rows a write transaction relies on staying as read: PostgreSQL's
   * `FOR SHARE` (writers of those rows wait until the transaction ends); nothing on SQLite,
   * where one writer runs at a time.
   */
  lockShared: Prisma.Sql;
  /**
   * True when the JSON object text in `column` has the top-level `key` equal to `value`.
   * Objects and arrays compare whole, key order ignored; numbers compare as numbers.
   * @param canonical the canonical JSON text of `value` (src/json.ts, filterableJson)
   */
  jsonMemberEquals(column: Prisma.Sql, key: string, value: unknown, canonical: string): Prisma.Sql;
  /**
   * Appended to a SELECT inside a write transaction: locks the rows it reads until commit
   * (PostgreSQL's FOR UPDATE); nothing on SQLite, whose write transaction excludes all others.
   */
  lockRows: Prisma.Sql;
  /**
   * A statement answering one row `{ locked }`: true when this transaction got the lock named
   * `key` (held until it ends), false when another holds it; PostgreSQL's
   * pg_try_advisory_xact_lock. null on SQLite: its write transaction is the lock.
   */
  tryTransactionLock(key: number): Prisma.Sql | null;
  /**
   * A statement answering one row `{ locked: true }` once this transaction holds the lock
   * named by the text `name` (waiting for another holder to end), held until it ends:
   * PostgreSQL's pg_advisory_xact_lock on hashtextextended(name). null on SQLite: its write
   * transaction is the lock. For a read-then-write rule per key (a cap per tenant).
   */
  transactionLockOn(name: string): Prisma.Sql | null;
  /**
   * Full-text search over Item."searchText" (src/search/): the FROM list, the match condition
   * and the rank of a row (higher is better; for ordering only, the value differs per
   * database). The FROM list gives the matching item's "tenantId", "threadId" and "seq" as
   * `k`, and with `withItem` the Item row as `i` (SQLite reads it only when asked: a common
   * word matches tens of thousands of rows). SQLite: the FTS5 table "ItemSearch" (tokenizer
   * ascii: each token of searchText is one FTS5 token) through "ItemSearchKey", ranked by bm25.
   * PostgreSQL: the GIN index on the searchText tokens as a tsvector without positions, ranked
   * by term counts (pgRank); phrase order is checked as a substring of the space-joined tokens.
   */
  itemSearch(
    query: FullTextQuery,
    withItem: boolean,
  ): { from: Prisma.Sql; where: Prisma.Sql; rank: Prisma.Sql };
}

/** A parsed search rendered for both databases (src/search/search-query.ts). */
export interface FullTextQuery {
  /** SQLite: the FTS5 MATCH expression. */
  fts5: string;
  /** PostgreSQL: a tsquery (quoted lexemes) that every match satisfies, for the index. */
  tsquery: string;
  /**
   * PostgreSQL: conditions the tsquery cannot state (phrases: the lexemes have no positions);
   * each needs one of its alternatives, substrings of " " + searchText + " ".
   */
  clauses: { any: string[] }[];
  /** PostgreSQL: substrings of " " + searchText + " " a match must not hold. */
  excludedNeedles: string[];
  /** PostgreSQL: the terms to match, for ranking: whole tokens, token prefixes, phrases. */
  rankTerms: ({ word: string } | { prefix: string } | { needle: string })[];
}

/**
 * PostgreSQL's rank of a match, from string functions on "searchText" (no tsvector: building
 * one per match cost 3-6x more, and the index's lexemes have no counts): each whole-token term
 * counts its occurrences tf as tf / (tf + 1), a prefix or a phrase 1 when present, the sum
 * divided by 1 + length / 2000 (longer texts rank lower). No IDF: for ordering only.
 */
function pgRank(query: FullTextQuery): Prisma.Sql {
  // Tokens doubled-space separated, so " w " finds every occurrence (replace does not overlap).
  const doubled = Prisma.sql`(' ' || replace(i."searchText", ' ', '  ') || ' ')`;
  const parts = query.rankTerms.map((t) => {
    if ('word' in t) {
      const needle = ` ${t.word} `;
      const tf = Prisma.sql`((length(${doubled}) - length(replace(${doubled}, ${needle}::text, '')))::float8 / length(${needle}::text))`;
      return Prisma.sql`(${tf} / (${tf} + 1))`;
    }
    const needle = 'prefix' in t ? ` ${t.prefix}` : t.needle;
    return Prisma.sql`(CASE WHEN strpos(' ' || i."searchText" || ' ', ${needle}) > 0 THEN 1.0 ELSE 0.0 END)`;
  });
  const sum = parts.length ? Prisma.join(parts, ' + ') : Prisma.sql`0`;
  return Prisma.sql`((${sum}) / (1 + length(i."searchText") / 2000.0))::float8`;
}

/**
 * Item."searchText" as a tsvector: its tokens as lexemes (no parser, no dictionary), through
 * the function the GIN index is on (migration 20261201214400_item_search).
 */
const PG_SEARCH_VECTOR = Prisma.raw(`"item_search_vector"(i."searchText")`);

const sqlite: Dialect = {
  contains: (haystack, needle) => Prisma.sql`instr(${haystack}, ${needle}) > 0`,
  bytewise: (column) => column,
  unindexed: (column) => Prisma.sql`+${column}`,
  lockShared: Prisma.empty,
  itemSearch: (query, withItem) => ({
    // "ItemSearch" unaliased: bm25() names the FTS5 table.
    from: Prisma.sql`"ItemSearch" JOIN "ItemSearchKey" k ON k."key" = "ItemSearch"."rowid"
      ${withItem ? Prisma.sql`JOIN "Item" i ON i."tenantId" = k."tenantId" AND i."threadId" = k."threadId" AND i."seq" = k."seq"` : Prisma.empty}`,
    where: Prisma.sql`"ItemSearch" MATCH ${query.fts5}`,
    rank: Prisma.sql`-bm25("ItemSearch")`,
  }),
  jsonMemberEquals(column, key, value, canonical) {
    const member = (test: Prisma.Sql) =>
      Prisma.sql`EXISTS (SELECT 1 FROM json_each(${column}) AS m WHERE m.key = ${key} AND ${test})`;
    if (value === null) return member(Prisma.sql`m.type = 'null'`);
    if (value === true) return member(Prisma.sql`m.type = 'true'`);
    if (value === false) return member(Prisma.sql`m.type = 'false'`);
    if (typeof value === 'number') {
      return member(Prisma.sql`m.type IN ('integer', 'real') AND m.atom = ${value}`);
    }
    if (typeof value === 'string') {
      return member(Prisma.sql`m.type = 'text' AND m.atom = ${JSON.parse(canonical) as string}`);
    }
    return member(Prisma.sql`m.type IN ('object', 'array') AND m.value = json(${canonical})`);
  },
  lockRows: Prisma.empty,
  tryTransactionLock: () => null,
  transactionLockOn: () => null,
};

const postgresql: Dialect = {
  contains: (haystack, needle) => Prisma.sql`strpos(${haystack}, ${needle}) > 0`,
  bytewise: (column) => Prisma.sql`${column} COLLATE "C"`,
  unindexed: (column) => column,
  lockShared: Prisma.sql`FOR SHARE`,
  itemSearch(query) {
    const padded = Prisma.sql`(' ' || i."searchText" || ' ')`;
    const has = (needle: string) => Prisma.sql`strpos(${padded}, ${needle}) > 0`;
    const conditions = [
      Prisma.sql`${PG_SEARCH_VECTOR} @@ ${query.tsquery}::tsquery`,
      ...query.clauses.map((c) => Prisma.sql`(${Prisma.join(c.any.map(has), ' OR ')})`),
      ...query.excludedNeedles.map((n) => Prisma.sql`NOT ${has(n)}`),
    ];
    return {
      // One table: the key columns (k) are the item's (i).
      from: Prisma.sql`"Item" i CROSS JOIN LATERAL (SELECT i."tenantId", i."threadId", i."seq") k`,
      where: Prisma.join(conditions, ' AND '),
      rank: pgRank(query),
    };
  },
  // jsonb equality: deep, key order ignored, numbers compared as numbers (as SQLite's atom).
  jsonMemberEquals: (column, key, _value, canonical) =>
    Prisma.sql`(${column}::jsonb -> ${key}::text) = ${canonical}::jsonb`,
  lockRows: Prisma.sql`FOR UPDATE`,
  tryTransactionLock: (key) =>
    Prisma.sql`SELECT pg_try_advisory_xact_lock(${Prisma.raw(String(Math.trunc(key)))}) AS locked`,
  transactionLockOn: (name) =>
    Prisma.sql`SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended(${name}::text, 0))`,
};

/** The dialect of a provider. */
export function dialectOf(provider: Provider): Dialect {
  return provider === 'postgresql' ? postgresql : sqlite;
}
