/**
 * The request rate limit per tenant (issue 9, point 6): every GraphQL operation (HTTP, SSE or
 * graphql-ws) takes one token from its tenant's bucket once its credentials are verified.
 * rate-limiter-flexible's BurstyRateLimiter: RATE_LIMIT_RPS per second, and on top of it a
 * burst allowance that lets a tenant reach RATE_LIMIT_BURST at once and refills over
 * RATE_LIMIT_BURST / RATE_LIMIT_RPS seconds (a token bucket in effect).
 *
 * With REDIS_URL the counters live in Redis, so every instance shares a tenant's budget; the
 * limiter has its own connection (no offline queue, commands time out after 1 s: a request
 * never waits on Redis), and while Redis cannot be reached each instance counts in memory with
 * the same rates (so a tenant may get up to the limit once per instance meanwhile).
 * A refusal is RATE_LIMITED: HTTP 429 with Retry-After, and `extensions.retryAfter` (seconds).
 */
import { GraphQLError, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { Env } from '../env.js';
import { quote } from '../errors.js';
import type { Identity } from '../identity/identity.js';
import type { Audit } from './audit.js';

const KEY_PREFIX = 'threadstore:rate';

export interface RateLimiter {
  /** Takes one token of `key`'s bucket: null when taken, else the seconds to wait (≥ 1). */
  take(key: string): Promise<number | null>;
  close(): Promise<void>;
}

type Limits = { points: number; duration: number; keyPrefix: string };

/** The sustained limit and the burst allowance on top of it (none when BURST ≤ RPS). */
function limitsOf(env: Pick<Env, 'RATE_LIMIT_RPS' | 'RATE_LIMIT_BURST'>): Limits[] {
  const rps = env.RATE_LIMIT_RPS;
  const extra = env.RATE_LIMIT_BURST - rps;
  const sustained = { points: rps, duration: 1, keyPrefix: `${KEY_PREFIX}:rps` };
  if (extra <= 0) return [sustained];
  const refill = Math.max(1, Math.ceil(env.RATE_LIMIT_BURST / rps));
  return [sustained, { points: extra, duration: refill, keyPrefix: `${KEY_PREFIX}:burst` }];
}

/** A Redis connection for the limiter that fails commands at once while disconnected. */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A half-open connection (Redis gone without a reset) must not hold requests either.
    commandTimeout: 1_000,
    lazyConnect: true,
    connectTimeout: 5_000,
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, 'rate limiter: Redis unreachable, counting in memory meanwhile');
  });
  client.on('ready', () => {
    down = false;
  });
  // REDIS_URL was checked by the event bus's connection; if this one fails, memory counts.
  await client.connect().catch(() => undefined);
  return client;
}

/** The limiter of the configuration: in memory, or shared through Redis when REDIS_URL is set. */
export async function createRateLimiter(env: Env, logger: Logger): Promise<RateLimiter> {
  const redis = env.REDIS_URL ? await connectRedis(env.REDIS_URL, logger) : null;
  const limiters = limitsOf(env).map((limits) =>
    redis
      ? new RateLimiterRedis({
          ...limits,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(limits),
        })
      : new RateLimiterMemory(limits),
  );
  const [sustained, burst] = limiters;
  const limiter = burst ? new BurstyRateLimiter(sustained!, burst) : sustained!;
  return {
    async take(key) {
      try {
        await limiter.consume(key);
        return null;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) {
          return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
        }
        // A store failure beyond the in-memory fallback never refuses a request.
        logger.warn({ err: refusal }, 'rate limiter failed; request let through');
        return null;
      }
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** RATE_LIMITED: HTTP 429 with Retry-After, and the same wait in `extensions.retryAfter`. */
export function rateLimited(message: string, retryAfter?: number): GraphQLError {
  const wait = retryAfter === undefined ? {} : { retryAfter };
  return new GraphQLError(message, {
    extensions: {
      code: 'RATE_LIMITED',
      ...wait,
      http: {
        status: 429,
        ...(retryAfter === undefined ? {} : { headers: { 'Retry-After': String(retryAfter) } }),
      },
    },
  });
}

type LimitedContext = { identity?: Identity; request?: Request };

/**
 * Takes a token of the caller's tenant for every operation once its context (and identity) is
 * built: over HTTP and SSE a refusal is a 429 response, over graphql-ws an error for that
 * operation only (src/server/graphql-ws.ts). Refusals are audited with the operation's name.
 */
export function rateLimitPlugin(limiter: RateLimiter, audit: Audit, rps: number): Plugin {
  const operations = new WeakMap<object, string | null>();
  return {
    onParse({ context }) {
      return ({ result }) => {
        if (result && !(result instanceof Error) && 'kind' in result) {
          const name = (context as { params?: { operationName?: string } }).params?.operationName;
          operations.set(context, getOperationAST(result, name)?.name?.value ?? null);
        }
      };
    },
    async onContextBuilding({ context }) {
      const { identity, request } = context as LimitedContext;
      if (!identity) return;
      const retryAfter = await limiter.take(identity.tenantId);
      if (retryAfter === null) return;
      audit.log(
        {
          transport: request ? 'http' : 'ws',
          identity,
          operation: operations.get(context) ?? null,
          outcome: 'RATE_LIMITED',
          status: request ? 429 : undefined,
          reason: 'tenant request rate',
        },
        request,
      );
      throw rateLimited(
        `Too many requests for tenant ${quote(identity.tenantId, 64)} (over ${rps} per second beyond its burst allowance): retry after ${retryAfter} s.`,
        retryAfter,
      );
    },
  };
}
