/**
 * The bytes of stored items and summaries one GraphQL operation (or one subscription event)
 * may read, shared by all its fields: MAX_RESPONSE_BYTES (issue 10: "a response is capped in
 * bytes ... rather than a huge allocation"). Stores read rows until the running sum of their
 * stored sizes passes what is left (SQL window sum over sizes the databases know without
 * reading the values); a read that passes it fails with PAYLOAD_TOO_LARGE and so does the
 * operation (src/server/cost.ts), so a request holds about MAX_RESPONSE_BYTES of row data.
 */
import type { ServiceContext } from './context.js';
import { PayloadTooLargeError } from './errors.js';

/** Rows read within a byte budget: `bytes` their stored size, `over` when rows were left out. */
export interface SizedRows<T> {
  rows: T[];
  bytes: number;
  over: boolean;
}

/**
 * Splits rows of a budgeted statement (each with `size`, its stored bytes, and `run`, the
 * running sum in read order) into the rows within `budget` and whether one passed it. Rows
 * after the first `charged` (a page's look-ahead row, read only to know whether more exist)
 * are kept, uncharged, whatever their size (their data may be missing).
 */
export function withinBudget<R extends { size: unknown; run: unknown }, T>(
  rows: readonly R[],
  budget: number,
  parse: (row: R) => T,
  charged = Number.POSITIVE_INFINITY,
): SizedRows<T> {
  const out: T[] = [];
  let bytes = 0;
  let over = false;
  for (const [i, row] of rows.entries()) {
    if (i >= charged) out.push(parse(row));
    else if (Number(row.run) > budget) over = true;
    else {
      bytes += Number(row.size);
      out.push(parse(row));
    }
  }
  return { rows: out, bytes, over };
}

/** What a read is of, for the error: "this page's items" and how to ask for less. */
export interface ReadSubject {
  what: string;
  advice: string;
}

/**
 * The byte budget of one operation. Reads run one after another (so 30 aliases cannot each
 * read the whole budget at once), each within what earlier reads left.
 */
export class ReadBudget {
  /** Stored bytes read so far. */
  used = 0;
  /** The error of the read that passed the budget, once one did. */
  exceeded: PayloadTooLargeError | null = null;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(readonly maxBytes: number) {}

  /**
   * Runs `read` with the bytes left, after this operation's earlier reads; charges what it read.
   * @throws PayloadTooLargeError when the rows pass what is left (or an earlier read did)
   */
  read<T>(subject: ReadSubject, read: (left: number) => Promise<SizedRows<T>>): Promise<T[]> {
    const run = this.tail.then(async () => {
      if (this.exceeded) throw this.exceeded;
      const left = this.maxBytes - this.used;
      const result = await read(left);
      this.used += result.bytes;
      if (result.over) {
        this.exceeded = new PayloadTooLargeError(
          `${subject.what} hold more than ${left} bytes, what this request had left of MAX_RESPONSE_BYTES (${this.maxBytes} bytes, shared by all its fields): ${subject.advice}`,
          { maxBytes: this.maxBytes },
        );
        throw this.exceeded;
      }
      return result.rows;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Starts over (a subscription's next event). */
  reset(): void {
    this.used = 0;
    this.exceeded = null;
  }
}

const budgets = new WeakMap<object, ReadBudget>();

/** The budget of the operation `ctx` belongs to (one per GraphQL context object). */
export function readBudget(ctx: Pick<ServiceContext, 'limits'>): ReadBudget {
  let budget = budgets.get(ctx);
  if (!budget) {
    budget = new ReadBudget(ctx.limits.maxResponseBytes);
    budgets.set(ctx, budget);
  }
  return budget;
}

/** The budget of an operation's context if one was made (a read happened), else null. */
export function existingReadBudget(ctx: object): ReadBudget | null {
  return budgets.get(ctx) ?? null;
}
