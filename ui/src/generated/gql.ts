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
    "\n  query UiThreadLineage($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      id\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            createdAt\n            itemCount\n            forkedFrom {\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.UiThreadLineageDocument,
    "\n  query UiSearchItems($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n          name\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n            createdAt\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.UiSearchItemsDocument,
    "\n  query UiThreadHeader($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n      name\n      archived\n      metadata\n      createdAt\n      updatedAt\n      itemCount\n      lastSeq\n      compactions {\n        id\n        startSeq\n        endSeq\n      }\n    }\n  }\n": typeof types.UiThreadHeaderDocument,
};
const documents: Documents = {
    "\n  query UiThreadLineage($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      id\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            createdAt\n            itemCount\n            forkedFrom {\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.UiThreadLineageDocument,
    "\n  query UiSearchItems($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n          name\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n            createdAt\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.UiSearchItemsDocument,
    "\n  query UiThreadHeader($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n      name\n      archived\n      metadata\n      createdAt\n      updatedAt\n      itemCount\n      lastSeq\n      compactions {\n        id\n        startSeq\n        endSeq\n      }\n    }\n  }\n": types.UiThreadHeaderDocument,
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
export function graphql(source: "\n  query UiThreadLineage($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      id\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            createdAt\n            itemCount\n            forkedFrom {\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query UiThreadLineage($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      id\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          node {\n            id\n            name\n            createdAt\n            itemCount\n            forkedFrom {\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UiSearchItems($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n          name\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n            createdAt\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query UiSearchItems($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n          name\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n            createdAt\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UiThreadHeader($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n      name\n      archived\n      metadata\n      createdAt\n      updatedAt\n      itemCount\n      lastSeq\n      compactions {\n        id\n        startSeq\n        endSeq\n      }\n    }\n  }\n"): (typeof documents)["\n  query UiThreadHeader($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n      name\n      archived\n      metadata\n      createdAt\n      updatedAt\n      itemCount\n      lastSeq\n      compactions {\n        id\n        startSeq\n        endSeq\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;