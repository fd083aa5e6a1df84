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
    "\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n": typeof types.ErrorsThreadCountDocument,
    "\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n": typeof types.ErrorsThreadCompactionsDocument,
    "\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n": typeof types.ErrorsPayloadTooLargeDocument,
    "\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n": typeof types.ErrorsNextSeqDocument,
    "\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.OperationsCreateThreadDocument,
    "\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n": typeof types.OperationsThreadDocument,
    "\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": typeof types.OperationsAppendDocument,
    "\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n": typeof types.StatementsThreadListDocument,
    "\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.StatementsHistoryPageDocument,
    "\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SeedCreateThreadDocument,
    "\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.SeedAppendItemsDocument,
    "\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n": typeof types.TestFollowDocument,
};
const documents: Documents = {
    "\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n": types.ErrorsThreadCountDocument,
    "\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n": types.ErrorsThreadCompactionsDocument,
    "\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n": types.ErrorsPayloadTooLargeDocument,
    "\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n": types.ErrorsNextSeqDocument,
    "\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.OperationsCreateThreadDocument,
    "\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n": types.OperationsThreadDocument,
    "\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": types.OperationsAppendDocument,
    "\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n": types.StatementsThreadListDocument,
    "\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.StatementsHistoryPageDocument,
    "\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SeedCreateThreadDocument,
    "\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.SeedAppendItemsDocument,
    "\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n": types.TestFollowDocument,
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
export function graphql(source: "\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n"): (typeof documents)["\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n"): (typeof documents)["\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n"): (typeof documents)["\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;