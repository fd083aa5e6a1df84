/**
 * Subscription multiplexing (issue 13, "Subscriptions"; Hasura's multiplexed live queries are
 * the reference: one execution per group of identical subscriptions): a live event object that
 * reaches many followers (src/items/item-stream.ts hands every local follower of a thread the
 * same ItemRecord objects) is executed once per group, and the result object is handed to every
 * follower of that group. A group is the same DocumentNode (yoga's parse cache hands out one per
 * query text), operation name and variables, and the same principal: whatever a field resolver
 * can read from the context that changes a result (tenant and scopes, `principalOf`). Results
 * are never shared between groups, so never between tenants or between different scopes.
 *
 * The plugin replaces the subscribe engine: graphql-js's own algorithm (createSourceEventStream,
 * then `execute` with the event as rootValue for each event; graphql-js's subscribe() does
 * exactly this) with the per-event execution memoised. The source stream, its errors and its
 * end are the follower's own: replay items read from the database are new objects per follower
 * and simply are not found in the memo. Envelop's hooks on results (error masking, size caps,
 * credential rechecks, errors as results) still run per follower on the shared result.
 */
import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ServiceContext } from '../context.js';
import { existingReadBudget } from '../read-budget.js';

/** Counts since start: per-event executions, and deliveries that reused one. */
export interface SharedExecutionStats {
  executions: number;
  reused: number;
}

export interface SharedSubscriptionsOptions {
  /**
   * The context inputs a field resolver can read that change a result (tenant, scopes), as a
   * string; null: this operation's results are never shared.
   */
  principalOf: (contextValue: unknown) => string | null;
  /**
   * Whether a result just executed with `contextValue` may go to the rest of its group (false:
   * something per operation cut it short, such as a read budget; the others execute their own).
   */
  shareable?: (contextValue: unknown) => boolean;
}

type Settled = { result: ExecutionResult; shared: boolean };
type MaybePromise<T> = T | Promise<T>;
/** One group's execution for one event: `settled` once it ended. */
type Execution = { running: Promise<Settled>; settled?: Settled };

const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as Promise<T> | null)?.then === 'function';

/**
 * graphql-js's mapAsyncIterator: `map` over each value; return() and throw() pass through.
 * Promise chains, not async functions: a value `map` has at hand (a result the group already
 * executed) costs one promise per follower per event, not five.
 */
