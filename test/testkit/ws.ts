/**
 * graphql-ws helpers: a client against a test app listening on a loopback port, and a
 * follower that collects the items of a thread subscription (a typed document).
 */
import { print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from '../generated/gql.js';
import type {
  TestFollowSubscription,
  TestFollowSubscriptionVariables,
} from '../generated/graphql.js';

/**
 * A graphql-ws client for `ws://127.0.0.1:<port>/graphql` that does not retry; `authorization`
 * ("Bearer ...") is sent in connection_init.
 */
export function wsClient(port: number, authorization?: string): Client {
  return createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    ...(authorization ? { connectionParams: { authorization } } : {}),
  });
}

const FOLLOW = graphql(`
  subscription TestFollow($threadId: ID!, $afterSeq: Int) {
    threadItems(threadId: $threadId, afterSeq: $afterSeq) {
      ... on ConversationItem {
        id
        seq
        type
      }
      ... on MessageItem {
        content
      }
    }
  }
`);

/** An item as a follower sees it: every item's id, seq and type; a message's content. */
export interface FollowedItem {
  id: string;
  seq: number;
  type: string;
  content?: string | null;
}

/**
 * Subscribes to a thread; `onItem` sees every item. Resolves when the subscription completes;
 * rejects with the GraphQL errors when it errors.
 */
export function follow(
  client: Client,
  threadId: string,
  afterSeq: number | null,
  onItem: (item: FollowedItem) => void,
): { done: Promise<void>; cancel: () => void } {
  let cancel = () => {};
  const done = new Promise<void>((resolve, reject) => {
    cancel = client.subscribe<TestFollowSubscription>(
      {
        query: print(FOLLOW),
        variables: { threadId, afterSeq } satisfies TestFollowSubscriptionVariables,
      },
      {
        next: (result) => {
          if (result.errors)
            reject(Object.assign(new Error(result.errors[0]!.message), { errors: result.errors }));
          else if (result.data) onItem(result.data.threadItems);
        },
        error: (error) => reject(error),
        complete: () => resolve(),
      },
    );
  });
  return { done, cancel: () => cancel() };
}
