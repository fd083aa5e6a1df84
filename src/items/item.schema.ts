/**
 * GraphQL types of the item log: ConversationItem and its ten object types, the Item union,
 * Query.item, Thread.items and Thread.lastItem, and Subscription.threadItems. The inputs and
 * the appendItems and purgeItems mutations are in item-write.schema.ts.
 */
import type { FieldMap } from '@pothos/core';
import { builder, needs, pageCost } from '../schema/builder.js';
import { NodeRef } from '../schema/node.js';
import { ThreadRef } from '../threads/thread.schema.js';
import type { ThreadRecord } from '../threads/thread.store.js';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../transcripts/types.js';
import type { ItemRecord } from './item.store.js';
import { findItem, lastItems, listItems } from './item-history.service.js';
import { followThreadItems } from './item-stream.js';
import {
  ITEM_KINDS,
  ITEM_STATUSES,
  type ItemTypeName,
  itemTypeNameOf,
  KNOWN_ITEM_TYPES,
} from './item-types.js';

/** Descriptions of the TranscriptFormat values (contract-parts/transcripts.graphql). */
const TRANSCRIPT_FORMAT_DESCRIPTIONS: Record<TranscriptFormat, string> = {
  OPENAI_CHAT:
    'OpenAI Chat Completions messages: [{role, content, tool_calls, tool_call_id, ...}].',
  OPENAI_RESPONSES:
    'OpenAI Responses input/output items: [{type: message | reasoning | function_call | function_call_output | ...}].',
  ANTHROPIC_MESSAGES:
    'Anthropic Messages API: {system?, messages: [{role, content: string | blocks}]}.',
  CLAUDE_CODE_JSONL:
    'Claude Code session JSONL: one record a line, several lines may share one message.id.',
  AI_SDK_UI_MESSAGES: 'Vercel AI SDK UIMessage list: [{id, role, parts: [...]}].',
  THREADSTORE_JSONL:
    "threadstore's own dump: one JSON line for the thread, then one per item and per compaction record; restores byte-identical on either database.",
};

export const TranscriptFormatEnum = builder.enumType('TranscriptFormat', {
  description: 'The transcript formats threadstore imports and exports.',
  values: Object.fromEntries(
    TRANSCRIPT_FORMATS.map((f) => [f, { description: TRANSCRIPT_FORMAT_DESCRIPTIONS[f] }]),
  ) as Record<TranscriptFormat, { description: string }>,
});

export const ItemStatusEnum = builder.enumType('ItemStatus', {
  values: ITEM_STATUSES,
  description: 'Whether the item is final, still being produced, or waiting for someone.',
});

interface TokenUsageShape {
  inputTokens?: number | null;
  outputTokens?: number | null;
  totalTokens?: number | null;
}

const TokenUsageRef = builder.objectRef<TokenUsageShape>('TokenUsage').implement({
  description: 'Token counts reported by the model for one message.',
  fields: (t) => ({
    inputTokens: t.int({ nullable: true, resolve: (u) => u.inputTokens ?? null }),
    outputTokens: t.int({ nullable: true, resolve: (u) => u.outputTokens ?? null }),
    totalTokens: t.int({ nullable: true, resolve: (u) => u.totalTokens ?? null }),
  }),
});

/** The GraphQL type name of a stored item. */
export function itemTypeName(item: ItemRecord): string {
  return itemTypeNameOf(item.type);
}

/** The item's data as an object, for type-specific fields. */
function data(item: ItemRecord): Record<string, unknown> {
  return (item.data ?? {}) as Record<string, unknown>;
}

