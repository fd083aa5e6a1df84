/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Items to append to one thread. */
export type AppendItemsInput = {
  /** If set, the append fails with CONFLICT unless the first new item would get exactly this seq. */
  expectedSeq?: number | null | undefined;
  /** A retry with the same key on the same thread returns the first result (replayed: true) and writes nothing; the same key with items that are not deep-equal is a CONFLICT. Keys are kept at least 24 hours. */
  idempotencyKey?: string | null | undefined;
  /** 1 to 500 items, written all-or-nothing with consecutive seqs. */
  items: Array<NewItem>;
  threadId: string | number;
};

/** A new thread. */
export type CreateThreadInput = {
  /** The owning agent; fixed for the life of the thread. */
  agentId: string;
  /** When the thread expires: it disappears from every read at once and is deleted soon after. Must be in the future. Left out: RETENTION_DAYS after creation when the server sets it; null: never. */
  expiresAt?: string | null | undefined;
  /** Caller-chosen id (1-128 chars of [A-Za-z0-9._-]); generated when left out. CONFLICT when a thread with this id exists, or existed and was deleted: a deleted thread's id is never used again, so an item id always names the same item. */
  id?: string | number | null | undefined;
  /** A JSON object; {} when left out. */
  metadata?: unknown;
  name?: string | null | undefined;
};

/** An error body. */
export type ErrorInput = {
  code?: string | null | undefined;
  reason: string;
};

/** Whether the item is final, still being produced, or waiting for someone. */
export type ItemStatus =
  | 'ACTION_REQUIRED'
  | 'COMPLETED'
  | 'IN_PROGRESS';

/** A message body. */
export type MessageInput = {
  /** Plain-text content. */
  content?: string | null | undefined;
  /** Structured content parts, stored as given. */
  parts?: unknown;
  /** user, assistant, system, developer, or another role name. */
  role: string;
  usage?: TokenUsageInput | null | undefined;
};

/** Exactly one of the body fields (message ... other) must be set. */
export type NewItem = {
  /** For importing history; defaults to the time of the append. */
  createdAt?: string | null | undefined;
  createdBy?: string | null | undefined;
  error?: ErrorInput | null | undefined;
  message?: MessageInput | null | undefined;
  other?: OtherItemInput | null | undefined;
  /** The source record the item was made from, stored verbatim; needs rawFormat. Its JSON counts toward the item size limit together with the data. */
  raw?: unknown;
  rawFormat?: TranscriptFormat | null | undefined;
  reasoning?: ReasoningInput | null | undefined;
  resourceEvent?: ResourceEventInput | null | undefined;
  responseId?: string | null | undefined;
  slashCommand?: SlashCommandInput | null | undefined;
  status?: ItemStatus | null | undefined;
  terminal?: TerminalInput | null | undefined;
  toolCall?: ToolCallInput | null | undefined;
  toolResult?: ToolResultInput | null | undefined;
};

/** An item of a type outside the known set. */
export type OtherItemInput = {
  data: unknown;
  /** Matches ^[a-z][a-z0-9_]{0,63}$ and is not one of the known type names (those have their own field; compaction markers come from addCompaction). */
  type: string;
};

/** A reasoning body. */
export type ReasoningInput = {
  encryptedContent?: string | null | undefined;
  signature?: string | null | undefined;
  summary?: unknown;
  text: string;
};

/** A lifecycle event body. */
export type ResourceEventInput = {
  kind: string;
  payload?: unknown;
};

/** A slash command body. */
export type SlashCommandInput = {
  args?: string | null | undefined;
  command: string;
};

/** A terminal stream body. */
export type TerminalInput = {
  /** stdin, stdout or stderr. */
  stream: string;
  text: string;
};

/** Which threads to list; every given condition must hold. */
export type ThreadFilter = {
  /** Only threads of this agent. */
  agentId?: string | null | undefined;
  /** Archived threads are left out unless this is true. */
  includeArchived?: boolean | null | undefined;
  /** A JSON object: threads whose metadata has every top-level key of it with an equal value (nested values compared whole). */
  metadata?: unknown;
  /** Substring of the name, case-insensitive for all of Unicode (ÉTÉ matches été) on every database. */
  nameContains?: string | null | undefined;
};

/** Token counts reported by the model. */
export type TokenUsageInput = {
  inputTokens?: number | null | undefined;
  outputTokens?: number | null | undefined;
  totalTokens?: number | null | undefined;
};

/** A tool call body. */
export type ToolCallInput = {
  arguments: unknown;
  callId: string;
  name: string;
};

/** A tool result body. */
export type ToolResultInput = {
  callId: string;
  isError?: boolean | null | undefined;
  name?: string | null | undefined;
  output: unknown;
};

/** The transcript formats threadstore imports and exports. */
export type TranscriptFormat =
  /** Vercel AI SDK UIMessage list: [{id, role, parts: [...]}]. */
  | 'AI_SDK_UI_MESSAGES'
  /** Anthropic Messages API: {system?, messages: [{role, content: string | blocks}]}. */
  | 'ANTHROPIC_MESSAGES'
  /** Claude Code session JSONL: one record a line, several lines may share one message.id. */
  | 'CLAUDE_CODE_JSONL'
  /** OpenAI Chat Completions messages: [{role, content, tool_calls, tool_call_id, ...}]. */
  | 'OPENAI_CHAT'
  /** OpenAI Responses input/output items: [{type: message | reasoning | function_call | function_call_output | ...}]. */
  | 'OPENAI_RESPONSES'
  /** threadstore's own dump: one JSON line for the thread, then one per item and per compaction record; restores byte-identical on either database. */
  | 'THREADSTORE_JSONL';

