/**
 * How failures reach clients (contract: Errors). Our ThreadstoreErrors become GraphQL errors
 * with their code; variables that do not coerce get BAD_USER_INPUT; a failed dependency (the
 * database or Redis: src/db/unavailable.ts) is UNAVAILABLE with HTTP 503, saying what failed
 * and that the outcome is unknown, logged as a warning with its cause; everything else
 * unexpected is masked as "Unexpected error." with INTERNAL_SERVER_ERROR and logged with its
 * stack.
 */
import { type ExecutionResult, GraphQLError } from 'graphql';
import {
  handleStreamOrSingleExecutionResult,
  type Plugin,
  maskError as yogaMaskError,
} from 'graphql-yoga';
import type { Logger } from 'pino';
import { type DependencyFailure, dependencyFailure, unavailableError } from '../db/unavailable.js';
import { ThreadstoreError } from '../errors.js';
import { requestIdOf } from './logging.js';

/** A copy of `like` (location and path kept) with `message` and extensions plus `code`. */
function withCode(
  like: GraphQLError | null,
  message: string,
  code: string,
  extensions: Record<string, unknown> = {},
): GraphQLError {
  return new GraphQLError(message, {
    nodes: like?.nodes,
    source: like?.source,
    positions: like?.positions,
    path: like?.path,
    extensions: { ...extensions, code },
  });
}

/** Parse, validation and coercion errors: the client's own mistake, shown as is. */
function isClientError(error: GraphQLError): boolean {
  return !error.originalError || error.originalError instanceof GraphQLError;
}

/** Variables or arguments that do not coerce, which graphql-js reports without a code. */
function isCoercionError(error: GraphQLError): boolean {
  return !error.extensions.code && /^(Variable "\$|Argument ")/.test(error.message);
}

/**
 * The `extensions.code` a client sees for `error` once masked (for metrics, which may see an
 * error before masking): its own code, a ThreadstoreError's code, BAD_USER_INPUT for values
 * that do not coerce, `fallback` for other client errors without one (a parse or validation
 * error), INTERNAL_SERVER_ERROR for anything unexpected.
 */
export function clientErrorCode(error: unknown, fallback = 'GRAPHQL_VALIDATION_FAILED'): string {
  const graphQLError = error instanceof GraphQLError ? error : null;
  const original = graphQLError?.originalError ?? error;
  if (original instanceof ThreadstoreError) return original.code;
  if (typeof graphQLError?.extensions.code === 'string') return graphQLError.extensions.code;
  if (graphQLError && isClientError(graphQLError))
    return isCoercionError(graphQLError) ? 'BAD_USER_INPUT' : fallback;
  return dependencyFailure(original) ? 'UNAVAILABLE' : 'INTERNAL_SERVER_ERROR';
}

/** HTTP 503 for a response carrying UNAVAILABLE (yoga takes the status from extensions.http). */
const UNAVAILABLE_HTTP = { http: { status: 503 } };

/**
 * Yoga's maskError (`maskError`), and what logs the failures it masks: a dependency failure as a
 * warning with its cause, anything else unexpected as an error with its stack, each once per
 * error object (a result shared by a group of followers reaches maskError once per follower).
 * `plugin` logs the errors of execution results before yoga masks them, with the requestId of
 * the operation's HTTP request (logging.ts); `note` does the same for an error thrown outside
 * execution (a plugin's onParams, where authentication reads API keys: yoga.ts); maskError logs, without a requestId, what neither
 * saw. `logged` tells an error already logged here (yoga's own logger writes each masked error
 * again). `classify` recognises dependency failures (default: src/db/unavailable.ts alone; the app
 * passes its database's, which also reads the disk); it runs once per error object.
 */
