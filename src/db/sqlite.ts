/**
 * The SQLite connection as the services need it. Prisma's better-sqlite3 adapter runs every
 * request on one connection and serialises only transactions: a statement sent outside a
 * transaction (a createThread insert, a read) while another request's transaction is open ran
 * inside that transaction, so it read uncommitted rows, and a rollback of the other request
 * undid a write that had already been acknowledged. Here every statement outside a transaction
 * waits for the open transaction to end, as on PostgreSQL, where each has its own connection.
 *
 * Transactions begin IMMEDIATE: they take SQLite's write lock at BEGIN (waiting for another
 * process's writer up to the busy timeout) instead of at their first write, so a transaction
 * that reads before it writes (a purge) cannot fail with SQLITE_BUSY_SNAPSHOT when another
 * process (a second server, the importer) commits in between. Every transaction the services
 * open writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type Transaction,
} from '@prisma/driver-adapter-utils';

/**
 * What waits for the connection: a statement outside transactions, a transaction, or a
 * transaction that runs alone (never joins a group nor takes others into its own).
 */
type TurnKind = 'statement' | 'transaction' | 'alone';

/**
 * Transactions started inside `alone.run(true, ...)` run without group commit: long ones (an
 * import, a restore) would otherwise hold back the answers of the short ones grouped with
 * them until they end (src/db/transaction.ts marks transactions given a longer timeout).
 */
export const alone = new AsyncLocalStorage<boolean>();

/** Runs one thing at a time, in arrival order; says what waits next (for group commit). */
class Turns {
  #busy = false;
  #queue: { kind: TurnKind; grant: () => void }[] = [];

  /** Waits for the turn; the holder must call release() once. */
  acquire(kind: TurnKind): Promise<void> {
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve();
    }
    return new Promise((grant) => {
      this.#queue.push({ kind, grant });
    });
  }

  /** Ends the holder's turn: the next in line gets it. */
  release(): void {
    const next = this.#queue.shift();
    if (next) next.grant();
    else this.#busy = false;
  }

  /** True when the next in line is a transaction. */
  nextIsTransaction(): boolean {
    return this.#queue[0]?.kind === 'transaction';
  }

  /** Runs `work` in its own turn, as a statement. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire('statement');
    try {
      return await work();
    } finally {
      this.release();
    }
  }
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/**
 * Most transactions one SQLite transaction groups (see serialised()): bounds how long the
 * write lock is held for other processes and how long the first member waits for its commit.
 */
const MAX_GROUP = 32;
/**
 * A group takes new members only this long (ms) after its first began: a member's answer
 * waits for the group's COMMIT, so later members must not hold it back for long.
 */
const GROUP_WINDOW_MS = 10;

/** Transactions sharing one BEGIN IMMEDIATE..COMMIT; `waiting` settle when it ends. */
interface Group {
  members: number;
  /** performance.now() when the group's first member began. */
  startedAt: number;
  /** A transaction that runs alone (see `alone`): it takes no other member. */
  solo: boolean;
  waiting: { resolve: () => void; reject: (error: unknown) => void }[];
  /** The last error a member's statement raised: what to report if SQLite aborted the group. */
  lastError?: unknown;
}

/** The part of a better-sqlite3 statement the adapter uses (adapter-better-sqlite3 7.10). */
interface DriverStatement {
  readonly reader: boolean;
  bind(args: unknown[]): DriverStatement;
  run(args?: unknown[]): unknown;
  columns(): unknown[];
  raw(on?: boolean): { all(args?: unknown[]): unknown[] };
}

/** A better-sqlite3 Database as far as prepare goes. */
interface DriverClient {
  prepare(sql: string): DriverStatement;
  /** True while a transaction is open (false after SQLite rolled one back by itself). */
  readonly inTransaction: boolean;
}

