/**
 * What a service call needs: the database, the tenant it acts for, the event bus and limits.
 * The GraphQL context is built from it per request (src/app.ts).
 */
import type { Database } from './db/client.js';
import type { EventBus } from './pubsub.js';

/** Configured limits (see env.ts). Sizes in bytes. */
export interface Limits {
  maxItemBytes: number;
  maxAppendItems: number;
  maxPageSize: number;
}

/** Dependencies of every service function. `tenantId` scopes every read and write. */
export interface ServiceContext {
  db: Database;
  tenantId: string;
  events: EventBus;
  limits: Limits;
}
