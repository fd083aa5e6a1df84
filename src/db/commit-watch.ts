/**
 * Noticing commits of other processes on the same SQLite file (a second server, `npm run
 * import` beside a running server), whose events never reach this process's bus.
 *
 * `PRAGMA data_version` on a connection changes when another connection committed since it was
 * last asked, and never for the connection's own commits. It runs on the Prisma client's own
 * connection, so this process's writes (already published on the bus) do not count. It is
 * asked every `intervalMs` while someone follows (`following()`): no statement at all while
 * nobody does. PostgreSQL needs none of this: instances share events through Redis.
 */
import type { Database } from './client.js';

/** How often the version is read while someone follows, in ms. */
export const COMMIT_WATCH_INTERVAL_MS = 250;

export interface CommitWatchOptions {
  /** True while this process has live followers (the bus has listeners). */
  following(): boolean;
  /** Called once per check that found commits of other processes, awaited before the next. */
  onCommit(): Promise<void> | void;
  /** A failed check (the next one runs all the same). */
  onError(error: unknown): void;
  intervalMs?: number;
}

export interface CommitWatch {
  /** Stops checking; resolves once a check in flight has ended. */
  stop(): Promise<void>;
}

/** The connection's data_version: a number that moves when another connection commits. */
async function dataVersion(db: Database): Promise<string> {
  const rows =
    await db.prisma.$queryRawUnsafe<{ data_version: bigint | number }[]>('PRAGMA data_version');
  return String(rows[0]?.data_version);
}

/**
 * Watches for commits of other processes on a SQLite database (does nothing on PostgreSQL).
 * The version is read once at start and compared at every check, also after a spell with no
 * followers, so a commit made while a follower was starting is never missed (at worst a
 * follower re-reads once for nothing).
 */
export function watchCommits(db: Database, options: CommitWatchOptions): CommitWatch {
  if (db.provider !== 'sqlite') return { stop: async () => {} };
  let seen: Promise<string | null> = dataVersion(db).catch((error: unknown) => {
    options.onError(error);
    return null;
  });
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  const check = async () => {
    const last = await seen;
    const now = await dataVersion(db);
    // Moved on only once onCommit succeeded: a failed one is tried again at the next check.
    if (last !== null && now !== last && !stopped) await options.onCommit();
    seen = Promise.resolve(now);
  };
  const timer = setInterval(() => {
    if (inFlight || stopped || !options.following()) return;
    inFlight = check()
      .catch((error: unknown) => options.onError(error))
      .finally(() => {
        inFlight = null;
      });
  }, options.intervalMs ?? COMMIT_WATCH_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.allSettled([seen, inFlight]);
    },
  };
}
