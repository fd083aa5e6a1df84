/**
 * Raw statements of the client (not of a transaction) sent straight to Prisma's driver
 * adapter, the one Prisma itself holds: the same connection (SQLite: the same turns with
 * transactions, src/db/sqlite.ts; PostgreSQL: the same pool), the same parameter and result
 * conversions as `$queryRaw`, without the client's per-call query compilation and JSON
 * round trip. Measured on SQLite: `$queryRaw` of a one-row SELECT costs about 340 µs of CPU,
 * the adapter's queryRaw 70 µs; a 50-row page 540 against 130 µs. Statements of a transaction
 * client, and of clients opened without registerDirect, go through `$queryRaw` as before.
 */
import {
  type ArgType,
  type ColumnType,
  ColumnTypeEnum,
  isDriverAdapterError,
  type SqlDriverAdapter,
  type SqlQuery,
  type SqlQueryable,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { Prisma } from '../generated/prisma/client.js';
import type { Executor } from './transaction.js';

/** What a registered client sends its raw statements through. */
interface Direct {
  /** The adapter Prisma connected last (null before it connected), or a raw transaction. */
  adapter: () => SqlQueryable | null;
  /** PostgreSQL takes `$1` placeholders (Sql.text), SQLite `?` (Sql.sql). */
  numbered: boolean;
  /** Counts the statement as the client's query event would (Database.statements). */
  count(sql: string): void;
}

const directs = new WeakMap<object, Direct>();

/**
 * Lets `queryRows(client, ...)` use `adapter`, the connected adapter `client` was built on.
 * `count` is called with each statement's text (what Prisma's query event would carry).
 */
export function registerDirect(client: object, direct: Direct): void {
  directs.set(client, direct);
}

/** A value of a raw result as `$queryRaw` returns it (Prisma 7.10's serializeRawValue, then deserializeRawResult). */
function resultValue(value: unknown, type: ColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case ColumnTypeEnum.Int32:
      return Math.trunc(Number(value));
    case ColumnTypeEnum.Int64:
      return typeof value === 'number' ? BigInt(Math.trunc(value)) : BigInt(value as string);
    case ColumnTypeEnum.Json:
      return typeof value === 'string' ? JSON.parse(value) : value;
    case ColumnTypeEnum.Boolean:
      if (typeof value === 'string') return value === 'true' || value === '1';
      if (typeof value === 'number') return value === 1;
      return value;
    case ColumnTypeEnum.Numeric:
      return new Prisma.Decimal(value as string);
    case ColumnTypeEnum.Date:
    case ColumnTypeEnum.DateTime:
      return new Date(value as string);
    case ColumnTypeEnum.Time:
      return new Date(`1970-01-01T${value}Z`);
    case ColumnTypeEnum.Bytes:
      return new Uint8Array(
        typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.from(value as Uint8Array),
      );
    case ColumnTypeEnum.Int32Array:
    case ColumnTypeEnum.Int64Array:
    case ColumnTypeEnum.JsonArray:
    case ColumnTypeEnum.BooleanArray:
    case ColumnTypeEnum.NumericArray:
    case ColumnTypeEnum.DateArray:
    case ColumnTypeEnum.DateTimeArray:
    case ColumnTypeEnum.TimeArray:
    case ColumnTypeEnum.BytesArray:
      // Array types are scalar types + 64 (driver-adapter-utils' ColumnTypeEnum).
      return (value as unknown[]).map((v) => resultValue(v, (type - 64) as ColumnType));
    default:
      return value;
  }
}

/**
 * A parameter and its type as `$queryRaw` hands them to the adapter (serializeRawParameters,
 * then deserializeRawParameters). Strings and numbers, nearly every parameter, are tested
 * first: an append binds about 15 per item (bench S2: this function and its caller were 5% of
 * a 100-item append's CPU when every value went through the object tests).
 */
function argument(value: unknown): { arg: unknown; type: ArgType['scalarType'] } {
  if (typeof value === 'string') return { arg: value, type: 'string' };
  if (typeof value === 'number') {
    // Prisma serialises parameters as JSON, where NaN and Infinity become null.
    return Number.isFinite(value)
      ? { arg: value, type: 'decimal' }
      : { arg: null, type: 'unknown' };
  }
  if (value === undefined || value === null) return { arg: null, type: 'unknown' };
  if (typeof value === 'bigint') return { arg: value.toString(), type: 'bigint' };
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('Provided Date object is invalid');
    return { arg: value.toJSON(), type: 'datetime' };
  }
  if (Prisma.Decimal.isDecimal(value)) return { arg: value.toJSON(), type: 'decimal' };
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    const bytes = ArrayBuffer.isView(value)
      ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
      : Buffer.from(value as ArrayBuffer);
    return { arg: bytes.toString('base64'), type: 'bytes' };
  }
  if (typeof value === 'object') return { arg: JSON.stringify(value), type: 'unknown' };
  return { arg: value, type: 'unknown' };
}

