/**
 * The client's public types: the generated operation types (client/src/generated/, from
 * schema.graphql) under short names, and the options and results of the client's methods.
 */
import type {
  AddCompactionInput,
  ClientAddCompactionMutation,
  ClientAppendItemsMutation,
  ClientCompactionFragment,
  ClientContextQuery,
  ClientDeleteThreadMutation,
  ClientItemFragment,
  ClientThreadEventsSubscription,
  ClientThreadFragment,
  ClientViewerQuery,
  CreateThreadInput,
  NewItem,
  ThreadEventType,
  ThreadFilter,
  ThreadOrderBy,
  TranscriptFormat,
  UpdateThreadInput,
} from './generated/graphql.js';

export type {
  AddCompactionInput,
  CreateThreadInput,
  NewItem,
  ThreadEventType,
  ThreadFilter,
  ThreadOrderBy,
  TranscriptFormat,
  UpdateThreadInput,
};

/** Any item of a thread's log: a union told apart by `__typename` (or `type`). */
export type Item = ClientItemFragment;
/** One member of the Item union, e.g. `ItemOf<'MessageItem'>`. */
export type ItemOf<T extends Item['__typename']> = Extract<Item, { __typename: T }>;
/** A thread with its counters and its newest item (for list previews). */
export type Thread = ClientThreadFragment;
/** A compaction record: a summary standing in for items startSeq..endSeq. */
export type Compaction = ClientCompactionFragment;
/** One entry of Thread.context: a compaction record or an uncovered item. */
export type ContextEntry = NonNullable<ClientContextQuery['thread']>['context'][number];
/** Who the requests act as. */
export type Viewer = ClientViewerQuery['viewer'];
/** A change to a thread (threadEvents); `thread` is null once it was deleted. */
export type ThreadEvent = ClientThreadEventsSubscription['threadEvents'];
/**
 * What followThreads yields: thread events, and RESYNC after each reconnect (events may have
 * been missed while disconnected: reload the list).
 */
export type ThreadListEvent =
  | ThreadEvent
  | { type: 'RESYNC'; at: string; threadId: null; thread: null };
export type AppendResult = ClientAppendItemsMutation['appendItems'];
export type AddCompactionResult = ClientAddCompactionMutation['addCompaction'];
export type DeleteThreadResult = ClientDeleteThreadMutation['deleteThread'];

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/** A page of a connection: `nodes` are the edges' nodes, in order. */
export interface Page<T> {
  nodes: T[];
  edges: { cursor: string; node: T }[];
  pageInfo: PageInfo;
  /** Matches of the filter in all pages. */
  totalCount: number;
}

/** Relay paging: `first`/`after` forward, `last`/`before` backward (at most 500). */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface ListThreadsArgs extends PageArgs {
  filter?: ThreadFilter | null;
  /** Default UPDATED_AT_DESC. */
  orderBy?: ThreadOrderBy | null;
}

export interface PageItemsArgs extends PageArgs {
  /** Exclusive seq bounds usable instead of cursors (a negative afterSeq: from the first item). */
  afterSeq?: number | null;
  beforeSeq?: number | null;
  /** Only items of these ConversationItem.type values. */
  types?: string[] | null;
}

export interface AppendOptions {
  /**
   * Sent with the append and re-sent unchanged on each retry, so a retry of an append the
   * server already wrote returns the first result (replayed: true). Generated once per call
   * when left out.
   */
  idempotencyKey?: string;
  /** CONFLICT unless the first new item would get exactly this seq. */
  expectedSeq?: number | null;
  /** Retries on a network failure, UNAVAILABLE or RATE_LIMITED (default 3). */
  retries?: number;
  signal?: AbortSignal;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** Reconnect back-off of follow/followThreads: full jitter in [base/2, min(max, base*2^n)]. */
export interface BackoffOptions {
  /** First delay in ms (default 250). */
  initialMs?: number;
  /** Cap in ms (default 5000). */
  maxMs?: number;
}

/** What a follower is doing, for status lines ("reconnecting in 2 s"). */
export type FollowStatus =
  | { state: 'subscribing'; afterSeq: number | null }
  | { state: 'live' }
  | { state: 'retrying'; attempt: number; delayMs: number; error: unknown }
  | { state: 'refreshing-token' };

export interface FollowOptions {
  /**
   * Yield the items after this seq first (-1: the whole thread), then live ones. Left out:
   * only items appended after the call (the thread's lastSeq is read first, so even those
   * appended during a reconnect are not lost).
   */
  afterSeq?: number | null;
  /** Ends the iteration (it returns, no error). */
  signal?: AbortSignal;
  onStatus?: (status: FollowStatus) => void;
  backoff?: BackoffOptions;
}

export interface FollowThreadsOptions {
  /** Only threads of this agent. */
  agentId?: string | null;
  signal?: AbortSignal;
  onStatus?: (status: FollowStatus) => void;
  backoff?: BackoffOptions;
}

/** A token, or nothing (no credentials), now or later. */
export type TokenValue = string | null | undefined;

export interface ClientOptions {
  /** The GraphQL endpoint over HTTP, e.g. http://localhost:4000/graphql. */
  url: string;
  /** The WebSocket endpoint; default: `url` with http(s) replaced by ws(s). */
  wsUrl?: string;
  /** An API key (tsk_...) or JWT, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Called before each HTTP request and each WebSocket connection (so again after a 4403
   * close, when a token expired): return a currently valid token. Takes precedence over token.
   */
  getToken?: () => TokenValue | Promise<TokenValue>;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** A WebSocket constructor (default globalThis.WebSocket; in Node < 22 pass `ws`'s). */
  webSocketImpl?: unknown;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /**
   * Pings on the WebSocket: one every intervalMs (default 15000); without a pong within
   * timeoutMs (default 5000) the socket is dropped and followers reconnect. false: no pings.
   */
  keepAlive?: { intervalMs?: number; timeoutMs?: number } | false;
}
