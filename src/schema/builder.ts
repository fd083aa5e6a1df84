/**
 * The Pothos SchemaBuilder: plugins and settings only, no domain types (Pothos guide,
 * app-layout). Domain modules add their types in *.schema.ts files.
 */
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type { ServiceContext } from '../context.js';

/** The GraphQL context: a ServiceContext for the request's tenant. */
export type GraphQLContext = ServiceContext;

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  /** Every connection of the contract has a totalCount (computed only when selected). */
  Connection: { totalCount: number };
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date | string };
    JSON: { Input: unknown; Output: unknown };
    ID: { Input: string; Output: string };
  };
}>({
  defaultFieldNullability: false,
  // No Prisma plugin: reads go through the stores (raw statements where bench S5 measured
  // Prisma's per-call query compilation), so there is no Prisma query for it to shape.
  plugins: [RelayPlugin, DataloaderPlugin],
  relay: {
    // Ids are the contract's own ("<threadId>:<seq>"), so Node and node/nodes are ours
    // (src/nodes/node.schema.ts), not the plugin's global ids.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    edgesFieldOptions: { nullable: false },
    nodeFieldOptions: { nullable: false },
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
