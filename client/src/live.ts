/**
 * Subscriptions over graphql-ws: follow (a thread's items, gapless across reconnects) and
 * followThreads (thread changes). graphql-ws's own retry is off: it would resubscribe with the
 * variables of the first subscribe, replaying from the old afterSeq; each follower reconnects
 * itself, with the last seq it yielded (contract: Subscription.threadItems "never a gap, never
 * a duplicate, also across a reconnect that passes the last seq seen").
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { backoffDelay, sleep } from './backoff.js';
import { FollowSubscription, ThreadEventsSubscription, ThreadLastSeqQuery } from './documents.js';
import { type GraphQLErrorJson, isThreadstoreError, ThreadstoreError } from './errors.js';
import { authorization, type Http } from './http.js';
import type {
  ClientOptions,
  FollowOptions,
  FollowStatus,
  FollowThreadsOptions,
  Item,
  ThreadListEvent,
} from './types.js';

/** The close code threadstore uses for refused or expired credentials (ws-sessions.ts). */
const CLOSE_FORBIDDEN = 4403;
/** Codes after which subscribing again cannot help. */
const FATAL = new Set([
  'NOT_FOUND',
  'FORBIDDEN',
  'BAD_USER_INPUT',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'PAYLOAD_TOO_LARGE',
  'INVALID_OPTIONS',
]);
/** Refused credentials in a row (with no connection accepted between) before giving up. */
const MAX_AUTH_FAILURES = 3;
/**
 * How long a subscription must have stayed up before its failure counts as a first one again
 * (back-off from the start). An acknowledged socket alone proves nothing: an operation that
 * fails at once on a working socket would otherwise be retried every 125-250 ms for ever.
 */
const STABLE_MS = 30_000;

/** What the keep-alive needs of a WebSocket (browser's or ws's). */
interface SocketLike {
  readyState: number;
  close(code?: number, reason?: string): void;
  terminate?: () => void;
}

interface CloseEventLike {
  code: number;
  reason: string;
}
function isCloseEvent(value: unknown): value is CloseEventLike {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value;
}

/** The WebSocket URL for `options`: wsUrl, else url with http(s) → ws(s), relative to the page. */
export function webSocketUrl(options: ClientOptions): string {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(options.wsUrl ?? options.url, base);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.toString();
}

interface ExecutionResultJson<T> {
  data?: T | null;
  errors?: readonly GraphQLErrorJson[];
  /** Not from the server: marks that the socket carrying the subscription was acknowledged. */
  acknowledged?: true;
}

/**
 * How a failed attempt goes on: `fatal` (throw this), `auth` (new credentials, then again),
 * `retry` (after a back-off).
 */
