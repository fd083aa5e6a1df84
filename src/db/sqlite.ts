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
 *
 * Durability (SQLITE_SYNCHRONOUS=FULL, the default): the connection runs synchronous=NORMAL and
 * this module syncs the WAL file itself after every commit, in libuv's thread pool, before the
 * commit is acknowledged and before the connection runs anything else (WalSync). That is what
 * SQLite's FULL does in WAL mode ("an additional sync of the WAL file after each transaction
 * commit", sqlite.org/pragma.html#pragma_synchronous), without stopping the event loop for the
 * disk: better-sqlite3 runs a FULL commit's fsync on the main thread.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  DriverAdapterError,
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type Transaction,
} from '@prisma/driver-adapter-utils';

/** SQLite synchronous settings threadstore allows (env.ts, SQLITE_SYNCHRONOUS). */
export type SqliteSynchronous = 'FULL' | 'NORMAL';

/**
 * What waits for the connection: a statement outside transactions, a transaction, or a
 * transaction that runs alone (never joins a group nor takes others into its own).
 */
type TurnKind = 'statement' | 'transaction' | 'alone';

/**
 * Transactions started inside runAlone() run without group commit: long ones (an import, a
 * restore) would otherwise hold back the answers of the short ones grouped with them until
 * they end (src/db/transaction.ts marks transactions given a longer timeout).
 */
const aloneScope = new AsyncLocalStorage<true>();
/** runAlone() calls not yet settled: the scope is disabled when none is left. */
let aloneRunning = 0;

/**
 * Runs `work` so that the SQLite transactions it starts run alone (no group commit). The
 * async-context storage that carries this is enabled only while such work runs: on Node 20 an
 * enabled AsyncLocalStorage runs a hook on every promise of the process, measured at 17% of
 * the CPU of a live event's delivery to 1,000 followers (bench/README.md, round four).
 */
export async function runAlone<T>(work: () => Promise<T>): Promise<T> {
  aloneRunning += 1;
  try {
    return await aloneScope.run(true, work);
  } finally {
    aloneRunning -= 1;
    if (aloneRunning === 0) aloneScope.disable();
  }
}

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
  /** A transaction that runs alone (see runAlone): it takes no other member. */
  solo: boolean;
  waiting: { resolve: () => void; reject: (error: unknown) => void }[];
  /** The last error a member's statement raised: what to report if SQLite aborted the group. */
  lastError?: unknown;
}

/** The part of a better-sqlite3 statement the adapter uses (adapter-better-sqlite3 7.10). */
interface DriverStatement {
  readonly reader: boolean;
  /** False when the statement may change the database (sqlite3_stmt_readonly). */
  readonly readonly: boolean;
  bind(args: unknown[]): DriverStatement;
  run(args?: unknown[]): unknown;
  columns(): unknown[];
  raw(on?: boolean): { all(args?: unknown[]): unknown[] };
}

/** A better-sqlite3 Database as far as this module uses it. */
interface DriverClient {
  prepare(sql: string): DriverStatement;
  /** True while a transaction is open (false after SQLite rolled one back by itself). */
  readonly inTransaction: boolean;
  /** The database file's path as opened. */
  readonly name: string;
  /** True for an in-memory database (no file, no WAL). */
  readonly memory: boolean;
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
function cachePreparedStatements(client: DriverClient, wrote: () => void): void {
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
    // Writes outside transactions commit as they run: they are synced before their turn ends.
    const noteWrite = cached.readonly ? () => {} : wrote;
    const bound = (args: unknown[]): DriverStatement => {
      let rows: unknown[] | undefined;
      const all = () => {
        noteWrite();
        rows ??= cached.raw(true).all(args);
        return rows;
      };
      return {
        reader: cached.reader,
        readonly: cached.readonly,
        bind: () => {
          throw new TypeError('The statement already has bound parameters');
        },
        run: () => {
          noteWrite();
          return cached.run(args);
        },
        columns: () => {
          all();
          return cached.columns();
        },
        raw: () => ({ all }),
      };
    };
    return {
      reader: cached.reader,
      readonly: cached.readonly,
      bind: bound,
      run: (args) => {
        noteWrite();
        return cached.run(args ?? []);
      },
      columns: () => cached.columns(),
      raw: () => ({
        all: (args) => {
          noteWrite();
          return cached.raw(true).all(args ?? []);
        },
      }),
    };
  };
}