/** One ArgType per scalar type and arity, shared by every query (the adapters only read them). */
const sharedArgTypes = { scalar: new Map<string, ArgType>(), list: new Map<string, ArgType>() };

/** The shared ArgType of `scalarType` and `arity`. */
function argType(scalarType: ArgType['scalarType'], arity: 'scalar' | 'list'): ArgType {
  const byType = sharedArgTypes[arity];
  let type = byType.get(scalarType);
  if (!type) {
    type = Object.freeze({ scalarType, arity }) as ArgType;
    byType.set(scalarType, type);
  }
  return type;
}

/**
 * A driver adapter's error as `$queryRaw` throws it: a PrismaClientKnownRequestError P2010 with
 * the adapter's error in `meta.driverAdapterError` (Prisma 7.10's rethrowAsUserFacingRawError),
 * which src/db/errors.ts and src/db/unavailable.ts read. Other errors pass unchanged.
 */
function asPrismaError(error: unknown): never {
  if (!isDriverAdapterError(error)) throw error;
  const cause = error.cause as { originalCode?: string; originalMessage?: string };
  const message = cause.originalMessage ?? error.message ?? 'N/A';
  throw new Prisma.PrismaClientKnownRequestError(
    `Raw query failed. Code: \`${cause.originalCode ?? 'N/A'}\`. Message: \`${message}\``,
    {
      code: 'P2010',
      clientVersion: Prisma.prismaVersion.client,
      meta: { driverAdapterError: error },
    },
  );
}

/** The adapter query for `sql`: its text in the provider's placeholder style, args and types. */
function adapterQuery(sql: Prisma.Sql, numbered: boolean): SqlQuery {
  const values = sql.values;
  const args: unknown[] = new Array(values.length);
  const types: ArgType[] = new Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (Array.isArray(value)) {
      const items = value.map(argument);
      args[i] = items.map((item) => item.arg);
      types[i] = argType(items[0]?.type ?? 'unknown', 'list');
    } else {
      const { arg, type } = argument(value);
      args[i] = arg;
      types[i] = argType(type, 'scalar');
    }
  }
  return { sql: numbered ? sql.text : sql.sql, args, argTypes: types } as SqlQuery;
}

/**
 * `sql` ready for `db`'s adapter, noted in the statement count as it is sent; null when `db`
 * is neither a registered client nor a raw transaction (its statements go through Prisma).
 */
function direct(db: Executor, sql: Prisma.Sql): { adapter: SqlQueryable; query: SqlQuery } | null {
  const target = directs.get(db);
  const adapter = target?.adapter();
  if (!target || !adapter) return null;
  const query = adapterQuery(sql, target.numbered);
  target.count(query.sql);
  return { adapter, query };
}

/**
 * The rows of `sql` as `db.$queryRaw(sql)` returns them (objects keyed by column name, values
 * converted the same way: Int64 as bigint, DateTime as Date, Json parsed). Through the adapter
 * when `db` is a registered client or a raw transaction; through `$queryRaw` when it is a
 * Prisma transaction.
 * @throws PrismaClientKnownRequestError P2010 with the driver's error in
 *   meta.driverAdapterError, as `$queryRaw` throws (src/db/errors.ts, src/db/unavailable.ts)
 */
export async function queryRows<T>(db: Executor, sql: Prisma.Sql): Promise<T[]> {
  const to = direct(db, sql);
  if (!to) return db.$queryRaw<T[]>(sql);
  const { columnNames, columnTypes, rows } = await to.adapter
    .queryRaw(to.query)
    .catch(asPrismaError);
  const out: T[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as unknown[];
    const object: Record<string, unknown> = {};
    for (let c = 0; c < columnNames.length; c++) {
      object[columnNames[c] as string] = resultValue(row[c], columnTypes[c] as ColumnType);
    }
    out[r] = object as T;
  }
  return out;
}

