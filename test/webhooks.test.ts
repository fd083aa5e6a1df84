/**
 * Webhooks (issue 14, point 5; contract part beyond: Webhook): createWebhook, webhooks and
 * deleteWebhook with the admin scope and per tenant; every mutation's event written to the
 * outbox in its transaction and delivered to a local receiver (WEBHOOKS_ALLOW_PRIVATE=true)
 * with a verifiable signature, in order per thread; retries after 500s with failingSince shown
 * and cleared; private addresses refused without the flag; a server killed between commit and
 * delivery delivers after its restart. Several instances on one PostgreSQL:
 * webhooks.pg.test.ts.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../src/db/transaction.js';
import { sweepExpiredThreads } from '../src/threads/thread.service.js';
import { isPrivateAddress, resolveDeliveryAddress } from '../src/webhooks/address-check.js';
import { recordWebhookEvent } from '../src/webhooks/webhook.service.js';
import {
  claimDeliveries,
  markDelivered,
  markFailed,
  releaseDelivery,
} from '../src/webhooks/webhook.store.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import type { GraphQLClient } from './testkit/graphql.js';
import { startServer } from './testkit/process.js';
import { type Receiver, startReceiver, verifySignature } from './testkit/webhook-receiver.js';

const SECRET = 'webhooks-test-secret-of-at-least-32-characters';
const ALL = ['threads:read', 'threads:write', 'threads:delete', 'admin'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** "Bearer <HS256 token>" of `tenant` with `scopes`. */
async function bearer(tenant: string, scopes = ALL): Promise<string> {
  const token = await new SignJWT({ tenant, scope: scopes.join(' ') })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`user-of-${tenant}`)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));
  return `Bearer ${token}`;
}

const FAST = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_RETRY_BASE_MS: '50',
  WEBHOOK_RETRY_MAX_MS: '200',
  WEBHOOK_TIMEOUT_MS: '2000',
};

const CREATE = `mutation($input: CreateWebhookInput!) {
  createWebhook(input: $input) { secret webhook { id url events createdAt failingSince } } }`;
const LIST = '{ webhooks { id url events createdAt failingSince } }';
const DELETE = 'mutation($id: ID!) { deleteWebhook(input: { id: $id }) { deletedWebhookId } }';

let t: TestApp;
let receiver: Receiver;
let a: GraphQLClient;
let b: GraphQLClient;
let n = 0;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await buildTestApp({
    HOST: '127.0.0.1',
    AUTH: 'required',
    AUTH_JWT_SECRET: SECRET,
    ...FAST,
  });
  a = t.as(await bearer('hooks-a'));
  b = t.as(await bearer('hooks-b'));
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** Creates a webhook of `client`'s tenant posting to receiver path `path`. */
async function hook(
  client: GraphQLClient,
  path: string,
  events = [
    'THREAD_CREATED',
    'THREAD_UPDATED',
    'THREAD_DELETED',
    'ITEMS_APPENDED',
    'COMPACTION_ADDED',
    'ITEMS_PURGED',
  ],
): Promise<{ id: string; secret: string }> {
  const data = await client.execute(CREATE, { input: { url: `${receiver.url}${path}`, events } });
  return { id: data.createWebhook.webhook.id, secret: data.createWebhook.secret };
}

const at = (path: string) => receiver.received.filter((r) => r.path === path);

async function newThread(client: GraphQLClient): Promise<string> {
  const id = `wh-${process.pid}-${++n}`;
  await client.execute(
    'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
    { id },
  );
  return id;
}

async function appendTo(client: GraphQLClient, threadId: string, texts: string[]): Promise<void> {
  await client.execute(
    'mutation($input: AppendItemsInput!) { appendItems(input: $input) { thread { id } } }',
    {
      input: { threadId, items: texts.map((content) => ({ message: { role: 'user', content } })) },
    },
  );
}

