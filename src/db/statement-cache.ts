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
 * - Only statements with parameters are named (the app's own: BEGIN, COMMIT and the like are
 *   not worth a slot).
 * - Each connection keeps at most `size` statements, least recently used dropped first with a
 *   DEALLOCATE, so a workload of ever-new texts (appends of every size, id lists of every
 *   length) holds a bounded number of plans in each backend. Names are never reused.
 * - A named statement whose table changed shape since it was prepared fails with
 *   "cached plan must not change result type" (a column added by a newer instance's migration
 *   under `SELECT *`). That one execution fails; every connection then prepares its
 *   statements again under new names.
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

/** The SQLSTATE and message of PostgreSQL's error for a prepared plan whose result changed. */
const STALE_PLAN_CODE = '0A000';
const STALE_PLAN_MESSAGE = 'cached plan must not change result type';

/** True when `error` is PostgreSQL's error for a named statement prepared on an older table shape. */
function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === STALE_PLAN_CODE &&
    typeof e.message === 'string' &&
    e.message.includes(STALE_PLAN_MESSAGE)
  );
}

/** pg's bookkeeping of the named statements it parsed on a connection (pg 8 internals). */
interface ParsedStatements {
  parsedStatements?: Record<string, string>;
  submittedNamedStatements?: Record<string, unknown>;
}

/** A query config as Prisma's pg adapter passes it. */
interface QueryConfig {
  name?: string;
  text?: unknown;
  values?: unknown;
}

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
  /** After a stale plan on any connection, every connection prepares its statements again. */
  const noteFailure = (error: unknown) => {
    if (!isStalePlan(error)) return;
    generation++;
    stats.resets++;
  };

  class StatementCachingClient extends pg.Client {
    /** Text → name of this connection's named statements, least recently used first. */
    private readonly names = new Map<string, string>();
    private generation = generation;

    // pg's query has many overloads; only the config-object form (Prisma's) is named.
    // biome-ignore lint/suspicious/noExplicitAny: forwards pg's overloads unchanged
    override query(config: any, values?: any, callback?: any): any {
      const c = config as QueryConfig | null;
      if (
        size === 0 ||
        c === null ||
        typeof c !== 'object' ||
        c.name !== undefined ||
        typeof c.text !== 'string' ||
        !Array.isArray(c.values) ||
        c.values.length === 0 ||
        typeof (config as { submit?: unknown }).submit === 'function'
      ) {
        return super.query(config, values, callback);
      }
      const named = { ...c, name: this.nameFor(c.text) };
      // biome-ignore lint/suspicious/noExplicitAny: pg's overloads, as above
      const query = super.query as any;
      // pg-pool's own query passes a callback; the adapter's transactions take the promise.
      if (typeof callback === 'function' || typeof values === 'function') {
        const done = (typeof callback === 'function' ? callback : values) as (
          error: unknown,
          result: unknown,
        ) => void;
        return query.call(
          this,
          named,
          typeof values === 'function' ? undefined : values,
          (error: unknown, result: unknown) => {
            if (error) noteFailure(error);
            done(error, result);
          },
        );
      }
      const result = query.call(this, named, values);
      // Observes the failure; the caller still gets it from `result`.
      result?.catch?.(noteFailure);
      return result;
    }

    /** The name of `text` on this connection: its own, or a new one (evicting the oldest). */
    private nameFor(text: string): string {
      if (this.generation !== generation) {
        // A stale plan somewhere: every name of this connection is dropped and made again.
        this.generation = generation;
        for (const old of [...this.names.values()]) this.drop(old);
        this.names.clear();
      }
      const known = this.names.get(text);
      if (known !== undefined) {
        // Most recently used last.
        this.names.delete(text);
        this.names.set(text, known);
        return known;
      }
      if (this.names.size >= size) {
        const [oldestText, oldest] = this.names.entries().next().value as [string, string];
        this.names.delete(oldestText);
        this.drop(oldest);
        stats.evicted++;
      }
      const name = `ts_${(nextName++).toString(36)}`;
      this.names.set(text, name);
      stats.prepared++;
      return name;
    }

    /**
     * Deallocates `name` on this connection if PostgreSQL holds it (its Parse completed), in
     * the connection's query order. A failure (the connection's transaction already failed)
     * leaves the statement until the connection closes; the name is never used again.
     */
    private drop(name: string): void {
      const connection = (this as unknown as { connection?: ParsedStatements }).connection;
      const parsed = connection?.parsedStatements;
      if (!parsed || !(name in parsed)) return;
      delete parsed[name];
      delete connection.submittedNamedStatements?.[name];
      super.query(`DEALLOCATE ${name}`).catch(() => {});
    }
  }

  return { Client: StatementCachingClient, stats };
}
