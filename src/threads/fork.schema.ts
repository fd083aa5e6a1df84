/**
 * GraphQL types of forks (contract part beyond): ThreadOrigin, Thread.forkedFrom,
 * Thread.forks and the forkThread mutation. Rules are in fork.service.ts.
 */
import { builder, needs, pageCost } from '../schema/builder.js';
import { forkThread, listForks } from './fork.service.js';
import { ThreadConnectionRef, ThreadRef } from './thread.schema.js';
import { findThreads } from './thread.service.js';

/** Where a fork came from: the source's id and the last seq copied. */
interface ThreadOrigin {
  threadId: string;
  seq: number;
}

const ThreadOriginRef = builder.objectRef<ThreadOrigin>('ThreadOrigin').implement({
  description: 'The thread a fork was made from, and the last seq it copied.',
  fields: (t) => ({
    thread: t.loadable({
      type: ThreadRef,
      nullable: true,
      description: 'Null once the source thread is deleted (threadId stays).',
      // One statement for every origin in the response (a list of forks).
      load: (ids: string[], ctx) => findThreads(ctx, ids),
      resolve: (origin) => origin.threadId,
    }),
    threadId: t.exposeID('threadId', { description: 'The id of the source thread.' }),
    seq: t.exposeInt('seq', { description: 'The last seq the fork copied.' }),
  }),
});

builder.objectFields(ThreadRef, (t) => ({
  forkedFrom: t.field({
    authScopes: needs('threads:read'),
    type: ThreadOriginRef,
    nullable: true,
    description: 'Set on a thread made by forkThread.',
    resolve: (thread) =>
      thread.forkedFromId === null || thread.forkedFromSeq === null
        ? null
        : { threadId: thread.forkedFromId, seq: thread.forkedFromSeq },
  }),
  forks: t.field({
    authScopes: needs('threads:read'),
    type: ThreadConnectionRef,
    description:
      'Threads forked from this one, newest first. Default page size 50, maximum 500; keyset cursors. Archived forks are listed too.',
    complexity: pageCost,
    args: { first: t.arg.int(), after: t.arg.string() },
    resolve: (thread, args, ctx) => listForks(ctx, thread.id, args),
  }),
}));

const ForkThreadInputRef = builder.inputType('ForkThreadInput', {
  description:
    "Copies items 0..atSeq (with their seqs, types, data and createdAt; ids are the\nnew thread's) and the compaction records that lie wholly inside that range to\na new thread of the same agent. The fork then lives its own life: appends to\neither thread never show in the other. BAD_USER_INPUT when atSeq is past\nlastSeq or negative.",
  fields: (t) => ({
    threadId: t.id({ required: true, description: 'The thread to fork.' }),
    atSeq: t.int({
      required: true,
      description:
        'The last seq to copy (0..lastSeq). A compaction record is copied when its range and its marker item are both at or before atSeq.',
    }),
    id: t.id({
      description:
        "The fork's id (1-128 chars of [A-Za-z0-9._-]); generated when left out. CONFLICT when a thread with this id exists, or existed and was deleted.",
    }),
    name: t.string({
      description: "The fork's name; the source's name when left out, none when null.",
    }),
    metadata: t.field({
      type: 'JSON',
      description: "A JSON object; the source's metadata when left out or null.",
    }),
  }),
});

const ForkThreadPayloadRef = builder
  .objectRef<{ thread: Awaited<ReturnType<typeof forkThread>>['thread'] }>('ForkThreadPayload')
  .implement({
    description: 'The fork created.',
    fields: (t) => ({ thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }) }),
  });

builder.mutationField('forkThread', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: ForkThreadPayloadRef,
    description:
      'Forks a thread at a seq into a new thread of the same agent, in one transaction. NOT_FOUND for an unknown source; BAD_USER_INPUT when atSeq is negative or past lastSeq; CONFLICT when the id is taken or was used by a deleted thread.',
    args: { input: t.arg({ type: ForkThreadInputRef, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { thread } = await forkThread(ctx, {
        threadId: String(input.threadId),
        atSeq: input.atSeq,
        id: input.id == null ? null : String(input.id),
        // Absent keys stay absent (inherit), null clears: see fork.service.ts.
        ...('name' in input ? { name: input.name } : {}),
        metadata: input.metadata,
      });
      return { thread };
    },
  }),
);
