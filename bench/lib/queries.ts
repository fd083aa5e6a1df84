/**
 * The GraphQL operations the bench sends, and the request bodies built from them. The bare
 * baseline server reads the same bodies (it ignores `query` and uses `variables`), so both
 * sides parse the same bytes.
 */

/** Append mutation: returns the ids and seqs written. */
export const APPEND = `mutation Append($t: ID!, $items: [NewItem!]!) {
  appendItems(input: { threadId: $t, items: $items }) {
    items { ... on ConversationItem { id seq } }
  }
}`;

/** A page of history (first 50 after a seq, or the last 50). */
export const PAGE_AFTER = `query Page($t: ID!, $after: Int, $n: Int) {
  thread(id: $t) {
    items(first: $n, afterSeq: $after) {
      edges { node { ... on ConversationItem { id seq type status createdAt data } } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

export const PAGE_LAST = `query PageLast($t: ID!, $n: Int) {
  thread(id: $t) {
    items(last: $n) {
      edges { node { ... on ConversationItem { id seq type status createdAt data } } }
      pageInfo { hasPreviousPage startCursor }
    }
  }
}`;

/** A page of the thread list. */
export const THREADS = `query Threads($n: Int) {
  threads(first: $n) {
    edges { node { id agentId name updatedAt itemCount } }
  }
}`;

/** A page of one agent's threads (`agent` is also what the bare baseline reads). */
export const AGENT_THREADS = `query AgentThreads($n: Int, $agent: String) {
  threads(first: $n, filter: { agentId: $agent }) {
    edges { node { id agentId name updatedAt itemCount } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Followers' subscription. */
export const FOLLOW = `subscription Follow($t: ID!) {
  threadItems(threadId: $t) { ... on ConversationItem { id seq createdAt } ... on MessageItem { content } }
}`;

/** The message body every bench item carries (about 200 bytes of JSON). */
export function benchItem(i = 0): { message: { role: string; content: string } } {
  return {
    message: {
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `bench item ${i}: `.padEnd(180, 'lorem ipsum dolor sit amet '),
    },
  };
}

/** The body of an append of `count` items to `threadId`. */
export function appendBody(threadId: string, count: number): string {
  return JSON.stringify({
    query: APPEND,
    variables: { t: threadId, items: Array.from({ length: count }, (_, i) => benchItem(i)) },
  });
}

/** The body of a history page: `after` = a seq (-1 = head) or 'last' for the tail page. */
export function pageBody(threadId: string, after: number | 'last', n = 50): string {
  return after === 'last'
    ? JSON.stringify({ query: PAGE_LAST, variables: { t: threadId, n } })
    : JSON.stringify({ query: PAGE_AFTER, variables: { t: threadId, after, n } });
}

/** The body of a thread-list page; with `agent`, of that agent's threads. */
export function threadsBody(n = 50, agent?: string): string {
  return agent === undefined
    ? JSON.stringify({ query: THREADS, variables: { n } })
    : JSON.stringify({ query: AGENT_THREADS, variables: { n, agent } });
}
