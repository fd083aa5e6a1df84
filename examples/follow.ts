/**
 * Follows a thread live in a terminal: prints every item as it arrives and, when the
 * connection drops (a server restart, a network blip), reconnects and resumes after the last
 * seq it printed, so nothing is missed or printed twice.
 *
 * Usage: npx tsx examples/follow.ts <threadId> [--from <seq>] [--url ws://localhost:4000/graphql]
 *   --from -1 replays the whole thread first; without --from only new items are shown.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';

const args = process.argv.slice(2);
const threadId = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (!threadId) {
  console.error('usage: npx tsx examples/follow.ts <threadId> [--from <seq>] [--url ws://localhost:4000/graphql]');
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

interface Item {
  seq: number;
  type: string;
  createdBy: string | null;
  role?: string;
  content?: string | null;
  name?: string;
  arguments?: unknown;
  output?: unknown;
  text?: string;
  summary?: string;
}

function show(item: Item): string {
  const who = item.role ?? item.createdBy ?? item.type;
  switch (item.type) {
    case 'message':
      return `${who}: ${item.content ?? '(parts)'}`;
    case 'tool_call':
      return `→ ${item.name}(${JSON.stringify(item.arguments)})`;
    case 'tool_result':
      return `← ${typeof item.output === 'string' ? item.output : JSON.stringify(item.output)}`;
    case 'compaction':
      return `[compacted: ${item.summary}]`;
    default:
      return `[${item.type}] ${item.text ?? ''}`;
  }
}

const query = `subscription Follow($threadId: ID!, $afterSeq: Int) {
  threadItems(threadId: $threadId, afterSeq: $afterSeq) {
    ... on ConversationItem { seq type createdBy }
    ... on MessageItem { role content }
    ... on ToolCallItem { name arguments }
    ... on ToolResultItem { output }
    ... on ReasoningItem { text }
    ... on TerminalItem { text }
    ... on CompactionItem { summary }
  }
}`;

// Each (re)subscription passes the last seq printed: the server replays what came after it.
for (let failures = 0; ; ) {
  try {
    for await (const result of client.iterate<{ threadItems: Item }>({
      query,
      variables: { threadId, afterSeq: lastSeq },
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
