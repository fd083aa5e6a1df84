/**
 * Operating a server process: start on a fresh database, restart on the same one (nothing
 * applied twice, data kept), and SIGTERM (stop accepting, finish in-flight requests, exit 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import { createTestDatabase, type TestDatabase } from './testkit/database.js';
import { startServer } from './testkit/process.js';

const CREATE_THREAD = graphql(`
  mutation OperationsCreateThread($id: ID!) {
    createThread(input: { id: $id, agentId: "a" }) {
      thread {
        id
      }
    }
  }
`);

const THREAD = graphql(`
  query OperationsThread($id: ID!) {
    thread(id: $id) {
      id
      agentId
    }
  }
`);

const APPEND_NEXT_SEQ = graphql(`
  mutation OperationsAppend($input: AppendItemsInput!) {
    appendItems(input: $input) {
      thread {
        nextSeq
      }
    }
  }
`);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describe('server process', () => {
  it('restarts on the same database with its data and applies nothing twice', async () => {
    const first = await startServer({ DATABASE_URL: database.url });
    expect(first.output()).toContain('applied migrations');
    const created = await first.graphql(CREATE_THREAD, { id: 'kept' });
    expect(created.errors).toBeUndefined();
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = await startServer({ DATABASE_URL: database.url });
    try {
      expect(second.output()).not.toContain('applied migrations');
      const r = await second.graphql(THREAD, { id: 'kept' });
      expect(r.data).toEqual({ thread: { id: 'kept', agentId: 'a' } });
      const ready = await fetch(`${second.url}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      second.process.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });

  it('runs in production mode unless NODE_ENV says otherwise, and says so on its start line', async () => {
    const startLine = (output: string) =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) =>
            JSON.parse(line) as { port?: number; nodeEnv?: string; productionMode?: boolean },
        )
        .find((line) => line.port !== undefined);
    // NODE_ENV absent, as in a clean shell (vitest sets it to test in this process).
    const unset = await startServer(
      { DATABASE_URL: database.url, PATH: process.env.PATH ?? '' },
      { ownEnv: true },
    );
    try {
      // productionMode is what graphql-js itself does (it reads NODE_ENV once, when it loads).
      expect(startLine(unset.output())).toMatchObject({
        nodeEnv: 'production',
        productionMode: true,
      });
      // Production mode changes nothing a client sees.
      const r = await unset.graphql(CREATE_THREAD, { id: 'production-mode' });
      expect(r.data).toEqual({ createThread: { thread: { id: 'production-mode' } } });
    } finally {
      await unset.stop();
    }
    const given = await startServer({ DATABASE_URL: database.url, NODE_ENV: 'local' });
    try {
      expect(startLine(given.output())).toMatchObject({ nodeEnv: 'local', productionMode: false });
    } finally {
      await given.stop();
    }
  });

  it('on SIGTERM finishes the request in flight, refuses new connections and exits 0', async () => {
    const server = await startServer({ DATABASE_URL: database.url });
    await server.graphql(CREATE_THREAD, { id: 'drain' });
    // A large append (about 8 MB of body) that is still being processed when the signal arrives.
    const text = 'x'.repeat(20_000);
    const items = Array.from({ length: 400 }, (_, i) => ({
      message: { role: 'user', content: `${i}${text}` },
    }));
    const inFlight = server.graphql(APPEND_NEXT_SEQ, { input: { threadId: 'drain', items } });
    await new Promise((r) => setTimeout(r, 30));
    server.process.kill('SIGTERM');
    const result = await inFlight;
    expect(result.errors).toBeUndefined();
    expect(result.data!.appendItems.thread.nextSeq).toBe(400);
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('on SIGTERM ends open SSE subscriptions and exits 0, and /readyz fails first', async () => {
    const server = await startServer({ DATABASE_URL: database.url, SHUTDOWN_DELAY_MS: '600' });
    await server.graphql(CREATE_THREAD, { id: 'sse-drain' });
    const stream = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: 'subscription { threadItems(threadId: "sse-drain", afterSeq: -1) { __typename } }',
      }),
    });
    expect(stream.status).toBe(200);
    const body = stream.text(); // resolves once the server ends the stream
    server.process.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    expect(await server.exited).toBe(0);
    await expect(body).resolves.toContain('event: complete');
  });
});
