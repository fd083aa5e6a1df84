/**
 * The Pothos SchemaBuilder: plugins and settings only, no domain types (Pothos guide,
 * app-layout). Domain modules add their types in *.schema.ts files.
 */
import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import type { ServiceContext } from '../context.js';
import { ForbiddenError, type Scope } from '../identity/identity.js';
import { DEFAULT_PAGE_SIZE } from '../pagination.js';

/** The GraphQL context: a ServiceContext for the request's tenant. */
export type GraphQLContext = ServiceContext;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  /** `authScopes: { scope: 'threads:read' }` on a field: the caller needs that scope. */
  AuthScopes: { scope: Scope };
  /** Every connection of the contract has a totalCount (computed only when selected). */
  Connection: { totalCount: number };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number };
    ID: { Input: string; Output: string };
  };
}>({
  defaultFieldNullability: false,
  // No Prisma plugin: reads go through the stores (raw statements where bench S5 measured
  // Prisma's per-call query compilation), so there is no Prisma query for it to shape.
  // Scope auth first, so no other plugin's wrapper runs before the check.
  plugins: [ScopeAuthPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  // Field costs only: the limit is checked before execution, with the request's variables, by
  // src/server/limits.ts (the plugin's own check would run inside the first root resolver).
  complexity: { disabled: true, defaultComplexity: 1, defaultListMultiplier: 10 },
  scopeAuth: {
    // Subscriptions are checked when they start, not at each event.
    authorizeOnSubscribe: true,
    authScopes: (ctx) => ({ scope: (scope: Scope) => ctx.identity.scopes.has(scope) }),
    unauthorizedError: (_parent, _ctx, info, result) =>
      forbidden(result.failure, `${info.parentType.name}.${info.fieldName}`),
  },
  relay: {
    // Ids are the contract's own ("<threadId>:<seq>"), so Node and node/nodes are ours
    // (src/nodes/node.schema.ts), not the plugin's global ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    // The connection field multiplies by its page size (pageCost), so edges do not again.
    edgesFieldOptions: { nullable: false, complexity: { field: 1, multiplier: 1 } },
    nodeFieldOptions: { nullable: false },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

/** The first scope named in a scope-auth failure, or null. */
function missingScope(failure: AuthFailure): string | null {
  if (failure.kind === AuthScopeFailureType.AuthScope) return String(failure.parameter);
  if ('failures' in failure) {
    for (const child of failure.failures) {
      const scope = missingScope(child);
      if (scope) return scope;
    }
  }
  return null;
}

/** FORBIDDEN naming the scope a field needs (contract part identity). */
function forbidden(failure: AuthFailure, field: string): ForbiddenError {
  const scope = missingScope(failure);
  return scope
    ? new ForbiddenError(
        `${field} needs the scope ${scope}, which your credentials lack; use a key or token granted it.`,
        { scope },
      )
    : new ForbiddenError(`${field} is not allowed with your credentials.`);
}

/** The `authScopes` of a field that needs `scope`. */
export function needs(scope: Scope): { scope: Scope } {
  return { scope };
}

/**
 * The cost of a connection field (plugin-complexity): its selection counted once per row of the
 * requested page (first or last, else the default page size), at most the largest page allowed
 * (a larger one is refused with BAD_USER_INPUT by the resolver anyway).
 */
export function pageCost(
  args: { first?: number | null; last?: number | null },
  ctx: GraphQLContext,
): { field: number; multiplier: number } {
  const requested = Math.max(args.first ?? 0, args.last ?? 0);
  const size = args.first == null && args.last == null ? DEFAULT_PAGE_SIZE : requested;
  return { field: 1, multiplier: Math.min(Math.max(size, 0), ctx.limits.maxPageSize) };
}

/**
 * The cost of a list without page arguments that can grow with the data (a thread's context or
 * compaction records): counted as `rows` rows.
 */
export function listCost(rows: number): { field: number; multiplier: number } {
  return { field: 1, multiplier: rows };
}