export type CreateThreadMutationVariables = Exact<{
  input: CreateThreadInput;
}>;


export type CreateThreadMutation = { createThread: { thread: { id: string, agentId: string, name: string | null, metadata: unknown, createdAt: string } } };

export type AppendItemsMutationVariables = Exact<{
  input: AppendItemsInput;
}>;


export type AppendItemsMutation = { appendItems: { replayed: boolean, thread: { id: string, nextSeq: number, itemCount: number }, items: Array<
      | { __typename: 'CompactionItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'ErrorItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'MessageItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, role: string, content: string | null }
      | { __typename: 'OtherItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'ReasoningItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'ResourceEventItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'SlashCommandItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'TerminalItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
      | { __typename: 'ToolCallItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, name: string, arguments: unknown }
      | { __typename: 'ToolResultItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, output: unknown, isError: boolean }
    > } };

export type ThreadPageQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ThreadPageQuery = { thread: { id: string, name: string | null, nextSeq: number, itemCount: number, items: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node:
          | { __typename: 'CompactionItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ErrorItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'MessageItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, role: string, content: string | null }
          | { __typename: 'OtherItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ReasoningItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ResourceEventItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'SlashCommandItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'TerminalItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ToolCallItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, name: string, arguments: unknown }
          | { __typename: 'ToolResultItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, output: unknown, isError: boolean }
         }> } } | null };

export type ThreadListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  filter?: ThreadFilter | null | undefined;
}>;


export type ThreadListQuery = { threads: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, name: string | null, agentId: string, updatedAt: string, itemCount: number, lastItem:
          | { __typename: 'CompactionItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ErrorItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'MessageItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, role: string, content: string | null }
          | { __typename: 'OtherItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ReasoningItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ResourceEventItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'SlashCommandItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'TerminalItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
          | { __typename: 'ToolCallItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, name: string, arguments: unknown }
          | { __typename: 'ToolResultItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, output: unknown, isError: boolean }
         | null } }> } };

export type FollowThreadSubscriptionVariables = Exact<{
  threadId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type FollowThreadSubscription = { threadItems:
    | { __typename: 'CompactionItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'ErrorItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'MessageItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, role: string, content: string | null }
    | { __typename: 'OtherItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'ReasoningItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'ResourceEventItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'SlashCommandItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'TerminalItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown }
    | { __typename: 'ToolCallItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, name: string, arguments: unknown }
    | { __typename: 'ToolResultItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, output: unknown, isError: boolean }
   };

type ItemFields_CompactionItem_Fragment = { __typename: 'CompactionItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_ErrorItem_Fragment = { __typename: 'ErrorItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_MessageItem_Fragment = { __typename: 'MessageItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, role: string, content: string | null };

type ItemFields_OtherItem_Fragment = { __typename: 'OtherItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_ReasoningItem_Fragment = { __typename: 'ReasoningItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_ResourceEventItem_Fragment = { __typename: 'ResourceEventItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_SlashCommandItem_Fragment = { __typename: 'SlashCommandItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_TerminalItem_Fragment = { __typename: 'TerminalItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown };

type ItemFields_ToolCallItem_Fragment = { __typename: 'ToolCallItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, name: string, arguments: unknown };

type ItemFields_ToolResultItem_Fragment = { __typename: 'ToolResultItem', id: string, seq: number, type: string, status: ItemStatus, createdAt: string, createdBy: string | null, data: unknown, callId: string, output: unknown, isError: boolean };

export type ItemFieldsFragment =
  | ItemFields_CompactionItem_Fragment
  | ItemFields_ErrorItem_Fragment
  | ItemFields_MessageItem_Fragment
  | ItemFields_OtherItem_Fragment
  | ItemFields_ReasoningItem_Fragment
  | ItemFields_ResourceEventItem_Fragment
  | ItemFields_SlashCommandItem_Fragment
  | ItemFields_TerminalItem_Fragment
  | ItemFields_ToolCallItem_Fragment
  | ItemFields_ToolResultItem_Fragment
;

export const ItemFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Item"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ItemFieldsFragment, unknown>;
export const CreateThreadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateThread"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateThreadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createThread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]} as unknown as DocumentNode<CreateThreadMutation, CreateThreadMutationVariables>;
export const AppendItemsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendItems"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AppendItemsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"thread"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"nextSeq"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Item"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<AppendItemsMutation, AppendItemsMutationVariables>;
export const ThreadPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"thread"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"nextSeq"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Item"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ThreadPageQuery, ThreadPageQueryVariables>;
export const ThreadListDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ThreadList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ThreadFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threads"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"agentId"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"lastItem"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemFields"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Item"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<ThreadListQuery, ThreadListQueryVariables>;
export const FollowThreadDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"FollowThread"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"threadItems"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"threadId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"threadId"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ItemFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ItemFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Item"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ConversationItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdBy"}},{"kind":"Field","name":{"kind":"Name","value":"data"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"MessageItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolCallItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ToolResultItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"callId"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"isError"}}]}}]}}]} as unknown as DocumentNode<FollowThreadSubscription, FollowThreadSubscriptionVariables>;