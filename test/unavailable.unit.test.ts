/**
 * The dependency-failure classifier (src/db/unavailable.ts) on the shapes real failures have
 * (captured from Prisma 7.10 with @prisma/adapter-pg and @prisma/adapter-better-sqlite3, and
 * from node-postgres and ioredis; test/faults*.test.ts produce them for real).
 */
import { describe, expect, it } from 'vitest';
import { dependencyFailure, unavailableError } from '../src/db/unavailable.js';
import { Prisma } from '../src/generated/prisma/client.js';

/** A Prisma known request error wrapping a driver adapter error with `cause`. */
function prismaError(code: string, cause: Record<string, unknown>) {
  const adapterError = Object.assign(new Error(String(cause.message ?? cause.kind)), {
    name: 'DriverAdapterError',
    cause,
  });
  return new Prisma.PrismaClientKnownRequestError('Invalid invocation', {
    code,
    clientVersion: '7.10.0',
    meta: { driverAdapterError: adapterError },
  });
}

const postgres = (sqlstate: string, message = 'x') =>
  prismaError('P2010', {
    originalCode: sqlstate,
    originalMessage: message,
    kind: 'postgres',
    code: sqlstate,
    severity: 'ERROR',
    message,
  });
const sqlite = (code: string) =>
  prismaError('P2039', { originalCode: code, kind: 'sqlite', extendedCode: 1, message: 'x' });

describe('dependencyFailure', () => {
  it.each([
    ['PostgreSQL 57014 statement timeout', postgres('57014'), 'statement-timeout'],
    [
      'PostgreSQL 57P01 admin shutdown (pg_terminate_backend)',
      postgres('57P01'),
      'database-connection',
    ],
    ['PostgreSQL 57P03 cannot connect now', postgres('57P03'), 'database-connection'],
    ['PostgreSQL 08006 connection failure', postgres('08006'), 'database-connection'],
    ['PostgreSQL 53100 disk full', postgres('53100'), 'disk-full'],
    ['PostgreSQL 53200 out of memory', postgres('53200'), 'database-overloaded'],
    ['PostgreSQL 25006 read-only transaction', postgres('25006'), 'read-only'],
    ['PostgreSQL 58030 I/O error', postgres('58030'), 'disk-io'],
    [
      'P1001 database not reachable',
      prismaError('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 1 }),
      'database-connection',
    ],
    [
      'TooManyConnections',
      prismaError('P2037', { originalCode: '53300', kind: 'TooManyConnections' }),
      'database-overloaded',
    ],
    ['SQLite SQLITE_FULL', sqlite('SQLITE_FULL'), 'disk-full'],
    ['SQLite SQLITE_IOERR_SHMSIZE (a full tmpfs)', sqlite('SQLITE_IOERR_SHMSIZE'), 'disk-io'],
    ['SQLite SQLITE_READONLY_DBMOVED', sqlite('SQLITE_READONLY_DBMOVED'), 'read-only'],
    [
      'SQLite SQLITE_BUSY (adapter kind SocketTimeout)',
      prismaError('P1008', { originalCode: 'SQLITE_BUSY', kind: 'SocketTimeout' }),
      'database-locked',
    ],
    [
      'node-postgres lost connection',
      new Error('Connection terminated unexpectedly'),
      'database-connection',
    ],
    [
      'node-postgres broken client',
      new Error('Client has encountered a connection error and is not queryable'),
      'database-connection',
    ],
    [
      'a socket error',
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      'database-connection',
    ],
    ['ioredis closed connection', new Error('Connection is closed.'), 'redis'],
    [
      'ioredis retries used up',
      Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
        name: 'MaxRetriesPerRequestError',
      }),
      'redis',
    ],
    [
      'P2028 transaction timeout',
      new Prisma.PrismaClientKnownRequestError('Transaction already closed', {
        code: 'P2028',
        clientVersion: '7.10.0',
      }),
      'statement-timeout',
    ],
  ])('%s → %s', (_, error, kind) => {
    expect(dependencyFailure(error)?.kind).toBe(kind);
  });

  it.each([
    ['a unique violation', postgres('23505')],
    ['a SQLite constraint', sqlite('SQLITE_CONSTRAINT_UNIQUE')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    [
      'P2025 record not found',
      new Prisma.PrismaClientKnownRequestError('x', { code: 'P2025', clientVersion: '7' }),
    ],
    ['not an error', 'boom'],
  ])('%s is not a dependency failure', (_, error) => {
    expect(dependencyFailure(error)).toBeNull();
  });

  it('says what failed and that the outcome is unknown', () => {
    const error = unavailableError({ kind: 'disk-full', code: 'SQLITE_FULL' });
    expect(error.code).toBe('UNAVAILABLE');
    expect(error.details).toEqual({ reason: 'disk-full' });
    expect(error.message).toBe(
      'The disk is full: the database cannot write: the outcome of this operation is unknown; retry it (a mutation retried with the same idempotencyKey returns its first result if it was written).',
    );
  });
});
