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
    "\n  mutation ClientTestCreateKey($name: String!) {\n    createApiKey(input: { name: $name, scopes: [\"threads:read\"] }) {\n      secret\n      apiKey {\n        id\n      }\n    }\n  }\n": typeof types.ClientTestCreateKeyDocument,
    "\n  mutation ClientTestRevokeKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      apiKey {\n        revokedAt\n      }\n    }\n  }\n": typeof types.ClientTestRevokeKeyDocument,
    "\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n": typeof types.ErrorsThreadCountDocument,
    "\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n": typeof types.ErrorsThreadCompactionsDocument,
    "\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n": typeof types.ErrorsPayloadTooLargeDocument,
    "\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n": typeof types.ErrorsNextSeqDocument,
    "\n  mutation ExpiryCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n        createdAt\n        expiresAt\n      }\n    }\n  }\n": typeof types.ExpiryCreateDocument,
    "\n  mutation ExpiryUpdate($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        id\n        expiresAt\n      }\n    }\n  }\n": typeof types.ExpiryUpdateDocument,
    "\n  query ExpiryLook($id: ID!, $nodeIds: [ID!]!, $agentId: String!, $name: String!) {\n    thread(id: $id) {\n      id\n      expiresAt\n      items {\n        totalCount\n      }\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n    item(threadId: $id, seq: 0) {\n      ... on ConversationItem {\n        seq\n      }\n    }\n    threads(filter: { agentId: $agentId }) {\n      totalCount\n      edges {\n        node {\n          id\n        }\n      }\n    }\n    named: threads(filter: { nameContains: $name }) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n": typeof types.ExpiryLookDocument,
    "\n  mutation ExpiryAppend($threadId: ID!, $key: String) {\n    appendItems(\n      input: { threadId: $threadId, idempotencyKey: $key, items: [{ message: { role: \"user\", content: \"late\" } }] }\n    ) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.ExpiryAppendDocument,
    "\n  mutation ExpiryCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n": typeof types.ExpiryCompactDocument,
    "\n  mutation ExpiryPurge($id: ID!) {\n    purgeItems(input: { threadId: $id, before: \"2030-01-01T00:00:00.000Z\" }) {\n      itemsDeleted\n    }\n  }\n": typeof types.ExpiryPurgeDocument,
    "\n  mutation ExpiryDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n": typeof types.ExpiryDeleteDocument,
    "\n  mutation ExpiryImport($transcript: JSON!) {\n    importTranscript(input: { agentId: \"importer\", format: OPENAI_CHAT, transcript: $transcript }) {\n      thread {\n        createdAt\n        expiresAt\n      }\n    }\n  }\n": typeof types.ExpiryImportDocument,
    "\n  mutation ExpiryImportKeyed($key: String!) {\n    importTranscript(\n      input: {\n        agentId: \"importer\"\n        format: OPENAI_CHAT\n        idempotencyKey: $key\n        transcript: { messages: [{ role: \"user\", content: \"keyed\" }] }\n      }\n    ) {\n      replayed\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.ExpiryImportKeyedDocument,
    "\n  mutation ForksCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.ForksCreateDocument,
    "\n  mutation ForksAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.ForksAppendDocument,
    "\n  mutation ForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n        agentId\n        name\n        metadata\n        archived\n        nextSeq\n        lastSeq\n        itemCount\n        createdAt\n        forkedFrom {\n          threadId\n          seq\n          thread {\n            id\n          }\n        }\n      }\n    }\n  }\n": typeof types.ForksForkDocument,
    "\n  query ForksThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      metadata\n      nextSeq\n      lastSeq\n      itemCount\n      updatedAt\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      items(first: 500) {\n        edges {\n          node {\n            ... on ConversationItem {\n              id\n              threadId\n              seq\n              type\n              status\n              data\n              raw\n              rawFormat\n              createdAt\n              createdBy\n              responseId\n            }\n          }\n        }\n      }\n      compactions {\n        id\n        threadId\n        startSeq\n        endSeq\n        summary\n        markerSeq\n        createdAt\n        createdBy\n      }\n    }\n  }\n": typeof types.ForksThreadDocument,
    "\n  query ForksList($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            id\n            createdAt\n            forkedFrom {\n              threadId\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.ForksListDocument,
    "\n  mutation ForksCompact($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        id\n        markerSeq\n      }\n    }\n  }\n": typeof types.ForksCompactDocument,
    "\n  mutation ForksPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n": typeof types.ForksPurgeDocument,
    "\n  mutation ForksClear($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n": typeof types.ForksClearDocument,
    "\n  mutation ForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n": typeof types.ForksDeleteDocument,
    "\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.OperationsCreateThreadDocument,
    "\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n": typeof types.OperationsThreadDocument,
    "\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": typeof types.OperationsAppendDocument,
    "\n  mutation SafetyCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"safety\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SafetyCreateDocument,
    "\n  query SafetyThreadsAfter($after: String!) {\n    threads(after: $after) {\n      totalCount\n    }\n  }\n": typeof types.SafetyThreadsAfterDocument,
    "\n  query SafetyItemsAfter($id: ID!, $after: String!) {\n    thread(id: $id) {\n      items(after: $after) {\n        totalCount\n      }\n    }\n  }\n": typeof types.SafetyItemsAfterDocument,
    "\n  query SafetyThread($id: ID!) {\n    thread(id: $id) {\n      id\n    }\n  }\n": typeof types.SafetyThreadDocument,
    "\n  query SearchItemsTest($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        endCursor\n      }\n    }\n  }\n": typeof types.SearchItemsTestDocument,
    "\n  mutation SearchCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SearchCreateThreadDocument,
    "\n  mutation SearchAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.SearchAppendDocument,
    "\n  mutation SearchUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n": typeof types.SearchUpdateThreadDocument,
    "\n  mutation SearchPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n": typeof types.SearchPurgeDocument,
    "\n  mutation SearchDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n    }\n  }\n": typeof types.SearchDeleteDocument,
    "\n  mutation SearchImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n      }\n      itemsImported\n    }\n  }\n": typeof types.SearchImportDocument,
    "\n  mutation SharedSqliteCreate($id: ID!, $agentId: String!) {\n    createThread(input: { id: $id, agentId: $agentId }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SharedSqliteCreateDocument,
    "\n  mutation SharedSqliteAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.SharedSqliteAppendDocument,
    "\n  mutation SharedSqliteRename($id: ID!) {\n    updateThread(input: { id: $id, name: \"renamed elsewhere\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SharedSqliteRenameDocument,
    "\n  mutation SharedSqliteDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n": typeof types.SharedSqliteDeleteDocument,
    "\n  subscription SharedSqliteEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      thread {\n        name\n      }\n    }\n  }\n": typeof types.SharedSqliteEventsDocument,
    "\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n": typeof types.StatementsThreadListDocument,
    "\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.StatementsHistoryPageDocument,
    "\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.SeedCreateThreadDocument,
    "\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.SeedAppendItemsDocument,
    "\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n": typeof types.TestFollowDocument,
    "\n  mutation TombstoneCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"tomb\" }) {\n      thread {\n        id\n        nextSeq\n      }\n    }\n  }\n": typeof types.TombstoneCreateDocument,
    "\n  mutation TombstoneDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n      itemsDeleted\n    }\n  }\n": typeof types.TombstoneDeleteDocument,
    "\n  mutation TombstoneAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": typeof types.TombstoneAppendDocument,
    "\n  mutation TombstoneCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n": typeof types.TombstoneCompactDocument,
    "\n  mutation TombstonePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n    }\n  }\n": typeof types.TombstonePurgeDocument,
    "\n  mutation TombstoneClear($id: ID!) {\n    clearCompactions(input: { threadId: $id }) {\n      compactionsDeleted\n    }\n  }\n": typeof types.TombstoneClearDocument,
    "\n  mutation TombstoneUpdate($id: ID!) {\n    updateThread(input: { id: $id, name: \"back?\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.TombstoneUpdateDocument,
    "\n  query TombstoneLook($id: ID!, $nodeIds: [ID!]!) {\n    thread(id: $id) {\n      id\n      itemCount\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n  }\n": typeof types.TombstoneLookDocument,
    "\n  mutation UiForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": typeof types.UiForksForkDocument,
    "\n  mutation UiForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n    }\n  }\n": typeof types.UiForksDeleteDocument,
    "\n  mutation UiSearchTestArchive($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n": typeof types.UiSearchTestArchiveDocument,
    "\n  mutation UiTestAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": typeof types.UiTestAppendDocument,
    "\n  query UiTestThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      archived\n    }\n  }\n": typeof types.UiTestThreadDocument,
    "\n  query UsageOfThread($id: ID!) {\n    thread(id: $id) {\n      itemCount\n      nextSeq\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n        messagesWithUsage\n      }\n    }\n  }\n": typeof types.UsageOfThreadDocument,
    "\n  mutation UsageAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": typeof types.UsageAppendDocument,
    "\n  mutation UsagePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": typeof types.UsagePurgeDocument,
    "\n  query UsageTranscript($id: ID!) {\n    thread(id: $id) {\n      transcript(format: THREADSTORE_JSONL)\n    }\n  }\n": typeof types.UsageTranscriptDocument,
    "\n  mutation UsageImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": typeof types.UsageImportDocument,
};
const documents: Documents = {
    "\n  mutation ClientTestCreateKey($name: String!) {\n    createApiKey(input: { name: $name, scopes: [\"threads:read\"] }) {\n      secret\n      apiKey {\n        id\n      }\n    }\n  }\n": types.ClientTestCreateKeyDocument,
    "\n  mutation ClientTestRevokeKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      apiKey {\n        revokedAt\n      }\n    }\n  }\n": types.ClientTestRevokeKeyDocument,
    "\n  query ErrorsThreadCount($n: Int) {\n    threads(first: $n) {\n      totalCount\n    }\n  }\n": types.ErrorsThreadCountDocument,
    "\n  query ErrorsThreadCompactions($id: ID!) {\n    thread(id: $id) {\n      id\n      compactions {\n        id\n      }\n    }\n  }\n": types.ErrorsThreadCompactionsDocument,
    "\n  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      replayed\n    }\n  }\n": types.ErrorsPayloadTooLargeDocument,
    "\n  query ErrorsNextSeq($id: ID!) {\n    thread(id: $id) {\n      nextSeq\n    }\n  }\n": types.ErrorsNextSeqDocument,
    "\n  mutation ExpiryCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n        createdAt\n        expiresAt\n      }\n    }\n  }\n": types.ExpiryCreateDocument,
    "\n  mutation ExpiryUpdate($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        id\n        expiresAt\n      }\n    }\n  }\n": types.ExpiryUpdateDocument,
    "\n  query ExpiryLook($id: ID!, $nodeIds: [ID!]!, $agentId: String!, $name: String!) {\n    thread(id: $id) {\n      id\n      expiresAt\n      items {\n        totalCount\n      }\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n    item(threadId: $id, seq: 0) {\n      ... on ConversationItem {\n        seq\n      }\n    }\n    threads(filter: { agentId: $agentId }) {\n      totalCount\n      edges {\n        node {\n          id\n        }\n      }\n    }\n    named: threads(filter: { nameContains: $name }) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n": types.ExpiryLookDocument,
    "\n  mutation ExpiryAppend($threadId: ID!, $key: String) {\n    appendItems(\n      input: { threadId: $threadId, idempotencyKey: $key, items: [{ message: { role: \"user\", content: \"late\" } }] }\n    ) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.ExpiryAppendDocument,
    "\n  mutation ExpiryCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n": types.ExpiryCompactDocument,
    "\n  mutation ExpiryPurge($id: ID!) {\n    purgeItems(input: { threadId: $id, before: \"2030-01-01T00:00:00.000Z\" }) {\n      itemsDeleted\n    }\n  }\n": types.ExpiryPurgeDocument,
    "\n  mutation ExpiryDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n": types.ExpiryDeleteDocument,
    "\n  mutation ExpiryImport($transcript: JSON!) {\n    importTranscript(input: { agentId: \"importer\", format: OPENAI_CHAT, transcript: $transcript }) {\n      thread {\n        createdAt\n        expiresAt\n      }\n    }\n  }\n": types.ExpiryImportDocument,
    "\n  mutation ExpiryImportKeyed($key: String!) {\n    importTranscript(\n      input: {\n        agentId: \"importer\"\n        format: OPENAI_CHAT\n        idempotencyKey: $key\n        transcript: { messages: [{ role: \"user\", content: \"keyed\" }] }\n      }\n    ) {\n      replayed\n      thread {\n        id\n      }\n    }\n  }\n": types.ExpiryImportKeyedDocument,
    "\n  mutation ForksCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": types.ForksCreateDocument,
    "\n  mutation ForksAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.ForksAppendDocument,
    "\n  mutation ForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n        agentId\n        name\n        metadata\n        archived\n        nextSeq\n        lastSeq\n        itemCount\n        createdAt\n        forkedFrom {\n          threadId\n          seq\n          thread {\n            id\n          }\n        }\n      }\n    }\n  }\n": types.ForksForkDocument,
    "\n  query ForksThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      metadata\n      nextSeq\n      lastSeq\n      itemCount\n      updatedAt\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      items(first: 500) {\n        edges {\n          node {\n            ... on ConversationItem {\n              id\n              threadId\n              seq\n              type\n              status\n              data\n              raw\n              rawFormat\n              createdAt\n              createdBy\n              responseId\n            }\n          }\n        }\n      }\n      compactions {\n        id\n        threadId\n        startSeq\n        endSeq\n        summary\n        markerSeq\n        createdAt\n        createdBy\n      }\n    }\n  }\n": types.ForksThreadDocument,
    "\n  query ForksList($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            id\n            createdAt\n            forkedFrom {\n              threadId\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.ForksListDocument,
    "\n  mutation ForksCompact($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        id\n        markerSeq\n      }\n    }\n  }\n": types.ForksCompactDocument,
    "\n  mutation ForksPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n": types.ForksPurgeDocument,
    "\n  mutation ForksClear($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n": types.ForksClearDocument,
    "\n  mutation ForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n": types.ForksDeleteDocument,
    "\n  mutation OperationsCreateThread($id: ID!) {\n    createThread(input: { id: $id, agentId: \"a\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.OperationsCreateThreadDocument,
    "\n  query OperationsThread($id: ID!) {\n    thread(id: $id) {\n      id\n      agentId\n    }\n  }\n": types.OperationsThreadDocument,
    "\n  mutation OperationsAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": types.OperationsAppendDocument,
    "\n  mutation SafetyCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"safety\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SafetyCreateDocument,
    "\n  query SafetyThreadsAfter($after: String!) {\n    threads(after: $after) {\n      totalCount\n    }\n  }\n": types.SafetyThreadsAfterDocument,
    "\n  query SafetyItemsAfter($id: ID!, $after: String!) {\n    thread(id: $id) {\n      items(after: $after) {\n        totalCount\n      }\n    }\n  }\n": types.SafetyItemsAfterDocument,
    "\n  query SafetyThread($id: ID!) {\n    thread(id: $id) {\n      id\n    }\n  }\n": types.SafetyThreadDocument,
    "\n  query SearchItemsTest($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        endCursor\n      }\n    }\n  }\n": types.SearchItemsTestDocument,
    "\n  mutation SearchCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SearchCreateThreadDocument,
    "\n  mutation SearchAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.SearchAppendDocument,
    "\n  mutation SearchUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n": types.SearchUpdateThreadDocument,
    "\n  mutation SearchPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n": types.SearchPurgeDocument,
    "\n  mutation SearchDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n    }\n  }\n": types.SearchDeleteDocument,
    "\n  mutation SearchImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n      }\n      itemsImported\n    }\n  }\n": types.SearchImportDocument,
    "\n  mutation SharedSqliteCreate($id: ID!, $agentId: String!) {\n    createThread(input: { id: $id, agentId: $agentId }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SharedSqliteCreateDocument,
    "\n  mutation SharedSqliteAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.SharedSqliteAppendDocument,
    "\n  mutation SharedSqliteRename($id: ID!) {\n    updateThread(input: { id: $id, name: \"renamed elsewhere\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SharedSqliteRenameDocument,
    "\n  mutation SharedSqliteDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n": types.SharedSqliteDeleteDocument,
    "\n  subscription SharedSqliteEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      thread {\n        name\n      }\n    }\n  }\n": types.SharedSqliteEventsDocument,
    "\n  query StatementsThreadList($first: Int) {\n    threads(first: $first, filter: { agentId: \"statements\" }) {\n      edges {\n        node {\n          id\n          name\n          lastItem {\n            __typename\n            ... on ConversationItem {\n              seq\n            }\n          }\n          itemCount\n        }\n      }\n    }\n  }\n": types.StatementsThreadListDocument,
    "\n  query StatementsHistoryPage($id: ID!) {\n    thread(id: $id) {\n      items(first: 50, afterSeq: 3) {\n        edges {\n          node {\n            __typename\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.StatementsHistoryPageDocument,
    "\n  mutation SeedCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": types.SeedCreateThreadDocument,
    "\n  mutation SeedAppendItems($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.SeedAppendItemsDocument,
    "\n  subscription TestFollow($threadId: ID!, $afterSeq: Int) {\n    threadItems(threadId: $threadId, afterSeq: $afterSeq) {\n      ... on ConversationItem {\n        id\n        seq\n        type\n      }\n      ... on MessageItem {\n        content\n      }\n    }\n  }\n": types.TestFollowDocument,
    "\n  mutation TombstoneCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"tomb\" }) {\n      thread {\n        id\n        nextSeq\n      }\n    }\n  }\n": types.TombstoneCreateDocument,
    "\n  mutation TombstoneDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n      itemsDeleted\n    }\n  }\n": types.TombstoneDeleteDocument,
    "\n  mutation TombstoneAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n": types.TombstoneAppendDocument,
    "\n  mutation TombstoneCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n": types.TombstoneCompactDocument,
    "\n  mutation TombstonePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n    }\n  }\n": types.TombstonePurgeDocument,
    "\n  mutation TombstoneClear($id: ID!) {\n    clearCompactions(input: { threadId: $id }) {\n      compactionsDeleted\n    }\n  }\n": types.TombstoneClearDocument,
    "\n  mutation TombstoneUpdate($id: ID!) {\n    updateThread(input: { id: $id, name: \"back?\" }) {\n      thread {\n        id\n      }\n    }\n  }\n": types.TombstoneUpdateDocument,
    "\n  query TombstoneLook($id: ID!, $nodeIds: [ID!]!) {\n    thread(id: $id) {\n      id\n      itemCount\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n  }\n": types.TombstoneLookDocument,
    "\n  mutation UiForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n": types.UiForksForkDocument,
    "\n  mutation UiForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n    }\n  }\n": types.UiForksDeleteDocument,
    "\n  mutation UiSearchTestArchive($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n": types.UiSearchTestArchiveDocument,
    "\n  mutation UiTestAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n": types.UiTestAppendDocument,
    "\n  query UiTestThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      archived\n    }\n  }\n": types.UiTestThreadDocument,
    "\n  query UsageOfThread($id: ID!) {\n    thread(id: $id) {\n      itemCount\n      nextSeq\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n        messagesWithUsage\n      }\n    }\n  }\n": types.UsageOfThreadDocument,
    "\n  mutation UsageAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": types.UsageAppendDocument,
    "\n  mutation UsagePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": types.UsagePurgeDocument,
    "\n  query UsageTranscript($id: ID!) {\n    thread(id: $id) {\n      transcript(format: THREADSTORE_JSONL)\n    }\n  }\n": types.UsageTranscriptDocument,
    "\n  mutation UsageImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n": types.UsageImportDocument,
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
export function graphql(source: "\n  mutation ClientTestCreateKey($name: String!) {\n    createApiKey(input: { name: $name, scopes: [\"threads:read\"] }) {\n      secret\n      apiKey {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientTestCreateKey($name: String!) {\n    createApiKey(input: { name: $name, scopes: [\"threads:read\"] }) {\n      secret\n      apiKey {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClientTestRevokeKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      apiKey {\n        revokedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClientTestRevokeKey($id: ID!) {\n    revokeApiKey(input: { id: $id }) {\n      apiKey {\n        revokedAt\n      }\n    }\n  }\n"];
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
export function graphql(source: "\n  mutation ExpiryCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n        createdAt\n        expiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n        createdAt\n        expiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryUpdate($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        id\n        expiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryUpdate($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        id\n        expiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ExpiryLook($id: ID!, $nodeIds: [ID!]!, $agentId: String!, $name: String!) {\n    thread(id: $id) {\n      id\n      expiresAt\n      items {\n        totalCount\n      }\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n    item(threadId: $id, seq: 0) {\n      ... on ConversationItem {\n        seq\n      }\n    }\n    threads(filter: { agentId: $agentId }) {\n      totalCount\n      edges {\n        node {\n          id\n        }\n      }\n    }\n    named: threads(filter: { nameContains: $name }) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ExpiryLook($id: ID!, $nodeIds: [ID!]!, $agentId: String!, $name: String!) {\n    thread(id: $id) {\n      id\n      expiresAt\n      items {\n        totalCount\n      }\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n    item(threadId: $id, seq: 0) {\n      ... on ConversationItem {\n        seq\n      }\n    }\n    threads(filter: { agentId: $agentId }) {\n      totalCount\n      edges {\n        node {\n          id\n        }\n      }\n    }\n    named: threads(filter: { nameContains: $name }) {\n      edges {\n        node {\n          id\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryAppend($threadId: ID!, $key: String) {\n    appendItems(\n      input: { threadId: $threadId, idempotencyKey: $key, items: [{ message: { role: \"user\", content: \"late\" } }] }\n    ) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryAppend($threadId: ID!, $key: String) {\n    appendItems(\n      input: { threadId: $threadId, idempotencyKey: $key, items: [{ message: { role: \"user\", content: \"late\" } }] }\n    ) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryPurge($id: ID!) {\n    purgeItems(input: { threadId: $id, before: \"2030-01-01T00:00:00.000Z\" }) {\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryPurge($id: ID!) {\n    purgeItems(input: { threadId: $id, before: \"2030-01-01T00:00:00.000Z\" }) {\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryImport($transcript: JSON!) {\n    importTranscript(input: { agentId: \"importer\", format: OPENAI_CHAT, transcript: $transcript }) {\n      thread {\n        createdAt\n        expiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryImport($transcript: JSON!) {\n    importTranscript(input: { agentId: \"importer\", format: OPENAI_CHAT, transcript: $transcript }) {\n      thread {\n        createdAt\n        expiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExpiryImportKeyed($key: String!) {\n    importTranscript(\n      input: {\n        agentId: \"importer\"\n        format: OPENAI_CHAT\n        idempotencyKey: $key\n        transcript: { messages: [{ role: \"user\", content: \"keyed\" }] }\n      }\n    ) {\n      replayed\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ExpiryImportKeyed($key: String!) {\n    importTranscript(\n      input: {\n        agentId: \"importer\"\n        format: OPENAI_CHAT\n        idempotencyKey: $key\n        transcript: { messages: [{ role: \"user\", content: \"keyed\" }] }\n      }\n    ) {\n      replayed\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForksCreate($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForksAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n        agentId\n        name\n        metadata\n        archived\n        nextSeq\n        lastSeq\n        itemCount\n        createdAt\n        forkedFrom {\n          threadId\n          seq\n          thread {\n            id\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n        agentId\n        name\n        metadata\n        archived\n        nextSeq\n        lastSeq\n        itemCount\n        createdAt\n        forkedFrom {\n          threadId\n          seq\n          thread {\n            id\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ForksThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      metadata\n      nextSeq\n      lastSeq\n      itemCount\n      updatedAt\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      items(first: 500) {\n        edges {\n          node {\n            ... on ConversationItem {\n              id\n              threadId\n              seq\n              type\n              status\n              data\n              raw\n              rawFormat\n              createdAt\n              createdBy\n              responseId\n            }\n          }\n        }\n      }\n      compactions {\n        id\n        threadId\n        startSeq\n        endSeq\n        summary\n        markerSeq\n        createdAt\n        createdBy\n      }\n    }\n  }\n"): (typeof documents)["\n  query ForksThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      metadata\n      nextSeq\n      lastSeq\n      itemCount\n      updatedAt\n      forkedFrom {\n        threadId\n        seq\n        thread {\n          id\n          name\n        }\n      }\n      items(first: 500) {\n        edges {\n          node {\n            ... on ConversationItem {\n              id\n              threadId\n              seq\n              type\n              status\n              data\n              raw\n              rawFormat\n              createdAt\n              createdBy\n              responseId\n            }\n          }\n        }\n      }\n      compactions {\n        id\n        threadId\n        startSeq\n        endSeq\n        summary\n        markerSeq\n        createdAt\n        createdBy\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ForksList($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            id\n            createdAt\n            forkedFrom {\n              threadId\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ForksList($id: ID!, $first: Int, $after: String) {\n    thread(id: $id) {\n      forks(first: $first, after: $after) {\n        totalCount\n        edges {\n          cursor\n          node {\n            id\n            createdAt\n            forkedFrom {\n              threadId\n              seq\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksCompact($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        id\n        markerSeq\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForksCompact($input: AddCompactionInput!) {\n    addCompaction(input: $input) {\n      compaction {\n        id\n        markerSeq\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ForksPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksClear($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ForksClear($input: ClearCompactionsInput!) {\n    clearCompactions(input: $input) {\n      compactionsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation ForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n      compactionsDeleted\n    }\n  }\n"];
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
export function graphql(source: "\n  mutation SafetyCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"safety\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SafetyCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"safety\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SafetyThreadsAfter($after: String!) {\n    threads(after: $after) {\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query SafetyThreadsAfter($after: String!) {\n    threads(after: $after) {\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SafetyItemsAfter($id: ID!, $after: String!) {\n    thread(id: $id) {\n      items(after: $after) {\n        totalCount\n      }\n    }\n  }\n"): (typeof documents)["\n  query SafetyItemsAfter($id: ID!, $after: String!) {\n    thread(id: $id) {\n      items(after: $after) {\n        totalCount\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SafetyThread($id: ID!) {\n    thread(id: $id) {\n      id\n    }\n  }\n"): (typeof documents)["\n  query SafetyThread($id: ID!) {\n    thread(id: $id) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchItemsTest($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchItemsTest($query: String!, $filter: ItemSearchFilter, $first: Int, $after: String) {\n    searchItems(query: $query, filter: $filter, first: $first, after: $after) {\n      edges {\n        cursor\n        snippet\n        thread {\n          id\n        }\n        node {\n          ... on ConversationItem {\n            id\n            seq\n            type\n          }\n        }\n      }\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SearchCreateThread($input: CreateThreadInput!) {\n    createThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SearchAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SearchUpdateThread($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation SearchPurge($input: PurgeItemsInput!) {\n    purgeItems(input: $input) {\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation SearchDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SearchImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n      }\n      itemsImported\n    }\n  }\n"): (typeof documents)["\n  mutation SearchImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n      }\n      itemsImported\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SharedSqliteCreate($id: ID!, $agentId: String!) {\n    createThread(input: { id: $id, agentId: $agentId }) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SharedSqliteCreate($id: ID!, $agentId: String!) {\n    createThread(input: { id: $id, agentId: $agentId }) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SharedSqliteAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SharedSqliteAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SharedSqliteRename($id: ID!) {\n    updateThread(input: { id: $id, name: \"renamed elsewhere\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SharedSqliteRename($id: ID!) {\n    updateThread(input: { id: $id, name: \"renamed elsewhere\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SharedSqliteDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n"): (typeof documents)["\n  mutation SharedSqliteDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SharedSqliteEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      thread {\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription SharedSqliteEvents($agentId: String) {\n    threadEvents(agentId: $agentId) {\n      type\n      threadId\n      thread {\n        name\n      }\n    }\n  }\n"];
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
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"tomb\" }) {\n      thread {\n        id\n        nextSeq\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneCreate($id: ID!) {\n    createThread(input: { id: $id, agentId: \"tomb\" }) {\n      thread {\n        id\n        nextSeq\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneDelete($id: ID!) {\n    deleteThread(input: { id: $id }) {\n      deletedThreadId\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneAppend($threadId: ID!, $content: String!) {\n    appendItems(input: { threadId: $threadId, items: [{ message: { role: \"user\", content: $content } }] }) {\n      items {\n        ... on ConversationItem {\n          seq\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneCompact($id: ID!) {\n    addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 0, summary: \"s\" }) {\n      compaction {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstonePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation TombstonePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneClear($id: ID!) {\n    clearCompactions(input: { threadId: $id }) {\n      compactionsDeleted\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneClear($id: ID!) {\n    clearCompactions(input: { threadId: $id }) {\n      compactionsDeleted\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TombstoneUpdate($id: ID!) {\n    updateThread(input: { id: $id, name: \"back?\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation TombstoneUpdate($id: ID!) {\n    updateThread(input: { id: $id, name: \"back?\" }) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TombstoneLook($id: ID!, $nodeIds: [ID!]!) {\n    thread(id: $id) {\n      id\n      itemCount\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n  }\n"): (typeof documents)["\n  query TombstoneLook($id: ID!, $nodeIds: [ID!]!) {\n    thread(id: $id) {\n      id\n      itemCount\n    }\n    nodes(ids: $nodeIds) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UiForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UiForksFork($input: ForkThreadInput!) {\n    forkThread(input: $input) {\n      thread {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UiForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n    }\n  }\n"): (typeof documents)["\n  mutation UiForksDelete($input: DeleteThreadInput!) {\n    deleteThread(input: $input) {\n      deletedThreadId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UiSearchTestArchive($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UiSearchTestArchive($input: UpdateThreadInput!) {\n    updateThread(input: $input) {\n      thread {\n        archived\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UiTestAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UiTestAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        nextSeq\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UiTestThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      archived\n    }\n  }\n"): (typeof documents)["\n  query UiTestThread($id: ID!) {\n    thread(id: $id) {\n      id\n      name\n      archived\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageOfThread($id: ID!) {\n    thread(id: $id) {\n      itemCount\n      nextSeq\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n        messagesWithUsage\n      }\n    }\n  }\n"): (typeof documents)["\n  query UsageOfThread($id: ID!) {\n    thread(id: $id) {\n      itemCount\n      nextSeq\n      usage {\n        inputTokens\n        outputTokens\n        totalTokens\n        messagesWithUsage\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UsageAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UsageAppend($input: AppendItemsInput!) {\n    appendItems(input: $input) {\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UsagePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UsagePurge($id: ID!, $before: DateTime!) {\n    purgeItems(input: { threadId: $id, before: $before }) {\n      itemsDeleted\n      thread {\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UsageTranscript($id: ID!) {\n    thread(id: $id) {\n      transcript(format: THREADSTORE_JSONL)\n    }\n  }\n"): (typeof documents)["\n  query UsageTranscript($id: ID!) {\n    thread(id: $id) {\n      transcript(format: THREADSTORE_JSONL)\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UsageImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UsageImport($input: ImportTranscriptInput!) {\n    importTranscript(input: $input) {\n      thread {\n        id\n        usage {\n          inputTokens\n          outputTokens\n          totalTokens\n          messagesWithUsage\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;