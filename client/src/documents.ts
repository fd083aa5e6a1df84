/**
 * The operations the client sends, typed by `npm run codegen` (client/src/generated/, the
 * client preset) from the repository's schema.graphql. Fields on the Item union that share a
 * name but not a type across members are aliased (GraphQL merges fields by response name):
 * ReasoningItem.summary (JSON) as reasoningSummary, ToolResultItem.name (nullable) as toolName.
 */
import { graphql } from './generated/gql.js';

export const ItemFields = graphql(`
  fragment ClientItem on Item {
    __typename
    ... on ConversationItem {
      id
      threadId
      seq
      type
      status
      createdAt
      createdBy
      responseId
      data
    }
    ... on MessageItem {
      role
      content
      parts
      usage {
        inputTokens
        outputTokens
        totalTokens
      }
    }
    ... on ToolCallItem {
      callId
      name
      arguments
    }
    ... on ToolResultItem {
      callId
      toolName: name
      output
      isError
    }
    ... on ReasoningItem {
      text
      reasoningSummary: summary
    }
    ... on ErrorItem {
      code
      reason
    }
    ... on CompactionItem {
      startSeq
      endSeq
      summary
    }
    ... on ResourceEventItem {
      kind
      payload
    }
    ... on SlashCommandItem {
      command
      args
    }
    ... on TerminalItem {
      stream
      text
    }
  }
`);

export const ThreadFields = graphql(`
  fragment ClientThread on Thread {
    id
    agentId
    name
    archived
    metadata
    createdAt
    updatedAt
    itemCount
    nextSeq
    lastSeq
    lastItem {
      ...ClientItem
    }
  }
`);

export const CompactionFields = graphql(`
  fragment ClientCompaction on CompactionRecord {
    id
    threadId
    startSeq
    endSeq
    markerSeq
    summary
    createdAt
    createdBy
  }
`);

export const ThreadsQuery = graphql(`
  query ClientThreads(
    $first: Int
    $after: String
    $last: Int
    $before: String
    $filter: ThreadFilter
    $orderBy: ThreadOrderBy
  ) {
    threads(
      first: $first
      after: $after
      last: $last
      before: $before
      filter: $filter
      orderBy: $orderBy
    ) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      edges {
        cursor
        node {
          ...ClientThread
        }
      }
    }
  }
`);

export const ThreadQuery = graphql(`
  query ClientThread($id: ID!) {
    thread(id: $id) {
      ...ClientThread
    }
  }
`);

export const ThreadLastSeqQuery = graphql(`
  query ClientThreadLastSeq($id: ID!) {
    thread(id: $id) {
      id
      lastSeq
    }
  }
`);

export const CreateThreadMutation = graphql(`
  mutation ClientCreateThread($input: CreateThreadInput!) {
    createThread(input: $input) {
      thread {
        ...ClientThread
      }
    }
  }
`);

export const UpdateThreadMutation = graphql(`
  mutation ClientUpdateThread($input: UpdateThreadInput!) {
    updateThread(input: $input) {
      thread {
        ...ClientThread
      }
    }
  }
`);

export const DeleteThreadMutation = graphql(`
  mutation ClientDeleteThread($input: DeleteThreadInput!) {
    deleteThread(input: $input) {
      deletedThreadId
      itemsDeleted
      compactionsDeleted
    }
  }
`);

export const ItemsQuery = graphql(`
  query ClientItems(
    $threadId: ID!
    $first: Int
    $after: String
    $last: Int
    $before: String
    $afterSeq: Int
    $beforeSeq: Int
    $types: [String!]
  ) {
    thread(id: $threadId) {
      id
      items(
        first: $first
        after: $after
        last: $last
        before: $before
        afterSeq: $afterSeq
        beforeSeq: $beforeSeq
        types: $types
      ) {
        totalCount
        pageInfo {
          hasNextPage
          hasPreviousPage
          startCursor
          endCursor
        }
        edges {
          cursor
          node {
            ...ClientItem
          }
        }
      }
    }
  }
`);

export const ItemQuery = graphql(`
  query ClientItem($threadId: ID!, $seq: Int!) {
    item(threadId: $threadId, seq: $seq) {
      ...ClientItem
    }
  }
`);

export const AppendItemsMutation = graphql(`
  mutation ClientAppendItems($input: AppendItemsInput!) {
    appendItems(input: $input) {
      replayed
      thread {
        id
        nextSeq
        lastSeq
        itemCount
        updatedAt
      }
      items {
        ...ClientItem
      }
    }
  }
`);

export const CompactionsQuery = graphql(`
  query ClientCompactions($threadId: ID!) {
    thread(id: $threadId) {
      id
      compactions {
        ...ClientCompaction
      }
    }
  }
`);

export const AddCompactionMutation = graphql(`
  mutation ClientAddCompaction($input: AddCompactionInput!) {
    addCompaction(input: $input) {
      compaction {
        ...ClientCompaction
      }
      marker {
        ...ClientItem
      }
      thread {
        id
        nextSeq
        lastSeq
        itemCount
        updatedAt
      }
    }
  }
`);

export const ClearCompactionsMutation = graphql(`
  mutation ClientClearCompactions($input: ClearCompactionsInput!) {
    clearCompactions(input: $input) {
      compactionsDeleted
    }
  }
`);

export const ContextQuery = graphql(`
  query ClientContext($threadId: ID!) {
    thread(id: $threadId) {
      id
      context {
        __typename
        ... on CompactionRecord {
          ...ClientCompaction
        }
        ... on ConversationItem {
          ...ClientItem
        }
      }
    }
  }
`);

export const ModelContextQuery = graphql(`
  query ClientModelContext($threadId: ID!, $format: TranscriptFormat!) {
    thread(id: $threadId) {
      id
      modelContext(format: $format)
    }
  }
`);

export const ViewerQuery = graphql(`
  query ClientViewer {
    viewer {
      tenantId
      subject
      method
      scopes
    }
  }
`);

export const FollowSubscription = graphql(`
  subscription ClientFollow($threadId: ID!, $afterSeq: Int) {
    threadItems(threadId: $threadId, afterSeq: $afterSeq) {
      ...ClientItem
    }
  }
`);

export const ThreadEventsSubscription = graphql(`
  subscription ClientThreadEvents($agentId: String) {
    threadEvents(agentId: $agentId) {
      type
      threadId
      at
      thread {
        ...ClientThread
      }
    }
  }
`);