describe('managing webhooks', () => {
  it('creates, lists and deletes; the secret is shown once; ids are nodes', async () => {
    const created = await a.execute(CREATE, {
      input: { url: `${receiver.url}/manage`, events: ['THREAD_CREATED', 'ITEMS_APPENDED'] },
    });
    const { webhook, secret } = created.createWebhook;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(webhook.id).toMatch(/^webhook:w[0-9a-f]{18}$/);
    expect(webhook.events).toEqual(['THREAD_CREATED', 'ITEMS_APPENDED']);
    expect(webhook.failingSince).toBeNull();
    const listed = await a.execute(LIST);
    expect(listed.webhooks).toContainEqual(webhook);
    const node = await a.execute('query($id: ID!) { node(id: $id) { __typename id } }', {
      id: webhook.id,
    });
    expect(node.node).toEqual({ __typename: 'Webhook', id: webhook.id });
    const deleted = await a.execute(DELETE, { id: webhook.id });
    expect(deleted.deleteWebhook.deletedWebhookId).toBe(webhook.id);
    expect((await a.execute(LIST)).webhooks.map((w: { id: string }) => w.id)).not.toContain(
      webhook.id,
    );
    expect((await a.expectError(DELETE, { id: webhook.id })).code).toBe('NOT_FOUND');
  });

  it('needs the admin scope for all three', async () => {
    const reader = t.as(await bearer('hooks-a', ['threads:read', 'threads:write']));
    const input = { url: `${receiver.url}/x`, events: ['THREAD_CREATED'] };
    expect((await reader.expectError(CREATE, { input })).code).toBe('FORBIDDEN');
    expect((await reader.expectError(LIST)).code).toBe('FORBIDDEN');
    expect((await reader.expectError(DELETE, { id: 'webhook:w000000000000000000' })).code).toBe(
      'FORBIDDEN',
    );
  });

  it('keeps tenants apart: lists, deletes and deliveries', async () => {
    const mine = await hook(a, '/tenant-a');
    const listedByB = (await b.execute(LIST)).webhooks.map((w: { id: string }) => w.id);
    expect(listedByB).not.toContain(mine.id);
    expect((await b.expectError(DELETE, { id: mine.id })).code).toBe('NOT_FOUND');
    const node = await b.execute('query($id: ID!) { node(id: $id) { id } }', { id: mine.id });
    expect(node.node).toBeNull();
    // B's changes never reach A's webhook; A's own do. Both tenants' events are waited for
    // until the outbox holds none of their rows (every delivery that would happen has), so a
    // B event sent to A's URL after A's own could not go unseen.
    const theirs = await hook(b, '/tenant-b');
    const other = await newThread(b);
    const own = await newThread(a);
    await receiver.until(
      () =>
        at('/tenant-a').some((r) => r.event.threadId === own) &&
        at('/tenant-b').some((r) => r.event.threadId === other),
    );
    const keys = [mine.id, theirs.id].map((id) => id.slice('webhook:'.length));
    const deadline = Date.now() + 10_000;
    while (
      (await t.app.db.prisma.webhookDelivery.count({ where: { webhookId: { in: keys } } })) > 0
    ) {
      if (Date.now() > deadline) throw new Error('the outbox of both webhooks did not drain');
      await sleep(20);
    }
    await sleep(200); // a POST whose row was just deleted has arrived by now
    expect(at('/tenant-a').length).toBeGreaterThan(0);
    expect(at('/tenant-a').every((r) => r.event.tenantId === 'hooks-a')).toBe(true);
    expect(at('/tenant-a').some((r) => r.event.threadId === other)).toBe(false);
    expect(at('/tenant-b').every((r) => r.event.tenantId === 'hooks-b')).toBe(true);
    expect(at('/tenant-b').some((r) => r.event.threadId === own)).toBe(false);
    await b.execute(DELETE, { id: theirs.id });
    await a.execute(DELETE, { id: mine.id });
  });

  it('refuses other schemes, bad URLs and no events', async () => {
    for (const url of [
      'ftp://example.com/x',
      'file:///etc/passwd',
      'not a url',
      'javascript:alert(1)',
    ]) {
      const error = await a.expectError(CREATE, { input: { url, events: ['THREAD_CREATED'] } });
      expect(error.code, url).toBe('BAD_USER_INPUT');
    }
    const none = await a.expectError(CREATE, {
      input: { url: 'https://example.com/x', events: [] },
    });
    expect(none.code).toBe('BAD_USER_INPUT');
  });
});

