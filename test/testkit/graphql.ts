/**
 * Typed GraphQL over HTTP for the test kit (after graphql-hive/console's
 * integration-tests/testkit/graphql.ts). An operation is a TypedDocumentNode written with the
 * `graphql()` of test/generated (`npm run codegen` types it: variables and result), or a plain
 * string, which older tests still send (result `Record<string, any>` unless given).
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type DocumentNode, print } from 'graphql';

/** A GraphQL error as it comes over the wire. */
export interface GraphQLErrorJson {
  message: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

export interface GraphQLResponse<T = Record<string, unknown>> {
  data?: T | null;
  errors?: GraphQLErrorJson[];
}

/** An operation: a typed document, or the source of one. */
export type Operation = DocumentNode | string;

/**
 * The variables argument of an operation: optional when none of its variables is required
 * (`{}` fits), required otherwise.
 */
export type VariablesArg<V> = Record<string, never> extends V ? [variables?: V] : [variables: V];

/** The result type of a typed document. */
export type ResultOf<D> = D extends TypedDocumentNode<infer R, infer _V> ? R : never;
/** The variables type of a typed document. */
export type VariablesOf<D> = D extends TypedDocumentNode<infer _R, infer V> ? V : never;

/**
 * The printed source of an operation.
 * @throws Error when `operation` is not a document: `graphql()` returns `{}` for a source that
 * `npm run codegen` has not seen (the generated files are stale)
 */
export function sourceOf(operation: Operation): string {
  if (typeof operation === 'string') return operation;
  if ((operation as Partial<DocumentNode>).kind !== 'Document') {
    throw new Error('Not a GraphQL document: run `npm run codegen` (test/generated is stale)');
  }
  return print(operation);
}

/** JSON of `value`, cut to `max` characters (variables can be megabytes of items). */
function shortJson(value: unknown, max = 2_000): string {
  const json = JSON.stringify(value) ?? 'undefined';
  return json.length > max ? `${json.slice(0, max)}… (${json.length} characters)` : json;
}

/**
 * The error a test sees when a response is not what it expected: what was expected, the
 * operation's printed source, its variables (shortened) and the whole response.
 */
export function unexpectedResponse(
  expected: string,
  operation: Operation,
  variables: unknown,
  response: unknown,
): Error {
  return new Error(
    [
      expected,
      `Operation:\n${sourceOf(operation).trim()}`,
      `Variables: ${shortJson(variables ?? null)}`,
      `Response:\n${JSON.stringify(response, null, 2)}`,
    ].join('\n\n'),
  );
}

/** Sends a JSON request body (`{ query, variables }`) and returns the HTTP response. */
export type Send = (body: string) => Response | Promise<Response>;

export interface GraphQLClient {
  /** Runs an operation and returns the whole response (data and errors). */
  request<R, V>(
    document: TypedDocumentNode<R, V>,
    ...variables: VariablesArg<V>
  ): Promise<GraphQLResponse<R>>;
  // biome-ignore lint/suspicious/noExplicitAny: string documents are untyped (older tests); typed documents give typed results
  request<T = Record<string, any>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
  /**
   * Runs an operation that must succeed and returns its data.
   * @throws Error printing the operation and the whole response when errors came back or no data
   */
  execute<R, V>(document: TypedDocumentNode<R, V>, ...variables: VariablesArg<V>): Promise<R>;
  // biome-ignore lint/suspicious/noExplicitAny: string documents are untyped (older tests); typed documents give typed results
  execute<T = Record<string, any>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  /**
   * Runs an operation that must fail; returns its first error's code and message.
   * @throws Error printing the operation and the whole response when no error came back
   */
  expectError<R, V>(
    document: TypedDocumentNode<R, V>,
    ...variables: VariablesArg<V>
  ): Promise<{ code: string; message: string }>;
  expectError(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ code: string; message: string }>;
}

/**
 * A GraphQL client over `send` (yoga.fetch in process, or fetch to a server process).
 * @throws Error (from each method) printing the operation when the answer is not JSON
 */
export function graphqlClient(send: Send): GraphQLClient {
  const request = async (
    operation: Operation,
    variables?: unknown,
  ): Promise<GraphQLResponse<never>> => {
    const response = await send(JSON.stringify({ query: sourceOf(operation), variables }));
    const text = await response.text();
    try {
      return JSON.parse(text) as GraphQLResponse<never>;
    } catch {
      throw unexpectedResponse(
        `Expected a JSON response, got HTTP ${response.status}`,
        operation,
        variables,
        text,
      );
    }
  };
  return {
    request: request as GraphQLClient['request'],
    execute: (async (operation: Operation, variables?: unknown) => {
      const result = await request(operation, variables);
      if (result.errors?.length || !result.data) {
        throw unexpectedResponse('Expected data without errors', operation, variables, result);
      }
      return result.data;
    }) as GraphQLClient['execute'],
    expectError: (async (operation: Operation, variables?: unknown) => {
      const result = await request(operation, variables);
      const first = result.errors?.[0];
      if (!first) throw unexpectedResponse('Expected an error', operation, variables, result);
      return { code: String(first.extensions?.code), message: first.message };
    }) as GraphQLClient['expectError'],
  };
}
