/**
 * GraphQL types of compaction: CompactionRecord, the ContextEntry union, Thread.compactions,
 * Thread.context, and the addCompaction and clearCompactions mutations.
 */
import { CompactionItemRef, ITEM_TYPES, itemTypeName } from '../items/item.schema.js';
import type { ItemRecord } from '../items/item.store.js';
import { DEFAULT_PAGE_SIZE } from '../pagination.js';
import { builder, listCost, needs } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import { ThreadRef } from '../threads/thread.schema.js';
import {
  addCompaction,
  clearCompactions,
  compactionsOf,
  isCompactionRecord,
  threadContext,
} from './compaction.service.js';
import type { CompactionRecord } from './compaction.store.js';

export const CompactionRecordRef = builder
  .objectRef<CompactionRecord>('CompactionRecord')
  .implement({
    description:
      'An LLM summary standing in for the raw items startSeq..endSeq (inclusive). Ranges of one thread never overlap.',
    interfaces: [NodeRef],
    isTypeOf: (value) => typeof value === 'object' && value !== null && 'markerSeq' in value,
    fields: (t) => ({
      id: t.exposeID('id', { description: '"<threadId>:compaction:<markerSeq>".' }),
      threadId: t.exposeID('threadId'),
      startSeq: t.exposeInt('startSeq', { description: 'First seq summarized.' }),
      endSeq: t.exposeInt('endSeq', { description: 'Last seq summarized (inclusive).' }),
      summary: t.exposeString('summary', { description: 'The summary text.' }),
      createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
      createdBy: t.exposeString('createdBy', { nullable: true }),
      markerSeq: t.exposeInt('markerSeq', {
        description: 'Seq of the CompactionItem marker written with this record.',
      }),
    }),
  });

const ContextEntryRef = builder.unionType('ContextEntry', {
  description:
    'The history to hand to a model: compaction records in place of the items they cover, then every uncovered item, in seq order. CompactionItem markers are left out.',
  // Every item type but the marker, which the context leaves out.
  types: [CompactionRecordRef, ...ITEM_TYPES.filter((ref) => ref !== CompactionItemRef)],
  resolveType: (entry) =>
    isCompactionRecord(entry as CompactionRecord | ItemRecord)
      ? 'CompactionRecord'
      : itemTypeName(entry as ItemRecord),
});

builder.objectFields(ThreadRef, (t) => ({
  compactions: t.loadableList({
    authScopes: needs('threads:read'),
    type: CompactionRecordRef,
    description: 'In startSeq order.',
    complexity: listCost(DEFAULT_PAGE_SIZE),
    load: (threadIds: string[], ctx) => compactionsOf(ctx, threadIds),
    resolve: (thread) => thread.id,
  }),
  context: t.field({
    authScopes: needs('threads:read'),
    type: [ContextEntryRef],
    // As long as the thread: counted as a full page; the response byte cap bounds the rest.
    complexity: (_args, ctx) => listCost(ctx.limits.maxPageSize),
    description:
      'What to send to a model: each compaction record in place of its range, then the uncovered items, in seq order.',
    resolve: (thread, _args, ctx) => threadContext(ctx, thread),
  }),
}));

const AddCompactionInputRef = builder.inputType('AddCompactionInput', {
  description:
    'Records an LLM summary of items startSeq..endSeq and appends a CompactionItem\nmarker. Fails with BAD_USER_INPUT when the range is reversed, reaches past\nlastSeq, holds no stored item other than compaction markers, or separates a\ntool_call from its tool_result (one side inside, the other outside; a call\nwith no result yet is no pair); with CONFLICT when it overlaps an existing\nrecord. A tool_result pairs with the nearest earlier tool_call of the same\ncallId that has no result yet (models do re-use callIds within a thread).\nA record outlives the purge of the items it covers.',
  fields: (t) => ({
    threadId: t.id({ required: true }),
    startSeq: t.int({ required: true }),
    endSeq: t.int({ required: true }),
    summary: t.string({ required: true }),
    createdBy: t.string(),
  }),
});

const AddCompactionPayloadRef = builder
  .objectRef<Awaited<ReturnType<typeof addCompaction>>>('AddCompactionPayload')
  .implement({
    description: 'The record written, its marker item and the thread after both.',
    fields: (t) => ({
      compaction: t.field({ type: CompactionRecordRef, resolve: (p) => p.compaction }),
      marker: t.field({ type: CompactionItemRef, resolve: (p) => p.marker }),
      thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }),
    }),
  });

builder.mutationField('addCompaction', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: AddCompactionPayloadRef,
    description: 'Records a summary of a range of items and appends its marker.',
    args: { input: t.arg({ type: AddCompactionInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      addCompaction(ctx, { ...input, threadId: String(input.threadId) }),
  }),
);

const ClearCompactionsInputRef = builder.inputType('ClearCompactionsInput', {
  description: "Deletes the thread's compaction records; their marker items stay in the log.",
  fields: (t) => ({ threadId: t.id({ required: true }) }),
});

const ClearCompactionsPayloadRef = builder
  .objectRef<Awaited<ReturnType<typeof clearCompactions>>>('ClearCompactionsPayload')
  .implement({
    description: 'The thread after the records were deleted.',
    fields: (t) => ({
      thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }),
      compactionsDeleted: t.exposeInt('compactionsDeleted'),
    }),
  });

builder.mutationField('clearCompactions', (t) =>
  t.field({
    authScopes: needs('threads:delete'),
    type: ClearCompactionsPayloadRef,
    description: "Deletes a thread's compaction records.",
    args: { input: t.arg({ type: ClearCompactionsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => clearCompactions(ctx, String(input.threadId)),
  }),
);
