/* eslint-disable */
import * as types from './graphql.js';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "mutation CreateThread($input: CreateThreadInput!) {\n  createThread(input: $input) {\n    thread {\n      id\n      agentId\n      name\n      metadata\n      createdAt\n    }\n  }\n}\n\nmutation AppendItems($input: AppendItemsInput!) {\n  appendItems(input: $input) {\n    replayed\n    thread {\n      id\n      nextSeq\n      itemCount\n    }\n    items {\n      ...ItemFields\n    }\n  }\n}\n\nquery ThreadPage($id: ID!, $first: Int, $after: String) {\n  thread(id: $id) {\n    id\n    name\n    nextSeq\n    itemCount\n    items(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nquery ThreadList($first: Int, $after: String, $filter: ThreadFilter) {\n  threads(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        name\n        agentId\n        updatedAt\n        itemCount\n        lastItem {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nsubscription FollowThread($threadId: ID!, $afterSeq: Int) {\n  threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n    ...ItemFields\n  }\n}\n\nfragment ItemFields on Item {\n  __typename\n  ... on ConversationItem {\n    id\n    seq\n    type\n    status\n    createdAt\n    createdBy\n    data\n  }\n  ... on MessageItem {\n    role\n    content\n  }\n  ... on ToolCallItem {\n    callId\n    name\n    arguments\n  }\n  ... on ToolResultItem {\n    callId\n    output\n    isError\n  }\n}": typeof types.CreateThreadDocument,
};
const documents: Documents = {
    "mutation CreateThread($input: CreateThreadInput!) {\n  createThread(input: $input) {\n    thread {\n      id\n      agentId\n      name\n      metadata\n      createdAt\n    }\n  }\n}\n\nmutation AppendItems($input: AppendItemsInput!) {\n  appendItems(input: $input) {\n    replayed\n    thread {\n      id\n      nextSeq\n      itemCount\n    }\n    items {\n      ...ItemFields\n    }\n  }\n}\n\nquery ThreadPage($id: ID!, $first: Int, $after: String) {\n  thread(id: $id) {\n    id\n    name\n    nextSeq\n    itemCount\n    items(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nquery ThreadList($first: Int, $after: String, $filter: ThreadFilter) {\n  threads(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        name\n        agentId\n        updatedAt\n        itemCount\n        lastItem {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nsubscription FollowThread($threadId: ID!, $afterSeq: Int) {\n  threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n    ...ItemFields\n  }\n}\n\nfragment ItemFields on Item {\n  __typename\n  ... on ConversationItem {\n    id\n    seq\n    type\n    status\n    createdAt\n    createdBy\n    data\n  }\n  ... on MessageItem {\n    role\n    content\n  }\n  ... on ToolCallItem {\n    callId\n    name\n    arguments\n  }\n  ... on ToolResultItem {\n    callId\n    output\n    isError\n  }\n}": types.CreateThreadDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateThread($input: CreateThreadInput!) {\n  createThread(input: $input) {\n    thread {\n      id\n      agentId\n      name\n      metadata\n      createdAt\n    }\n  }\n}\n\nmutation AppendItems($input: AppendItemsInput!) {\n  appendItems(input: $input) {\n    replayed\n    thread {\n      id\n      nextSeq\n      itemCount\n    }\n    items {\n      ...ItemFields\n    }\n  }\n}\n\nquery ThreadPage($id: ID!, $first: Int, $after: String) {\n  thread(id: $id) {\n    id\n    name\n    nextSeq\n    itemCount\n    items(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nquery ThreadList($first: Int, $after: String, $filter: ThreadFilter) {\n  threads(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        name\n        agentId\n        updatedAt\n        itemCount\n        lastItem {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nsubscription FollowThread($threadId: ID!, $afterSeq: Int) {\n  threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n    ...ItemFields\n  }\n}\n\nfragment ItemFields on Item {\n  __typename\n  ... on ConversationItem {\n    id\n    seq\n    type\n    status\n    createdAt\n    createdBy\n    data\n  }\n  ... on MessageItem {\n    role\n    content\n  }\n  ... on ToolCallItem {\n    callId\n    name\n    arguments\n  }\n  ... on ToolResultItem {\n    callId\n    output\n    isError\n  }\n}"): (typeof documents)["mutation CreateThread($input: CreateThreadInput!) {\n  createThread(input: $input) {\n    thread {\n      id\n      agentId\n      name\n      metadata\n      createdAt\n    }\n  }\n}\n\nmutation AppendItems($input: AppendItemsInput!) {\n  appendItems(input: $input) {\n    replayed\n    thread {\n      id\n      nextSeq\n      itemCount\n    }\n    items {\n      ...ItemFields\n    }\n  }\n}\n\nquery ThreadPage($id: ID!, $first: Int, $after: String) {\n  thread(id: $id) {\n    id\n    name\n    nextSeq\n    itemCount\n    items(first: $first, after: $after) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nquery ThreadList($first: Int, $after: String, $filter: ThreadFilter) {\n  threads(first: $first, after: $after, filter: $filter) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      node {\n        id\n        name\n        agentId\n        updatedAt\n        itemCount\n        lastItem {\n          ...ItemFields\n        }\n      }\n    }\n  }\n}\n\nsubscription FollowThread($threadId: ID!, $afterSeq: Int) {\n  threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n    ...ItemFields\n  }\n}\n\nfragment ItemFields on Item {\n  __typename\n  ... on ConversationItem {\n    id\n    seq\n    type\n    status\n    createdAt\n    createdBy\n    data\n  }\n  ... on MessageItem {\n    role\n    content\n  }\n  ... on ToolCallItem {\n    callId\n    name\n    arguments\n  }\n  ... on ToolResultItem {\n    callId\n    output\n    isError\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;