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
import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from '@prisma/driver-adapter-utils';

/** Runs one thing at a time, in arrival order. */
class TurnLock {
  #tail: Promise<void> = Promise.resolve();

  /** Waits for the turn; resolves to the function that ends it. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => turn);
    return ready;
  }

  /** Runs `work` in its own turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });

/**
 * A transaction on the shared connection: its statements go straight to the connection (the
 * turn is already held); Prisma sends COMMIT or ROLLBACK through executeRaw, then calls
 * commit() or rollback(), which end the turn.
 */
function transactionOn(inner: SqlDriverAdapter, release: () => void): Transaction {
  let ended = false;
  const end = async () => {
    if (ended) return;
    ended = true;
    release();
  };
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    options: { usePhantomQuery: false },
    queryRaw: (query) => inner.queryRaw(query),
    executeRaw: (query) => inner.executeRaw(query),
    commit: end,
    rollback: end,
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

/** `inner` with statements outside transactions taking turns with transactions (see above). */
function serialised(inner: SqlDriverAdapter): SqlDriverAdapter {
  const lock = new TurnLock();
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    queryRaw: (query) => lock.run(() => inner.queryRaw(query)),
    executeRaw: (query) => lock.run(() => inner.executeRaw(query)),
    executeScript: (script) => lock.run(() => inner.executeScript(script)),
    async startTransaction(isolationLevel?: IsolationLevel) {
      // SQLite transactions are serializable; the adapter refuses any other level the same way.
      if (isolationLevel && isolationLevel !== 'SERIALIZABLE') {
        return inner.startTransaction(isolationLevel);
      }
      const release = await lock.acquire();
      try {
        await inner.executeRaw(statement('BEGIN IMMEDIATE'));
      } catch (error) {
        release();
        throw error;
      }
      return transactionOn(inner, release);
    },
    getConnectionInfo: inner.getConnectionInfo?.bind(inner),
    dispose: () => lock.run(() => inner.dispose()),
  };
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
