/**
 * Query.node and Query.nodes: any object by its id (threads, items, compaction records),
 * batched so `nodes` costs one statement per kind, order kept, null for unknown ids.
 */
import DataLoader from 'dataloader';
import { findCompactions } from '../compaction/compaction.service.js';
import type { ServiceContext } from '../context.js';
import { findItems } from '../items/item.service.js';
import { findThreads } from '../threads/thread.service.js';
import { builder } from './builder.js';
import { NodeRef, parseNodeId } from './node.js';

/** Resolves node ids in batches: one statement per kind of node. */
async function loadNodes(ctx: ServiceContext, ids: readonly string[]): Promise<unknown[]> {
  const parsed = ids.map(parseNodeId);
  const threadIds: string[] = [];
  const itemKeys: { threadId: string; seq: number }[] = [];
  const compactionKeys: { threadId: string; markerSeq: number }[] = [];
  for (const p of parsed) {
    if (p?.kind === 'thread') threadIds.push(p.threadId);
    else if (p?.kind === 'item') itemKeys.push(p);
    else if (p?.kind === 'compaction') compactionKeys.push(p);
  }
  const [threads, items, compactions] = await Promise.all([
    threadIds.length ? findThreads(ctx, threadIds) : [],
    findItems(ctx, itemKeys),
    findCompactions(ctx, compactionKeys),
  ]);
  const cursors = { thread: 0, item: 0, compaction: 0 };
  return parsed.map((p) => {
    if (!p) return null;
    if (p.kind === 'thread') return threads[cursors.thread++] ?? null;
    if (p.kind === 'item') return items[cursors.item++] ?? null;
    return compactions[cursors.compaction++] ?? null;
  });
}

const loaders = new WeakMap<object, DataLoader<string, unknown>>();

/** The request's node loader (one per GraphQL context). */
function nodeLoader(ctx: ServiceContext): DataLoader<string, unknown> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader((ids) => loadNodes(ctx, ids));
    loaders.set(ctx, loader);
  }
  return loader;
}

builder.queryField('node', (t) =>
  t.field({
    type: NodeRef,
    nullable: true,
    description: 'Null for an unknown or malformed id.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => (await nodeLoader(ctx).load(String(args.id))) as { id: string } | null,
  }),
);

builder.queryField('nodes', (t) =>
  t.field({
    type: [NodeRef],
    nullable: { list: false, items: true },
    description: 'Objects by id, in the order asked; null for unknown or malformed ids.',
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) =>
      // Unknown ids load as null; an Error is a failed lookup and must not pass for "unknown".
      (await nodeLoader(ctx).loadMany(args.ids.map(String))).map((n) => {
        if (n instanceof Error) throw n;
        return n as { id: string } | null;
      }),
  }),
);