/** Statements kept per connection: the app's SQL texts (multi-row INSERTs vary by row count). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Makes `client.prepare` reuse statements by SQL text. The adapter prepares every statement
 * anew (`client.prepare(sql).bind(args)`), which CPU profiles of appends (bench S1, S2) showed
 * at 4-6% of the busy time; a prepared statement is reused here with its arguments passed at
 * run time instead of bound to it (better-sqlite3 allows binding a statement only once).
 * Kept in insertion order, the oldest dropped past STATEMENT_CACHE_SIZE.
 *
 * A bound statement runs before it reports its columns(): after another connection changed the
 * schema (a migration run by another process), a statement prepared on this connection's stale
 * copy of it, cached or new, names the old columns until SQLite re-prepares it as it runs, and
 * the adapter reads columns() first, so a SELECT * would put the new row's values under the old
 * names (test/sqlite-schema-change.test.ts).
 */
function cachePreparedStatements(client: DriverClient): void {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, DriverStatement>();
  client.prepare = (sql: string): DriverStatement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = prepare(sql);
      cache.set(sql, stmt);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    const cached = stmt;
    const bound = (args: unknown[]): DriverStatement => {
      let rows: unknown[] | undefined;
      const all = () => {
        rows ??= cached.raw(true).all(args);
        return rows;
      };
      return {
        reader: cached.reader,
        bind: () => {
          throw new TypeError('The statement already has bound parameters');
        },
        run: () => cached.run(args),
        columns: () => {
          all();
          return cached.columns();
        },
        raw: () => ({ all }),
      };
    };
    return {
      reader: cached.reader,
      bind: bound,
      run: (args) => cached.run(args ?? []),
      columns: () => cached.columns(),
      raw: () => ({ all: (args) => cached.raw(true).all(args ?? []) }),
    };
  };
}

/**
 * `inner` with statements outside transactions taking turns with transactions (see the module
 * comment), and group commit: a transaction that ends while another waits for the connection
 * hands it over without committing, and the waiting one runs in the same SQLite transaction
 * under a savepoint (rolled back alone if it fails); the group commits once, when no other
 * transaction waits or MAX_GROUP ran. A member's COMMIT resolves only after that commit, so
 * nothing is acknowledged (or published) before it is durable, and with synchronous=FULL
 * concurrent writers share one fsync instead of queuing for one each. Statements outside
 * transactions never join a group: one waiting ends it, so they read only committed rows.
 * A lone transaction runs as before (BEGIN IMMEDIATE .. COMMIT, no savepoint).
 */
