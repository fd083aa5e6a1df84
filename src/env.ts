/**
 * The only reader of process.env. Parses and validates the configuration with zod and fails
 * fast with one line per bad setting that names it and says what to do. Also home of the
 * error for start-up failures a person fixes in the configuration (ConfigError), and of the
 * one helper that hides passwords before a URL is shown (redact).
 */
import { z } from 'zod';

/**
 * A start-up failure caused by a setting (a bad value, a database or Redis that cannot be
 * reached, a port in use). Its message is one line that names the setting and what to do;
 * entry points print it alone, without a stack.
 */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(redact(message));
    this.name = 'ConfigError';
  }
}

/**
 * `text` with every password hidden: the password of `scheme://user:password@host` URLs and
 * `password=` query parameters become `***`. Use it wherever a URL, or a message that may hold
 * one, is shown or logged.
 */
export function redact(text: string): string {
  return (
    text
      // Also URLs with slashes missing (postgres:/user:pw@..., redis::pw@...): typos are where
      // a password is most likely to be echoed back in an error.
      .replace(/([a-z][a-z0-9+.-]*:\/{0,2}[^:/?#@\s"]*:)[^\s"]*@/gi, '$1***@')
      .replace(/([?&](?:ssl)?password=)[^&\s]*/gi, '$1***')
  );
}

const DATABASE_URL_FORMS =
  'file:<path> (SQLite) or postgres://<user>@<host>:5432/<database> (PostgreSQL)';

/**
 * Why `url` is not a database URL threadstore opens (`file:<path>` for SQLite,
 * `postgres://` or `postgresql://` for PostgreSQL), or null when it is one.
 */
export function databaseUrlProblem(url: string): string | null {
  if (/^file:./.test(url)) return null;
  if (/^postgres(ql)?:\/\//.test(url) && URL.canParse(url)) return null;
  return `expected ${DATABASE_URL_FORMS}`;
}

/** AUTH values (README, "Securing threadstore"). */
export const AUTH_MODES = ['required', 'optional', 'none'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** `true` or `false`. */
function boolean(fallback: boolean) {
  return z
    .enum(['true', 'false'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true')
    .describe('true or false');
}

/** True for a host name or address that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** A whole number written in digits (no sign, exponent or hex) from `min` to `max`. */
function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().min(min).max(max));
}

const envSchema = z.object({
  PORT: integer(0, 65535).default(4000).describe('a port number from 0 to 65535'),
  HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('an interface address such as 127.0.0.1 (this machine only) or 0.0.0.0 (all)'),
  AUTH: z
    .enum(AUTH_MODES)
    .optional()
    .describe(
      'required, optional (loopback HOST only) or none; unset it for required, or optional on a loopback HOST',
    ),
  AUTH_JWT_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe('a shared HS256 secret of at least 32 characters'),
  AUTH_JWKS_URL: z
    .string()
    .refine((url) => /^https?:\/\//.test(url) && URL.canParse(url))
    .optional()
    .describe('the https:// URL of a JWKS (RS256 or ES256 keys)'),
  AUTH_JWKS_FILE: z.string().min(1).optional().describe('the path of a JWKS file'),
  AUTH_JWT_ISSUER: z.string().min(1).optional().describe("the tokens' iss"),
  AUTH_JWT_AUDIENCE: z.string().min(1).optional().describe("the tokens' aud"),
  AUTH_TENANT_CLAIM: z.string().min(1).default('tenant').describe('a claim name'),
  AUTH_SCOPES_CLAIM: z.string().min(1).default('scope').describe('a claim name'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s,]+$/)))
    .describe('a comma-separated list of origins such as https://app.example.com (no path)'),
  GRAPHIQL: boolean(true),
  INTROSPECTION: boolean(true),
  /**
   * Queries and mutations compiled by graphql-jit (src/server/jit.ts). Off by default: no
   * measured gain on this tree, and its answers differ from graphql-js's in places.
   */
  GRAPHQL_JIT: boolean(false),
  RATE_LIMIT_RPS: integer(1).default(100).describe('requests per second per tenant, above 0'),
  RATE_LIMIT_BURST: integer(1).default(500).describe('a burst size per tenant, above 0'),
  WS_MAX_CONNECTIONS: integer(1).default(100).describe('WebSocket connections per identity'),
  WS_MAX_SUBSCRIPTIONS: integer(1).default(200).describe('subscriptions per WebSocket'),
  STREAM_AUTH_RECHECK_MS: integer(100)
    .default(30_000)
    .describe("ms between checks that a live stream's API key is not revoked, at least 100"),
  WS_INIT_TIMEOUT_MS: integer(100)
    .default(10_000)
    .describe('ms a WebSocket may wait before connection_init, at least 100'),
  DATABASE_URL: z
    .string()
    .refine((url) => databaseUrlProblem(url) === null)
    .default('file:./data/threadstore.db')
    .describe(DATABASE_URL_FORMS),
  DB_POOL_SIZE: integer(1, 1000)
    .default(10)
    .describe('PostgreSQL connections per instance, 1 to 1000'),
  DB_POOL_IDLE_TIMEOUT_MS: integer(0)
    .default(600_000)
    .describe('ms a PostgreSQL connection may stay unused before it is closed (0 = never)'),
  DB_STATEMENT_CACHE_SIZE: integer(0, 10_000)
    .default(100)
    .describe(
      'named prepared statements kept per PostgreSQL connection, 0 to 10000 (0 = none: for PgBouncer in transaction mode before 1.21)',
    ),
  DB_STATEMENT_TIMEOUT_MS: integer(0)
    .default(30_000)
    .describe('a PostgreSQL statement timeout in ms (0 = none)'),
  SQLITE_SYNCHRONOUS: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(['FULL', 'NORMAL']))
    .default('FULL')
    .describe(
      'FULL (a write is on disk when acknowledged) or NORMAL (faster; a power loss may lose the last writes)',
    ),
  REDIS_URL: z
    .string()
    .refine((url) => /^rediss?:\/\//.test(url) && URL.canParse(url))
    .optional()
    .describe(
      'redis://<host>:6379 (rediss:// for TLS), or unset it to run one instance without Redis',
    ),
  REDIS_DEGRADED_POLL_MS: integer(50, 60_000)
    .default(1_000)
    .describe(
      'while Redis is down, how often (ms, 50 to 60000) followers re-read the database for what other instances wrote',
    ),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('one of fatal, error, warn, info, debug, trace, silent'),
  LOG_FORMAT: z
    .enum(['json', 'pretty'])
    .default('json')
    .describe(
      'json (one JSON object a line) or pretty (for people; needs the pino-pretty package)',
    ),
  DEFAULT_TENANT: z.string().min(1).default('local').describe('a non-empty tenant id'),
  MAX_ITEM_BYTES: integer(1)
    .default(1024 * 1024)
    .describe('a size in bytes above 0'),
  MAX_BODY_BYTES: integer(1)
    .default(16 * 1024 * 1024)
    .describe('a size in bytes above 0'),
  MAX_APPEND_ITEMS: integer(1).default(500).describe('a whole number above 0'),
  FOLLOWER_BUFFER_EVENTS: integer(1).default(10_000).describe('a whole number above 0'),
  FOLLOWER_BUFFER_BYTES: integer(1)
    .default(16 * 1024 * 1024)
    .describe('a size in bytes above 0: the unread live items a follower may have waiting'),
  MAX_QUERY_DEPTH: integer(1).default(16).describe('a whole number above 0'),
  MAX_QUERY_ALIASES: integer(1).default(30).describe('a whole number above 0'),
  MAX_QUERY_TOKENS: integer(1).default(5000).describe('a whole number above 0'),
  // Measured (scripts/measure-cost.ts): the largest client operation, ThreadList at first: 500,
  // costs 14,001; 50,000 leaves room for it and refuses 30 aliases of items(first: 500).
  MAX_QUERY_COST: integer(1)
    .default(50_000)
    .describe(
      'a whole number above 0: the cost of an operation, each field once per row it can return',
    ),
  MAX_RESPONSE_BYTES: integer(1)
    .default(32 * 1024 * 1024)
    .describe('a size in bytes above 0: the largest JSON response (or subscription event)'),
  IDEMPOTENCY_KEY_TTL_HOURS: integer(24).default(24).describe('a number of hours, at least 24'),
  // At most 100 years: an expiry past year 9999 cannot be stored (and as text on SQLite it
  // would sort before today's dates, so the thread would read as expired at once).
  RETENTION_DAYS: integer(1, 36_500)
    .optional()
    .describe(
      'a number of days from 1 to 36500 after which new threads expire (unset: threads are kept until deleted)',
    ),
  EXPIRY_SWEEP_INTERVAL_MS: integer(10)
    .default(60_000)
    .describe('ms between sweeps that delete expired threads, at least 10'),
  MAX_PAGE_SIZE: integer(1).default(500).describe('a whole number above 0'),
  WEBHOOKS_ALLOW_PRIVATE: boolean(false).describe(
    'true or false: true lets webhooks deliver to loopback and private addresses (tests, one private network)',
  ),
  WEBHOOK_POLL_MS: integer(10)
    .default(1_000)
    .describe('ms between polls of the webhook outbox, at least 10 (commits here wake it at once)'),
  WEBHOOK_TIMEOUT_MS: integer(100)
    .default(10_000)
    .describe('ms a webhook receiver may take to answer a delivery, at least 100'),
  WEBHOOK_RETRY_BASE_MS: integer(1)
    .default(10_000)
    .describe('ms before the first retry of a failed delivery; doubles with each failure'),
  WEBHOOK_RETRY_MAX_MS: integer(1)
    .default(3_600_000)
    .describe('ms at most between two retries of a delivery'),
  WEBHOOK_RETRY_FOR_MS: integer(1)
    .default(86_400_000)
    .describe('ms after an event its failed deliveries are given up (24 hours by default)'),
  HEADERS_TIMEOUT_MS: integer(100)
    .default(10_000)
    .describe(
      'ms a client may take to send the request headers, at least 100 (capped at REQUEST_TIMEOUT_MS)',
    ),
  REQUEST_TIMEOUT_MS: integer(100)
    .default(30_000)
    .describe(
      'ms a client may take to send a whole request (headers and body), at least 100; responses and streams are not limited',
    ),
  SHUTDOWN_DELAY_MS: integer(0)
    .default(0)
    .describe('ms /readyz answers 503 before the listener closes (your health-check interval)'),
  SHUTDOWN_TIMEOUT_MS: integer(0)
    .default(10_000)
    .describe('ms requests in flight may take after SIGTERM before connections are cut'),
});

/** Validated configuration; see the README's configuration table. AUTH is resolved. */
export type Env = Omit<z.infer<typeof envSchema>, 'AUTH'> & { AUTH: AuthMode };

type Setting = keyof typeof envSchema.shape;

/** Settings whose values are secrets. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(['AUTH_JWT_SECRET']);

/** One line for a bad setting: its (redacted) value, what it must be, and its default. */
function describeProblem(setting: Setting, value: string | undefined): string {
  const expected = envSchema.shape[setting].description ?? 'a valid value';
  // A secret is never echoed, not even a wrong one: it may be a real secret mistyped.
  const shown = SECRET_SETTINGS.has(setting) ? '(hidden)' : `"${redact(value ?? '')}"`;
  const defaults = envSchema.parse({}) as Record<string, unknown>;
  const fallback =
    defaults[setting] === undefined ? '' : `, or unset it for the default ${defaults[setting]}`;
  return `Configuration error: ${setting}=${shown} is not valid: set it to ${expected}${fallback}.`;
}

/**
 * Parses configuration from a record of environment variables.
 * @throws ConfigError with one line per invalid variable (naming it, its value with any
 *   password hidden, and what it must be)
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return resolveAuth(result.data);
  const settings = [...new Set(result.error.issues.map((i) => String(i.path[0]) as Setting))];
  const lines = settings.map((setting) => describeProblem(setting, source[setting]));
  throw new ConfigError(settings.join(', '), lines.join('\n'));
}

/**
 * AUTH's default and its one forbidden combination (Redis' protected mode is the model):
 * unset means `optional` on a loopback HOST and `required` elsewhere; `optional` on a HOST that
 * other machines reach is refused.
 * @throws ConfigError naming AUTH and HOST
 */
function resolveAuth(env: z.infer<typeof envSchema>): Env {
  const loopback = isLoopbackHost(env.HOST);
  const mode = env.AUTH ?? (loopback ? 'optional' : 'required');
  if (mode === 'optional' && !loopback) {
    throw new ConfigError(
      'AUTH',
      `Configuration error: AUTH=optional serves requests without credentials and is allowed only on a loopback HOST, but HOST is ${env.HOST}: set AUTH=required (and create an API key or configure JWT), or HOST=127.0.0.1.`,
    );
  }
  if ([env.AUTH_JWT_SECRET, env.AUTH_JWKS_URL, env.AUTH_JWKS_FILE].filter(Boolean).length > 1) {
    throw new ConfigError(
      'AUTH_JWT_SECRET',
      'Configuration error: set only one of AUTH_JWT_SECRET (HS256), AUTH_JWKS_URL and AUTH_JWKS_FILE (RS256/ES256).',
    );
  }
  return { ...env, AUTH: mode };
}
