/**
 * GraphQL types of threads: Thread, the thread list (ThreadConnection with filter and order),
 * Query.thread/threads and the create/update/delete mutations. Fields of Thread that belong
 * to other modules (items, lastItem, compactions, context) are added by those modules.
 */

import type { UsageTotals } from '../items/item-types.js';
import { THREAD_EVENT_TYPES, type ThreadEventPayload } from '../pubsub/topics.js';
import { builder, needs, pageCost } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import {
  createThread,
  deleteThread,
  findThread,
  lastSeqOf,
  threadMetadata,
  updateThread,
} from './thread.service.js';
import type { ThreadRecord } from './thread.store.js';
import { followThreadEvents } from './thread-events.js';
import { listThreads, THREAD_ORDERS } from './thread-list.service.js';

const UsageTotalsRef = builder.objectRef<UsageTotals>('UsageTotals').implement({
  description:
    'Token counts summed over the stored message items that reported usage. A message that gives no totalTokens counts inputTokens + outputTokens.',
  fields: (t) => ({
    inputTokens: t.field({ type: 'SafeInt', resolve: (u) => u.inputTokens }),
    outputTokens: t.field({ type: 'SafeInt', resolve: (u) => u.outputTokens }),
    totalTokens: t.field({ type: 'SafeInt', resolve: (u) => u.totalTokens }),
    messagesWithUsage: t.exposeInt('messagesWithUsage', {
      description: 'Message items that reported usage.',
    }),
  }),
});

export const ThreadRef = builder.objectRef<ThreadRecord>('Thread').implement({
  description: 'A conversation: the owner agent, a name, flags, metadata and its item log.',
  interfaces: [NodeRef],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'agentId' in value,
  fields: (t) => ({
    id: t.exposeID('id', {
      description: 'Caller-chosen or generated; 1-128 chars of [A-Za-z0-9._-].',
    }),
    agentId: t.exposeString('agentId', {
      description: 'The agent that owns the thread; fixed when the thread is created.',
    }),
    name: t.exposeString('name', { nullable: true, description: 'A display name.' }),
    archived: t.exposeBoolean('archived', {
      description: 'Archived threads are left out of lists by default.',
    }),
    metadata: t.field({
      type: 'JSON',
      description: 'A JSON object; {} when none was given.',
      resolve: (thread) => threadMetadata(thread),
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the thread was created.',
      resolve: (th) => th.createdAt,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'Bumped by every append, update, compaction and purge.',
      resolve: (thread) => thread.updatedAt,
    }),
    nextSeq: t.exposeInt('nextSeq', {
      description: 'Seq the next appended item will get (0 for a new thread).',
    }),
    lastSeq: t.int({
      nullable: true,
      description: 'Seq of the newest item ever appended; null when none was.',
      resolve: (thread) => lastSeqOf(thread),
    }),
    itemCount: t.exposeInt('itemCount', {
      description: 'Items currently stored (purged items are not counted).',
    }),
    usage: t.field({
      type: UsageTotalsRef,
      description: 'Sums of the usage of the stored message items (purged items no longer count).',
      // Kept on the thread row by appends and purges: reading it reads no item.
      resolve: (thread) => thread.usage,
    }),
    expiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When the thread and everything in it will be deleted (null: kept until deleted).',
      resolve: (thread) => thread.expiresAt,
    }),
  }),
});

builder.queryField('thread', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: ThreadRef,
    nullable: true,
    description: 'A thread by id; null when it does not exist.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => findThread(ctx, String(args.id)),
  }),
);

const ThreadFilterRef = builder.inputType('ThreadFilter', {
  description: 'Which threads to list; every given condition must hold.',
  fields: (t) => ({
    agentId: t.string({ description: 'Only threads of this agent.' }),
    includeArchived: t.boolean({
      defaultValue: false,
      description: 'Archived threads are left out unless this is true.',
    }),
    nameContains: t.string({
      description:
        'Substring of the name, case-insensitive for all of Unicode (ÉTÉ matches été) on every database.',
    }),
    metadata: t.field({
      type: 'JSON',
      description:
        'A JSON object: threads whose metadata has every top-level key of it with an equal value (nested values compared whole).',
    }),
  }),
});

const ThreadOrderByRef = builder.enumType('ThreadOrderBy', {
  description:
    'Ties are always broken by id ascending, so paging never repeats or skips a thread that did not change.',
  values: THREAD_ORDERS,
});

/** A page of threads: Query.threads, and Thread.forks (fork.schema.ts). */
export const ThreadConnectionRef = builder.connectionObject(
  {
    type: ThreadRef,
    name: 'ThreadConnection',
    description: 'A page of threads.',
    fields: (c) => ({
      totalCount: c.int({
        description: 'Threads that match the filter (not just this page).',
        resolve: (connection) => connection.totalCount,
      }),
    }),
  },
  { name: 'ThreadEdge', description: 'A thread in a page.' },
);

builder.queryField('threads', (t) =>
  t.connection(
    {
      authScopes: needs('threads:read'),
      type: ThreadRef,
      description: 'Default page size 50, maximum 500; keyset cursors.',
      complexity: pageCost,
      args: {
        filter: t.arg({ type: ThreadFilterRef }),
        orderBy: t.arg({ type: ThreadOrderByRef, defaultValue: 'UPDATED_AT_DESC' }),
      },
      resolve: (_root, args, ctx) => listThreads(ctx, args),
    },
    ThreadConnectionRef,
  ),
);

