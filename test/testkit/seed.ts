/**
 * Seeders that build state through the API.
 */
import type { TestApp } from './app.js';

let counter = 0;

/** Creates a thread; returns its id. */
export async function createThread(
  t: TestApp,
  input: { id?: string; agentId?: string; name?: string | null; metadata?: unknown } = {},
): Promise<string> {
  const data = await t.execute<{ createThread: { thread: { id: string } } }>(
    'mutation($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }',
    { input: { agentId: 'agent-1', ...input, id: input.id ?? `thread-${process.pid}-${++counter}` } },
  );
  return data.createThread.thread.id;
}

/** A message NewItem. */
export function message(content: string, role = 'user'): Record<string, unknown> {
  return { message: { role, content } };
}

/** Appends items; returns their seqs. */
export async function append(
  t: TestApp,
  threadId: string,
  items: Record<string, unknown>[],
  extra: Record<string, unknown> = {},
): Promise<number[]> {
  const data = await t.execute<{ appendItems: { items: { seq: number }[] } }>(
    `mutation($input: AppendItemsInput!) {
      appendItems(input: $input) { items { ... on ConversationItem { seq } } }
    }`,
    { input: { threadId, items, ...extra } },
  );
  return data.appendItems.items.map((i) => i.seq);
}

/** Appends `n` text messages "m0".."m{n-1}" in batches of 500. */
export async function appendMessages(t: TestApp, threadId: string, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, i) => message(`m${start + i}`));
    await append(t, threadId, batch);
  }
}
