/**
 * @threadstore/client: a typed client for threadstore's GraphQL API, for browsers and Node
 * (>= 20). Queries and mutations go over fetch, subscriptions over graphql-ws. Every method
 * throws ThreadstoreError (the server's extensions.code and message) on failure.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { createHttp } from './http.js';
import { createLive } from './live.js';
import type {
  AddCompactionInput,
  AddCompactionResult,
  AppendOptions,
  AppendResult,
  ClientOptions,
  Compaction,
  ContextEntry,
  CreateThreadInput,
  DeleteThreadResult,
  FollowOptions,
  FollowThreadsOptions,
  Item,
  ListThreadsArgs,
  NewItem,
  Page,
  PageItemsArgs,
  RequestOptions,
  Thread,
  ThreadListEvent,
  TranscriptFormat,
  UpdateThreadInput,
  Viewer,
} from './types.js';

export { type GraphQLErrorJson, isThreadstoreError, ThreadstoreError } from './errors.js';
export { graphql } from './generated/gql.js';
export type * from './types.js';

/** The client createClient returns. */
export interface ThreadstoreClient {
  threads: {
    /** A page of threads (default: 50 most recently updated, archived left out). */
    list(args?: ListThreadsArgs, options?: RequestOptions): Promise<Page<Thread>>;
    /** The thread, or null when it does not exist. */
    get(id: string, options?: RequestOptions): Promise<Thread | null>;
    /** @throws ThreadstoreError CONFLICT when the id is taken or was used by a deleted thread */
    create(input: CreateThreadInput, options?: RequestOptions): Promise<Thread>;
    /** Keys left out stay; name: null clears the name. @throws ThreadstoreError NOT_FOUND */
    update(input: UpdateThreadInput, options?: RequestOptions): Promise<Thread>;
    /** Deletes the thread with its items and compactions. @throws ThreadstoreError NOT_FOUND */
    delete(id: string, options?: RequestOptions): Promise<DeleteThreadResult>;
  };
  items: {
    /**
     * A page of the log in seq order: forward with first/after (or afterSeq), backward with
     * last/before (or beforeSeq). @throws ThreadstoreError NOT_FOUND when the thread does not exist
     */
    page(threadId: string, args?: PageItemsArgs, options?: RequestOptions): Promise<Page<Item>>;
    /** One item by seq; null when it does not exist (or was purged). */
    get(threadId: string, seq: number, options?: RequestOptions): Promise<Item | null>;
    /**
     * Appends 1 to 500 items, all-or-nothing. Retried on network failures, UNAVAILABLE and
     * RATE_LIMITED with the same idempotency key, so it is written at most once.
     */
    append(threadId: string, items: NewItem[], options?: AppendOptions): Promise<AppendResult>;
  };
  compactions: {
    /** The thread's compaction records, in startSeq order. @throws ThreadstoreError NOT_FOUND */
    list(threadId: string, options?: RequestOptions): Promise<Compaction[]>;
    /** Records a summary of startSeq..endSeq and appends its marker item. */
    add(input: AddCompactionInput, options?: RequestOptions): Promise<AddCompactionResult>;
    /** Deletes the thread's compaction records (markers stay); returns how many. */
    clear(threadId: string, options?: RequestOptions): Promise<number>;
  };
  /**
   * What a model is sent, as entries: compaction records in place of their ranges, then the
   * uncovered items. @throws ThreadstoreError NOT_FOUND
   */
  context(threadId: string, options?: RequestOptions): Promise<ContextEntry[]>;
  /**
   * The same in a provider's request shape (OPENAI_CHAT {messages}, OPENAI_RESPONSES {input},
   * ANTHROPIC_MESSAGES {system, messages}). @throws ThreadstoreError NOT_FOUND
   */
  modelContext(
    threadId: string,
    format: TranscriptFormat,
    options?: RequestOptions,
  ): Promise<unknown>;
  /** Who the requests act as. */
  viewer(options?: RequestOptions): Promise<Viewer>;
  /**
   * The thread's items in seq order, live: reconnects with jittered, capped back-off, gets a
   * new token (getToken) when the server closes with 4403 or ends the stream UNAUTHENTICATED,
   * and resumes after the last seq it yielded: never a gap, never a duplicate. Ends when the
   * thread is deleted, when `signal` aborts, or when the consumer stops (break).
   * @throws ThreadstoreError NOT_FOUND (no such thread), UNAUTHENTICATED (credentials refused
   *   and getToken gave none better), FORBIDDEN, BAD_USER_INPUT
   */
  follow(threadId: string, options?: FollowOptions): AsyncIterable<Item>;
  /**
   * Thread changes, optionally of one agent, live; after a reconnect yields
   * `{type: 'RESYNC'}` first (events may have been missed: reload the list).
   */
  followThreads(options?: FollowThreadsOptions): AsyncIterable<ThreadListEvent>;
  /** Any typed document (from graphql() or codegen) over HTTP; returns `data`. */
  request<R, V extends Record<string, unknown> = Record<string, never>>(
    document: TypedDocumentNode<R, V>,
    variables?: V,
    options?: RequestOptions,
  ): Promise<R>;
  /** Closes the WebSocket (ends every follower). */
  close(): Promise<void>;
}

/**
 * A client for the server at `options.url`. Nothing connects until the first call; the
 * WebSocket opens with the first follower and is shared by all of them.
 */
export function createClient(options: ClientOptions): ThreadstoreClient {
  const http = createHttp(options);
  const live = createLive(options, http);
  return {
    ...http.methods,
    follow: live.follow,
    followThreads: live.followThreads,
    request: http.request,
    close: live.close,
  };
}