const CreateThreadInputRef = builder.inputType('CreateThreadInput', {
  description: 'A new thread.',
  fields: (t) => ({
    id: t.id({
      description:
        "Caller-chosen id (1-128 chars of [A-Za-z0-9._-]); generated when left out. CONFLICT when a thread with this id exists, or existed and was deleted: a deleted thread's id is never used again, so an item id always names the same item.",
    }),
    agentId: t.string({
      required: true,
      description: 'The owning agent; fixed for the life of the thread.',
    }),
    name: t.string(),
    metadata: t.field({ type: 'JSON', description: 'A JSON object; {} when left out.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description:
        'When the thread expires: it disappears from every read at once and is deleted soon after. Must be in the future. Left out: RETENTION_DAYS after creation when the server sets it; null: never.',
    }),
  }),
});

const ThreadPayloadFields = (name: string, description: string) =>
  builder.objectRef<{ thread: ThreadRecord }>(name).implement({
    description,
    fields: (t) => ({ thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }) }),
  });

const CreateThreadPayloadRef = ThreadPayloadFields('CreateThreadPayload', 'The thread created.');
const UpdateThreadPayloadRef = ThreadPayloadFields(
  'UpdateThreadPayload',
  'The thread after the update.',
);

builder.mutationField('createThread', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: CreateThreadPayloadRef,
    description: 'Creates a thread. CONFLICT when the id is taken or was used by a deleted thread.',
    args: { input: t.arg({ type: CreateThreadInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      thread: await createThread(ctx, {
        id: input.id == null ? null : String(input.id),
        agentId: input.agentId,
        name: input.name,
        metadata: input.metadata,
        // Absent and null differ: absent takes the RETENTION_DAYS default, null never expires.
        ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
      }),
    }),
  }),
);

const UpdateThreadInputRef = builder.inputType('UpdateThreadInput', {
  description: 'Keys left out stay as they are; name: null clears the name.',
  fields: (t) => ({
    id: t.id({ required: true }),
    name: t.string(),
    archived: t.boolean(),
    metadata: t.field({
      type: 'JSON',
      description: 'Replaces the whole metadata object; must be an object ({} empties it).',
    }),
    expiresAt: t.field({
      type: 'DateTime',
      description:
        'null keeps the thread until it is deleted. A time must be in the future; an expired thread cannot be updated (NOT_FOUND).',
    }),
  }),
});

builder.mutationField('updateThread', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: UpdateThreadPayloadRef,
    description: 'Changes the name, archived flag, metadata or expiry of a thread.',
    args: { input: t.arg({ type: UpdateThreadInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      // Spread keeps absent keys absent: only given keys change.
      thread: await updateThread(ctx, { ...input, id: String(input.id) }),
    }),
  }),
);

const DeleteThreadInputRef = builder.inputType('DeleteThreadInput', {
  description: 'The thread to delete.',
  fields: (t) => ({ id: t.id({ required: true }) }),
});

const DeleteThreadPayloadRef = builder
  .objectRef<Awaited<ReturnType<typeof deleteThread>>>('DeleteThreadPayload')
  .implement({
    description: 'Deletes the thread with all its items and compaction records (right to erasure).',
    fields: (t) => ({
      deletedThreadId: t.exposeID('deletedThreadId'),
      itemsDeleted: t.exposeInt('itemsDeleted'),
      compactionsDeleted: t.exposeInt('compactionsDeleted'),
    }),
  });

builder.mutationField('deleteThread', (t) =>
  t.field({
    authScopes: needs('threads:delete'),
    type: DeleteThreadPayloadRef,
    description:
      'Deletes a thread and everything in it. Its id is never used again (createThread answers CONFLICT).',
    args: { input: t.arg({ type: DeleteThreadInputRef, required: true }) },
    resolve: (_root, { input }, ctx) => deleteThread(ctx, String(input.id)),
  }),
);

const ThreadEventTypeRef = builder.enumType('ThreadEventType', {
  description: 'What happened to a thread.',
  values: THREAD_EVENT_TYPES,
});

const ThreadEventRef = builder.objectRef<ThreadEventPayload>('ThreadEvent').implement({
  description: 'A change to a thread, for live thread lists.',
  fields: (t) => ({
    type: t.field({ type: ThreadEventTypeRef, resolve: (e) => e.type }),
    threadId: t.exposeID('threadId'),
    thread: t.field({
      type: ThreadRef,
      nullable: true,
      description: 'Null once the thread is deleted.',
      resolve: (e, _args, ctx) => (e.type === 'DELETED' ? null : findThread(ctx, e.threadId)),
    }),
    at: t.field({ type: 'DateTime', resolve: (e) => new Date(e.at) }),
  }),
});

builder.subscriptionField('threadEvents', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: ThreadEventRef,
    description:
      'Changes to threads, optionally of one agent, for live thread lists. addCompaction and clearCompactions emit COMPACTED, not ITEMS_APPENDED.',
    args: { agentId: t.arg.string() },
    subscribe: (_root, args, ctx) => followThreadEvents(ctx, args.agentId),
    resolve: (event: ThreadEventPayload) => event,
  }),
);
