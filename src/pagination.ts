/**
 * Relay connection arguments and opaque keyset cursors, shared by the thread list and the
 * item log. Cursors are base64url JSON; their content is not part of the contract.
 */
import { createHash } from 'node:crypto';
import { BadUserInputError, quote } from './errors.js';

/** first/after/last/before as GraphQL passes them. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A validated page request: read `limit` rows forward (after) or backward (before). */
export interface PageRequest {
  direction: 'forward' | 'backward';
  limit: number;
}

export const DEFAULT_PAGE_SIZE = 50;

/**
 * Validates first/last. Default page size 50 forward.
 * @throws BadUserInputError for a negative or too large first/last, or both given
 */
export function pageRequest(args: ConnectionArgs, maxPageSize: number): PageRequest {
  const { first, last } = args;
  if (first != null && last != null) {
    throw new BadUserInputError('Pass either first or last, not both.');
  }
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value != null && (value < 0 || value > maxPageSize)) {
      throw new BadUserInputError(`${name} must be between 0 and ${maxPageSize}; got ${value}.`, {
        argument: name,
      });
    }
  }
  if (last != null) return { direction: 'backward', limit: last };
  return { direction: 'forward', limit: first ?? Math.min(DEFAULT_PAGE_SIZE, maxPageSize) };
}

/** Earliest and latest cursor times (ms since the epoch): 0001-01-01 to 9999-12-31. */
const MIN_CURSOR_MS = Date.parse('0001-01-01T00:00:00.000Z');
const MAX_CURSOR_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * True for a time a cursor may carry: whole ms within years 0001 to 9999, what both databases
 * store (PostgreSQL refuses year 0, so a forged cursor with one would fail the query as an
 * internal error). Cursor checks use it so such a cursor is BAD_USER_INPUT.
 */
export function isCursorTime(ms: unknown): ms is number {
  return (
    Number.isSafeInteger(ms) && (ms as number) >= MIN_CURSOR_MS && (ms as number) <= MAX_CURSOR_MS
  );
}

const tenantTags = new Map<string, string>();

/**
 * A short tag of the tenant a cursor was minted for: a cursor is refused in another tenant
 * (contract part identity: "a cursor minted for another tenant is BAD_USER_INPUT"), without
 * putting the tenant id itself in the cursor.
 */
function tenantTag(tenantId: string): string {
  let tag = tenantTags.get(tenantId);
  if (tag === undefined) {
    tag = createHash('sha256').update(tenantId, 'utf8').digest('base64url').slice(0, 10);
    if (tenantTags.size > 10_000) tenantTags.clear();
    tenantTags.set(tenantId, tag);
  }
  return tag;
}

/** Encodes a cursor payload (a JSON object) for `tenantId` as an opaque string. */
export function encodeCursor(tenantId: string, payload: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ ...payload, n: tenantTag(tenantId) }), 'utf8').toString(
    'base64url',
  );
}

/**
 * Decodes a cursor made by encodeCursor for the same tenant and checks its shape.
 * @param check returns the typed payload, or null when the shape is wrong
 * @throws BadUserInputError naming the argument for anything malformed or minted for
 *   another tenant
 */
export function decodeCursor<T>(
  tenantId: string,
  cursor: string,
  argument: string,
  check: (payload: unknown) => T | null,
): T {
  let checked: T | null = null;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    const payload: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Only objects reach `check`: checks read properties, which null or a number would break.
    if (
      typeof payload === 'object' &&
      payload !== null &&
      !Array.isArray(payload) &&
      (payload as { n?: unknown }).n === tenantTag(tenantId)
    ) {
      checked = check(payload);
    }
  } catch {
    // Not base64url JSON, or a check that threw on an unexpected shape: malformed either way.
    checked = null;
  }
  if (checked === null) {
    throw new BadUserInputError(
      `${argument}: ${quote(cursor, 80)} is not a cursor of this connection; pass an edge cursor or pageInfo cursor from a previous page.`,
      { argument },
    );
  }
  return checked;
}

/**
 * A value computed only when awaited. GraphQL awaits a field's value only when the field is
 * selected, so a page flag or a count that nobody asked for costs no SQL statement.
 * Typed as the value it resolves to: graphql-js awaits any thenable a field holds, and
 * Pothos' connection shapes (PageInfoShape, totalCount) declare plain values.
 */
export function lazy<T>(compute: () => Promise<T>): T {
  let started: Promise<T> | undefined;
  const thenable: PromiseLike<T> = {
    // biome-ignore lint/suspicious/noThenProperty: a deliberate thenable
    then(onFulfilled, onRejected) {
      started ??= compute();
      return started.then(onFulfilled, onRejected);
    },
  };
  return thenable as unknown as T;
}

/** The connection shape resolvers return (Relay); flags and totalCount may be lazy. */
export interface Connection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
  totalCount: number;
}

/**
 * Builds a connection from rows read with one extra row (limit + 1) in read order.
 * @param rows rows in read order (descending for backward pages)
 * @param hasMoreBeyondStart lazily tells whether rows exist before the page's start
 *   (forward) or after its end (backward), for the side the read did not look at
 */
export function toConnection<Row, Node>(
  rows: Row[],
  request: PageRequest,
  cursorOf: (row: Row) => string,
  nodeOf: (row: Row) => Node,
  otherSide: () => Promise<boolean>,
  totalCount: number | (() => Promise<number>),
): Connection<Node> {
  const hasMore = rows.length > request.limit;
  const page = rows.slice(0, request.limit);
  if (request.direction === 'backward') page.reverse();
  // Cursors are encoded only when read: most pages select edge cursors not at all.
  const edges = page.map((row) => {
    let cursor: string | undefined;
    return {
      get cursor() {
        cursor ??= cursorOf(row);
        return cursor;
      },
      node: nodeOf(row),
    };
  });
  return {
    edges,
    pageInfo: {
      hasNextPage: request.direction === 'forward' ? hasMore : lazy(otherSide),
      hasPreviousPage: request.direction === 'backward' ? hasMore : lazy(otherSide),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: typeof totalCount === 'number' ? totalCount : lazy(totalCount),
  };
}