describe('private addresses', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await buildTestApp({ HOST: '127.0.0.1', WEBHOOK_POLL_MS: '50' });
  });
  afterAll(() => strict?.close());

  it('refuses loopback, private, link-local and mapped addresses without WEBHOOKS_ALLOW_PRIVATE', async () => {
    for (const host of [
      '127.0.0.1',
      'localhost',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[fd00::1]',
      '[fe80::1]',
    ]) {
      const error = await strict.expectError(CREATE, {
        input: { url: `http://${host}:8080/hook`, events: ['THREAD_CREATED'] },
      });
      expect(error.code, host).toBe('BAD_USER_INPUT');
    }
    const ok = await strict.execute(CREATE, {
      input: { url: 'https://hooks.example.com/threadstore', events: ['THREAD_CREATED'] },
    });
    expect(ok.createWebhook.webhook.url).toBe('https://hooks.example.com/threadstore');
  });

  it('checks resolved addresses at delivery', async () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '::1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      'fc00::1',
      '224.0.0.1',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of [
      '93.184.216.34',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:93.184.216.34',
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(false);
    }
    await expect(resolveDeliveryAddress('localhost', false)).rejects.toThrow(/private|loopback/);
    await expect(resolveDeliveryAddress('localhost', true)).resolves.toBeTruthy();
  });
});

