/**
 * The one place that recognises a failed dependency (contract: UNAVAILABLE): the database
 * unreachable or its connection lost, a statement timeout, a full or read-only disk, a locked
 * SQLite file, an overloaded server, Redis unreachable. Shapes come from the real errors
 * (Prisma 7 with driver adapters): a PrismaClientKnownRequestError whose `code` is a Prisma
 * code (P1001, ...) and whose `meta.driverAdapterError.cause` holds the driver's code
 * (`originalCode`: a PostgreSQL SQLSTATE or a SQLite result code name); node-postgres errors
 * that Prisma passes through unwrapped ("Connection terminated unexpectedly"); ioredis errors.
 * Everything else is not a dependency failure (a bug: INTERNAL_SERVER_ERROR).
 */
import { UnavailableError } from '../errors.js';

/** What failed, as `extensions.reason` of an UNAVAILABLE error. */
export type FailureKind =
  | 'database-connection'
  | 'database-overloaded'
  | 'statement-timeout'
  | 'database-locked'
  | 'disk-full'
  | 'read-only'
  | 'disk-io'
  | 'redis';

/** A recognised dependency failure: its kind and the driver's code (for the log). */
export interface DependencyFailure {
  kind: FailureKind;
  /** SQLSTATE, SQLite code, Prisma code, socket code, or the error's name. */
  code: string;
}

/** What failed, in words (the first part of the message a client sees). */
const WHAT_FAILED: Record<FailureKind, string> = {
  'database-connection': 'The database could not be reached or its connection was lost',
  'database-overloaded':
    'The database is overloaded (no connection free in time, too many connections or out of memory)',
  'statement-timeout':
    'A database statement was cancelled: it took longer than DB_STATEMENT_TIMEOUT_MS or was cancelled by the server',
  'database-locked':
    'The SQLite database file stayed locked by another process for longer than 10 s',
  'disk-full': 'The disk is full: the database cannot write',
  'read-only': 'The database is read-only: it cannot write',
  'disk-io': 'The database could not read or write its file (disk I/O error)',
  redis: 'Redis could not be reached',
};

const OUTCOME_UNKNOWN =
  'the outcome of this operation is unknown; retry it (a mutation retried with the same idempotencyKey returns its first result if it was written).';

/** The UNAVAILABLE error a client sees for `failure`: what failed, outcome unknown, retry. */
export function unavailableError(failure: DependencyFailure): UnavailableError {
  return new UnavailableError(`${WHAT_FAILED[failure.kind]}: ${OUTCOME_UNKNOWN}`, {
    reason: failure.kind,
  });
}

// PostgreSQL SQLSTATEs (appendix A of its manual) that mean the server, not the request, failed.
function postgresKind(sqlstate: string): FailureKind | null {
  if (sqlstate.startsWith('08')) return 'database-connection'; // connection exception
  if (/^57P0[1-3]$/.test(sqlstate)) return 'database-connection'; // shutdown, crash, starting
  if (sqlstate === '57014') return 'statement-timeout'; // query_canceled (statement_timeout)
  if (sqlstate === '53100') return 'disk-full';
  if (sqlstate.startsWith('53')) return 'database-overloaded'; // memory, connections, limits
  if (sqlstate === '25006') return 'read-only'; // read_only_sql_transaction (also a standby)
  if (sqlstate.startsWith('58')) return 'disk-io'; // system error, io_error
  return null;
}

// SQLite result code names (https://sqlite.org/rescode.html), extended ones included.
function sqliteKind(code: string): FailureKind | null {
  if (code === 'SQLITE_FULL') return 'disk-full';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'database-locked';
  if (/^SQLITE_(IOERR|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/.test(code)) return 'disk-io';
  return null;
}

// Prisma's own codes: P1001 cannot reach, P1002 timed out reaching, P1008 operation timed out,
// P1017 server closed the connection, P2024 no pool connection in time, P2028 a transaction
// that could not start or finish in time.
const PRISMA_KINDS: Record<string, FailureKind> = {
  P1001: 'database-connection',
  P1002: 'database-connection',
  P1008: 'statement-timeout',
  P1017: 'database-connection',
  P2024: 'database-overloaded',
  P2028: 'statement-timeout',
};

// The driver adapters' error kinds without a driver code (socket errors, TooManyConnections).
const ADAPTER_KINDS: Record<string, FailureKind> = {
  DatabaseNotReachable: 'database-connection',
  ConnectionClosed: 'database-connection',
  SocketTimeout: 'database-connection',
  TooManyConnections: 'database-overloaded',
};

const SOCKET_CODES =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;

// node-postgres and pg-pool messages for a lost connection (Errors without a code).
const PG_CONNECTION_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

// ioredis: a closed connection, no offline queue, retries used up.
const REDIS_MESSAGES =
  /^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false|Reached the max retries per request limit)/;

type ErrorLike = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

/** The kind of one error object, without looking at its causes. */
function ownKind(e: ErrorLike): DependencyFailure | null {
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : '';
  const original = (e as { originalCode?: unknown }).originalCode;
  if (typeof original === 'string') {
    const kind = sqliteKind(original) ?? postgresKind(original);
    if (kind) return { kind, code: original };
  }
  const adapterKind = (e as { kind?: unknown }).kind;
  if (typeof adapterKind === 'string') {
    if (adapterKind === 'postgres' && code) {
      const kind = postgresKind(code);
      return kind ? { kind, code } : null;
    }
    const kind = ADAPTER_KINDS[adapterKind];
    if (kind) return { kind, code: adapterKind };
  }
  if (code) {
    if (PRISMA_KINDS[code]) return { kind: PRISMA_KINDS[code], code };
    if (SOCKET_CODES.test(code)) return { kind: 'database-connection', code };
    if (code === 'ENOSPC') return { kind: 'disk-full', code };
    if (code === 'EROFS') return { kind: 'read-only', code };
    const kind = sqliteKind(code);
    if (kind) return { kind, code };
  }
  if (e.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGES.test(message)) {
    return { kind: 'redis', code: typeof e.name === 'string' ? e.name : 'redis' };
  }
  if (PG_CONNECTION_MESSAGES.test(message)) {
    return { kind: 'database-connection', code: 'connection-lost' };
  }
  return null;
}

/**
 * The dependency failure `error` stands for, or null when it is something else. Looks at the
 * error, its driver adapter error and their causes, most specific first (a P2010 raw query
 * error is known by the SQLSTATE inside it).
 */
export function dependencyFailure(error: unknown): DependencyFailure | null {
  const chain: ErrorLike[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length && chain.length < 8) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const like = e as ErrorLike;
    chain.push(like);
    queue.push(like.meta?.driverAdapterError, like.cause);
  }
  // The innermost recognised cause is the most specific (a SQLSTATE over "P2010").
  for (const e of chain.reverse()) {
    const failure = ownKind(e);
    if (failure) return failure;
  }
  return null;
}
