/**
 * The one error type the client throws: a GraphQL error of the server (its extensions.code and
 * message, as the contract lists them), or a failure to reach it (code NETWORK_ERROR).
 */

/** A GraphQL error as the server sends it (graphql-js's formatted error). */
export interface GraphQLErrorJson {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/**
 * The codes of the contract (contract.graphql, "Errors"), plus the client's own:
 * NETWORK_ERROR (the server could not be reached, or answered something that is not GraphQL),
 * ABORTED (the caller's AbortSignal fired), INVALID_OPTIONS (createClient's options cannot work
 * here: no WebSocket implementation, a relative URL outside a browser).
 */
export type ThreadstoreErrorCode =
  | 'GRAPHQL_PARSE_FAILED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'BAD_USER_INPUT'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  | 'NETWORK_ERROR'
  | 'ABORTED'
  | 'INVALID_OPTIONS'
  | (string & {});

/**
 * A failed operation. `code` and `message` are the first GraphQL error's extensions.code and
 * message; `errors` holds all of them; `status` is the HTTP status when there was one.
 */
export class ThreadstoreError extends Error {
  override readonly name = 'ThreadstoreError';
  readonly code: ThreadstoreErrorCode;
  /** The first error's extensions (code, and e.g. `limit` for RATE_LIMITED). */
  readonly extensions: Record<string, unknown>;
  readonly errors: readonly GraphQLErrorJson[];
  readonly status: number | undefined;

  constructor(
    code: ThreadstoreErrorCode,
    message: string,
    options: {
      errors?: readonly GraphQLErrorJson[];
      extensions?: Record<string, unknown>;
      status?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.code = code;
    this.extensions = options.extensions ?? { code };
    this.errors = options.errors ?? [{ message, extensions: this.extensions }];
    this.status = options.status;
  }

  /** The error for a response's GraphQL errors (code INTERNAL_SERVER_ERROR when none is given). */
  static fromGraphQLErrors(errors: readonly GraphQLErrorJson[], status?: number): ThreadstoreError {
    const first = errors[0] ?? { message: 'The server answered with an empty error list.' };
    const extensions = first.extensions ?? {};
    const code = typeof extensions.code === 'string' ? extensions.code : 'INTERNAL_SERVER_ERROR';
    return new ThreadstoreError(code, first.message, { errors, extensions, status });
  }
}

/** True for a ThreadstoreError (also one from another copy of this package). */
export function isThreadstoreError(error: unknown): error is ThreadstoreError {
  return (
    error instanceof ThreadstoreError ||
    (error instanceof Error && error.name === 'ThreadstoreError' && 'code' in error)
  );
}
