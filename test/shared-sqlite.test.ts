/**
 * Two processes on one SQLite file (a second server, `npm run import` beside a running server)
 * see each other's writes live: each notices the other's commits (PRAGMA data_version, see
 * src/db/commit-watch.ts) and its followers read them from the database. SQLite only: on
 * PostgreSQL, instances share events through Redis (test/live-redis.pg.test.ts).
 */
import { join } from 'node:path';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import type { SharedSqliteEventsSubscription } from './generated/graphql.js';
import { createDatabase, type TestDatabase, testProvider } from './testkit/database.js';
import { root, runToExit, type ServerProcess, startServer } from './testkit/process.js';
import { type FollowedItem, follow, wsClient } from './testkit/ws.js';

const CREATE = graphql(`
  mutation SharedSqliteCreate($id: ID!, $agentId: String!) {
    createThread(input: { id: $id, agentId: $agentId }) {
      thread {
        id
      }
    }
  }
`);

const APPEND = graphql(`
  mutation SharedSqliteAppend($threadId: ID!, $content: String!) {
    appendItems(input: { threadId: $threadId, items: [{ message: { role: "user", content: $content } }] }) {
      items {
        ... on ConversationItem {
          seq
        }
      }
    }
  }
`);

const RENAME = graphql(`
  mutation SharedSqliteRename($id: ID!) {
    updateThread(input: { id: $id, name: "renamed elsewhere" }) {
      thread {
        id
      }
    }
  }
`);

const DELETE = graphql(`
  mutation SharedSqliteDelete($id: ID!) {
    deleteThread(input: { id: $id }) {
      deletedThreadId
    }
  }
`);

const EVENTS = graphql(`
  subscription SharedSqliteEvents($agentId: String) {
    threadEvents(agentId: $agentId) {
      type
      threadId
      thread {
        name
      }
    }
  }
`);

const FIXTURE = join(
  root,
  '..',
  'shared',
  'fixtures',
  'openai-chat',
  'pydantic-ai-gpt-4o-conversations.json',
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `done()` or `ms` passed; returns how long it took. */
async function within(ms: number, done: () => boolean): Promise<number> {
  const start = performance.now();
  while (!done() && performance.now() - start < ms) await sleep(5);
  return performance.now() - start;
}

/** Sends an operation that must succeed to a server process; returns its data. */
async function must<R>(result: Promise<{ data?: R | null; errors?: unknown[] }>): Promise<R> {
  const { data, errors } = await result;
  expect(errors).toBeUndefined();
  return data!;
}

describe.runIf(testProvider === 'sqlite')('two processes on one SQLite file', () => {
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    database = await createDatabase('sqlite', { serverUrl: '', label: 'shared' });
    // One after the other: the first applies the migrations.
    a = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
    b = await startServer({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it('a follower on one server gets what the other appends within a second, in order, once', async () => {
    const id = 'shared-follow';
    await must(b.graphql(CREATE, { id, agentId: 'shared' }));
    const client = wsClient(a.port);
    const seen: FollowedItem[] = [];
    const follower = follow(client, id, -1, (item) => seen.push(item));
    try {
      // The first item through A itself: the follower is live once it has it.
      await must(a.graphql(APPEND, { threadId: id, content: 'm0' }));
      await within(5_000, () => seen.length === 1);
      expect(seen.map((i) => i.seq)).toEqual([0]);

      // One at a time through B, at uneven intervals: each arrives within a second.
      const delays: number[] = [];
      for (let n = 1; n <= 12; n++) {
        await sleep(Math.random() * 300);
        await must(b.graphql(APPEND, { threadId: id, content: `m${n}` }));
        delays.push(await within(3_000, () => seen.length === n + 1));
      }
      expect(Math.max(...delays), `delays ${delays.map(Math.round)}`).toBeLessThan(1_000);

      // A burst through B while A appends too: all arrive, in seq order, each once.
      await Promise.all([
        ...Array.from({ length: 20 }, (_, n) =>
          b.graphql(APPEND, { threadId: id, content: `b${n}` }),
        ),
        ...Array.from({ length: 5 }, (_, n) =>
          a.graphql(APPEND, { threadId: id, content: `a${n}` }),
        ),
      ]);
      expect(await within(3_000, () => seen.length === 38)).toBeLessThan(1_000);
      await sleep(600); // no duplicate comes later
      expect(seen.map((i) => i.seq)).toEqual(Array.from({ length: 38 }, (_, seq) => seq));
      expect(new Set(seen.map((i) => i.id)).size).toBe(38);

      // A delete through B ends the follower on A.
      await must(b.graphql(DELETE, { id }));
      await expect(Promise.race([follower.done, sleep(2_000).then(() => 'open')])).resolves.toBe(
        undefined,
      );
    } finally {
      follower.cancel();
      await client.dispose();
    }
  });

  it('npm run import beside a running server reaches its threadEvents followers', async () => {
    const client = wsClient(a.port);
    const events: SharedSqliteEventsSubscription['threadEvents'][] = [];
    const stop = client.subscribe<SharedSqliteEventsSubscription>(
      { query: print(EVENTS), variables: { agentId: 'imported-live' } },
      {
        next: (r) => r.data && events.push(r.data.threadEvents),
        error: () => {},
        complete: () => {},
      },
    );
    try {
      // The subscription is live once a change made through A itself arrives.
      for (let n = 0; events.length === 0 && n < 50; n++) {
        await must(a.graphql(CREATE, { id: `events-probe-${n}`, agentId: 'imported-live' }));
        await within(200, () => events.length > 0);
      }
      await sleep(300);
      expect(events.map((e) => e.type)).toEqual(['CREATED']);

      const imported = await runToExit(
        { DATABASE_URL: database.url },
        {
          script: 'src/import/cli.ts',
          args: ['--agent', 'imported-live', FIXTURE],
          timeoutMs: 60_000,
        },
      );
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      // The importer's last stdout line lists the threads it created.
      const last = imported.stdout.trim().split('\n').at(-1) ?? '';
      const ids = last
        .replace(/^created threads:\s*/, '')
        .split(/\s+/)
        .filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      expect(await within(3_000, () => events.length === 1 + ids.length)).toBeLessThan(1_000);
      expect(events.slice(1).map((e) => e.type)).toEqual(ids.map(() => 'CREATED'));
      expect(
        events
          .slice(1)
          .map((e) => e.threadId)
          .sort(),
      ).toEqual([...ids].sort());

      // Changes through B: a rename is UPDATED; a delete of a thread A saw is DELETED.
      await must(b.graphql(RENAME, { id: ids[0]! }));
      await must(b.graphql(DELETE, { id: ids[1]! }));
      const total = 3 + ids.length;
      expect(await within(3_000, () => events.length === total)).toBeLessThan(1_000);
      await sleep(600); // nothing is repeated later
      expect(events.slice(1 + ids.length)).toEqual([
        { type: 'UPDATED', threadId: ids[0], thread: { name: 'renamed elsewhere' } },
        { type: 'DELETED', threadId: ids[1], thread: null },
      ]);
      expect(events).toHaveLength(total);
    } finally {
      stop();
      await client.dispose();
    }
  });
});
