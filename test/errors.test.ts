/**
 * How failures reach clients: codes for client mistakes, masked internal errors that are
 * logged with their stack, and the request size limit.
 */
import { Writable } from 'node:stream';
import { print } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from './generated/gql.js';
import type { ErrorsPayloadTooLargeMutationVariables } from './generated/graphql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createThread } from './testkit/seed.js';

const logged: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n'))
      if (line) logged.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

const THREAD_COUNT = graphql(`
  query ErrorsThreadCount($n: Int) {
    threads(first: $n) {
      totalCount
    }
  }
`);

const THREAD_COMPACTIONS = graphql(`
  query ErrorsThreadCompactions($id: ID!) {
    thread(id: $id) {
      id
      compactions {
        id
      }
    }
  }
`);

const APPEND_REPLAYED = graphql(`
  mutation ErrorsPayloadTooLarge($input: AppendItemsInput!) {
    appendItems(input: $input) {
      replayed
    }
  }
`);

const NEXT_SEQ = graphql(`
  query ErrorsNextSeq($id: ID!) {
    thread(id: $id) {
      nextSeq
    }
  }
`);

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp(
    { HOST: '127.0.0.1', MAX_BODY_BYTES: '200000' },
    { logger: pino({ level: 'info' }, sink) },
  );
  port = await t.app.start(0);
});
afterAll(() => t.close());

describe('errors', () => {
  it('parse and validation failures carry their codes', async () => {
    // Documents that cannot be parsed or validated cannot be typed: these two stay strings.
    expect((await t.expectError('{ thread(id: "x") { id ')).code).toBe('GRAPHQL_PARSE_FAILED');
    expect((await t.expectError('{ thread(id: "x") { nope } }')).code).toBe(
      'GRAPHQL_VALIDATION_FAILED',
    );
    // A variable of the wrong type on purpose: the server must refuse it.
    const coercion = await t.expectError(THREAD_COUNT, { n: 'ten' as unknown as number });
    expect(coercion.code).toBe('BAD_USER_INPUT');
  });

  it('an unexpected failure is masked for the client and logged with its stack', async () => {
    const id = await createThread(t);
    // Break the database under the service: the next read of compactions fails inside Prisma.
    await t.app.db.prisma.$executeRawUnsafe('ALTER TABLE "Compaction" RENAME TO "CompactionGone"');
    try {
      const result = await t.request(THREAD_COMPACTIONS, { id });
      expect(result.errors?.[0]?.message).toBe('Unexpected error.');
      expect(result.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(result)).not.toMatch(/CompactionGone|prisma|\.ts:\d+/i);
      const entry = logged.find((l) => l.msg === 'unexpected error');
      expect(entry).toBeDefined();
      expect(String((entry!.err as { stack?: string }).stack)).toMatch(/Compaction/);
      // Over HTTP the line carries the request's id, and is written once.
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'errors-unexpected-1' },
        body: JSON.stringify({ query: print(THREAD_COMPACTIONS), variables: { id } }),
      });
      expect((await response.json()).errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      const lines = logged.filter((l) => l.requestId === 'errors-unexpected-1');
      const unexpected = lines.filter((l) => l.msg === 'unexpected error');
      expect(unexpected).toHaveLength(1);
      expect(String((unexpected[0]!.err as { stack?: string }).stack)).toMatch(/Compaction/);
    } finally {
      await t.app.db.prisma.$executeRawUnsafe(
        'ALTER TABLE "CompactionGone" RENAME TO "Compaction"',
      );
    }
  });

  it('a request body over MAX_BODY_BYTES is PAYLOAD_TOO_LARGE and writes nothing', async () => {
    const id = await createThread(t);
    const variables: ErrorsPayloadTooLargeMutationVariables = {
      input: { threadId: id, items: [{ message: { role: 'user', content: 'x'.repeat(300_000) } }] },
    };
    const body = JSON.stringify({ query: print(APPEND_REPLAYED), variables });
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    const json = (await response.json()) as {
      errors: { extensions: { code: string }; message: string }[];
    };
    expect(json.errors[0]!.extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(json.errors[0]!.message).toContain('200000');
    const after = await t.execute(NEXT_SEQ, { id });
    expect(after.thread!.nextSeq).toBe(0);
  });

  it('GET /healthz and /readyz answer 200 while the database answers', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok' });
    }
  });

  it('GraphiQL is served from the package, with no CDN', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      headers: { accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>threadstore</title>');
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(html).not.toContain('unpkg.com');
  });
});
