/**
 * Queries and mutations run as code compiled from their document (graphql-jit through
 * `@envelop/graphql-jit`), not through graphql-js's interpreter. Measured gain on this tree is
 * small: GraphQL execution is a few percent of a read's CPU (the rest is the database driver,
 * yoga's fetch layer, response writes, GC; /work/readme-parts/p13-jit.md).
 * GRAPHQL_JIT=true turns it on; it is off by default (env.ts), because it measured no gain
 * (CPU per request 1.01-1.06x of graphql-js's on the history page, the thread list and
 * `{ __typename }`) and some answers differ from graphql-js's: variable coercion errors name
 * another variable or lose the path and the enum hint, and fields of fragments come in
 * another order than the document's (the spec orders them as the document does).
 *
 * What stays on graphql-js's `execute`/`subscribe`, on purpose:
 * - subscriptions (their events run through the follower queue, stream credentials and the
 *   error-as-last-result wrapper in yoga.ts, which are written against graphql-js's subscribe);
 * - documents with more than one operation: the plugin caches the compiled query per document,
 *   not per operation name, so a second operation of the same document would run the first;
 * - operations that take a custom scalar (JSON, DateTime) as a variable or argument, also
 *   inside an input object: graphql-jit's own coercion drops the scalar's error message
 *   ("JSON value at deep.list[2]: ...") and the key "__proto__" of a JSON object, which
 *   graphql-js keeps (test/validation.test.ts, test/hostile.test.ts). Reads of the history
 *   page and the thread list take only built-in scalars, so they are compiled.
 *
 * Fields without a resolver are read inline by graphql-jit, not awaited: a field whose value
 * may be a thenable needs a resolver (src/schema/index.ts, PageInfo).
 */
import { useGraphQlJit } from '@envelop/graphql-jit';
import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isInputObjectType,
  isScalarType,
  isSpecifiedScalarType,
  Kind,
  type OperationDefinitionNode,
  type Source,
  type SourceLocation,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { createLRUCache, isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';

/**
 * Compiled queries kept, keyed by document text, least recently used dropped first. A compiled
 * query holds generated functions (a few KB to tens of KB), so the cache must not grow with every
 * distinct document a client sends. Documents still in yoga's parse cache (1,024 by default) find
 * theirs through a WeakMap first.
 */
export const JIT_CACHE_ENTRIES = 1_000;

/** The only operation of `document` if it is a query or mutation; else null. */
function soleQueryOrMutation(document: DocumentNode): OperationDefinitionNode | null {
  let found: OperationDefinitionNode | null = null;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (found) return null;
    found = definition;
  }
  return found && found.operation !== 'subscription' ? found : null;
}

/** True when `type` is or holds (in input object fields, at any depth) a custom scalar. */
function holdsCustomScalar(type: GraphQLInputType, seen = new Set<string>()): boolean {
  const named = getNamedType(type);
  if (isScalarType(named)) return !isSpecifiedScalarType(named);
  if (!isInputObjectType(named) || seen.has(named.name)) return false;
  seen.add(named.name);
  return Object.values(named.getFields()).some((f) => holdsCustomScalar(f.type, seen));
}

/**
 * Whether graphql-jit may run `document` (see the module comment): one query or mutation, no
 * variable or argument of a type that holds a custom scalar.
 */
function compilable(schema: GraphQLSchema, document: DocumentNode): boolean {
  const operation = soleQueryOrMutation(document);
  if (!operation) return false;
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type || holdsCustomScalar(type)) return false;
  }
  let ok = true;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument() {
        const type = typeInfo.getArgument()?.type;
        if (!type || holdsCustomScalar(type)) ok = false;
      },
    }),
  );
  return ok;
}

/** compilable(), remembered per parsed document (yoga's parse cache hands out the same one). */
function compilableCache(): (args: ExecutionArgs) => boolean {
  const known = new WeakMap<DocumentNode, boolean>();
  return ({ schema, document }) => {
    let ok = known.get(document);
    if (ok === undefined) {
      ok = compilable(schema, document);
      known.set(document, ok);
    }
    return ok;
  };
}

/** The offset in `body` of a 1-based line and column. */
function offsetOf(body: string, { line, column }: SourceLocation): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = body.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return offset + column - 1;
}

/**
 * graphql-jit's own error objects pass `instanceof GraphQLError` but differ from graphql-js's:
 * `extensions` is undefined unless the thrown error had some, and they carry `locations`
 * without `source` and `positions`, so every copy (masking, yoga's serialisation) would drop
 * the location. Each becomes the error graphql-js would have made, located in `source`.
 */
function asGraphqlJsError(error: GraphQLError, source: Source | undefined): GraphQLError {
  if (Object.getPrototypeOf(error) === GraphQLError.prototype) return error;
  const locations = (error.locations ?? []) as SourceLocation[];
  return new GraphQLError(error.message, {
    ...(source && locations.length
      ? { source, positions: locations.map((l) => offsetOf(source.body, l)) }
      : {}),
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

// One object for every operation: no closure per request.
const normaliseErrors = {
  onExecuteDone({
    args,
    result,
    setResult,
  }: {
    args: ExecutionArgs;
    result: ExecutionResult | AsyncIterable<ExecutionResult>;
    setResult: (r: ExecutionResult) => void;
  }) {
    if (isAsyncIterable(result) || !result.errors?.length) return;
    const source = args.document.loc?.source;
    setResult({ ...result, errors: result.errors.map((e) => asGraphqlJsError(e, source)) });
  },
};

/**
 * The graphql-jit plugin, with its compiled-query cache bounded to `entries` documents
 * (JIT_CACHE_ENTRIES); a document the compiler refuses is logged on `logger`. Put it first: it replaces the execute function, the other plugins' hooks
 * still run around it. Its errors are made graphql-js's (asGraphqlJsError).
 */
export function jitPlugins(logger: Logger, entries = JIT_CACHE_ENTRIES): Plugin[] {
  const jit = useGraphQlJit(
    {},
    {
      // ttl 0: entries leave by size only.
      cache: createLRUCache({ max: entries, ttl: 0 }),
      enableIf: compilableCache(),
      // A validated document that does not compile is answered with the compiler's errors.
      onError: (result) => logger.warn({ errors: result.errors }, 'graphql-jit could not compile'),
    },
  ) as Plugin;
  // Before every other plugin's onExecuteDone (audit, metrics, masking): they see graphql-js errors.
  return [jit, { onExecute: () => normaliseErrors }];
}
