/**
 * How failures reach clients: codes for client mistakes, masked internal errors that are
 * logged with their stack, and the request size limit.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { createThread } from './testkit/seed.js';

const logged: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line) logged.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1', MAX_BODY_BYTES: '200000' }, { logger: pino({ level: 'info' }, sink) });
  port = await t.app.start(0);
});
afterAll(() => t.close());

describe('errors', () => {
  it('parse and validation failures carry their codes', async () => {
    expect((await t.expectError('{ thread(id: "x") { id ')).code).toBe('GRAPHQL_PARSE_FAILED');
    expect((await t.expectError('{ thread(id: "x") { nope } }')).code).toBe('GRAPHQL_VALIDATION_FAILED');
    const coercion = await t.expectError('query($n: Int) { threads(first: $n) { totalCount } }', { n: 'ten' });
    expect(coercion.code).toBe('BAD_USER_INPUT');
  });

  it('an unexpected failure is masked for the client and logged with its stack', async () => {
    const id = await createThread(t);
    // Break the database under the service: the next read of compactions fails inside Prisma.
    await t.app.db.prisma.$executeRawUnsafe('ALTER TABLE "Compaction" RENAME TO "CompactionGone"');
    try {
      const result = await t.request(`query($id: ID!) { thread(id: $id) { id compactions { id } } }`, { id });
      expect(result.errors?.[0]?.message).toBe('Unexpected error.');
      expect(result.errors?.[0]?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(result)).not.toMatch(/CompactionGone|prisma|\.ts:\d+/i);
      const entry = logged.find((l) => l.msg === 'unexpected error');
      expect(entry).toBeDefined();
      expect(String((entry!.err as { stack?: string }).stack)).toMatch(/Compaction/);
    } finally {
      await t.app.db.prisma.$executeRawUnsafe('ALTER TABLE "CompactionGone" RENAME TO "Compaction"');
    }
  });

  it('a request body over MAX_BODY_BYTES is PAYLOAD_TOO_LARGE and writes nothing', async () => {
    const id = await createThread(t);
    const body = JSON.stringify({
      query: 'mutation($input: AppendItemsInput!) { appendItems(input: $input) { replayed } }',
      variables: { input: { threadId: id, items: [{ message: { role: 'user', content: 'x'.repeat(300_000) } }] } },
    });
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    const json = (await response.json()) as { errors: { extensions: { code: string }; message: string }[] };
    expect(json.errors[0]!.extensions.code).toBe('PAYLOAD_TOO_LARGE');
    expect(json.errors[0]!.message).toContain('200000');
    const after = await t.execute(`query($id: ID!) { thread(id: $id) { nextSeq } }`, { id });
    expect(after.thread.nextSeq).toBe(0);
  });

  it('GET /healthz and /readyz answer 200 while the database answers', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'ok' });
    }
  });

  it('GraphiQL is served from the package, with no CDN', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<title>threadstore</title>');
    expect(html).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(html).not.toContain('unpkg.com');
  });
});
