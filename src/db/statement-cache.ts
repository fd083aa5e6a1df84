/**
 * Named prepared statements on PostgreSQL, per connection, as Prisma's query engine kept them
 * before driver adapters (its `statement_cache_size`, 100 by default). Prisma 7's pg adapter
 * sends every statement unnamed, so PostgreSQL parses, analyses and plans it again on every
 * execution; a named statement is parsed once per connection, and after five executions
 * PostgreSQL may keep a generic plan (`plan_cache_mode` auto, its default). Measured here (bench
 * S1/S2/S5 requests, PostgreSQL's own CPU per request): a single-item append 1,340-1,500 →
 * 590-760 µs, a 20-item append 2,525-2,925 → 1,560-1,800 µs, a 50-thread list 527 → 297 µs,
 * a 50-item page 707 → 407 µs; with `plan_cache_mode=force_custom_plan` the gain was gone, so it
 * is the planning that is saved.
 *
 * Rules:
 * - Only statements with parameters are named, and only from their second execution on a
 *   connection among its last max(2 × size, 16) texts run once: a text run once (an id list of
 *   a length seen once) takes no slot and evicts nothing.
 * - Each connection keeps at most `size` statements; the least recently used one that no
 *   queued or running query uses is deallocated. Names are never reused, and pg forgets a name
 *   only once its DEALLOCATE has run, so no query sends a name pg or PostgreSQL no longer has.
 * - A named statement whose table changed shape since it was prepared fails with
 *   "cached plan must not change result type" (a column added by a newer instance's migration
 *   under `SELECT *`). That one execution fails; every connection then drops its statements
 *   (one DEALLOCATE ALL) and prepares them again.
 * - A named statement PostgreSQL reports missing (SQLSTATE 26000), or one whose query failed
 *   in pg itself, is forgotten on that connection (never deallocated: a DEALLOCATE of a name
 *   PostgreSQL lacks would abort the transaction it runs in).
 * - `size` 0 turns naming off: for PgBouncer in transaction pooling before 1.21, where a named
 *   statement may reach another server connection.
 */
import pg from 'pg';

/** What a statement cache did, for /metrics. */
export interface StatementCacheStats {
  /** Statements prepared under a name (Parse sent with a name). */
  prepared: number;
  /** Named statements dropped to stay within the size (DEALLOCATE sent). */
  evicted: number;
  /** Times every connection's statements were dropped after a stale plan. */
  resets: number;
}

/**
 * True when `error` is PostgreSQL's error for a named statement prepared on an older table
 * shape: SQLSTATE 0A000 raised by RevalidateCachedQuery (the routine is never translated; the
 * message is, with lc_messages).
 */
function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; routine?: unknown; message?: unknown } | null;
  if (e?.code !== '0A000') return false;
  return (
    e.routine === 'RevalidateCachedQuery' ||
    (typeof e.message === 'string' && e.message.includes('cached plan must not change result type'))
  );
}

/** SQLSTATE invalid_sql_statement_name: the named statement is not prepared on the server. */
const MISSING_STATEMENT = '26000';

/** pg's bookkeeping of the named statements it parsed on a connection (pg 8 internals). */
interface PgConnection {
  parsedStatements?: Record<string, string>;
  submittedNamedStatements?: Record<string, unknown>;
}

/** A query config as Prisma's pg adapter passes it. */
interface QueryConfig {
  name?: string;
  text?: unknown;
  values?: unknown;
}

/** One named statement of a connection. */
interface Entry {
  name: string;
  /** Queries using the name that have not finished (queued, sent or running). */
  using: number;
}

type Callback = (error: unknown, result: unknown) => void;

/**
 * A pg Client class (pg.Pool's `Client` option) whose connections name their statements, at
 * most `size` each. `stats` counts for all its connections.
 */
