/**
 * The executable schema: imports every *.schema.ts for its side effect, then builds.
 */
import { type GraphQLSchema, isObjectType, lexicographicSortSchema } from 'graphql';
import '../compaction/compaction.schema.js';
import '../identity/identity.schema.js';
import '../import/import.schema.js';
import '../items/item.schema.js';
import '../items/item-write.schema.js';
import '../nodes/node.schema.js';
import '../threads/fork.schema.js';
import '../search/search.schema.js';
import '../threads/thread.schema.js';
import '../transcripts/transcript.schema.js';
import '../webhooks/webhook.schema.js';
import { builder } from './builder.js';
import './scalars.js';

/**
 * PageInfo's flags may be lazy thenables (pagination.ts `lazy`: no SQL unless selected).
 * graphql-js awaits a thenable in any field, but graphql-jit (src/server/jit.ts) reads a field
 * without a resolver inline and would serialise the thenable itself; with a resolver, every
 * executor awaits it. Mutates `schema` (once, at start-up).
 */
function awaitLazyPageFlags(schema: GraphQLSchema): GraphQLSchema {
  const pageInfo = schema.getType('PageInfo');
  if (!isObjectType(pageInfo)) throw new Error('the schema has no PageInfo type');
  for (const name of ['hasNextPage', 'hasPreviousPage'] as const) {
    const field = pageInfo.getFields()[name];
    if (field && !field.resolve) field.resolve = (parent: Record<string, unknown>) => parent[name];
  }
  return schema;
}

export const schema = awaitLazyPageFlags(lexicographicSortSchema(builder.toSchema()));