/** Node's callback fs call `start` as a promise (the callback API runs in libuv's pool). */
function fsCall<T = void>(start: (done: (error: Error | null, value?: T) => void) => void) {
  return new Promise<T>((resolve, reject) => {
    start((error, value) => (error ? reject(error) : resolve(value as T)));
  });
}

/** SQLite's extended result code for a failed fsync (sqlite.org/rescode.html): UNAVAILABLE. */
const SYNC_FAILED = { code: 'SQLITE_IOERR_FSYNC', rawCode: 1034 } as const;

/**
 * Syncs a database's WAL file to disk off the event loop: fdatasync, as SQLite's own FULL does
 * on Linux, in libuv's thread pool. The file is opened at the first sync (SQLite creates it
 * when the connection first uses the database) and its directory synced once, so that the
 * file's entry is durable too. SQLite keeps the file (it may truncate it, never replace it)
 * while a connection has the database open, and this connection stays open until dispose():
 * the descriptor always names the WAL its commits go to. Frames a checkpoint already copied
 * are in the database file, which a checkpoint syncs.
 *
 * A failed sync is final, as PostgreSQL's PANIC on a failed fsync: Linux may have dropped the
 * pages it could not write, and a later commit's frames follow them in the WAL, so a later
 * sync could not make those durable either. From then on `failure` refuses every write before
 * it runs (see serialised()); a restart opens the database anew.
 */
class WalSync {
  readonly #path: string;
  #fd: Promise<number> | null = null;
  #failure: Error | null = null;

  /** @param databasePath the database file as the driver opened it (it exists by now) */
  constructor(databasePath: string) {
    // SQLite puts the WAL next to the file a symlink points to, and resolves a relative path
    // against the working directory of this moment.
    let real = resolve(databasePath);
    try {
      real = fs.realpathSync(databasePath);
    } catch {
      // Not there (yet): the path as given.
    }
    this.#path = `${real}-wal`;
  }

  /** The error every write gets after a failed sync; null while syncs succeed. */
  get failure(): Error | null {
    return this.#failure;
  }

  /**
   * Resolves once every commit written so far is on disk.
   * @throws Error with code SQLITE_IOERR_FSYNC (cause: the fs error) when the file cannot be
   *   opened or synced, and after any earlier failure: the commit is visible but not known to
   *   be durable (UNAVAILABLE, outcome unknown: src/db/unavailable.ts)
   */
  async sync(): Promise<void> {
    if (this.#failure) throw this.#failure;
    this.#fd ??= this.#open();
    try {
      const fd = await this.#fd;
      await fsCall((done) => fs.fdatasync(fd, done));
    } catch (cause) {
      this.#failure = Object.assign(
        new Error(
          `The SQLite WAL ${this.#path} could not be synced to disk; writes are refused until threadstore restarts (check the disk first)`,
          { cause },
        ),
        SYNC_FAILED,
      );
      await this.close();
      throw this.#failure;
    }
  }

