/**
 * Queries and mutations run as code compiled from their document (graphql-jit through
 * `@envelop/graphql-jit`), not through graphql-js's interpreter: about 1.5x on the history page
 * and the thread list (issue 13, /work/shared/notes/performance.md). GRAPHQL_JIT=false turns it
 * off (env.ts).
 *
 * What stays on graphql-js's `execute`/`subscribe`, on purpose:
 * - subscriptions (their events run through the follower queue, stream credentials and the
 *   error-as-last-result wrapper in yoga.ts, which are written against graphql-js's subscribe);
 * - documents with more than one operation: the plugin caches the compiled query per document,
 *   not per operation name, so a second operation of the same document would run the first.
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import { type ExecutionArgs, Kind, type OperationDefinitionNode } from 'graphql';
import { createLRUCache, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';

/**
 * Compiled queries kept, keyed by document text, least recently used dropped first. A compiled
 * query holds generated functions (a few KB to tens of KB), so the cache must not grow with every
 * distinct document a client sends. Documents still parsed (yoga's parse cache, also 1,000) find
 * theirs through a WeakMap first.
 */
export const JIT_CACHE_ENTRIES = 1_000;

/** The only operation of `args.document` if it is a query or mutation; else null. */
function soleQueryOrMutation(args: ExecutionArgs): OperationDefinitionNode | null {
  let found: OperationDefinitionNode | null = null;
  for (const definition of args.document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (found) return null;
    found = definition;
  }
  return found && found.operation !== 'subscription' ? found : null;
}

/**
 * The graphql-jit plugin, with its compiled-query cache bounded to `entries` documents
 * (JIT_CACHE_ENTRIES); a document the compiler refuses is logged on `logger`. Put it first: it replaces the execute function, the other plugins' hooks
 * still run around it.
 */
export function jitPlugin(logger: Logger, entries = JIT_CACHE_ENTRIES): Plugin {
  return useGraphQlJit(
    {},
    {
      // ttl 0: entries leave by size only.
      cache: createLRUCache({ max: entries, ttl: 0 }),
      enableIf: (args) => soleQueryOrMutation(args) !== null,
      // A validated document that does not compile is answered with the compiler's errors.
      onError: (result) => logger.warn({ errors: result.errors }, 'graphql-jit could not compile'),
    },
  ) as Plugin;
}
