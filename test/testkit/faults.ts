/**
 * Helpers for the fault tests (test/faults*.test.ts): an append with an idempotency key that
 * reports HTTP status and first error, /readyz polling, the thread's stored seqs, and a
 * PostgreSQL admin connection that can lock tables and end the server's connections.
 */
import pg from 'pg';
import type { TestApp } from './app.js';
import type { GraphQLErrorJson } from './graphql.js';

const APPEND = `mutation FaultAppend($input: AppendItemsInput!) {
  appendItems(input: $input) { replayed items { ... on ConversationItem { seq } } }
}`;

export interface AppendOutcome {
  status: number;
  error?: GraphQLErrorJson;
  seqs?: number[];
  replayed?: boolean;
}

/** Appends `n` messages with `idempotencyKey`; returns the HTTP status and result or error. */
export async function appendWithKey(
  t: TestApp,
  threadId: string,
  idempotencyKey: string,
  n = 3,
): Promise<AppendOutcome> {
  const items = Array.from({ length: n }, (_, i) => ({
    message: { role: 'user', content: `${idempotencyKey}-${i}` },
  }));
  const response = await t.app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query: APPEND,
      variables: { input: { threadId, idempotencyKey, items } },
    }),
  });
  const body = (await response.json()) as {
    data?: { appendItems: { replayed: boolean; items: { seq: number }[] } } | null;
    errors?: GraphQLErrorJson[];
  };
  return {
    status: response.status,
    error: body.errors?.[0],
    seqs: body.data?.appendItems.items.map((i) => i.seq),
    replayed: body.data?.appendItems.replayed,
  };
}

/** Every stored item of the thread as `content` strings in seq order (at most 500). */
export async function storedContents(t: TestApp, threadId: string): Promise<string[]> {
  const data = await t.execute(
    `query FaultItems($id: ID!) { thread(id: $id) { items(first: 500) { edges { node {
      ... on MessageItem { seq content } } } } } }`,
    { id: threadId },
  );
  const edges = data.thread.items.edges as { node: { seq: number; content: string } }[];
  return edges.map((e) => `${e.node.seq}:${e.node.content}`);
}

/** GET /readyz of a listening app: status and body. */
export async function readyz(
  port: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Polls /readyz until it answers `status` (and, when given, `database` in its body), 20 s at
 * most; returns its body.
 */
export async function waitForReady(
  port: number,
  status: number,
  database?: string,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await readyz(port);
    if (answer.status === status && (!database || answer.body.database === database)) {
      return answer.body;
    }
    if (Date.now() > deadline) {
      throw new Error(`/readyz never answered ${status}; last: ${JSON.stringify(answer)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A direct connection to a test database (not through any proxy) for faults from outside. */
export async function adminOf(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  return {
    client,
    /** Ends every other connection to the database (the server's pool). */
    async terminateOthers(): Promise<number> {
      const result = await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      return result.rowCount ?? 0;
    },
    /** Other sessions waiting on a lock (an append blocked behind our table lock). */
    async waitingOnLock(): Promise<number> {
      const result = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
        [database],
      );
      return result.rows[0].n as number;
    },
    end: () => client.end(),
  };
}

/** Polls `check` until it is true (20 s at most). */
export async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
