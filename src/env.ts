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
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)\S*@/gi, '$1***@')
    .replace(/([?&](?:ssl)?password=)[^&\s]*/gi, '$1***');
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

/** A whole number written in digits (no sign, exponent or hex) from `min` to `max`. */
function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z.string().trim().regex(/^\d+$/).transform(Number).pipe(z.number().min(min).max(max));
}

const envSchema = z.object({
  PORT: integer(0, 65535).default(4000).describe('a port number from 0 to 65535'),
  HOST: z
    .string()
    .min(1)
    .default('0.0.0.0')
    .describe('an interface address such as 0.0.0.0 or 127.0.0.1'),
  DATABASE_URL: z
    .string()
    .refine((url) => databaseUrlProblem(url) === null)
    .default('file:./data/threadstore.db')
    .describe(DATABASE_URL_FORMS),
  DB_POOL_SIZE: integer(1, 1000)
    .default(10)
    .describe('PostgreSQL connections per instance, 1 to 1000'),
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
  MAX_QUERY_DEPTH: integer(1).default(16).describe('a whole number above 0'),
  MAX_QUERY_ALIASES: integer(1).default(30).describe('a whole number above 0'),
  MAX_QUERY_TOKENS: integer(1).default(5000).describe('a whole number above 0'),
  MAX_QUERY_COST: integer(1).default(1_000_000).describe('a whole number above 0'),
  IDEMPOTENCY_KEY_TTL_HOURS: integer(24).default(24).describe('a number of hours, at least 24'),
  MAX_PAGE_SIZE: integer(1).default(500).describe('a whole number above 0'),
});

/** Validated configuration; see the README's configuration table. */
export type Env = z.infer<typeof envSchema>;

type Setting = keyof typeof envSchema.shape;

/** One line for a bad setting: its (redacted) value, what it must be, and its default. */
function describeProblem(setting: Setting, value: string | undefined): string {
  const expected = envSchema.shape[setting].description ?? 'a valid value';
  const defaults = envSchema.parse({}) as Record<string, unknown>;
  const fallback =
    defaults[setting] === undefined ? '' : `, or unset it for the default ${defaults[setting]}`;
  return `Configuration error: ${setting}="${redact(value ?? '')}" is not valid: set it to ${expected}${fallback}.`;
}

/**
 * Parses configuration from a record of environment variables.
 * @throws ConfigError with one line per invalid variable (naming it, its value with any
 *   password hidden, and what it must be)
 */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const settings = [...new Set(result.error.issues.map((i) => String(i.path[0]) as Setting))];
  const lines = settings.map((setting) => describeProblem(setting, source[setting]));
  throw new ConfigError(settings.join(', '), lines.join('\n'));
}