export function createErrorMasking(
  logger: Logger,
  classify: (error: unknown) => DependencyFailure | null = dependencyFailure,
) {
  // Unexpected errors seen (by their original error) and what classify said of each.
  const seen = new WeakMap<object, DependencyFailure | null>();

  /** The original of an unexpected error (not ours, not the client's), else null. */
  const unexpected = (
    error: unknown,
  ): { original: unknown; path?: GraphQLError['path'] } | null => {
    const graphQLError = error instanceof GraphQLError ? error : null;
    const original = graphQLError?.originalError ?? error;
    if (original instanceof ThreadstoreError) return null;
    if (graphQLError && isClientError(graphQLError)) return null;
    return { original, path: graphQLError?.path };
  };

  /** classify's verdict on `original`, logged the first time it is seen. */
  const verdict = (
    original: unknown,
    path: GraphQLError['path'] | undefined,
    requestId: string | undefined,
  ): DependencyFailure | null => {
    const key = typeof original === 'object' && original !== null ? original : null;
    if (key && seen.has(key)) return seen.get(key) ?? null;
    const failure = classify(original);
    if (key) seen.set(key, failure);
    const where = { path, ...(requestId ? { requestId } : {}) };
    if (failure) logger.warn({ err: original, ...where, ...failure }, 'dependency failed');
    else logger.error({ err: original, ...where }, 'unexpected error');
    return failure;
  };

  const note = (error: unknown, requestId: string | undefined): void => {
    const found = unexpected(error);
    if (found) verdict(found.original, found.path, requestId);
  };

  const logResult =
    (contextValue: unknown) =>
    ({ result }: { result: ExecutionResult }): void => {
      if (!result.errors) return;
      const requestId = requestIdOf((contextValue as { request?: Request } | null)?.request);
      for (const error of result.errors) note(error, requestId);
    };

  const plugin: Plugin = {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, logResult(args.contextValue)),
    }),
    onSubscribe: ({ args }) => ({
      onSubscribeResult: (payload) =>
        handleStreamOrSingleExecutionResult(payload, logResult(args.contextValue)),
    }),
  };

  const maskError = (error: unknown, message: string, isDev?: boolean): Error => {
    const graphQLError = error instanceof GraphQLError ? error : null;
    const original = graphQLError?.originalError ?? error;
    if (original instanceof ThreadstoreError) {
      return withCode(graphQLError, original.message, original.code, original.details);
    }
    if (graphQLError && isClientError(graphQLError)) {
      if (isCoercionError(graphQLError)) {
        return withCode(
          graphQLError,
          graphQLError.message,
          'BAD_USER_INPUT',
          graphQLError.extensions,
        );
      }
      return graphQLError;
    }
    const failure = verdict(original, graphQLError?.path, undefined);
    if (failure) {
      const unavailable = unavailableError(failure);
      return withCode(graphQLError, unavailable.message, unavailable.code, {
        ...unavailable.details,
        ...UNAVAILABLE_HTTP,
      });
    }
    const masked = yogaMaskError(error, message, isDev);
    return masked instanceof GraphQLError
      ? withCode(masked, masked.message, 'INTERNAL_SERVER_ERROR', masked.extensions)
      : masked;
  };

  /** True when `error` (or its original) was logged here: yoga logs it again, as text. */
  const logged = (error: unknown): boolean => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    return typeof original === 'object' && original !== null && seen.has(original);
  };

  return { maskError, plugin, note, logged };
}

/** Yoga's request errors (a body that is not JSON, a missing query, GET for a mutation) carry
 * BAD_REQUEST, a code outside the contract's list: they are the client's input. */
const REQUEST_ERROR_CODES: Record<string, string> = {
  BAD_REQUEST: 'BAD_USER_INPUT',
  // operationName missing with several operations, or naming none of them.
  OPERATION_RESOLUTION_FAILURE: 'BAD_USER_INPUT',
};

/**
 * Gives yoga's own request errors a code of the contract (BAD_USER_INPUT; also parameters that
 * are not JSON, which yoga's parsers would let through as unexpected errors), and drops their
 * `originalError` extension: for a body that is not JSON it quotes the body back (JSON.parse's
 * message), which may be megabytes, or a secret the client did not mean to send.
 */
export function contractErrorCodes(): Plugin {
  return {
    // Yoga's parsers run JSON.parse on a GET request's (or a form's) variables and extensions
    // unguarded: text that is not JSON would be an unexpected error (500). Errors of a parser
    // without a code (a multipart form) are the client's too.
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (error instanceof GraphQLError && error.extensions.code !== undefined) throw error;
          // Not JSON.parse's message: it quotes the text back.
          const message =
            error instanceof GraphQLError
              ? error.message
              : 'The variables or extensions parameter is not valid JSON: send a JSON object, or leave it out.';
          throw new GraphQLError(message, {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          });
        }
      });
    },
    onResultProcess({ result }) {
      if (Array.isArray(result) || Symbol.asyncIterator in Object(result)) return;
      for (const error of (result as ExecutionResult).errors ?? []) {
        const code = REQUEST_ERROR_CODES[String(error.extensions?.code)];
        if (!code) continue;
        // In place: the error also carries yoga's (hidden) HTTP status, which must stay.
        const extensions = error.extensions as Record<string, unknown>;
        extensions.code = code;
        delete extensions.originalError;
        // Without originalError, yoga would answer a `spec` error 200 to application/json
        // clients; the status stays 400, as before.
        const http = extensions.http as { spec?: boolean } | undefined;
        if (http) delete http.spec;
      }
    },
  };
}
