/**
 * Observability through the real endpoints: GET /metrics (GraphQL requests, latency and errors
 * by code; appends, items appended, live followers, the PostgreSQL pool, Redis connected), one
 * log line per request with the request id that is sent back in x-request-id (and never item
 * content or variables), and the version in /healthz.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueEvents } from '../src/pubsub/queue.js';
import { threadKey } from '../src/pubsub/topics.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { testProvider } from './testkit/database.js';
import { follow, wsClient } from './testkit/ws.js';

const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as {
  version: string;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const logs: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp({ HOST: '127.0.0.1' }, { logger: pino({ level: 'info' }, sink) });
  base = `http://127.0.0.1:${await t.app.start(0)}`;
});
afterAll(() => t.close());

/** POSTs an operation over HTTP; returns the response and its parsed body. */
async function post(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  type Body = {
    data?: unknown;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
  return { response, body: (await response.json()) as Body };
}

const APPEND = `mutation Append($input: AppendItemsInput!) {
  appendItems(input: $input) { items { ... on ConversationItem { seq } } }
}`;

async function metrics(): Promise<string> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** The value of the sample `series` (name and labels exactly as printed), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function waitForSample(series: string, value: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (sample(await metrics(), series) !== value) {
    if (Date.now() > deadline)
      throw new Error(`${series} never reached ${value}:\n${await metrics()}`);
    await sleep(50);
  }
}

describe('GET /metrics', () => {
  it('counts appends, items, live followers, requests and errors by code', async () => {
    const created = await post(
      'mutation Create { createThread(input: { id: "metrics-1", agentId: "a" }) { thread { id } } }',
    );
    expect(created.body.errors).toBeUndefined();
    const client = wsClient(Number(new URL(base).port));
    const seen: number[] = [];
    const follower = follow(client, 'metrics-1', null, (item) => seen.push(item.seq));
    await waitForSample('threadstore_live_followers{topic="thread-items"}', 1);

    for (const n of [2, 3]) {
      const items = Array.from({ length: n }, (_, i) => ({
        message: { role: 'user', content: `m${i}` },
      }));
      const appended = await post(APPEND, { input: { threadId: 'metrics-1', items } });
      expect(appended.body.errors).toBeUndefined();
    }
    const missing = await post(APPEND, {
      input: { threadId: 'no-such-thread', items: [{ message: { role: 'user', content: 'x' } }] },
    });
    expect(missing.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    await post('query Broken { noSuchField }');
    const deadline = Date.now() + 10_000;
    while (seen.length < 5 && Date.now() < deadline) await sleep(20);
    expect(seen).toEqual([0, 1, 2, 3, 4]);

    const text = await metrics();
    expect(sample(text, 'threadstore_follower_queue_depth')).toBe(0);
    expect(sample(text, 'threadstore_appends_total')).toBe(2);
    expect(sample(text, 'threadstore_items_appended_total')).toBe(5);
    expect(sample(text, 'threadstore_live_followers{topic="thread-events"}')).toBe(0);
    expect(
      sample(text, 'graphql_envelop_request{operationName="Append",operationType="mutation"}'),
    ).toBe(3);
    expect(
      sample(
        text,
        'graphql_envelop_request_duration_count{operationName="Append",operationType="mutation"}',
      ),
    ).toBe(3);
    expect(text).toMatch(/^graphql_yoga_http_duration_bucket\{.*operationName="Append".*\} \d+$/m);
    const errors =
      'graphql_envelop_error_result{operationType="mutation",operationName="Append",phase="execute",code="NOT_FOUND"}';
    expect(sample(text, errors)).toBe(1);
    expect(text).toMatch(
      /^graphql_envelop_error_result\{.*operationName="Broken",phase="validate",code="GRAPHQL_VALIDATION_FAILED"\} 1$/m,
    );
    expect(text).toContain(`threadstore_build_info{version="${pkg.version}",commit=`);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    if (testProvider === 'postgresql') {
      expect(sample(text, 'threadstore_db_pool_in_use')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'threadstore_db_pool_idle')).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'threadstore_db_pool_waiting')).toBe(0);
    } else {
      expect(text).not.toContain('threadstore_db_pool_in_use');
    }
    expect(text).not.toContain('threadstore_redis_connected');

    follower.cancel();
    await client.dispose();
    await waitForSample('threadstore_live_followers{topic="thread-items"}', 0);
  });

  it('bounds the operation-name label: clients cannot add series at will', async () => {
    for (let i = 0; i < 260; i++) await post(`query Spray${i} { __typename }`);
    const text = await metrics();
    const names = new Set(
      [...text.matchAll(/^graphql_envelop_request\{operationName="([^"]*)"/gm)].map((m) => m[1]),
    );
    expect(names.size).toBeLessThanOrEqual(201);
    expect(names.has('(other)')).toBe(true);
    expect(
      sample(text, 'graphql_envelop_request{operationName="Append",operationType="mutation"}'),
    ).toBe(3);
  });

  it('reports the events waiting unread in follower queues', async () => {
    await post(
      'mutation { createThread(input: { id: "metrics-queue", agentId: "a" }) { thread { id } } }',
    );
    // A follower's queue, as a subscription holds it, that nobody reads for now.
    const queue = queueEvents(t.app.events, 'thread-items', threadKey('local', 'metrics-queue'), {
      limit: 100,
      overflow: () => new Error('overflow'),
    });
    for (let i = 0; i < 3; i++) {
      const item = { message: { role: 'user', content: `q${i}` } };
      await post(APPEND, { input: { threadId: 'metrics-queue', items: [item] } });
    }
    expect(sample(await metrics(), 'threadstore_follower_queue_depth')).toBe(3);
    await queue.take();
    expect(sample(await metrics(), 'threadstore_follower_queue_depth')).toBe(2);
    queue.close();
    expect(sample(await metrics(), 'threadstore_follower_queue_depth')).toBe(0);
  });

  it.runIf(testProvider === 'postgresql')(
    'reports Redis connected when REDIS_URL is set',
    async () => {
      const withRedis = await buildTestApp({
        HOST: '127.0.0.1',
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      });
      try {
        const port = await withRedis.app.start(0);
        const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        expect(sample(text, 'threadstore_redis_connected')).toBe(1);
      } finally {
        await withRedis.close();
      }
    },
  );
});