function serialised(inner: SqlDriverAdapter): SqlDriverAdapter {
  const turns = new Turns();
  // The adapter keeps its better-sqlite3 Database as `client` (adapter-better-sqlite3 7.10).
  const client = (inner as unknown as { client?: DriverClient }).client;
  const driver = client && typeof client.prepare === 'function' ? client : null;
  if (driver) cachePreparedStatements(driver);
  // Without the driver we cannot tell whether SQLite aborted a transaction: no groups.
  const maxGroup = driver ? MAX_GROUP : 1;
  let group: Group | null = null;

  /** Commits the group (or fails it when SQLite already rolled it back); ends the turn. */
  async function finishGroup(g: Group): Promise<void> {
    group = null;
    try {
      if (driver && !driver.inTransaction) throw g.lastError ?? abortedError();
      await inner.executeRaw(statement('COMMIT'));
      for (const w of g.waiting) w.resolve();
    } catch (error) {
      for (const w of g.waiting) w.reject(error);
      if (driver?.inTransaction) await inner.executeRaw(statement('ROLLBACK')).catch(() => {});
    } finally {
      turns.release();
    }
  }

  /** After a member ended: hand the open transaction to a waiting one, or commit. */
  async function memberEnded(g: Group): Promise<void> {
    const young = !g.solo && performance.now() - g.startedAt < GROUP_WINDOW_MS;
    if (young && g.members < maxGroup && turns.nextIsTransaction() && driver?.inTransaction) {
      turns.release();
      return;
    }
    await finishGroup(g);
  }

  /** Undoes a member's writes (when SQLite aborted the whole transaction, finishGroup says so). */
  async function rollbackTo(savepoint: string): Promise<void> {
    if (driver && !driver.inTransaction) return;
    await inner.executeRaw(statement(`ROLLBACK TO ${savepoint}`));
    await inner.executeRaw(statement(`RELEASE ${savepoint}`));
  }

  /** A member of group `g`: its statements go straight to the connection (it holds the turn). */
  function member(g: Group, savepoint: string | null): Transaction {
    let ended = false;
    const commit = async (): Promise<number> => {
      if (ended) return 0;
      ended = true;
      if (savepoint) {
        try {
          await inner.executeRaw(statement(`RELEASE ${savepoint}`));
        } catch (error) {
          await rollbackTo(savepoint).catch(() => {});
          await memberEnded(g);
          throw error;
        }
      }
      const committed = new Promise<void>((resolve, reject) => {
        g.waiting.push({ resolve, reject });
      });
      await memberEnded(g);
      await committed;
      return 0;
    };
    const rollback = async (): Promise<number> => {
      if (ended) return 0;
      ended = true;
      if (!savepoint) {
        // The first member: no other member's writes are in the transaction yet.
        group = null;
        try {
          if (!driver || driver.inTransaction) await inner.executeRaw(statement('ROLLBACK'));
        } finally {
          turns.release();
        }
        return 0;
      }
      try {
        await rollbackTo(savepoint);
      } finally {
        await memberEnded(g);
      }
      return 0;
    };
    return {
      provider: inner.provider,
      adapterName: inner.adapterName,
      options: { usePhantomQuery: false },
      queryRaw: (query) => noting(g, inner.queryRaw(query)),
      // Prisma ends a transaction by sending COMMIT or ROLLBACK here, then calling commit()
      // or rollback() (@prisma/client 7.10, its TransactionManager).
      executeRaw: (query) => {
        if (query.sql === 'COMMIT') return commit();
        if (query.sql === 'ROLLBACK') return rollback();
        return noting(g, inner.executeRaw(query));
      },
      // Reached without an ended member only when COMMIT failed: undo the member.
      commit: async () => {
        await rollback();
      },
      rollback: async () => {
        await rollback();
      },
      createSavepoint: async (name) => {
        await inner.executeRaw(statement(`SAVEPOINT ${name}`));
      },
      rollbackToSavepoint: async (name) => {
        await inner.executeRaw(statement(`ROLLBACK TO ${name}`));
      },
      releaseSavepoint: async (name) => {
        await inner.executeRaw(statement(`RELEASE SAVEPOINT ${name}`));
      },
    };
  }

  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => turns.run(() => inner.queryRaw(query)),
    executeRaw: (query) => turns.run(() => inner.executeRaw(query)),
    executeScript: (script) => turns.run(() => inner.executeScript(script)),
    async startTransaction(isolationLevel?: IsolationLevel) {
      // SQLite transactions are serializable; the adapter refuses any other level the same way.
      if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
        return inner.startTransaction(isolationLevel);
      }
      const solo = alone.getStore() === true;
      await turns.acquire(solo ? 'alone' : 'transaction');
      const joined = group;
      if (joined) {
        // Handed over by a member that ended: run under a savepoint of the open transaction.
        const savepoint = `threadstore_group_${joined.members}`;
        try {
          await inner.executeRaw(statement(`SAVEPOINT ${savepoint}`));
        } catch (error) {
          await finishGroup(joined);
          throw error;
        }
        joined.members += 1;
        return member(joined, savepoint);
      }
      try {
        await inner.executeRaw(statement('BEGIN IMMEDIATE'));
      } catch (error) {
        turns.release();
        throw error;
      }
      const started: Group = { members: 1, solo, startedAt: performance.now(), waiting: [] };
      group = started;
      return member(started, null);
    },
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => turns.run(() => inner.dispose()),
  };
}

/** `result`, keeping its error as the group's last one. */
function noting<T>(g: Group, result: Promise<T>): Promise<T> {
  return result.catch((error: unknown) => {
    g.lastError = error;
    throw error;
  });
}

/** The error of writes whose group SQLite rolled back (an I/O error, a full disk, ...). */
function abortedError(): DriverAdapterError {
  return new DriverAdapterError({
    kind: 'sqlite',
    extendedCode: 1,
    message: 'the transaction was rolled back by the database before it could commit',
  });
}

/**
 * The adapter factory for the services' client: `factory`'s connection, serialised (see the
 * module comment). Migrations use the factory as it is.
 */
export function serialisedSqlite(
  factory: SqlMigrationAwareDriverAdapterFactory,
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => serialised(await factory.connect()),
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
