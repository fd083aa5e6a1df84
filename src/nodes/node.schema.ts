/**
 * Query.node and Query.nodes: any object by its id, batched per request so `nodes` costs one
 * statement per kind, order kept, null for unknown ids. A repeated id is looked up once (the
 * request's DataLoader dedupes and caches by id); `nodes` takes at most MAX_NODE_IDS ids and
 * costs its selection once per id (src/server/limits.ts).
 */
import DataLoader from 'dataloader';
import type { ServiceContext } from '../context.js';
import { builder, needs } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import { assertNodeIdCount, findNodes, type NodeRecord } from './node.service.js';

const loaders = new WeakMap<object, DataLoader<string, NodeRecord | null>>();

/** The request's node loader (one per GraphQL context). */
function nodeLoader(ctx: ServiceContext): DataLoader<string, NodeRecord | null> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((ids) => findNodes(ctx, ids));
    loaders.set(ctx, loader);
  }
  return loader;
}

builder.queryField('node', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: NodeRef,
    nullable: true,
    description: 'Null for an unknown or malformed id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => nodeLoader(ctx).load(String(args.id)),
  }),
);

builder.queryField('nodes', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: [NodeRef],
    nullable: { list: false, items: true },
    description: 'Objects by id, in the order asked; null for unknown or malformed ids.',
    args: { ids: t.arg.idList({ required: true }) },
    // Refused here, before any look-up, when the list is too long (the resolver checks again).
    complexity: (args) => {
      assertNodeIdCount(args.ids.length);
      return { field: 1, multiplier: args.ids.length };
    },
    resolve: async (_root, args, ctx) => {
      assertNodeIdCount(args.ids.length);
      // Unknown ids load as null; an Error is a failed lookup and must not pass for "unknown".
      return (await nodeLoader(ctx).loadMany(args.ids.map(String))).map((n) => {
        if (n instanceof Error) throw n;
        return n;
      });
    },
  }),
);
