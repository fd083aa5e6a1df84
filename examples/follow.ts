/**
 * Follows a thread live in a terminal: prints every item as it arrives and, when the
 * connection drops (a server restart, a network blip), reconnects and resumes after the last
 * seq it printed, so nothing is missed or printed twice. The resuming is @threadstore/client's
 * follow() (client/): this file only prints.
 *
 * Usage: npx tsx examples/follow.ts <threadId> [--from <seq>] [--url ws://localhost:4000/graphql]
 *   --from -1 replays the whole thread first; without --from only new items are shown.
 *   THREADSTORE_TOKEN (an API key or JWT) is sent when set.
 */
import WebSocket from 'ws';
import { createClient, type Item, isThreadstoreError } from '../client/src/index.js';

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
const wsUrl = option('url') ?? 'ws://localhost:4000/graphql';
const afterSeq = option('from') !== undefined ? Number(option('from')) : null;

const client = createClient({
  // Queries go over HTTP to the same endpoint.
  url: wsUrl.replace(/^ws/, 'http'),
  wsUrl,
  token: process.env.THREADSTORE_TOKEN || undefined,
  webSocketImpl: WebSocket,
});

/** One line for an item; the item types are a union told apart by __typename. */
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

try {
  for await (const item of client.follow(threadId, {
    afterSeq,
    onStatus: (status) => {
      if (status.state === 'subscribing')
        console.error(`[connecting to ${wsUrl}; resuming after seq ${status.afterSeq}]`);
      if (status.state === 'retrying')
        console.error(`[connection lost; reconnecting in ${status.delayMs} ms]`);
    },
  })) {
    console.log(`${String(item.seq).padStart(5)}  ${show(item).slice(0, 200)}`);
  }
  console.error('[the thread was deleted]');
} catch (error) {
  console.error(isThreadstoreError(error) ? `${error.code}: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await client.close();
}
