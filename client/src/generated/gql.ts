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
    "\n  fragment ClientItem on Item {\n    __typename\n    ... on ConversationItem {\n      id\n      threadId\n      seq\n      type\n      status\n      createdAt\n      createdBy\n      responseId\n      data\n    }\n    ... on MessageItem {\n      role\n      content\n      parts\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n      }\n    }\n    ... on ToolCallItem {\n      callId\n      name\n      arguments\n    }\n    ... on ToolResultItem {\n      callId\n      toolName: name\n      output\n      isError\n    }\n    ... on ReasoningItem {\n      text\n      reasoningSummary: summary\n    }\n    ... on ErrorItem {\n      code\n      reason\n    }\n    ... on CompactionItem {\n      startSeq\n      endSeq\n      summary\n    }\n    ... on ResourceEventItem {\n      kind\n      payload\n    }\n    ... on SlashCommandItem {\n      command\n      args\n    }\n    ... on TerminalItem {\n      stream\n      text\n    }\n  }\n": typeof types.ClientItemFragmentDoc,
    "\n  fragment ClientThread on Thread {\n    id\n    agentId\n    name\n    archived\n    metadata\n    createdAt\n    updatedAt\n    itemCount\n    nextSeq\n    lastSeq\n    lastItem {\n      ...ClientItem\n    }\n  }\n": typeof types.ClientThreadFragmentDoc,
    "\n  fragment ClientCompaction on CompactionRecord {\n    id\n    threadId\n    startSeq\n    endSeq\n    markerSeq\n    summary\n    createdAt\n    createdBy\n  }\n": typeof types.ClientCompactionFragmentDoc,
    "\n  query ClientThreads(\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $filter: ThreadFilter\n    $orderBy: ThreadOrderBy\n  ) {\n    threads(\n      first: $first\n      after: $after\n      last: $last\n      before: $before\n      filter: $filter\n      orderBy: $orderBy\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ClientThread\n        }\n      }\n    }\n  }\n": typeof types.ClientThreadsDocument,
    "\n  query ClientThread($id: ID!) {\n    thread(id: $id) {\n      ...ClientThread\n    }\n  }\n": typeof types.ClientThreadDocument,
    "\n  query ClientThreadLastSeq($id: ID!) {\n    thread(id: $id) {\n      id\n      lastSeq\n    }\n  }\n": typeof types.ClientThreadLastSeqDocument,
    "\n  mutation ClientCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": typeof types.ClientCreateThreadDocument,
    "\n  mutation ClientUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": typeof types.ClientUpdateThreadDocument,
    "\n  mutation ClientDeleteThread($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n": typeof types.ClientDeleteThreadDocument,
    "\n  query ClientItems(\n    $threadId: ID!\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $afterSeq: Int\n    $beforeSeq: Int\n    $types: [String!]\n  ) {\n    thread(id: $threadId) {\n      id\n      items(\n        first: $first\n        after: $after\n        last: $last\n        before: $before\n        afterSeq: $afterSeq\n        beforeSeq: $beforeSeq\n        types: $types\n      ) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n        edges {\n          cursor\n          node {\n            ...ClientItem\n          }\n        }\n      }\n    }\n  }\n": typeof types.ClientItemsDocument,
    "\n  query ClientItem($threadId: ID!, $seq: Int!) {\n    item(threadId: $threadId, seq: $seq) {\n      ...ClientItem\n    }\n  }\n": typeof types.ClientItemDocument,
    "\n  mutation ClientAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n      items {\n        ...ClientItem\n      }\n    }\n  }\n": typeof types.ClientAppendItemsDocument,
    "\n  query ClientCompactions($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      compactions {\n        ...ClientCompaction\n      }\n    }\n  }\n": typeof types.ClientCompactionsDocument,
    "\n  mutation ClientAddCompaction($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        ...ClientCompaction\n      }\n      marker {\n        ...ClientItem\n      }\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n    }\n  }\n": typeof types.ClientAddCompactionDocument,
    "\n  mutation ClientClearCompactions($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n": typeof types.ClientClearCompactionsDocument,
    "\n  query ClientContext($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      context {\n        __typename\n        ... on CompactionRecord {\n          ...ClientCompaction\n        }\n        ... on ConversationItem {\n          ...ClientItem\n        }\n      }\n    }\n  }\n": typeof types.ClientContextDocument,
    "\n  query ClientModelContext($threadId: ID!, $format: TranscriptFormat!) {\n    thread(id: $threadId) {\n      id\n      modelContext(format: $format)\n    }\n  }\n": typeof types.ClientModelContextDocument,
    "\n  query ClientViewer {\n    viewer {\n      tenantId\n      subject\n      method\n      scopes\n    }\n  }\n": typeof types.ClientViewerDocument,
    "\n  subscription ClientFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ...ClientItem\n    }\n  }\n": typeof types.ClientFollowDocument,
    "\n  subscription ClientThreadEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      at\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": typeof types.ClientThreadEventsDocument,
};
const documents: Documents = {
    "\n  fragment ClientItem on Item {\n    __typename\n    ... on ConversationItem {\n      id\n      threadId\n      seq\n      type\n      status\n      createdAt\n      createdBy\n      responseId\n      data\n    }\n    ... on MessageItem {\n      role\n      content\n      parts\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n      }\n    }\n    ... on ToolCallItem {\n      callId\n      name\n      arguments\n    }\n    ... on ToolResultItem {\n      callId\n      toolName: name\n      output\n      isError\n    }\n    ... on ReasoningItem {\n      text\n      reasoningSummary: summary\n    }\n    ... on ErrorItem {\n      code\n      reason\n    }\n    ... on CompactionItem {\n      startSeq\n      endSeq\n      summary\n    }\n    ... on ResourceEventItem {\n      kind\n      payload\n    }\n    ... on SlashCommandItem {\n      command\n      args\n    }\n    ... on TerminalItem {\n      stream\n      text\n    }\n  }\n": types.ClientItemFragmentDoc,
    "\n  fragment ClientThread on Thread {\n    id\n    agentId\n    name\n    archived\n    metadata\n    createdAt\n    updatedAt\n    itemCount\n    nextSeq\n    lastSeq\n    lastItem {\n      ...ClientItem\n    }\n  }\n": types.ClientThreadFragmentDoc,
    "\n  fragment ClientCompaction on CompactionRecord {\n    id\n    threadId\n    startSeq\n    endSeq\n    markerSeq\n    summary\n    createdAt\n    createdBy\n  }\n": types.ClientCompactionFragmentDoc,
    "\n  query ClientThreads(\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $filter: ThreadFilter\n    $orderBy: ThreadOrderBy\n  ) {\n    threads(\n      first: $first\n      after: $after\n      last: $last\n      before: $before\n      filter: $filter\n      orderBy: $orderBy\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ClientThread\n        }\n      }\n    }\n  }\n": types.ClientThreadsDocument,
    "\n  query ClientThread($id: ID!) {\n    thread(id: $id) {\n      ...ClientThread\n    }\n  }\n": types.ClientThreadDocument,
    "\n  query ClientThreadLastSeq($id: ID!) {\n    thread(id: $id) {\n      id\n      lastSeq\n    }\n  }\n": types.ClientThreadLastSeqDocument,
    "\n  mutation ClientCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": types.ClientCreateThreadDocument,
    "\n  mutation ClientUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": types.ClientUpdateThreadDocument,
    "\n  mutation ClientDeleteThread($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n": types.ClientDeleteThreadDocument,
    "\n  query ClientItems(\n    $threadId: ID!\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $afterSeq: Int\n    $beforeSeq: Int\n    $types: [String!]\n  ) {\n    thread(id: $threadId) {\n      id\n      items(\n        first: $first\n        after: $after\n        last: $last\n        before: $before\n        afterSeq: $afterSeq\n        beforeSeq: $beforeSeq\n        types: $types\n      ) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n        edges {\n          cursor\n          node {\n            ...ClientItem\n          }\n        }\n      }\n    }\n  }\n": types.ClientItemsDocument,
    "\n  query ClientItem($threadId: ID!, $seq: Int!) {\n    item(threadId: $threadId, seq: $seq) {\n      ...ClientItem\n    }\n  }\n": types.ClientItemDocument,
    "\n  mutation ClientAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n      items {\n        ...ClientItem\n      }\n    }\n  }\n": types.ClientAppendItemsDocument,
    "\n  query ClientCompactions($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      compactions {\n        ...ClientCompaction\n      }\n    }\n  }\n": types.ClientCompactionsDocument,
    "\n  mutation ClientAddCompaction($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        ...ClientCompaction\n      }\n      marker {\n        ...ClientItem\n      }\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n    }\n  }\n": types.ClientAddCompactionDocument,
    "\n  mutation ClientClearCompactions($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n": types.ClientClearCompactionsDocument,
    "\n  query ClientContext($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      context {\n        __typename\n        ... on CompactionRecord {\n          ...ClientCompaction\n        }\n        ... on ConversationItem {\n          ...ClientItem\n        }\n      }\n    }\n  }\n": types.ClientContextDocument,
    "\n  query ClientModelContext($threadId: ID!, $format: TranscriptFormat!) {\n    thread(id: $threadId) {\n      id\n      modelContext(format: $format)\n    }\n  }\n": types.ClientModelContextDocument,
    "\n  query ClientViewer {\n    viewer {\n      tenantId\n      subject\n      method\n      scopes\n    }\n  }\n": types.ClientViewerDocument,
    "\n  subscription ClientFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ...ClientItem\n    }\n  }\n": types.ClientFollowDocument,
    "\n  subscription ClientThreadEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      at\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n": types.ClientThreadEventsDocument,
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
export function graphql(source: "\n  fragment ClientItem on Item {\n    __typename\n    ... on ConversationItem {\n      id\n      threadId\n      seq\n      type\n      status\n      createdAt\n      createdBy\n      responseId\n      data\n    }\n    ... on MessageItem {\n      role\n      content\n      parts\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n      }\n    }\n    ... on ToolCallItem {\n      callId\n      name\n      arguments\n    }\n    ... on ToolResultItem {\n      callId\n      toolName: name\n      output\n      isError\n    }\n    ... on ReasoningItem {\n      text\n      reasoningSummary: summary\n    }\n    ... on ErrorItem {\n      code\n      reason\n    }\n    ... on CompactionItem {\n      startSeq\n      endSeq\n      summary\n    }\n    ... on ResourceEventItem {\n      kind\n      payload\n    }\n    ... on SlashCommandItem {\n      command\n      args\n    }\n    ... on TerminalItem {\n      stream\n      text\n    }\n  }\n"): (typeof documents)["\n  fragment ClientItem on Item {\n    __typename\n    ... on ConversationItem {\n      id\n      threadId\n      seq\n      type\n      status\n      createdAt\n      createdBy\n      responseId\n      data\n    }\n    ... on MessageItem {\n      role\n      content\n      parts\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n      }\n    }\n    ... on ToolCallItem {\n      callId\n      name\n      arguments\n    }\n    ... on ToolResultItem {\n      callId\n      toolName: name\n      output\n      isError\n    }\n    ... on ReasoningItem {\n      text\n      reasoningSummary: summary\n    }\n    ... on ErrorItem {\n      code\n      reason\n    }\n    ... on CompactionItem {\n      startSeq\n      endSeq\n      summary\n    }\n    ... on ResourceEventItem {\n      kind\n      payload\n    }\n    ... on SlashCommandItem {\n      command\n      args\n    }\n    ... on TerminalItem {\n      stream\n      text\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientThread on Thread {\n    id\n    agentId\n    name\n    archived\n    metadata\n    createdAt\n    updatedAt\n    itemCount\n    nextSeq\n    lastSeq\n    lastItem {\n      ...ClientItem\n    }\n  }\n"): (typeof documents)["\n  fragment ClientThread on Thread {\n    id\n    agentId\n    name\n    archived\n    metadata\n    createdAt\n    updatedAt\n    itemCount\n    nextSeq\n    lastSeq\n    lastItem {\n      ...ClientItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ClientCompaction on CompactionRecord {\n    id\n    threadId\n    startSeq\n    endSeq\n    markerSeq\n    summary\n    createdAt\n    createdBy\n  }\n"): (typeof documents)["\n  fragment ClientCompaction on CompactionRecord {\n    id\n    threadId\n    startSeq\n    endSeq\n    markerSeq\n    summary\n    createdAt\n    createdBy\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientThreads(\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $filter: ThreadFilter\n    $orderBy: ThreadOrderBy\n  ) {\n    threads(\n      first: $first\n      after: $after\n      last: $last\n      before: $before\n      filter: $filter\n      orderBy: $orderBy\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ClientThread\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientThreads(\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $filter: ThreadFilter\n    $orderBy: ThreadOrderBy\n  ) {\n    threads(\n      first: $first\n      after: $after\n      last: $last\n      before: $before\n      filter: $filter\n      orderBy: $orderBy\n    ) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        cursor\n        node {\n          ...ClientThread\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientThread($id: ID!) {\n    thread(id: $id) {\n      ...ClientThread\n    }\n  }\n"): (typeof documents)["\n  query ClientThread($id: ID!) {\n    thread(id: $id) {\n      ...ClientThread\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientThreadLastSeq($id: ID!) {\n    thread(id: $id) {\n      id\n      lastSeq\n    }\n  }\n"): (typeof documents)["\n  query ClientThreadLastSeq($id: ID!) {\n    thread(id: $id) {\n      id\n      lastSeq\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientDeleteThread($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ClientDeleteThread($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientItems(\n    $threadId: ID!\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $afterSeq: Int\n    $beforeSeq: Int\n    $types: [String!]\n  ) {\n    thread(id: $threadId) {\n      id\n      items(\n        first: $first\n        after: $after\n        last: $last\n        before: $before\n        afterSeq: $afterSeq\n        beforeSeq: $beforeSeq\n        types: $types\n      ) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n        edges {\n          cursor\n          node {\n            ...ClientItem\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientItems(\n    $threadId: ID!\n    $first: Int\n    $after: String\n    $last: Int\n    $before: String\n    $afterSeq: Int\n    $beforeSeq: Int\n    $types: [String!]\n  ) {\n    thread(id: $threadId) {\n      id\n      items(\n        first: $first\n        after: $after\n        last: $last\n        before: $before\n        afterSeq: $afterSeq\n        beforeSeq: $beforeSeq\n        types: $types\n      ) {\n        totalCount\n        pageInfo {\n          hasNextPage\n          hasPreviousPage\n          startCursor\n          endCursor\n        }\n        edges {\n          cursor\n          node {\n            ...ClientItem\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientItem($threadId: ID!, $seq: Int!) {\n    item(threadId: $threadId, seq: $seq) {\n      ...ClientItem\n    }\n  }\n"): (typeof documents)["\n  query ClientItem($threadId: ID!, $seq: Int!) {\n    item(threadId: $threadId, seq: $seq) {\n      ...ClientItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n      items {\n        ...ClientItem\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n      items {\n        ...ClientItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientCompactions($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      compactions {\n        ...ClientCompaction\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientCompactions($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      compactions {\n        ...ClientCompaction\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientAddCompaction($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        ...ClientCompaction\n      }\n      marker {\n        ...ClientItem\n      }\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientAddCompaction($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        ...ClientCompaction\n      }\n      marker {\n        ...ClientItem\n      }\n      thread {\n        id\n        nextSeq\n        lastSeq\n        itemCount\n        updatedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientClearCompactions($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ClientClearCompactions($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientContext($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      context {\n        __typename\n        ... on CompactionRecord {\n          ...ClientCompaction\n        }\n        ... on ConversationItem {\n          ...ClientItem\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ClientContext($threadId: ID!) {\n    thread(id: $threadId) {\n      id\n      context {\n        __typename\n        ... on CompactionRecord {\n          ...ClientCompaction\n        }\n        ... on ConversationItem {\n          ...ClientItem\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientModelContext($threadId: ID!, $format: TranscriptFormat!) {\n    thread(id: $threadId) {\n      id\n      modelContext(format: $format)\n    }\n  }\n"): (typeof documents)["\n  query ClientModelContext($threadId: ID!, $format: TranscriptFormat!) {\n    thread(id: $threadId) {\n      id\n      modelContext(format: $format)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ClientViewer {\n    viewer {\n      tenantId\n      subject\n      method\n      scopes\n    }\n  }\n"): (typeof documents)["\n  query ClientViewer {\n    viewer {\n      tenantId\n      subject\n      method\n      scopes\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ClientFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ...ClientItem\n    }\n  }\n"): (typeof documents)["\n  subscription ClientFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ...ClientItem\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ClientThreadEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      at\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ClientThreadEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      at\n      thread {\n        ...ClientThread\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;