describe('delivery', () => {
  it('posts signed events in order per thread for every kind of change', async () => {
    const { secret } = await hook(a, '/order');
    // Slow, uneven answers: order must come from the outbox, not from luck.
    receiver.respond = () => 200;
    const threads = [await newThread(a), await newThread(a)];
    for (let i = 0; i < 4; i++) {
      for (const id of threads) await appendTo(a, id, [`m${i}`, `n${i}`]);
    }
    const [one, two] = threads as [string, string];
    await a.execute(
      'mutation($id: ID!) { updateThread(input: { id: $id, name: "renamed" }) { thread { id } } }',
      { id: one },
    );
    await a.execute(
      'mutation($id: ID!) { addCompaction(input: { threadId: $id, startSeq: 0, endSeq: 3, summary: "s" }) { marker { seq } } }',
      { id: one },
    );
    await a.execute(
      'mutation($id: ID!, $before: DateTime!) { purgeItems(input: { threadId: $id, before: $before }) { itemsDeleted } }',
      { id: one, before: new Date(Date.now() + 1000).toISOString() },
    );
    await a.execute('mutation($id: ID!) { deleteThread(input: { id: $id }) { deletedThreadId } }', {
      id: one,
    });
    const expected = [
      'THREAD_CREATED',
      'ITEMS_APPENDED',
      'ITEMS_APPENDED',
      'ITEMS_APPENDED',
      'ITEMS_APPENDED',
      'THREAD_UPDATED',
      'COMPACTION_ADDED',
      'ITEMS_PURGED',
      'THREAD_DELETED',
    ];
    const of = (id: string) => at('/order').filter((r) => r.event.threadId === id);
    await receiver.until(() => of(one).length >= expected.length && of(two).length >= 5);
    expect(of(one).map((r) => r.event.type)).toEqual(expected);
    expect(of(two).map((r) => r.event.type)).toEqual(expected.slice(0, 5));
    const appended = of(one)
      .filter((r) => r.event.type === 'ITEMS_APPENDED')
      .map((r) => r.event.data);
    expect(appended).toEqual([0, 2, 4, 6].map((s) => ({ firstSeq: s, lastSeq: s + 1, count: 2 })));
    const compaction = of(one).find((r) => r.event.type === 'COMPACTION_ADDED')!;
    expect(compaction.event.data).toEqual({
      compactionId: `${one}:compaction:8`,
      startSeq: 0,
      endSeq: 3,
      markerSeq: 8,
    });
    expect(of(one)[5]!.event.data.thread).toMatchObject({ id: one, name: 'renamed' });
    for (const r of at('/order')) {
      expect(verifySignature(secret, r.headers['threadstore-signature'] as string, r.body)).toBe(
        true,
      );
      expect(r.headers['content-type']).toBe('application/json');
      expect(Object.keys(r.event)).toEqual(['id', 'type', 'tenantId', 'threadId', 'at', 'data']);
      expect(r.event.tenantId).toBe('hooks-a');
      expect(new Date(r.event.at).toISOString()).toBe(r.event.at);
    }
    expect(
      verifySignature(
        'whsec_wrong',
        at('/order')[0]!.headers['threadstore-signature'] as string,
        at('/order')[0]!.body,
      ),
    ).toBe(false);
    expect(new Set(at('/order').map((r) => r.event.id)).size).toBe(at('/order').length);
    for (const w of (await a.execute(LIST)).webhooks) await a.execute(DELETE, { id: w.id });
  });

  it('a large append (the transaction path on PostgreSQL too) is one ITEMS_APPENDED', async () => {
    const { id } = await hook(a, '/large', ['ITEMS_APPENDED']);
    const thread = await newThread(a);
    await appendTo(a, thread, ['first']);
    await appendTo(
      a,
      thread,
      Array.from({ length: 150 }, (_, i) => `bulk ${i}`),
    );
    await receiver.until(() => at('/large').length >= 2);
    expect(at('/large').map((r) => r.event.data)).toEqual([
      { firstSeq: 0, lastSeq: 0, count: 1 },
      { firstSeq: 1, lastSeq: 150, count: 150 },
    ]);
    await a.execute(DELETE, { id });
  });

  it('sends only the subscribed events', async () => {
    const { id } = await hook(a, '/only-updates', ['THREAD_UPDATED']);
    const thread = await newThread(a);
    await appendTo(a, thread, ['x']);
    await a.execute(
      'mutation($id: ID!) { updateThread(input: { id: $id, archived: true }) { thread { id } } }',
      { id: thread },
    );
    await receiver.until(() => at('/only-updates').length >= 1);
    await sleep(300);
    expect(at('/only-updates').map((r) => r.event.type)).toEqual(['THREAD_UPDATED']);
    await a.execute(DELETE, { id });
  });

  it('retries after 500s, shows failingSince while failing and clears it on success', async () => {
    const { id } = await hook(a, '/flaky', ['ITEMS_APPENDED']);
    let failing = true;
    receiver.respond = (r) => (r.path === '/flaky' && failing ? 500 : 200);
    const thread = await newThread(a);
    await appendTo(a, thread, ['first']);
    await appendTo(a, thread, ['second']);
    await receiver.until(() => at('/flaky').length >= 3);
    const listed = async () =>
      (await a.execute(LIST)).webhooks.find((w: { id: string }) => w.id === id) as {
        failingSince: string | null;
      };
    const since = (await listed()).failingSince;
    expect(since).not.toBeNull();
    // While the first event fails, the second waits behind it (order per thread).
    expect(at('/flaky').every((r) => r.event.data.firstSeq === 0)).toBe(true);
    failing = false;
    await receiver.until(() => at('/flaky').some((r) => r.event.data.firstSeq === 1));
    const delivered = at('/flaky').map((r) => r.event.data.firstSeq);
    expect(delivered.at(-2)).toBe(0);
    expect(delivered.at(-1)).toBe(1);
    // Every retry sent the same event (same id and body).
    expect(
      new Set(
        at('/flaky')
          .filter((r) => r.event.data.firstSeq === 0)
          .map((r) => r.body),
      ).size,
    ).toBe(1);
    // Cleared once the worker recorded the 2xx (just after the receiver saw it).
    for (let i = 0; i < 100 && (await listed()).failingSince !== null; i++) await sleep(20);
    expect((await listed()).failingSince).toBeNull();
    receiver.respond = () => 200;
    await a.execute(DELETE, { id });
  });

  it('gives up after the retry window and goes on with the next event', async () => {
    const short = await buildTestApp({
      HOST: '127.0.0.1',
      ...FAST,
      WEBHOOK_RETRY_FOR_MS: '300',
    });
    try {
      const created = await short.execute(CREATE, {
        input: { url: `${receiver.url}/dead`, events: ['THREAD_CREATED', 'ITEMS_APPENDED'] },
      });
      receiver.respond = (r) =>
        r.path === '/dead' && r.event.type === 'THREAD_CREATED' ? 503 : 200;
      const id = `dead-${process.pid}`;
      await short.execute(
        'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
        { id },
      );
      await short.execute(
        'mutation($id: ID!) { appendItems(input: { threadId: $id, items: [{ message: { role: "user", content: "x" } }] }) { thread { id } } }',
        { id },
      );
      await receiver.until(() => at('/dead').some((r) => r.event.type === 'ITEMS_APPENDED'));
      const list = await short.execute(LIST);
      // The webhook stays marked failing: its last delivery failed... then one succeeded.
      expect(list.webhooks[0].id).toBe(created.createWebhook.webhook.id);
      // The delivered row goes once the worker recorded the 2xx (just after the receiver saw it).
      const outbox = async () =>
        (await short.app.db.prisma.webhookDelivery.findMany()).map((r) => [r.type, r.status]);
      for (let i = 0; i < 100 && (await outbox()).length > 1; i++) await sleep(20);
      expect(await outbox()).toEqual([['THREAD_CREATED', 'DEAD']]);
    } finally {
      receiver.respond = () => 200;
      await short.close();
    }
  });

  it('deleting a webhook drops its undelivered events', async () => {
    receiver.respond = (r) => (r.path === '/dropped' ? 500 : 200);
    const { id } = await hook(a, '/dropped', ['THREAD_CREATED']);
    await newThread(a);
    await receiver.until(() => at('/dropped').length >= 1);
    await a.execute(DELETE, { id });
    const left = await t.app.db.prisma.webhookDelivery.count({ where: { webhookId: id.slice(8) } });
    expect(left).toBe(0);
    receiver.respond = () => 200;
  });

  it('writes no outbox row when the transaction rolls back, or the mutation fails', async () => {
    const { id } = await hook(a, '/rollback', ['THREAD_CREATED', 'ITEMS_APPENDED']);
    receiver.respond = (r) => (r.path === '/rollback' ? 500 : 200); // keep rows in the outbox
    const before = await t.app.db.prisma.webhookDelivery.count();
    await expect(
      transaction(t.app.db, async (tx) => {
        const rows = await recordWebhookEvent(tx, {
          tenantId: 'hooks-a',
          threadId: 'never',
          type: 'THREAD_CREATED',
          at: new Date(),
          data: {},
        });
        expect(rows).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A failed append (unknown thread, wrong expectedSeq) writes nothing either.
    const thread = await newThread(a);
    await receiver.until(() => at('/rollback').length >= 1);
    const missing = await a.expectError(
      'mutation { appendItems(input: { threadId: "no-such-thread", items: [{ message: { role: "user", content: "x" } }] }) { thread { id } } }',
    );
    expect(missing.code).toBe('NOT_FOUND');
    const conflict = await a.expectError(
      'mutation($id: ID!) { appendItems(input: { threadId: $id, expectedSeq: 5, items: [{ message: { role: "user", content: "x" } }] }) { thread { id } } }',
      { id: thread },
    );
    expect(conflict.code).toBe('CONFLICT');
    const rows = await t.app.db.prisma.webhookDelivery.findMany({
      where: { webhookId: id.slice(8) },
    });
    expect(rows.map((r) => r.type)).toEqual(['THREAD_CREATED']);
    expect(await t.app.db.prisma.webhookDelivery.count()).toBe(before + 1);
    await a.execute(DELETE, { id });
    receiver.respond = () => 200;
  });

  it('an import emits THREAD_CREATED, then ITEMS_APPENDED for its items', async () => {
    const { id } = await hook(a, '/import');
    const imported = await a.execute(
      `mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } itemsImported } }`,
      {
        input: {
          agentId: 'a',
          threadId: `imp-${process.pid}`,
          format: 'OPENAI_CHAT',
          transcript: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', content: 'hello' },
          ],
        },
      },
    );
    const threadId = imported.importTranscript.thread.id;
    await receiver.until(
      () => at('/import').filter((r) => r.event.threadId === threadId).length >= 2,
    );
    const events = at('/import').filter((r) => r.event.threadId === threadId);
    expect(events.map((r) => r.event.type)).toEqual(['THREAD_CREATED', 'ITEMS_APPENDED']);
    expect(events[1]!.event.data).toEqual({
      firstSeq: 0,
      lastSeq: imported.importTranscript.itemsImported - 1,
      count: imported.importTranscript.itemsImported,
    });
    await a.execute(DELETE, { id });
  });
});

describe('forks and expiry', () => {
  it('a fork is THREAD_CREATED of the fork; an expiry sweep is THREAD_DELETED (expired: true)', async () => {
    await hook(a, '/lineage', ['THREAD_CREATED', 'THREAD_DELETED']);
    const source = await newThread(a);
    await appendTo(a, source, ['one', 'two', 'three']);
    const fork = `wh-fork-${process.pid}-${++n}`;
    await a.execute(
      'mutation($input: ForkThreadInput!) { forkThread(input: $input) { thread { id } } }',
      { input: { threadId: source, atSeq: 1, id: fork } },
    );
    const expiring = `wh-exp-${process.pid}-${++n}`;
    await a.execute(
      'mutation($id: ID!, $at: DateTime!) { createThread(input: { id: $id, agentId: "a", expiresAt: $at }) { thread { id } } }',
      { id: expiring, at: new Date(Date.now() + 300).toISOString() },
    );
    await appendTo(a, expiring, ['soon gone']);
    await sleep(350);
    expect(await sweepExpiredThreads(t.app.db, t.app.events)).toBeGreaterThanOrEqual(1);
    const of = (id: string) => at('/lineage').filter((r) => r.event.threadId === id);
    await receiver.until(() => of(fork).length >= 1 && of(expiring).length >= 2);
    expect(of(fork).map((r) => r.event.type)).toEqual(['THREAD_CREATED']);
    expect(of(fork)[0]!.event.data.thread).toMatchObject({
      id: fork,
      lastSeq: 1,
      itemCount: 2,
      forkedFrom: { threadId: source, seq: 1 },
    });
    expect(of(expiring).map((r) => r.event.type)).toEqual(['THREAD_CREATED', 'THREAD_DELETED']);
    expect(of(expiring)[1]!.event.data).toEqual({
      thread: { id: expiring, agentId: 'a' },
      itemsDeleted: 1,
      compactionsDeleted: 0,
      expired: true,
    });
    for (const w of (await a.execute(LIST)).webhooks) await a.execute(DELETE, { id: w.id });
  });
});

describe('restores', () => {
  it('a THREADSTORE_JSONL restore emits THREAD_CREATED, then ITEMS_APPENDED', async () => {
    const port = await t.app.start(0);
    const source = await newThread(a);
    await appendTo(a, source, ['one', 'two', 'three']);
    const dump = await fetch(
      `http://127.0.0.1:${port}/threads/${source}/export?format=THREADSTORE_JSONL`,
      { headers: { authorization: await bearer('hooks-a') } },
    );
    expect(dump.status).toBe(200);
    const { id } = await hook(a, '/restore');
    const restoredId = `restored-${process.pid}`;
    await a.execute(
      'mutation($input: ImportTranscriptInput!) { importTranscript(input: $input) { thread { id } } }',
      {
        input: {
          agentId: 'a',
          threadId: restoredId,
          format: 'THREADSTORE_JSONL',
          transcript: await dump.text(),
        },
      },
    );
    await receiver.until(() => at('/restore').length >= 2);
    expect(at('/restore').map((r) => [r.event.threadId, r.event.type, r.event.data.count])).toEqual(
      [
        [restoredId, 'THREAD_CREATED', undefined],
        [restoredId, 'ITEMS_APPENDED', 3],
      ],
    );
    await a.execute(DELETE, { id });
  });
});

describe('reviewed faults', () => {
  it('outbox ids past 2^31 still write and deliver (PostgreSQL: BIGSERIAL)', async () => {
    const hooked = await hook(a, '/big-ids', ['ITEMS_APPENDED']);
    const thread = await newThread(a);
    // Move the id counter to just below 2^31 - 1, the end of a 32-bit SERIAL.
    if (t.provider === 'postgresql') {
      await t.app.db.prisma.$queryRawUnsafe(
        `SELECT setval('"WebhookDelivery_id_seq"', 2147483646)::text AS v`,
      );
    } else {
      const moved = await t.app.db.prisma.$executeRawUnsafe(
        `UPDATE sqlite_sequence SET seq = 2147483646 WHERE name = 'WebhookDelivery'`,
      );
      if (moved === 0) {
        await t.app.db.prisma.$executeRawUnsafe(
          `INSERT INTO sqlite_sequence (name, seq) VALUES ('WebhookDelivery', 2147483646)`,
        );
      }
    }
    for (const text of ['one', 'two', 'three']) await appendTo(a, thread, [text]);
    await receiver.until(
      () => at('/big-ids').filter((r) => r.event.threadId === thread).length >= 3,
    );
    expect(
      at('/big-ids')
        .filter((r) => r.event.threadId === thread)
        .map((r) => r.event.data.firstSeq),
    ).toEqual([0, 1, 2]);
    await a.execute(DELETE, { id: hooked.id });
  });

  it('a receiver that does not answer does not hold back another webhook', async () => {
    const slow = await hook(a, '/slow', ['THREAD_CREATED']);
    const fast = await hook(b, '/fast', ['THREAD_CREATED']);
    receiver.respond = (r) => (r.path === '/slow' ? 'hang' : 200);
    try {
      // Eight threads: more than the slow webhook may have in flight (5).
      for (let i = 0; i < 8; i++) await newThread(a);
      await receiver.until(() => at('/slow').length >= 5, 5_000);
      const hangingSince = Date.now();
      const thread = await newThread(b);
      // WEBHOOK_TIMEOUT_MS is 2000: the slow POSTs are still hanging while this one arrives.
      await receiver.until(() => at('/fast').some((r) => r.event.threadId === thread), 1_000);
      expect(Date.now() - hangingSince).toBeLessThan(2_000);
      // At most 5 rows of one webhook in flight: the other 3 wait.
      expect(at('/slow').length).toBe(5);
    } finally {
      await a.execute(DELETE, { id: slow.id });
      await b.execute(DELETE, { id: fast.id });
      receiver.respond = () => 200;
    }
  });

  it('keeps to 20 webhooks per tenant under 30 concurrent creates', async () => {
    const capped = t.as(await bearer('hooks-cap'));
    const input = { url: `${receiver.url}/cap`, events: ['THREAD_DELETED'] };
    const results = await Promise.all(
      Array.from({ length: 30 }, () => capped.request(CREATE, { input })),
    );
    const created = results.filter((r) => !r.errors);
    const refused = results.filter((r) => r.errors);
    expect(created).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const r of refused) {
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message).toMatch(/at most 20 webhooks/);
    }
    const listed = (await capped.execute(LIST)).webhooks as { id: string }[];
    expect(listed).toHaveLength(20);
    for (const w of listed) await capped.execute(DELETE, { id: w.id });
  });

  it('records an outcome only under the lease that claimed the row', async () => {
    const hooked = await hook(a, '/lease', ['THREAD_DELETED']);
    const webhookId = hooked.id.slice('webhook:'.length);
    const db = t.app.db;
    // A row not due for an hour, so the app's worker leaves it alone.
    const later = new Date(Date.now() + 3_600_000);
    const row = await db.prisma.webhookDelivery.create({
      data: {
        tenantId: 'hooks-a',
        webhookId,
        threadId: 'lease-thread',
        eventId: 'lease-event',
        type: 'THREAD_DELETED',
        dataJson: '{}',
        createdAt: new Date(),
        status: 'PENDING',
        nextAttemptAt: later,
      },
    });
    const id = Number(row.id);
    // Claims "in an hour": other rows due then are given back at once.
    const claimAt = async (now: Date) => {
      const claimed = await claimDeliveries(db, now, 1_000, 50, 5);
      for (const d of claimed) if (d.id !== id) await releaseDelivery(db, d);
      const mine = claimed.find((d) => d.id === id);
      if (!mine) throw new Error('the row was not claimed');
      return mine;
    };
    const first = await claimAt(later);
    // The first lease runs out; another worker claims the row again.
    const second = await claimAt(new Date(later.getTime() + 2_000));
    expect(second.leaseUntil.getTime()).toBeGreaterThan(first.leaseUntil.getTime());
    // The first worker's late outcomes write nothing.
    expect(await markDelivered(db, first)).toBe(false);
    expect(await markFailed(db, first, new Date(), later, 'late')).toBe(false);
    const kept = await db.prisma.webhookDelivery.findUnique({ where: { id: row.id } });
    expect(kept?.attempts).toBe(0);
    expect(kept?.status).toBe('PENDING');
    await releaseDelivery(db, first); // not the holder: the lease stays
    expect(
      (await db.prisma.webhookDelivery.findUnique({ where: { id: row.id } }))?.leaseUntil,
    ).not.toBeNull();
    // The holder's outcome counts.
    expect(await markDelivered(db, second)).toBe(true);
    expect(await db.prisma.webhookDelivery.count({ where: { id: row.id } })).toBe(0);
    await a.execute(DELETE, { id: hooked.id });
  });
});

