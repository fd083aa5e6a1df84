/**
 * GraphQL inputs of the item log and its writes: NewItem with one input type per body field,
 * and the appendItems and purgeItems mutations.
 */
import { builder, needs } from '../schema/builder.js';
import { ThreadRef } from '../threads/thread.schema.js';
import { ItemRef, ItemStatusEnum, TranscriptFormatEnum } from './item.schema.js';
import { appendItems, type NewItemInput, purgeItems } from './item.service.js';
import { BODY_FIELDS, type BodyField } from './item-types.js';

const TokenUsageInput = builder.inputType('TokenUsageInput', {
  description: 'Token counts reported by the model.',
  fields: (t) => ({
    inputTokens: t.int(),
    outputTokens: t.int(),
    totalTokens: t.int(),
  }),
});

/** The input type of each NewItem body field; keyed like bodySchemas (item-types.ts). */
const bodyInputs: Record<BodyField, ReturnType<typeof builder.inputType>> = {
  message: builder.inputType('MessageInput', {
    description: 'A message body.',
    fields: (t) => ({
      role: t.string({
        required: true,
        description: 'user, assistant, system, developer, or another role name.',
      }),
      content: t.string({ description: 'Plain-text content.' }),
      parts: t.field({ type: 'JSON', description: 'Structured content parts, stored as given.' }),
      usage: t.field({ type: TokenUsageInput }),
    }),
  }),
  toolCall: builder.inputType('ToolCallInput', {
    description: 'A tool call body.',
    fields: (t) => ({
      callId: t.string({ required: true }),
      name: t.string({ required: true }),
      arguments: t.field({ type: 'JSON', required: true }),
    }),
  }),
  toolResult: builder.inputType('ToolResultInput', {
    description: 'A tool result body.',
    fields: (t) => ({
      callId: t.string({ required: true }),
      name: t.string(),
      output: t.field({ type: 'JSON', required: true }),
      isError: t.boolean({ defaultValue: false }),
    }),
  }),
  reasoning: builder.inputType('ReasoningInput', {
    description: 'A reasoning body.',
    fields: (t) => ({
      text: t.string({ required: true }),
      signature: t.string(),
      encryptedContent: t.string(),
      summary: t.field({ type: 'JSON' }),
    }),
  }),
  error: builder.inputType('ErrorInput', {
    description: 'An error body.',
    fields: (t) => ({ reason: t.string({ required: true }), code: t.string() }),
  }),
  resourceEvent: builder.inputType('ResourceEventInput', {
    description: 'A lifecycle event body.',
    fields: (t) => ({ kind: t.string({ required: true }), payload: t.field({ type: 'JSON' }) }),
  }),
  slashCommand: builder.inputType('SlashCommandInput', {
    description: 'A slash command body.',
    fields: (t) => ({ command: t.string({ required: true }), args: t.string() }),
  }),
  terminal: builder.inputType('TerminalInput', {
    description: 'A terminal stream body.',
    fields: (t) => ({
      stream: t.string({ required: true, description: 'stdin, stdout or stderr.' }),
      text: t.string({ required: true }),
    }),
  }),
  other: builder.inputType('OtherItemInput', {
    description: 'An item of a type outside the known set.',
    fields: (t) => ({
      type: t.string({
        required: true,
        description:
          'Matches ^[a-z][a-z0-9_]{0,63}$ and is not one of the known type names (those have their own field; compaction markers come from addCompaction).',
      }),
      data: t.field({ type: 'JSON', required: true }),
    }),
  }),
};

export const NewItemInputRef = builder.inputType('NewItem', {
  description: 'Exactly one of the body fields (message ... other) must be set.',
  fields: (t) => ({
    status: t.field({ type: ItemStatusEnum, defaultValue: 'COMPLETED' }),
    responseId: t.string(),
    createdBy: t.string(),
    createdAt: t.field({
      type: 'DateTime',
      description: 'For importing history; defaults to the time of the append.',
    }),
    raw: t.field({
      type: 'JSON',
      description:
        'The source record the item was made from, stored verbatim; needs rawFormat. Its JSON counts toward the item size limit together with the data.',
    }),
    rawFormat: t.field({ type: TranscriptFormatEnum }),
    // One optional field per body field (item-types.ts, bodySchemas).
    ...Object.fromEntries(
      BODY_FIELDS.map((field) => [field, t.field({ type: bodyInputs[field] })]),
    ),
  }),
});

const AppendItemsInputRef = builder.inputType('AppendItemsInput', {
  description: 'Items to append to one thread.',
  fields: (t) => ({
    threadId: t.id({ required: true }),
    items: t.field({
      type: [NewItemInputRef],
      required: true,
      description: '1 to 500 items, written all-or-nothing with consecutive seqs.',
    }),
    expectedSeq: t.int({
      description:
        'If set, the append fails with CONFLICT unless the first new item would get exactly this seq.',
    }),
    idempotencyKey: t.string({
      description:
        'A retry with the same key on the same thread returns the first result (replayed: true) and writes nothing; the same key with items that are not deep-equal is a CONFLICT. Keys are kept at least 24 hours.',
    }),
  }),
});

const AppendItemsPayloadRef = builder
  .objectRef<Awaited<ReturnType<typeof appendItems>>>('AppendItemsPayload')
  .implement({
    description: 'The result of appendItems.',
    fields: (t) => ({
      thread: t.field({
        type: ThreadRef,
        description: 'The thread after the append.',
        resolve: (p) => p.thread,
      }),
      items: t.field({
        type: [ItemRef],
        description: 'The items written, in seq order.',
        resolve: (p) => p.items,
      }),
      replayed: t.exposeBoolean('replayed', {
        description: 'True when this answers a retry with an idempotency key already used.',
      }),
    }),
  });

builder.mutationField('appendItems', (t) =>
  t.field({
    authScopes: needs('threads:write'),
    type: AppendItemsPayloadRef,
    description: 'Appends items to a thread, all-or-nothing, with consecutive seqs.',
    args: { input: t.arg({ type: AppendItemsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      appendItems(ctx, {
        threadId: String(input.threadId),
        items: input.items as NewItemInput[],
        expectedSeq: input.expectedSeq,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
);

const PurgeItemsInputRef = builder.inputType('PurgeItemsInput', {
  description: 'Deletes the raw items created before `before` (retention). Seqs are not reused.',
  fields: (t) => ({
    threadId: t.id({ required: true }),
    before: t.field({ type: 'DateTime', required: true }),
  }),
});

const PurgeItemsPayloadRef = builder
  .objectRef<Awaited<ReturnType<typeof purgeItems>>>('PurgeItemsPayload')
  .implement({
    description: 'The result of purgeItems.',
    fields: (t) => ({
      thread: t.field({ type: ThreadRef, resolve: (p) => p.thread }),
      itemsDeleted: t.exposeInt('itemsDeleted'),
    }),
  });

builder.mutationField('purgeItems', (t) =>
  t.field({
    authScopes: needs('threads:delete'),
    type: PurgeItemsPayloadRef,
    description: 'Deletes the items of a thread created before a time (retention).',
    args: { input: t.arg({ type: PurgeItemsInputRef, required: true }) },
    resolve: (_root, { input }, ctx) =>
      purgeItems(ctx, { threadId: String(input.threadId), before: input.before }),
  }),
);