function classify(error: unknown): { kind: 'fatal' | 'auth' | 'retry'; error: ThreadstoreError } {
  if (isThreadstoreError(error)) {
    if (error.code === 'UNAUTHENTICATED') return { kind: 'auth', error };
    return { kind: FATAL.has(error.code) ? 'fatal' : 'retry', error };
  }
  if (Array.isArray(error)) {
    // graphql-ws's `error` message: the operation was refused before it ran.
    const refused = ThreadstoreError.fromGraphQLErrors(error as GraphQLErrorJson[]);
    return classify(refused);
  }
  if (isCloseEvent(error)) {
    const message = `The WebSocket closed (${error.code}${error.reason ? `: ${error.reason}` : ''}).`;
    if (error.code === CLOSE_FORBIDDEN)
      return { kind: 'auth', error: new ThreadstoreError('UNAUTHENTICATED', message) };
    return { kind: 'retry', error: new ThreadstoreError('NETWORK_ERROR', message) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    kind: 'retry',
    error: new ThreadstoreError('NETWORK_ERROR', `The WebSocket failed: ${message}`, {
      cause: error,
    }),
  };
}

export interface Live {
  follow(threadId: string, options?: FollowOptions): AsyncIterable<Item>;
  followThreads(options?: FollowThreadsOptions): AsyncIterable<ThreadListEvent>;
  close(): Promise<void>;
}

/** The WebSocket half of the client: one lazy socket shared by all followers. */
export function createLive(options: ClientOptions, http: Http): Live {
  let ws: WsClient | null = null;
  let closed = false;
  const ackListeners = new Set<() => void>();
  /** Whether the socket is open and acknowledged now. */
  let acknowledged = false;
  const open = new Set<() => void>();

  function socket(): WsClient {
    if (ws) return ws;
    let url: string;
    try {
      url = webSocketUrl(options);
    } catch (error) {
      throw new ThreadstoreError(
        'INVALID_OPTIONS',
        `"${options.wsUrl ?? options.url}" is no WebSocket URL: pass an absolute url or wsUrl.`,
        { cause: error },
      );
    }
    if (!options.webSocketImpl && typeof globalThis.WebSocket === 'undefined')
      throw new ThreadstoreError(
        'INVALID_OPTIONS',
        "This runtime has no WebSocket: pass webSocketImpl (e.g. the `ws` package's WebSocket) to createClient.",
      );
    // A connection that died without a close (a laptop asleep, a NAT that forgot it) is found
    // by a ping the server does not answer: the socket is dropped and followers reconnect.
    const { intervalMs = 15_000, timeoutMs = 5_000 } = options.keepAlive || {};
    let current: SocketLike | null = null;
    let pongTimer: ReturnType<typeof setTimeout> | undefined;
    ws = createWsClient({
      url,
      webSocketImpl: options.webSocketImpl,
      lazy: true,
      retryAttempts: 0,
      keepAlive: options.keepAlive === false ? 0 : intervalMs,
      // Called on every connection: a reconnect after 4403 gets getToken()'s new token.
      connectionParams: async () => {
        const auth = await authorization(options);
        return auth ? { authorization: auth } : {};
      },
      on: {
        closed: () => {
          acknowledged = false;
          current = null;
          clearTimeout(pongTimer);
        },
        ping: (received) => {
          if (received) return;
          clearTimeout(pongTimer);
          const socket = current;
          pongTimer = setTimeout(() => {
            if (socket?.readyState !== 1) return;
            // ws (Node) can drop a socket at once; a browser's close() gives up on its own.
            if (socket.terminate) socket.terminate();
            else socket.close(4408, 'No pong in time');
          }, timeoutMs);
        },
        pong: (received) => {
          if (received) clearTimeout(pongTimer);
        },
        connected: (socket) => {
          current = socket as SocketLike;
          acknowledged = true;
          for (const listener of ackListeners) listener();
        },
      },
    });
    return ws;
  }

  /**
   * One subscription as an async iterator whose return() frees it at once (graphql-ws's own
   * iterate() is a generator: return() would wait for the next event).
   */
  function subscribe<R, V>(
    document: TypedDocumentNode<R, V>,
    variables: V,
    signal: AbortSignal | undefined,
  ): AsyncIterableIterator<ExecutionResultJson<R>> {
    const queue: ExecutionResultJson<R>[] = [];
    let done = false;
    let failure: { error: unknown } | null = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    const client = socket();
    // The marker goes first: on a socket acknowledged already, or once the new one is.
    const onAck = () => {
      ackListeners.delete(onAck);
      queue.unshift({ acknowledged: true });
      notify();
    };
    if (acknowledged) queue.push({ acknowledged: true });
    else ackListeners.add(onAck);
    const dispose = client.subscribe<R>(
      { query: print(document), variables: variables as Record<string, unknown> },
      {
        next: (value) => {
          queue.push(value as ExecutionResultJson<R>);
          notify();
        },
        error: (error) => {
          failure = { error };
          done = true;
          notify();
        },
        complete: () => {
          done = true;
          notify();
        },
      },
    );
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      done = true;
      queue.length = 0;
      ackListeners.delete(onAck);
      dispose();
      signal?.removeEventListener('abort', finish);
      open.delete(finish);
      notify();
    };
    signal?.addEventListener('abort', finish, { once: true });
    open.add(finish);
    const iterator: AsyncIterableIterator<ExecutionResultJson<R>> = {
      async next() {
        while (queue.length === 0 && !done) await new Promise<void>((r) => (wake = r));
        const value = queue.shift();
        if (value) return { value, done: false };
        const failed = finished ? null : failure;
        finish();
        if (failed) throw failed.error;
        return { value: undefined, done: true };
      },
      async return() {
        finish();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return iterator;
  }

  /**
   * Runs `attempt` until it returns, reconnecting on failures: back-off between retries
   * (reset once `progress()` was called, i.e. the operation delivered something, or the
   * connection stayed up STABLE_MS; an accepted connection resets only the count of refused
   * credentials), new credentials after refused ones (at once the first time), and a throw for
   * errors no retry can fix.
   */
  async function* resilient<T>(
    run: (reconnect: boolean, progress: () => void, up: () => void) => AsyncGenerator<T, void>,
    o: FollowOptions | FollowThreadsOptions,
  ): AsyncGenerator<T, void> {
    const { signal, onStatus } = o;
    const status = (s: FollowStatus) => onStatus?.(s);
    let failures = 0;
    let authFailures = 0;
    let reconnect = false;
    const progress = () => {
      failures = 0;
      authFailures = 0;
    };
    for (;;) {
      if (signal?.aborted || closed) return;
      // Called when the socket carrying this attempt is acknowledged (the stream's marker).
      let upSince: number | null = null;
      const up = () => {
        authFailures = 0;
        upSince = Date.now();
        status({ state: 'live' });
      };
      let error: unknown;
      try {
        yield* run(reconnect, progress, up);
        return;
      } catch (e) {
        error = e;
      }
      if (signal?.aborted || closed) return;
      if (upSince !== null && Date.now() - upSince >= STABLE_MS) failures = 0;
      reconnect = true;
      const outcome = classify(error);
      if (outcome.kind === 'fatal') throw outcome.error;
      if (outcome.kind === 'auth') {
        // Without getToken the same credentials would be refused again.
        if (!options.getToken || ++authFailures > MAX_AUTH_FAILURES) throw outcome.error;
        status({ state: 'refreshing-token' });
        if (authFailures === 1) continue;
      }
      const delayMs = backoffDelay(failures++, o.backoff);
      status({ state: 'retrying', attempt: failures, delayMs, error: outcome.error });
      await sleep(delayMs, signal);
    }
  }

  function follow(threadId: string, o: FollowOptions = {}): AsyncIterable<Item> {
    const { signal } = o;
    // The last seq yielded (or the starting point): every (re)subscription asks for what follows.
    let last: number | null = o.afterSeq ?? null;
    return resilient<Item>(async function* (_reconnect, progress, up) {
      if (last === null) {
        // "From now on", made precise: after the thread's lastSeq as read here.
        const data = await http.request(ThreadLastSeqQuery, { id: threadId }, { signal });
        if (!data.thread)
          throw new ThreadstoreError('NOT_FOUND', `No thread with id "${threadId}".`);
        last = data.thread.lastSeq ?? -1;
      }
      o.onStatus?.({ state: 'subscribing', afterSeq: last });
      const stream = subscribe(FollowSubscription, { threadId, afterSeq: last }, signal);
      for await (const result of stream) {
        if (result.acknowledged) {
          up();
          continue;
        }
        if (result.errors?.length) throw ThreadstoreError.fromGraphQLErrors(result.errors);
        const item = result.data?.threadItems;
        if (!item) continue;
        // Already yielded: a replay after a resubscription that graphql-ws made by itself.
        if (item.seq <= last) continue;
        last = item.seq;
        progress();
        yield item;
      }
    }, o);
  }

  function followThreads(o: FollowThreadsOptions = {}): AsyncIterable<ThreadListEvent> {
    // Owed after a failure, yielded once a socket carries the subscription again (not after
    // each failed attempt while the server is away).
    let resync = false;
    return resilient<ThreadListEvent>(async function* (reconnect, progress, up) {
      if (reconnect) resync = true;
      o.onStatus?.({ state: 'subscribing', afterSeq: null });
      const stream = subscribe(ThreadEventsSubscription, { agentId: o.agentId ?? null }, o.signal);
      for await (const result of stream) {
        if (result.acknowledged) {
          up();
          if (resync) {
            resync = false;
            yield { type: 'RESYNC', at: new Date().toISOString(), threadId: null, thread: null };
          }
          continue;
        }
        if (result.errors?.length) throw ThreadstoreError.fromGraphQLErrors(result.errors);
        const event = result.data?.threadEvents;
        if (!event) continue;
        progress();
        yield event;
      }
    }, o);
  }

  async function close(): Promise<void> {
    closed = true;
    for (const finish of [...open]) finish();
    const client = ws;
    ws = null;
    await client?.dispose();
  }

  return { follow, followThreads, close };
}
