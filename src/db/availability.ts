/**
 * Whether the database can take writes now (for /readyz), and the dependency failures of
 * requests as this database explains them (for UNAVAILABLE errors). Three signals, all cheap
 * enough for a probe polled every few seconds:
 * - a probe query (2 s at most): fails while the database is unreachable; on PostgreSQL it also
 *   reads `transaction_read_only` (on for a standby, or with default_transaction_read_only);
 * - on SQLite, the database file: it cannot be opened for writing (EROFS: a read-only mount,
 *   or ext4 turned read-only after an error), or its file system has less than
 *   SQLITE_MIN_FREE_BYTES free (a full disk: SQLite then fails even reads, as a disk I/O error);
 * - the last write failure a request met (full disk, read-only, I/O error), for
 *   FAILURE_HOLD_MS: the only signal of a full disk on PostgreSQL, which no probe sees.
 * Each recovers by itself once its cause is gone: no restart.
 */
import { closeSync, openSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database } from './client.js';
import { type DependencyFailure, dependencyFailure, type FailureKind } from './unavailable.js';

/** The database's state as /readyz shows it. */
export type DatabaseState =
  | 'ok'
  | 'unreachable'
  | 'overloaded'
  | 'disk full'
  | 'read-only'
  | 'disk error'
  | 'locked';

const STATE_OF: Record<FailureKind, DatabaseState> = {
  'database-connection': 'unreachable',
  'database-overloaded': 'overloaded',
  'statement-timeout': 'overloaded',
  'database-locked': 'locked',
  'disk-full': 'disk full',
  'read-only': 'read-only',
  'disk-io': 'disk error',
  redis: 'ok', // not the database's (Redis has its own field)
};

/** Below this many free bytes the SQLite file system counts as full (a WAL grows by pages). */
export const SQLITE_MIN_FREE_BYTES = 1024 * 1024;
/** How long a write failure a request met keeps /readyz failing, in ms. */
export const FAILURE_HOLD_MS = 5_000;
const PROBE_TIMEOUT_MS = 2_000;

// Kinds that say the database cannot write (remembered); the others are seen by the probe.
const WRITE_FAILURES = new Set<FailureKind>(['disk-full', 'read-only', 'disk-io']);

export interface Availability {
  /**
   * The dependency failure `error` stands for (null for anything else), made precise with
   * what the database's disk shows (a SQLite disk I/O error on a full disk is `disk-full`);
   * write failures are remembered for /readyz.
   */
  classify(error: unknown): DependencyFailure | null;
  /** The database's state now: `ok` when it answers and can write. */
  state(): Promise<DatabaseState>;
}

/**
 * The SQLite file's problem: read-only (opening it for writing fails: a read-only mount, or
 * ext4 turned read-only by an error, which access() does not see), or a (nearly) full file
 * system; null when writable. Opening for writing writes nothing.
 */
function sqliteDiskProblem(file: string): FailureKind | null {
  try {
    closeSync(openSync(file, 'r+'));
    const fs = statfsSync(dirname(file));
    return fs.bavail * fs.bsize < SQLITE_MIN_FREE_BYTES ? 'disk-full' : null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'read-only';
    if (code === 'ENOSPC') return 'disk-full';
    return 'disk-io';
  }
}

/** Runs `query`, rejecting after `ms`. */
async function within<T>(ms: number, query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      query,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('probe timed out')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The availability of `db`, opened from `url` (a SQLite file is checked as above).
 * @param now the clock (tests)
 */
export function createAvailability(db: Database, url: string, now = Date.now): Availability {
  const file =
    db.provider === 'sqlite' && url !== 'file::memory:' ? resolve(url.replace(/^file:/, '')) : null;
  let lastWriteFailure: { kind: FailureKind; at: number } | null = null;

  const classify = (error: unknown): DependencyFailure | null => {
    const failure = dependencyFailure(error);
    if (!failure) return null;
    if (file && (failure.kind === 'disk-io' || failure.kind === 'database-connection')) {
      const disk = sqliteDiskProblem(file);
      if (disk) failure.kind = disk;
    }
    if (WRITE_FAILURES.has(failure.kind)) lastWriteFailure = { kind: failure.kind, at: now() };
    return failure;
  };

  const probe = async (): Promise<FailureKind | null> => {
    try {
      if (db.provider === 'postgresql') {
        const rows = await within(
          PROBE_TIMEOUT_MS,
          db.prisma.$queryRawUnsafe<{ readOnly: string }[]>(
            `SELECT current_setting('transaction_read_only') AS "readOnly"`,
          ),
        );
        return rows[0]?.readOnly === 'on' ? 'read-only' : null;
      }
      await within(PROBE_TIMEOUT_MS, db.prisma.$queryRawUnsafe('SELECT 1'));
      return file ? sqliteDiskProblem(file) : null;
    } catch (error) {
      return classify(error)?.kind ?? 'database-connection';
    }
  };

  return {
    classify,
    async state() {
      const problem = await probe();
      if (problem) return STATE_OF[problem];
      const held = lastWriteFailure && now() - lastWriteFailure.at < FAILURE_HOLD_MS;
      if (!held) lastWriteFailure = null;
      return lastWriteFailure ? STATE_OF[lastWriteFailure.kind] : 'ok';
    },
  };
}