/**
 * Runs `sql` (an INSERT, UPDATE or DELETE) as `db.$executeRaw(sql)` does, by the same paths
 * as queryRows.
 * @returns the rows changed
 * @throws as queryRows
 */
export async function executeRows(db: Executor, sql: Prisma.Sql): Promise<number> {
  const to = direct(db, sql);
  if (!to) return db.$executeRaw(sql);
  return to.adapter.executeRaw(to.query).catch(asPrismaError);
}

/** Prisma's error for a transaction that could not start in time or ran past its timeout. */
function transactionTimeout(message: string): Prisma.PrismaClientKnownRequestError {
  return new Prisma.PrismaClientKnownRequestError(`Transaction API error: ${message}`, {
    code: 'P2028',
    clientVersion: Prisma.prismaVersion.client,
  });
}

const control = (sql: 'COMMIT' | 'ROLLBACK'): SqlQuery => ({ sql, args: [], argTypes: [] });

/**
 * Ends `tx` as Prisma 7.10's TransactionManager does: the statement (noted as its query event
 * would be), then the call.
 */
async function endTransaction(
  tx: Transaction,
  how: 'COMMIT' | 'ROLLBACK',
  count?: (sql: string) => void,
): Promise<void> {
  count?.(how);
  await tx.executeRaw(control(how));
  if (how === 'COMMIT') await tx.commit();
  else await tx.rollback();
}

/**
 * `work` in one transaction of `client`'s adapter, the way Prisma's `$transaction` runs one
 * (startTransaction, then COMMIT or ROLLBACK and commit() or rollback()), without Prisma's
 * engine round trips: on SQLite these ran while the transaction held the one connection, so
 * they bounded appends per second (bench S1). `work` may only use queryRows and executeRows on
 * the executor it is given: the Prisma client API is not there (it throws). Limits as
 * `$transaction`: P2028 when the transaction cannot start within `maxWaitMs`, and when it runs
 * past `timeoutMs` (it is rolled back; later statements fail).
 * @returns null when `client` has no connected adapter (the caller uses `$transaction`)
 * @throws whatever `work` throws (rolled back), or the COMMIT's error
 */
export async function rawTransaction<T>(
  client: object,
  work: (tx: Executor) => Promise<T>,
  limits: { maxWaitMs: number; timeoutMs: number },
): Promise<{ result: T } | null> {
  const direct = directs.get(client);
  const adapter = direct?.adapter() as SqlDriverAdapter | null | undefined;
  if (!direct || !adapter || typeof adapter.startTransaction !== 'function') return null;
  const tx = await startWithin(adapter, limits.maxWaitMs);
  let open = true;
  // The executor: no Prisma API, only a key for queryRows and executeRows.
  const executor = new Proxy(Object.create(null) as Executor, {
    get(_target, property) {
      throw new TypeError(
        `A raw transaction has no Prisma client API (${String(property)}): use queryRows or executeRows.`,
      );
    },
  });
  directs.set(executor, {
    numbered: direct.numbered,
    count: direct.count,
    adapter: () => {
      if (!open) throw transactionTimeout('Transaction already closed: it ran past its timeout.');
      return tx;
    },
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    open = false;
    endTransaction(tx, 'ROLLBACK').catch(() => {});
  }, limits.timeoutMs);
  try {
    const result = await work(executor);
    if (timedOut) throw transactionTimeout('Transaction already closed: it ran past its timeout.');
    open = false;
    clearTimeout(timer);
    await endTransaction(tx, 'COMMIT', direct.count);
    return { result };
  } catch (error) {
    clearTimeout(timer);
    if (open) {
      open = false;
      await endTransaction(tx, 'ROLLBACK', direct.count).catch(() => {});
    }
    throw error;
  }
}

/**
 * adapter.startTransaction(), or P2028 after `maxWaitMs`; a transaction granted after that is
 * rolled back at once, so the connection is not held by nobody.
 */
async function startWithin(adapter: SqlDriverAdapter, maxWaitMs: number): Promise<Transaction> {
  const starting = adapter.startTransaction();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      starting.then((late) => endTransaction(late, 'ROLLBACK')).catch(() => {});
      reject(
        transactionTimeout(`Unable to start a transaction in the given time (${maxWaitMs} ms).`),
      );
    }, maxWaitMs);
  });
  try {
    return await Promise.race([starting.catch(asPrismaError), expired]);
  } finally {
    clearTimeout(timer);
  }
}