export const ConversationItemRef = builder.interfaceRef<ItemRecord>('ConversationItem').implement({
  description:
    "Fields shared by every entry of a thread's append-only log.\nItems are never modified after they are written.",
  interfaces: [NodeRef],
  resolveType: itemTypeName,
  fields: (t) => ({
    id: t.exposeID('id', {
      description:
        'Stable id: "<threadId>:<seq>". Unique across the whole store; clients dedupe by it.',
    }),
    threadId: t.exposeID('threadId', { description: 'The thread this item belongs to.' }),
    seq: t.exposeInt('seq', {
      description:
        "Position in the thread's log: 0 for the first item, then +1 per item, never reused.",
    }),
    type: t.exposeString('type', {
      description: `Item type as stored: ${KNOWN_ITEM_TYPES.join(', ')}, or any other snake_case name.`,
    }),
    status: t.field({
      type: ItemStatusEnum,
      description: 'Whether the item is final.',
      resolve: (item) => item.status,
    }),
    responseId: t.exposeString('responseId', {
      nullable: true,
      description: 'Groups the items produced by one model response / one agent turn.',
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the item was written (or the imported time).',
      resolve: (item) => item.createdAt,
    }),
    createdBy: t.exposeString('createdBy', {
      nullable: true,
      description: 'Who wrote it: an agent, robot or user name.',
    }),
    data: t.field({
      type: 'JSON',
      description:
        'The whole stored payload: the type-specific fields below under their GraphQL names, as one object (null fields may be left out); for OtherItem, the data given.',
      resolve: (item) => item.data,
    }),
    raw: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'The source record this item was made from, verbatim (e.g. one Anthropic content block, one OpenAI Responses item); null when written without one.',
      resolve: (item) => item.raw ?? null,
    }),
    rawFormat: t.field({
      type: TranscriptFormatEnum,
      nullable: true,
      description: 'The TranscriptFormat that raw belongs to.',
      resolve: (item) => (item.rawFormat as TranscriptFormat | null) ?? null,
    }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type FieldsOf = (t: PothosSchemaTypes.ObjectFieldBuilder<Types, ItemRecord>) => FieldMap;

const itemObjectRefs = new Map<ItemTypeName, ReturnType<typeof itemType>>();

/** Declares one item object type implementing Node and ConversationItem. */
function itemType(name: ItemTypeName, description: string, fields: FieldsOf) {
  const ref = builder.objectRef<ItemRecord>(name).implement({
    description,
    interfaces: [NodeRef, ConversationItemRef],
    isTypeOf: (value) =>
      typeof value === 'object' &&
      value !== null &&
      'seq' in value &&
      !('markerSeq' in value) &&
      itemTypeName(value as ItemRecord) === name,
    fields,
  });
  itemObjectRefs.set(name, ref);
  return ref;
}

export const MessageItemRef = itemType(
  'MessageItem',
  'A message of a user, assistant, system or developer.',
  (t) => ({
    role: t.string({
      description: 'user, assistant, system, developer, or another role name.',
      resolve: (i) => String(data(i).role),
    }),
    content: t.string({
      nullable: true,
      description: 'Plain-text content; null when the message only has parts.',
      resolve: (i) => (data(i).content as string | undefined) ?? null,
    }),
    parts: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Structured content parts exactly as written (text, images, files...).',
      resolve: (i) => data(i).parts ?? null,
    }),
    usage: t.field({
      type: TokenUsageRef,
      nullable: true,
      description: 'Token counts, when the model reported them.',
      resolve: (i) => (data(i).usage as TokenUsageShape | undefined) ?? null,
    }),
  }),
);

export const ToolCallItemRef = itemType('ToolCallItem', 'A call of a tool by the model.', (t) => ({
  callId: t.string({
    description: 'Correlates the call with its ToolResultItem.',
    resolve: (i) => String(data(i).callId),
  }),
  name: t.string({ description: 'The tool called.', resolve: (i) => String(data(i).name) }),
  arguments: t.field({
    type: 'JSON',
    description: 'Parsed arguments; the original string when it was not valid JSON.',
    resolve: (i) => data(i).arguments,
  }),
}));

export const ToolResultItemRef = itemType('ToolResultItem', 'The output of a tool call.', (t) => ({
  callId: t.string({
    description: 'The callId of the ToolCallItem answered.',
    resolve: (i) => String(data(i).callId),
  }),
  name: t.string({
    nullable: true,
    description: 'The tool that answered.',
    resolve: (i) => (data(i).name as string | undefined) ?? null,
  }),
  output: t.field({
    type: 'JSON',
    description: 'What the tool returned.',
    resolve: (i) => data(i).output,
  }),
  isError: t.boolean({
    description: 'True when the tool failed.',
    resolve: (i) => data(i).isError === true,
  }),
}));

export const ReasoningItemRef = itemType('ReasoningItem', "The model's reasoning text.", (t) => ({
  text: t.string({ description: 'The reasoning.', resolve: (i) => String(data(i).text) }),
  signature: t.string({
    nullable: true,
    description: 'Must be sent back unchanged with the reasoning (Anthropic thinking.signature).',
    resolve: (i) => (data(i).signature as string | undefined) ?? null,
  }),
  encryptedContent: t.string({
    nullable: true,
    description:
      'Reasoning the provider keeps encrypted (OpenAI encrypted_content, Anthropic redacted_thinking data); text is empty when only this is known.',
    resolve: (i) => (data(i).encryptedContent as string | undefined) ?? null,
  }),
  summary: t.field({
    type: 'JSON',
    nullable: true,
    description: "The provider's reasoning summary parts, as given.",
    resolve: (i) => data(i).summary ?? null,
  }),
}));

export const ErrorItemRef = itemType('ErrorItem', 'An error the agent ran into.', (t) => ({
  reason: t.string({ description: 'What went wrong.', resolve: (i) => String(data(i).reason) }),
  code: t.string({
    nullable: true,
    description: 'A machine-readable code.',
    resolve: (i) => (data(i).code as string | undefined) ?? null,
  }),
}));

export const CompactionItemRef = itemType(
  'CompactionItem',
  'A marker in the log, written by addCompaction, recording that [startSeq..endSeq] was summarized.',
  (t) => ({
    summary: t.string({
      description: 'The summary recorded.',
      resolve: (i) => String(data(i).summary),
    }),
    startSeq: t.int({
      description: 'First seq summarized.',
      resolve: (i) => Number(data(i).startSeq),
    }),
    endSeq: t.int({
      description: 'Last seq summarized (inclusive).',
      resolve: (i) => Number(data(i).endSeq),
    }),
  }),
);

export const ResourceEventItemRef = itemType(
  'ResourceEventItem',
  'Session or sub-agent lifecycle event.',
  (t) => ({
    kind: t.string({
      description: 'What happened, e.g. session_started.',
      resolve: (i) => String(data(i).kind),
    }),
    payload: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Details of the event.',
      resolve: (i) => data(i).payload ?? null,
    }),
  }),
);

