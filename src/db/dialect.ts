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
}

const sqlite: Dialect = {
  contains: (haystack, needle) => Prisma.sql`instr(${haystack}, ${needle}) > 0`,
  bytewise: (column) => column,
  unindexed: (column) => Prisma.sql`+${column}`,
  lockShared: Prisma.empty,
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