export function statementCachingClient(size: number): {
  Client: typeof pg.Client;
  stats: StatementCacheStats;
} {
  const stats: StatementCacheStats = { prepared: 0, evicted: 0, resets: 0 };
  let generation = 0;
  let nextName = 0;

  class StatementCachingClient extends pg.Client {
    /** Text → its named statement on this connection, least recently used first. */
    private readonly entries = new Map<string, Entry>();
    /** Texts run once, unnamed (at most max(2 × size, 16), oldest dropped first). */
    private readonly seenOnce = new Set<string>();
    private generation = generation;

    // pg's query has many overloads; only the config-object form (Prisma's) is named.
    // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloads unchanged
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfig | null;
      const entry =
        size > 0 &&
        c !== null &&
        typeof c === 'object' &&
        c.name === undefined &&
        typeof c.text === 'string' &&
        Array.isArray(c.values) &&
        c.values.length > 0 &&
        typeof (config as { submit?: unknown }).submit !== 'function'
          ? this.entryFor(c.text)
          : null;
      if (!entry) return super.query(config, values, callback);
      const text = c?.text as string;
      entry.using++;
      const finished = (error: unknown) => {
        entry.using--;
        if (error) this.failed(text, entry, error);
      };
      // biome-ignore lint/suspicious/noExplicitAny: pg's overloads, as above
      const query = super.query as any;
      const named = { ...c, name: entry.name };
      // pg-pool's own query passes a callback; the adapter's transactions take the promise.
      if (typeof callback === 'function' || typeof values === 'function') {
        const done = (typeof callback === 'function' ? callback : values) as Callback;
        return query.call(
          this,
          named,
          typeof values === 'function' ? undefined : values,
          (error: unknown, result: unknown) => {
            finished(error);
            done(error, result);
          },
        );
      }
      const result = query.call(this, named, values);
      // Observes the outcome; the caller still gets it from `result`.
      result.then(
        () => finished(null),
        (error: unknown) => finished(error),
      );
      return result;
    }

    /**
     * The named statement of `text` on this connection, made on its second use (evicting the
     * least recently used idle one when full); null to run it unnamed.
     */
    private entryFor(text: string): Entry | null {
      if (this.generation !== generation) this.reset();
      const known = this.entries.get(text);
      if (known) {
        // Most recently used last.
        this.entries.delete(text);
        this.entries.set(text, known);
        return known;
      }
      if (!this.seenOnce.has(text)) {
        if (this.seenOnce.size >= Math.max(2 * size, 16)) {
          this.seenOnce.delete(this.seenOnce.values().next().value as string);
        }
        this.seenOnce.add(text);
        return null;
      }
      if (this.entries.size >= size && !this.evictOne()) return null;
      this.seenOnce.delete(text);
      const entry = { name: `ts_${(nextName++).toString(36)}`, using: 0 };
      this.entries.set(text, entry);
      stats.prepared++;
      return entry;
    }

    /** Drops the least recently used entry no query is using; false when every one is in use. */
    private evictOne(): boolean {
      for (const [text, entry] of this.entries) {
        if (entry.using > 0) continue;
        this.entries.delete(text);
        stats.evicted++;
        this.deallocate(entry.name);
        return true;
      }
      return false;
    }

    /**
     * After a failure of `entry`'s statement: a stale plan resets every connection; a statement
     * missing on the server, or failed in pg before PostgreSQL answered, is forgotten.
     */
    private failed(text: string, entry: Entry, error: unknown): void {
      if (isStalePlan(error)) {
        if (this.generation === generation) {
          generation++;
          stats.resets++;
        }
        return;
      }
      const code = (error as { code?: unknown } | null)?.code;
      // Missing on the server, or a failure in pg itself (a value Bind could not send: pg then
      // closes the statement yet records it as parsed): not used, nor deallocated, again.
      if (code === MISSING_STATEMENT || typeof code !== 'string') {
        if (this.entries.get(text) === entry) this.entries.delete(text);
        this.forget([entry.name]);
      }
    }

    /** Every named statement of this connection dropped at once (after a stale plan). */
    private reset(): void {
      this.generation = generation;
      const names = [...this.entries.values()].map((e) => e.name);
      this.entries.clear();
      this.seenOnce.clear();
      if (names.length === 0) return;
      // Queries queued before it run first; pg forgets the names once it ran.
      super
        .query('DEALLOCATE ALL')
        .then(() => this.forget(names))
        .catch(() => {});
    }

    /**
     * Deallocates `name`, in the connection's query order, if its Parse completed (else
     * PostgreSQL never had it). A failure (the connection's transaction already failed) leaves
     * the statement until the connection closes; the name is never used again.
     */
    private deallocate(name: string): void {
      const parsed = this.pgConnection()?.parsedStatements;
      if (!parsed || !(name in parsed)) return;
      super
        .query(`DEALLOCATE ${name}`)
        .then(() => this.forget([name]))
        .catch(() => {});
    }

    /** Removes `names` from pg's own record of what this connection prepared. */
    private forget(names: string[]): void {
      const connection = this.pgConnection();
      for (const name of names) {
        delete connection?.parsedStatements?.[name];
        delete connection?.submittedNamedStatements?.[name];
      }
    }

    private pgConnection(): PgConnection | undefined {
      return (this as unknown as { connection?: PgConnection }).connection;
    }
  }

  return { Client: StatementCachingClient, stats };
}