export const SlashCommandItemRef = itemType(
  'SlashCommandItem',
  'A slash command typed by a user.',
  (t) => ({
    command: t.string({
      description: 'The command, e.g. /compact.',
      resolve: (i) => String(data(i).command),
    }),
    args: t.string({
      nullable: true,
      description: 'Its arguments as typed.',
      resolve: (i) => (data(i).args as string | undefined) ?? null,
    }),
  }),
);

export const TerminalItemRef = itemType('TerminalItem', 'Terminal input or output.', (t) => ({
  stream: t.string({
    description: 'stdin, stdout or stderr.',
    resolve: (i) => String(data(i).stream),
  }),
  text: t.string({ description: 'The text of the stream.', resolve: (i) => String(data(i).text) }),
}));

export const OtherItemRef = itemType(
  'OtherItem',
  'An item whose type is outside the known set; its payload is in data.',
  () => ({}),
);

/** Every item object type, in the order of the item-type table (item-types.ts), then OtherItem. */
export const ITEM_TYPES = [...ITEM_KINDS.map((k) => k.graphqlType), 'OtherItem' as const].map(
  (name) => {
    const ref = itemObjectRefs.get(name);
    if (!ref) throw new Error(`item type ${name} has no GraphQL object type`);
    return ref;
  },
);

export const ItemRef = builder.unionType('Item', {
  description: 'Any entry of the log, as its own type.',
  types: [...ITEM_TYPES],
  resolveType: itemTypeName,
});

builder.queryField('item', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: ItemRef,
    nullable: true,
    description: 'One item by thread and seq; null when it does not exist (or was purged).',
    args: { threadId: t.arg.id({ required: true }), seq: t.arg.int({ required: true }) },
    resolve: (_root, args, ctx) => findItem(ctx, String(args.threadId), args.seq),
  }),
);

// Thread fields backed by the item log.

builder.objectFields(ThreadRef, (t) => ({
  items: t.connection(
    {
      // The log is content: readable with threads:read only, also inside a mutation's payload.
      authScopes: needs('threads:read'),
      type: ItemRef,
      complexity: pageCost,
      description:
        'The log in seq order. Cursors are opaque and belong to this thread.\nafterSeq/beforeSeq are exclusive seq bounds usable instead of cursors (a\nnegative afterSeq means from the first item). types filters by\nConversationItem.type; totalCount counts the items matching types, whatever\nthe cursors and bounds. Default page size 50, maximum 500. BAD_USER_INPUT\nfor: first or last negative or over 500, first and last together, an empty\ntypes list, a malformed cursor or one from another thread.',
      args: {
        afterSeq: t.arg.int(),
        beforeSeq: t.arg.int(),
        types: t.arg.stringList(),
      },
      resolve: (thread, args, ctx) => listItems(ctx, thread, args),
    },
    {
      name: 'ItemConnection',
      description: 'A page of a thread log.',
      fields: (c) => ({
        totalCount: c.int({
          description: 'Items of the thread that match the filter (not just this page).',
          resolve: (connection) => connection.totalCount,
        }),
      }),
    },
    { name: 'ItemEdge', description: 'An item in a page.' },
  ),
  lastItem: t.loadable({
    authScopes: needs('threads:read'),
    type: ItemRef,
    nullable: true,
    description: 'The newest stored item, for list previews.',
    load: (threads: ThreadRecord[], ctx) => lastItems(ctx, threads),
    // Keyed by the thread's state too: a subscription (threadEvents) keeps one context, and
    // so one loader cache, for all its events; by id alone, every event after the first would
    // show the first event's lastItem.
    loaderOptions: {
      cacheKeyFn: (thread: ThreadRecord) => `${thread.id}:${thread.nextSeq}:${thread.itemCount}`,
    },
    resolve: (thread) => thread,
  }),
}));

builder.subscriptionField('threadItems', (t) =>
  t.field({
    authScopes: needs('threads:read'),
    type: ItemRef,
    description:
      'The items of one thread in seq order. With afterSeq, first every stored item\nwith seq > afterSeq (-1 replays from the first item; an afterSeq at or past\nthe end replays nothing), then live ones; without it, live ones only. Never\na gap, never a duplicate, also across a reconnect that passes the last seq\nseen. Ends (complete) when the thread is deleted; NOT_FOUND for a thread\nthat does not exist.',
    args: { threadId: t.arg.id({ required: true }), afterSeq: t.arg.int() },
    subscribe: (_root, args, ctx) => followThreadItems(ctx, String(args.threadId), args.afterSeq),
    resolve: (item: ItemRecord) => item,
  }),
);
