/**
 * The only reader of process.env. Parses and validates the configuration with zod and fails
 * fast with a message naming the variable.
 */
import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** `file:<path>` (SQLite, the default) or `postgres://` / `postgresql://`. */
  DATABASE_URL: z.string().min(1).default('file:./data/threadstore.db'),
  /** PostgreSQL connections per instance. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  /** PostgreSQL statement timeout in ms (0 = none). */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Redis for live events across instances (redis://host:port); unset = in-process. */
  REDIS_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Tenant used for every request until authentication exists. */
  DEFAULT_TENANT: z.string().min(1).default('local'),
  /** Largest JSON payload of one item, in bytes (PAYLOAD_TOO_LARGE above it). */
  MAX_ITEM_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  /** Largest request body, in bytes. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(16 * 1024 * 1024),
  /** Most items in one appendItems call. */
  MAX_APPEND_ITEMS: z.coerce.number().int().positive().default(500),
  /** Live events a follower may have waiting before its subscription ends (RATE_LIMITED). */
  FOLLOWER_BUFFER_EVENTS: z.coerce.number().int().positive().default(10_000),
  /** Query limits (graphql-armor): nesting depth, aliases, tokens, and estimated cost. */
  MAX_QUERY_DEPTH: z.coerce.number().int().positive().default(16),
  MAX_QUERY_ALIASES: z.coerce.number().int().positive().default(30),
  MAX_QUERY_TOKENS: z.coerce.number().int().positive().default(5000),
  MAX_QUERY_COST: z.coerce.number().int().positive().default(1_000_000),
  /** Hours an idempotency key is kept (at least 24, as the contract promises). */
  IDEMPOTENCY_KEY_TTL_HOURS: z.coerce.number().int().min(24).default(24),
  /** Largest page of a connection. */
  MAX_PAGE_SIZE: z.coerce.number().int().positive().default(500),
});

/** Validated configuration; see the README's configuration table. */
export type Env = z.infer<typeof envSchema>;

/**
 * Parses configuration from a record of environment variables.
 * @throws Error listing every invalid variable and why
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