  async #open(): Promise<number> {
    const fd = await fsCall<number>((done) => fs.open(this.#path, 'r', done));
    try {
      const dir = await fsCall<number>((done) => fs.open(dirname(this.#path), 'r', done));
      try {
        await fsCall((done) => fs.fsync(dir, done));
      } finally {
        fs.close(dir, () => {});
      }
    } catch (error) {
      fs.close(fd, () => {});
      throw error;
    }
    return fd;
  }

  /** Closes the descriptor (after the connection closed, or a failed sync). */
  async close(): Promise<void> {
    const fd = this.#fd;
    this.#fd = null;
    if (fd) await fd.then((n) => fsCall((done) => fs.close(n, done))).catch(() => {});
  }
}

/**
 * Sets the connection's journal mode (WAL) and synchronous level, and says whether this module
 * syncs the WAL itself: for FULL on a database file when the driver is reachable, with the
 * connection at NORMAL (see the module comment). Otherwise SQLite's own level as asked.
 */
async function configureDurability(
  inner: SqlDriverAdapter,
  driver: DriverClient | null,
  synchronous: SqliteSynchronous,
): Promise<WalSync | null> {
  const pragma = (sql: string) => inner.queryRaw(statement(`PRAGMA ${sql}`));
  const mode = await pragma('journal_mode = WAL');
  const wal = String(mode.rows[0]?.[0]).toLowerCase() === 'wal';
  const own = synchronous === 'FULL' && wal && driver !== null && !driver.memory;
  await pragma(`synchronous = ${own ? 'NORMAL' : synchronous}`);
  return own && driver ? new WalSync(driver.name) : null;
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
async function serialised(
  inner: SqlDriverAdapter,
  synchronous: SqliteSynchronous,
): Promise<SqlDriverAdapter> {
  const turns = new Turns();
  // The adapter keeps its better-sqlite3 Database as `client` (adapter-better-sqlite3 7.10).
  const client = (inner as unknown as { client?: DriverClient }).client;
  const driver = client && typeof client.prepare === 'function' ? client : null;
  // Whether a statement outside transactions wrote (and so committed) in the current turn.
  let wrote = false;
  let wal: WalSync | null = null;
  if (driver) {
    cachePreparedStatements(driver, () => {
      // After a failed sync no write runs at all (see WalSync).
      if (wal?.failure) throw wal.failure;
      wrote = true;
    });
  }
  try {
    wal = await configureDurability(inner, driver, synchronous);
  } catch (error) {
    // The connection is not handed out: close it (a locked file, say, failed the PRAGMAs).
    await inner.dispose().catch(() => {});
    throw error;
  }
  // Without the driver we cannot tell whether SQLite aborted a transaction: no groups.
  const maxGroup = driver ? MAX_GROUP : 1;
  let group: Group | null = null;

  /**
   * Runs a statement outside transactions in its own turn. One that wrote committed as it ran:
   * its WAL frames are synced before the turn ends (and before its caller hears of it).
   */
  function outside<T>(work: () => Promise<T>, writes = false): Promise<T> {
    return turns.run(async () => {
      wrote = writes;
      const result = await work();
      if (wal && wrote && !driver?.inTransaction) await wal.sync();
      return result;
    });
  }

  /** Commits the group (or fails it when SQLite already rolled it back); ends the turn. */
  async function finishGroup(g: Group): Promise<void> {
    group = null;
    try {
      if (driver && !driver.inTransaction) throw g.lastError ?? abortedError();
      await inner.executeRaw(statement('COMMIT'));
      // On disk before any member hears of it, and before the connection runs anything else.
      await wal?.sync();
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
    queryRaw: (query) => outside(() => inner.queryRaw(query)),
    executeRaw: (query) => outside(() => inner.executeRaw(query)),
    // A script runs outside prepare (no readonly flag to read): taken as a write.
    executeScript: (script) => outside(() => inner.executeScript(script), true),
    async startTransaction(isolationLevel?: IsolationLevel) {
      // SQLite transactions are serializable; the adapter refuses any other level the same way.
      if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
        return inner.startTransaction(isolationLevel);
      }
      const solo = aloneScope.getStore() === true;
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
    dispose: () =>
      turns.run(async () => {
        await inner.dispose();
        await wal?.close();
      }),
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
 * module comment), in WAL mode at the `synchronous` level asked (FULL: synced by WalSync).
 * Migrations use the factory as it is.
 */
export function serialisedSqlite(
  factory: SqlMigrationAwareDriverAdapterFactory,
  synchronous: SqliteSynchronous = 'FULL',
): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => serialised(await factory.connect(), synchronous),
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