describe('a server killed between commit and delivery', () => {
  it('delivers the events after its restart (at least once)', async () => {
    const db = await import('./testkit/database.js').then((m) => m.createTestDatabase());
    const receiving = await startReceiver();
    // "hung": the receiver got the event, the server died before the answer (redelivered once
    // the claim's lease ran out); "down": every attempt failed before the kill.
    receiving.respond = (r) => (r.event.threadId === 'hung' ? 'hang' : 500);
    const env = {
      DATABASE_URL: db.url,
      AUTH: 'optional',
      ...FAST,
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_RETRY_MAX_MS: '400',
    };
    let server = await startServer(env);
    try {
      const hooked = await server.graphql(CREATE, {
        input: { url: `${receiving.url}/kill`, events: ['THREAD_CREATED'] },
      });
      expect(hooked.errors).toBeUndefined();
      for (const id of ['hung', 'down']) {
        const created = await server.graphql(
          'mutation($id: ID!) { createThread(input: { id: $id, agentId: "a" }) { thread { id } } }',
          { id },
        );
        expect(created.errors).toBeUndefined();
      }
      const seen = (id: string) => receiving.received.filter((x) => x.event.threadId === id);
      await receiving.until(() => seen('hung').length >= 1 && seen('down').length >= 1);
      server.kill(); // SIGKILL: committed, not acknowledged
      await server.exited;
      receiving.respond = () => 200;
      const before = { hung: seen('hung').length, down: seen('down').length };
      server = await startServer(env);
      await receiving
        .until(() => seen('hung').length > before.hung && seen('down').length > before.down, 30_000)
        .catch((error: Error) => {
          throw new Error(`${error.message}\n${server.output()}`);
        });
      // The same event again: same id, same body.
      const hung = seen('hung');
      expect(new Set(hung.map((r) => r.body)).size).toBe(1);
      expect(new Set(seen('down').map((r) => r.event.id)).size).toBe(1);
      await sleep(500);
      expect(seen('hung').length).toBe(before.hung + 1); // delivered: not sent again
    } finally {
      await server.stop();
      await receiving.close();
      await db.drop();
    }
  });
});
