/**
 * Expected failures, each with the `extensions.code` clients see (the contract's error list).
 * Services throw these; the GraphQL layer turns them into GraphQLErrors (src/server/mask-error.ts).
 * Anything else is an unexpected error: masked as "Unexpected error." and logged with its stack.
 */

/** The codes of the contract that a service can raise. */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE';

/** Base class: a message a person can act on, a code, and optional details for extensions. */
export class ThreadstoreError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that is well-formed GraphQL but breaks a rule (range, size, shape). */
export class BadUserInputError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('BAD_USER_INPUT', message, details);
  }
}

/** The thread (or other record) does not exist for this tenant. */
export class NotFoundError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('NOT_FOUND', message, details);
  }
}

/** The request contradicts the current state: duplicate id, expectedSeq, idempotency key, overlap. */
export class ConflictError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('CONFLICT', message, details);
  }
}

/**
 * A dependency failed (the database, Redis, an identity provider's JWKS): the request may
 * succeed when retried (contract: UNAVAILABLE).
 */
export class UnavailableError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('UNAVAILABLE', message, details);
  }
}

/** A value over a configured size limit. */
export class PayloadTooLargeError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('PAYLOAD_TOO_LARGE', message, details);
  }
}

/**
 * Rejects U+0000 in a value stored in a text column: PostgreSQL text cannot hold it, and both
 * databases must behave the same. (JSON values, such as content or data, may hold it: they are
 * stored as JSON text, where it is escaped.)
 * @throws BadUserInputError naming the field
 */
export function assertNoNul(value: string | null | undefined, field: string): void {
  if (value?.includes('\u0000')) {
    throw new BadUserInputError(
      `${field} contains the character U+0000, which cannot be stored in it; remove it (JSON values such as message content may hold it).`,
      { field },
    );
  }
}

/**
 * User input made safe to show: at most `maxChars` code points, cut only between code points
 * (an emoji's surrogate pair is never split) with "…" when cut, and any lone surrogate of the
 * input shown as U+FFFD, so the text stays well-formed for every JSON parser and UTF-8 encoder
 * however long or broken the input. (Cuts may still fall inside a grapheme, such as between a
 * flag's two regional indicators: that is well-formed text.)
 * @param maxChars code points kept before "…" (one outside the BMP counts as one)
 */
export function wellFormed(text: string, maxChars: number): string {
  let out = '';
  let kept = 0;
  // for...of walks code points: a pair comes whole, a lone surrogate alone.
  for (const char of text) {
    if (kept === maxChars) return `${out}…`;
    out += char.length === 1 && char >= '\uD800' && char <= '\uDFFF' ? '\uFFFD' : char;
    kept += 1;
  }
  return out;
}

/**
 * User input as an error message quotes it: in double quotes, shortened and made well-formed by
 * wellFormed (`quote('abc', 2)` is `"ab…"`). Every message that repeats input uses it.
 * @param maxChars code points kept before "…"
 */
export function quote(text: string, maxChars: number): string {
  return `"${wellFormed(text, maxChars)}"`;
}

/** The standard not-found error for a thread id (quoted: subscriptions pass it unchecked). */
export function threadNotFound(threadId: string): NotFoundError {
  return new NotFoundError(`Thread ${quote(threadId, 140)} does not exist.`, {
    threadId: wellFormed(threadId, 140),
  });
}
