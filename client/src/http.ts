/**
 * Queries and mutations over HTTP (fetch): one POST per operation, credentials from
 * token/getToken as `Authorization: Bearer`, GraphQL errors turned into ThreadstoreError.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { type DocumentNode, print } from 'graphql';
import { backoffDelay, sleep } from './backoff.js';
import {
  AddCompactionMutation,
  AppendItemsMutation,
  ClearCompactionsMutation,
  CompactionsQuery,
  ContextQuery,
  CreateThreadMutation,
  DeleteThreadMutation,
  ItemQuery,
  ItemsQuery,
  ModelContextQuery,
  ThreadQuery,
  ThreadsQuery,
  UpdateThreadMutation,
  ViewerQuery,
} from './documents.js';
import { type GraphQLErrorJson, isThreadstoreError, ThreadstoreError } from './errors.js';
import type { ThreadstoreClient } from './index.js';
import type { ClientOptions, Page, RequestOptions } from './types.js';

/** Error codes after which the same request may succeed (a mutation with an idempotency key). */
const RETRYABLE = new Set(['NETWORK_ERROR', 'UNAVAILABLE', 'RATE_LIMITED']);

const printed = new WeakMap<DocumentNode, string>();
function source(document: DocumentNode): string {
  let text = printed.get(document);
  if (text === undefined) {
    text = print(document);
    printed.set(document, text);
  }
  return text;
}

function operationName(document: DocumentNode): string | undefined {
  for (const definition of document.definitions)
    if (definition.kind === 'OperationDefinition') return definition.name?.value;
  return undefined;
}

/** 32 random hex digits (crypto.getRandomValues: also in browsers' insecure contexts). */
export function randomKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The `Authorization` value for the client's credentials now, or null for none. */
export async function authorization(options: ClientOptions): Promise<string | null> {
  const token = options.getToken ? await options.getToken() : options.token;
  return token ? `Bearer ${token}` : null;
}

/** A connection's edges as a Page (nodes alongside). */
function toPage<T>(connection: {
  edges: { cursor: string; node: T }[];
  pageInfo: Page<T>['pageInfo'];
  totalCount: number;
}): Page<T> {
  return {
    nodes: connection.edges.map((e) => e.node),
    edges: connection.edges,
    pageInfo: connection.pageInfo,
    totalCount: connection.totalCount,
  };
}

function threadNotFound(id: string): ThreadstoreError {
  return new ThreadstoreError('NOT_FOUND', `No thread with id "${id}".`);
}

export type Request = <R, V extends Record<string, unknown> = Record<string, never>>(
  document: TypedDocumentNode<R, V>,
  variables?: V,
  options?: RequestOptions,
) => Promise<R>;

export interface Http {
  request: Request;
  methods: Pick<
    ThreadstoreClient,
    'threads' | 'items' | 'compactions' | 'context' | 'modelContext' | 'viewer'
  >;
}

/** The HTTP half of the client. */
export function createHttp(options: ClientOptions): Http {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  const request: Request = async (document, variables, requestOptions = {}) => {
    const { signal } = requestOptions;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...options.headers,
    };
    let response: Response;
    let text: string;
    try {
      const auth = await authorization(options);
      if (auth) headers.authorization = auth;
      response = await doFetch(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: source(document),
          variables: variables ?? {},
          operationName: operationName(document),
        }),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (isThreadstoreError(error)) throw error;
      if (signal?.aborted)
        throw new ThreadstoreError('ABORTED', 'The request was aborted.', { cause: error });
      const reason = error instanceof Error ? error.message : String(error);
      throw new ThreadstoreError('NETWORK_ERROR', `Could not reach ${options.url}: ${reason}.`, {
        cause: error,
      });
    }
    let body: { data?: unknown; errors?: GraphQLErrorJson[] };
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new ThreadstoreError(
        'NETWORK_ERROR',
        `${options.url} answered HTTP ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
        { status: response.status, cause: error },
      );
    }
    if (body.errors?.length) throw ThreadstoreError.fromGraphQLErrors(body.errors, response.status);
    if (body.data == null)
      throw new ThreadstoreError('NETWORK_ERROR', `${options.url} answered without data.`, {
        status: response.status,
      });
    return body.data as never;
  };

  const methods: Http['methods'] = {
    threads: {
      async list(args = {}, o) {
        const data = await request(ThreadsQuery, { ...args }, o);
        return toPage(data.threads);
      },
      async get(id, o) {
        return (await request(ThreadQuery, { id }, o)).thread;
      },
      async create(input, o) {
        return (await request(CreateThreadMutation, { input }, o)).createThread.thread;
      },
      async update(input, o) {
        return (await request(UpdateThreadMutation, { input }, o)).updateThread.thread;
      },
      async delete(id, o) {
        return (await request(DeleteThreadMutation, { input: { id } }, o)).deleteThread;
      },
    },
    items: {
      async page(threadId, args = {}, o) {
        const data = await request(ItemsQuery, { threadId, ...args }, o);
        if (!data.thread) throw threadNotFound(threadId);
        return toPage(data.thread.items);
      },
      async get(threadId, seq, o) {
        return (await request(ItemQuery, { threadId, seq }, o)).item;
      },
      async append(threadId, items, appendOptions = {}) {
        const { signal, expectedSeq, retries = 3 } = appendOptions;
        // One key for every attempt: a retry of a write that did happen is answered, not redone.
        const idempotencyKey = appendOptions.idempotencyKey ?? randomKey();
        const input = { threadId, items, idempotencyKey, expectedSeq };
        for (let attempt = 0; ; attempt++) {
          try {
            return (await request(AppendItemsMutation, { input }, { signal })).appendItems;
          } catch (error) {
            if (!isThreadstoreError(error) || !RETRYABLE.has(error.code) || attempt >= retries)
              throw error;
            const retryAfter = Number(error.extensions.retryAfter);
            const delay =
              retryAfter > 0 ? Math.min(retryAfter * 1000, 30_000) : backoffDelay(attempt);
            await sleep(delay, signal, true);
          }
        }
      },
    },
    compactions: {
      async list(threadId, o) {
        const data = await request(CompactionsQuery, { threadId }, o);
        if (!data.thread) throw threadNotFound(threadId);
        return data.thread.compactions;
      },
      async add(input, o) {
        return (await request(AddCompactionMutation, { input }, o)).addCompaction;
      },
      async clear(threadId, o) {
        const data = await request(ClearCompactionsMutation, { input: { threadId } }, o);
        return data.clearCompactions.compactionsDeleted;
      },
    },
    async context(threadId, o) {
      const data = await request(ContextQuery, { threadId }, o);
      if (!data.thread) throw threadNotFound(threadId);
      return data.thread.context;
    },
    async modelContext(threadId, format, o) {
      const data = await request(ModelContextQuery, { threadId, format }, o);
      if (!data.thread) throw threadNotFound(threadId);
      return data.thread.modelContext;
    },
    async viewer(o) {
      return (await request(ViewerQuery, undefined, o)).viewer;
    },
  };
  return { request, methods };
}
