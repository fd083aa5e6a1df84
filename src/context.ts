/**
 * What a service call needs: the database, the tenant it acts for, the event bus and limits.
 * The GraphQL context is built from it per request (src/server/app.ts).
 */
import type { Database } from './db/client.js';
import type { Env } from './env.js';
import type { Identity } from './identity/identity.js';
import type { EventBus } from './pubsub/bus.js';

/** Configured limits (see env.ts). Sizes in bytes. */
export interface Limits {
  maxItemBytes: number;
  maxAppendItems: number;
  maxPageSize: number;
  /** Live events a follower may have waiting before it is ended. */
  followerBufferEvents: number;
  /** Bytes of live events (their items' JSON, about) a follower may have waiting. */
  followerBufferBytes: number;
  /** Stored bytes one operation may read and return (src/read-budget.ts). */
  maxResponseBytes: number;
  /** Days after creation a new thread expires when it is created without expiresAt; null: never. */
  retentionDays: number | null;
  /** Webhooks may deliver to loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE). */
  webhooksAllowPrivate: boolean;
}

/**
 * Dependencies of every service function. `tenantId` (the identity's tenant) scopes every read
 * and write; the identity's scopes are checked on the root fields (src/schema/builder.ts).
 */
export interface ServiceContext {
  db: Database;
  identity: Identity;
  tenantId: string;
  events: EventBus;
  limits: Limits;
}

/** The limits configured in the environment. */
export function limitsFromEnv(env: Env): Limits {
  return {
    maxItemBytes: env.MAX_ITEM_BYTES,
    maxAppendItems: env.MAX_APPEND_ITEMS,
    maxPageSize: env.MAX_PAGE_SIZE,
    followerBufferEvents: env.FOLLOWER_BUFFER_EVENTS,
    followerBufferBytes: env.FOLLOWER_BUFFER_BYTES,
    maxResponseBytes: env.MAX_RESPONSE_BYTES,
    retentionDays: env.RETENTION_DAYS ?? null,
    webhooksAllowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
  };
}
