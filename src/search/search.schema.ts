/**
 * GraphQL types of item search (contract-parts/beyond.graphql): ItemSearchFilter,
 * ItemSearchEdge, ItemSearchConnection and Query.searchItems. Rules are in search.service.ts.
 */
import { ItemRef } from '../items/item.schema.js';
import { builder, needs, pageCost } from '../schema/builder.js';
import { ThreadRef } from '../threads/thread.schema.js';
import {
  type ItemSearchConnection,
  type ItemSearchEdge,
  SEARCH_MAX_PAGE,
  searchItems,
} from './search.service.js';

const ItemSearchFilterRef = builder.inputType('ItemSearchFilter', {
  description: 'Which items to search; every given condition must hold.',
  fields: (t) => ({
    agentId: t.string({ description: 'Only items of threads of this agent.' }),
    threadId: t.id({ description: 'Only items of this thread.' }),
    types: t.stringList({ description: 'Only items of these types (1 to 100 of them).' }),
    includeArchived: t.boolean({
      defaultValue: false,
      description: 'Items of archived threads are left out unless this is true.',
    }),
    createdAfter: t.field({
      type: 'DateTime',
      description: 'Only items created after this time (exclusive).',
    }),
    createdBefore: t.field({
      type: 'DateTime',
      description: 'Only items created before this time (exclusive).',
    }),
  }),
});

const ItemSearchEdgeRef = builder.objectRef<ItemSearchEdge>('ItemSearchEdge').implement({
  description: 'A matching item, its thread and the matching text.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` for the next results.' }),
    node: t.field({ type: ItemRef, resolve: (e) => e.node, description: 'The matching item.' }),
    thread: t.field({
      type: ThreadRef,
      resolve: (e) => e.thread,
      description: 'The thread the item belongs to.',
    }),
    snippet: t.exposeString('snippet', {
      description:
        'The matching text with each match wrapped in <mark></mark> (the rest escaped as HTML).',
    }),
  }),
});

const ItemSearchConnectionRef = builder
  .objectRef<ItemSearchConnection>('ItemSearchConnection')
  .implement({
    description: 'A page of search results, best matches first.',
    fields: (t) => ({
      edges: t.field({
        type: [ItemSearchEdgeRef],
        resolve: (c) => c.edges,
        description: 'The results of this page.',
      }),
      pageInfo: t.field({
        type: builder.pageInfoRef(),
        resolve: (c) => c.pageInfo,
        description: 'Whether more results follow, and the cursors of this page.',
      }),
    }),
  });

builder.queryField('searchItems', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: ItemSearchConnectionRef,
    complexity: pageCost,
    description: `Full-text search over the text of items (message content and text parts,
reasoning text, tool names, arguments and outputs, errors, terminal text),
best matches first. Words match case- and accent-insensitively; several
words must all match, OR between two words matches either, a leading -
excludes a word, a trailing * matches a prefix, "quoted words" match a
phrase; scripts written without spaces (CJK) match by substring. The same query finds the same items on both
databases. Default page 20, maximum ${SEARCH_MAX_PAGE}.`,
    args: {
      query: t.arg.string({ required: true }),
      filter: t.arg({ type: ItemSearchFilterRef }),
      first: t.arg.int(),
      after: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      searchItems(ctx, {
        query: args.query,
        filter: args.filter && {
          ...args.filter,
          threadId: args.filter.threadId == null ? null : String(args.filter.threadId),
        },
        first: args.first,
        after: args.after,
      }),
  }),
);