describe('request log and request id', () => {
  it('sends back a sane incoming x-request-id and logs one line with it, without content or variables', async () => {
    const { response, body } = await post(
      APPEND,
      {
        input: {
          threadId: 'metrics-1',
          items: [{ message: { role: 'user', content: 'very-secret-content' } }],
        },
      },
      { 'x-request-id': 'req-abc.123' },
    );
    expect(body.errors).toBeUndefined();
    expect(response.headers.get('x-request-id')).toBe('req-abc.123');
    await sleep(50);
    const lines = logs.filter((log) => log.requestId === 'req-abc.123' && log.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      operation: 'Append',
      status: 200,
      level: 30,
    });
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(logs)).not.toContain('very-secret-content');
    // The audit line of the mutation names its thread (issue 9, point 8); no other line does.
    const audit = logs.filter((log) => log.requestId === 'req-abc.123' && log.msg === 'audit');
    expect(audit).toEqual([
      expect.objectContaining({ field: 'appendItems', threadId: 'metrics-1', outcome: 'ok' }),
    ]);
    expect(JSON.stringify(logs.filter((log) => log.msg !== 'audit'))).not.toContain('metrics-1');
  });

  it('replaces a missing or unusable request id with a new one', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-request-id': 'has spaces and "quotes"' },
      { 'x-request-id': 'x'.repeat(300) },
    ];
    for (const headers of cases) {
      const { response } = await post('query Q { threads { totalCount } }', {}, headers);
      const id = response.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await sleep(20);
      expect(logs.filter((log) => log.requestId === id)).toHaveLength(1);
    }
  });
});

describe('GET /healthz', () => {
  it('shows the version and the commit', async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ status: 'ok', version: pkg.version });
    expect(body.commit).toMatch(/^([0-9a-f]{40}|unknown)$/);
  });
});
