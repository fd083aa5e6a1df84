/**
 * Seeders that build state through the API, on typed documents.
 */
import { graphql } from '../generated/gql.js';
import type { AppendItemsInput, CreateThreadInput, NewItem } from '../generated/graphql.js';
import type { TestApp } from './app.js';

let counter = 0;

const CREATE_THREAD = graphql(`
  mutation SeedCreateThread($input: CreateThreadInput!) {
    createThread(input: $input) {
      thread {
        id
      }
    }
  }
`);

const APPEND_ITEMS = graphql(`
  mutation SeedAppendItems($input: AppendItemsInput!) {
    appendItems(input: $input) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

/** Creates a thread; returns its id. */
export async function createThread(
  t: TestApp,
  input: Partial<CreateThreadInput> = {},
): Promise<string> {
  const data = await t.execute(CREATE_THREAD, {
    input: { agentId: 'agent-1', ...input, id: input.id ?? `thread-${process.pid}-${++counter}` },
  });
  return data.createThread.thread.id;
}

/** A message NewItem. */
export function message(content: string, role = 'user'): NewItem {
  return { message: { role, content } };
}

/** Appends items; returns their seqs. */
export async function append(
  t: TestApp,
  threadId: string,
  items: Record<string, unknown>[],
  extra: Omit<AppendItemsInput, 'threadId' | 'items'> = {},
): Promise<number[]> {
  // Tests build items loosely (JSON read from fixtures, bodies the server must refuse): the
  // server, not the seeder, checks them.
  const input: AppendItemsInput = { threadId, items: items as NewItem[], ...extra };
  const data = await t.execute(APPEND_ITEMS, { input });
  return data.appendItems.items.map((i) => i.seq);
}

/** Appends `n` text messages "m0".."m{n-1}" in batches of 500. */
export async function appendMessages(t: TestApp, threadId: string, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, i) =>
      message(`m${start + i}`),
    );
    await append(t, threadId, batch);
  }
}
