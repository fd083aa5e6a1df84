/**
 * Follows a thread live in a terminal: prints every item as it arrives and, when the
 * connection drops (a server restart, a network blip), reconnects and resumes after the last
 * seq it printed, so nothing is missed or printed twice.
 *
 * Usage: npx tsx examples/follow.ts <threadId> [--from <seq>] [--url ws://localhost:4000/graphql]
 *   --from -1 replays the whole thread first; without --from only new items are shown.
 */
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { graphql } from './generated/gql.js';
import type { FollowSubscription, FollowSubscriptionVariables } from './generated/graphql.js';

const args = process.argv.slice(2);
const threadId = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!threadId) {
  console.error(
    'usage: npx tsx examples/follow.ts <threadId> [--from <seq>] [--url ws://localhost:4000/graphql]',
  );
  process.exit(2);
}
const url = option('url') ?? 'ws://localhost:4000/graphql';
let lastSeq: number | null = option('from') !== undefined ? Number(option('from')) : null;

// No automatic retry inside the client: it would resubscribe with the variables of the first
// subscribe. We reconnect ourselves, each time with the last seq printed.
const client = createClient({
  url,
  webSocketImpl: WebSocket,
  retryAttempts: 0,
  on: {
    connected: () => console.error(`[connected to ${url}; resuming after seq ${lastSeq ?? 'now'}]`),
  },
});

// The operation, typed by `npm run codegen` (examples/generated/): the result is a union of
// item types told apart by __typename.
const FOLLOW = graphql(`
  subscription Follow($threadId: ID!, $afterSeq: Int) {
    threadItems(threadId: $threadId, afterSeq: $afterSeq) {
      __typename
      ... on ConversationItem {
        seq
        type
      }
      ... on MessageItem {
        role
        content
      }
      ... on ToolCallItem {
        name
        arguments
      }
      ... on ToolResultItem {
        output
      }
      ... on ReasoningItem {
        text
      }
      ... on TerminalItem {
        text
      }
      ... on CompactionItem {
        summary
      }
    }
  }
`);

type Item = FollowSubscription['threadItems'];

function show(item: Item): string {
  switch (item.__typename) {
    case 'MessageItem':
      return `${item.role}: ${item.content ?? '(parts)'}`;
    case 'ToolCallItem':
      return `→ ${item.name}(${JSON.stringify(item.arguments)})`;
    case 'ToolResultItem':
      return `← ${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}`;
    case 'CompactionItem':
      return `[compacted: ${item.summary}]`;
    case 'ReasoningItem':
    case 'TerminalItem':
      return `[${item.type}] ${item.text}`;
    default:
      return `[${item.type}] `;
  }
}

// Each (re)subscription passes the last seq printed: the server replays what came after it.
for (let failures = 0; ; ) {
  try {
    const variables: FollowSubscriptionVariables = { threadId, afterSeq: lastSeq };
    for await (const result of client.iterate<FollowSubscription>({
      query: print(FOLLOW),
      variables,
    })) {
      if (result.errors) throw new Error(result.errors.map((e) => e.message).join('; '));
      const item = result.data!.threadItems;
      console.log(`${String(item.seq).padStart(5)}  ${show(item).slice(0, 200)}`);
      lastSeq = item.seq;
      failures = 0;
    }
    console.error('[the thread was deleted]');
    break;
  } catch (error) {
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    if (/does not exist/.test(message)) {
      console.error(message);
      process.exit(1);
    }
    // Back off up to 5 s while the server is away.
    const wait = Math.min(5_000, 250 * 2 ** failures++);
    console.error(`[connection lost; reconnecting in ${wait} ms]`);
    await new Promise((r) => setTimeout(r, wait));
  }
}
await client.dispose();
