/**
 * Live streams end when their credentials do (issue 9: an expired token or a revoked key
 * reads nothing more): at a JWT's expiry (plus the clock skew jwt.ts accepts), and within
 * `recheckMs` of an API key's revocation. A WebSocket is closed at expiry by ws-sessions.ts;
 * here SSE streams end at expiry, and every stream of a revoked key ends, also a long
 * subscription on a socket that sends nothing else.
 * The stream's last message is an UNAUTHENTICATED error, then it completes.
 */
import { type ExecutionResult, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ServiceContext } from '../context.js';
import { findApiKey } from '../identity/api-key.service.js';
import type { Identity } from '../identity/identity.js';
import { CLOCK_TOLERANCE_S } from '../identity/jwt.js';

type Stream = AsyncIterable<ExecutionResult>;

/** Resolves with why the credentials ended; `stop()` clears its timers. */
function credentialsEnd(
  ctx: ServiceContext,
  recheckMs: number,
  watchExpiry: boolean,
): { ended: Promise<string>; stop: () => void } {
  const identity: Identity = ctx.identity;
  const timers: NodeJS.Timeout[] = [];
  const ended = new Promise<string>((resolve) => {
    if (watchExpiry && identity.expiresAt) {
      const left = identity.expiresAt.getTime() + CLOCK_TOLERANCE_S * 1000 - Date.now();
      // setTimeout holds at most 2^31-1 ms; a later expiry is re-armed by the recheck.
      if (left < 2 ** 31)
        timers.push(setTimeout(() => resolve('Your token expired.'), Math.max(0, left)));
    }
    if (identity.method === 'API_KEY' && identity.subject) {
      const keyId = identity.subject;
      const timer = setInterval(() => {
        findApiKey(ctx.db, identity.tenantId, keyId).then(
          (key) => {
            if (!key || key.revokedAt) resolve('The API key was revoked.');
          },
          () => {}, // a failed check is retried at the next interval
        );
      }, recheckMs);
      timers.push(timer);
    }
  });
  for (const timer of timers) timer.unref();
  return { ended, stop: () => timers.forEach(clearTimeout) };
}

/**
 * `source` until the credentials end. An iterator object, not a generator: a consumer that
 * goes away must free the stream and the timers at once, even while it waits for an event.
 */
function untilCredentialsEnd(
  source: Stream,
  ctx: ServiceContext,
  options: { recheckMs: number; watchExpiry: boolean },
): AsyncIterableIterator<ExecutionResult> {
  const inner = source[Symbol.asyncIterator]();
  const { ended, stop } = credentialsEnd(ctx, options.recheckMs, options.watchExpiry);
  let finished = false;
  const finish = async (): Promise<IteratorResult<ExecutionResult>> => {
    if (!finished) {
      finished = true;
      stop();
      await inner.return?.();
    }
    return { done: true, value: undefined };
  };
  // Why the credentials ended, once they did; and what wakes a next() waiting for an event.
  // (Not Promise.race with `ended` per event: each race leaves a reaction on the pending
  // `ended`, so a follower would hold one more closure per event it received.)
  let reason: string | null = null;
  let interrupt: ((end: { reason: string }) => void) | null = null;
  ended.then((why) => {
    reason = why;
    interrupt?.({ reason: why });
  });
  const nextOrEnd = (): Promise<IteratorResult<ExecutionResult> | { reason: string }> => {
    if (reason !== null) return Promise.resolve({ reason });
    return new Promise((resolve, reject) => {
      interrupt = resolve;
      inner.next().then(resolve, reject);
    });
  };
  const iterator: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (finished) return { done: true, value: undefined };
      const next = await nextOrEnd();
      interrupt = null;
      if ('reason' in next) {
        await finish();
        const message = `${next.reason} The stream ended; subscribe again with new credentials (and afterSeq).`;
        return {
          done: false,
          value: {
            errors: [new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' } })],
          },
        };
      }
      if (next.done) await finish();
      return next;
    },
    return: finish,
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

/** The envelop plugin that bounds every subscription stream by its credentials. */
export function streamCredentialsPlugin(recheckMs: number): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ args, result, setResult }) {
          const ctx = args.contextValue as unknown as ServiceContext;
          if (!(Symbol.asyncIterator in Object(result))) return;
          // A WebSocket closes itself at expiry (4403, ws-sessions.ts): only SSE watches it here.
          const watchExpiry = !('socket' in Object(args.contextValue)) && !!ctx.identity?.expiresAt;
          if (!watchExpiry && ctx.identity?.method !== 'API_KEY') return;
          setResult(untilCredentialsEnd(result as Stream, ctx, { recheckMs, watchExpiry }));
        },
      };
    },
  };
}