function mapStream<T, R>(
  source: AsyncIterable<T>,
  map: (value: T) => MaybePromise<R>,
): AsyncIterableIterator<R> {
  const inner = source[Symbol.asyncIterator]();
  // As graphql-js: a failed execution ends the source, then the stream fails.
  const fail = async (error: unknown): Promise<never> => {
    await inner.return?.().catch(() => {});
    throw error;
  };
  const mapped = (step: IteratorResult<T>): MaybePromise<IteratorResult<R>> => {
    if (step.done) return { done: true, value: undefined };
    let value: MaybePromise<R>;
    try {
      value = map(step.value);
    } catch (error) {
      return fail(error);
    }
    if (!isPromise(value)) return { done: false, value };
    return value.then((settled): IteratorResult<R> => ({ done: false, value: settled }), fail);
  };
  const iterator: AsyncIterableIterator<R> = {
    next: () => inner.next().then(mapped),
    return: () =>
      inner.return
        ? inner.return().then(mapped)
        : Promise.resolve({ done: true, value: undefined }),
    throw: (error: unknown) =>
      inner.throw ? inner.throw(error).then(mapped) : Promise.reject(error),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/**
 * `result` with a `stringify` that serialises it once: yoga's SSE writes a result with its
 * `stringify` when it has one (as graphql-jit's results do). Not enumerable, so no JSON of the
 * result shows it; a result changed on the way (an error masked) is a new object without it.
 */
function stringifiedOnce(result: ExecutionResult): ExecutionResult {
  let text: string | undefined;
  Object.defineProperty(result, 'stringify', {
    value: (value: unknown) => {
      if (value !== result) return JSON.stringify(value);
      text ??= JSON.stringify(value);
      return text;
    },
    enumerable: false,
  });
  return result;
}

/**
 * The envelop plugin, and its counters (read by the metrics at scrape time). List it after any
 * plugin that sets its own subscribe function (graphql-jit): the last one set is the one used.
 */
export function sharedSubscriptions(options: SharedSubscriptionsOptions): {
  plugin: Plugin;
  stats: SharedExecutionStats;
} {
  const stats: SharedExecutionStats = { executions: 0, reused: 0 };
  const documentIds = new WeakMap<DocumentNode, number>();
  let lastDocumentId = 0;
  // Event object -> group key -> its execution (and its outcome once settled). Held only as
  // long as the event object is.
  const executions = new WeakMap<object, Map<string, Execution>>();

  /** The group of an operation, or null when it is not shared. */
  function groupOf(args: ExecutionArgs): string | null {
    const principal = options.principalOf(args.contextValue);
    if (principal === null) return null;
    let documentId = documentIds.get(args.document);
    if (documentId === undefined) {
      documentId = ++lastDocumentId;
      documentIds.set(args.document, documentId);
    }
    return JSON.stringify([
      documentId,
      args.operationName ?? null,
      args.variableValues ?? null,
      principal,
    ]);
  }

  async function settle(args: ExecutionArgs, event: unknown): Promise<Settled> {
    stats.executions++;
    const result = stringifiedOnce(await execute({ ...args, rootValue: event }));
    return { result, shared: options.shareable?.(args.contextValue) ?? true };
  }

  /** The group's result for a follower: its own execution when the group's was not shared. */
  function reuse(args: ExecutionArgs, event: unknown, settled: Settled) {
    if (!settled.shared) return settle(args, event).then((own) => own.result);
    stats.reused++;
    return settled.result;
  }

  /** The group's result for `event`: executed by its first follower, then handed out. */
  function executeShared(
    args: ExecutionArgs,
    group: string,
    event: object,
  ): MaybePromise<ExecutionResult> {
    let byGroup = executions.get(event);
    if (!byGroup) {
      byGroup = new Map();
      executions.set(event, byGroup);
    }
    const known = byGroup.get(group);
    if (!known) {
      const running = settle(args, event);
      const execution: Execution = { running };
      byGroup.set(group, execution);
      return running.then((settled) => {
        execution.settled = settled;
        return settled.result;
      });
    }
    if (known.settled) return reuse(args, event, known.settled);
    return known.running.then((settled) => reuse(args, event, settled));
  }

  async function subscribe(args: ExecutionArgs) {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    const group = groupOf(args);
    return mapStream(source, (event: unknown) => {
      if (group === null || typeof event !== 'object' || event === null) {
        stats.executions++;
        return execute({ ...args, rootValue: event });
      }
      return executeShared(args, group, event);
    });
  }

  return {
    stats,
    plugin: {
      onSubscribe({ setSubscribeFn }) {
        setSubscribeFn(subscribe as Parameters<typeof setSubscribeFn>[0]);
      },
    },
  };
}

/**
 * threadstore's principal for sharing: the tenant every read is scoped to, and the scopes that
 * scope-auth checks on fields (src/schema/builder.ts). No resolver reads anything else of the
 * identity or the request; null for a context without an identity (never shared).
 */
export function servicePrincipal(contextValue: unknown): string | null {
  const ctx = contextValue as Partial<ServiceContext> | null;
  if (!ctx?.identity || typeof ctx.tenantId !== 'string') return null;
  return JSON.stringify([ctx.tenantId, ctx.identity.tenantId, [...ctx.identity.scopes].sort()]);
}

/**
 * False when the operation's read budget ran out while executing (src/read-budget.ts): that
 * result is the executing follower's alone (its own size cap turns it into the budget's
 * error); the others execute with their own budgets.
 */
export function withinReadBudget(contextValue: unknown): boolean {
  return !existingReadBudget(contextValue as object)?.exceeded;
}
