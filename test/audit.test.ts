/**
 * The audit log through a real server on port 0 (issue 9, point 8): one `audit` line per
 * mutation field (tenant, subject, auth method, transport, operation, field, thread id,
 * outcome) over HTTP and graphql-ws, and one per refused request or socket (401, 403 scope or
 * CSRF, refused WebSocket); no line for a plain query, and never content, other variables,
 * tokens or secrets.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { collectingLogger, hs256, rawSocket, TEST_JWT_SECRET } from './testkit/transport.js';

const CONTENT = 'audit-never-logs-this-content';
const SECRET_WORD = 'audit-never-logs-this-variable';

describe('audit log', () => {
  let t: TestApp;
  let port: number;
  let base: string;
  const { logger, lines } = collectingLogger();
  const audit = () => lines.filter((l) => l.msg === 'audit');
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1', AUTH_JWT_SECRET: TEST_JWT_SECRET }, { logger });
    port = await t.app.start(0);
    base = `http://127.0.0.1:${port}/graphql`;
  });
  afterAll(() => t.close());

  /** POSTs an operation with `headers`; returns the status. */
  const post = async (
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    await response.text();
    return response.status;
  };

  it('writes one line per mutation field with who, what, thread id and outcome', async () => {
    const token = await hs256({ tenant: 'audit-co', sub: 'alice' });
    const auth = { authorization: `Bearer ${token}` };
    const id = `audit-${process.pid}`;
    const before = audit().length;
    await post(
      `mutation Create($input: CreateThreadInput!) { createThread(input: $input) { thread { id } } }`,
      { input: { id, agentId: 'a', name: SECRET_WORD } },
      auth,
    );
    await post(
      `mutation Two { first: appendItems(input: { threadId: "${id}", items: [{ message: { role: "user", content: "${CONTENT}" } }] }) { thread { nextSeq } }
        missing: appendItems(input: { threadId: "no-such-thread", items: [{ message: { role: "user", content: "x" } }] }) { thread { nextSeq } } }`,
      {},
      auth,
    );
    await post('{ threads(first: 1) { totalCount } }', {}, auth);
    const written = audit().slice(before);
    expect(written).toHaveLength(3);
    expect(written[0]).toMatchObject({
      level: 30,
      tenant: 'audit-co',
      subject: 'alice',
      authMethod: 'JWT',
      transport: 'http',
      operation: 'Create',
      field: 'createThread',
      threadId: id,
      outcome: 'ok',
    });
    expect(written[1]).toMatchObject({
      operation: 'Two',
      field: 'appendItems',
      threadId: id,
      outcome: 'ok',
    });
    expect(written[2]).toMatchObject({
      field: 'appendItems',
      threadId: 'no-such-thread',
      outcome: 'NOT_FOUND',
    });
    expect(written[0]!.requestId).toEqual(expect.any(String));
  });

  it('writes a line for every refusal: 401, missing scope, CSRF, refused socket', async () => {
    const before = audit().length;
    const forged = `${(await hs256()).slice(0, -4)}AAAA`;
    expect(
      await post(
        'mutation Forged { deleteThread(input: { id: "x" }) { deletedThreadId } }',
        {},
        {
          authorization: `Bearer ${forged}`,
        },
      ),
    ).toBe(401);
    const reader = await hs256({ tenant: 'audit-co', sub: 'bob', scope: 'threads:read' });
    await post(
      'mutation Denied { deleteThread(input: { id: "audit-x" }) { deletedThreadId } }',
      {},
      {
        authorization: `Bearer ${reader}`,
      },
    );
    const writer = await hs256({ tenant: 'audit-co', sub: 'carol', scope: 'threads:write' });
    await post(
      'query Peek { threads(first: 1) { totalCount } }',
      {},
      { authorization: `Bearer ${writer}` },
    );
    const csrf = await fetch(`${base}?query=${encodeURIComponent('{ __typename }')}`);
    expect(csrf.status).toBe(403);
    const socket = await rawSocket(port);
    socket.send({ type: 'connection_init', payload: { authorization: `Bearer ${forged}` } });
    expect((await socket.closed).code).toBe(4403);

    const written = audit().slice(before);
    expect(written).toEqual([
      expect.objectContaining({
        tenant: null,
        subject: null,
        attempted: 'JWT',
        operation: 'Forged',
        outcome: 'UNAUTHENTICATED',
        status: 401,
      }),
      expect.objectContaining({
        tenant: 'audit-co',
        subject: 'bob',
        operation: 'Denied',
        field: 'deleteThread',
        threadId: 'audit-x',
        outcome: 'FORBIDDEN',
      }),
      expect.objectContaining({
        subject: 'carol',
        operation: 'Peek',
        field: 'threads',
        outcome: 'FORBIDDEN',
      }),
      expect.objectContaining({
        transport: 'http',
        outcome: 'FORBIDDEN',
        status: 403,
        reason: 'no CSRF header',
      }),
      expect.objectContaining({
        transport: 'ws',
        attempted: 'JWT',
        outcome: 'UNAUTHENTICATED',
        closeCode: 4403,
      }),
    ]);
  });

  it('audits mutations over graphql-ws as the socket identity', async () => {
    const before = audit().length;
    const socket = await rawSocket(port);
    socket.send({
      type: 'connection_init',
      payload: { authorization: `Bearer ${await hs256({ tenant: 'audit-ws' })}` },
    });
    await socket.next((m) => m.type === 'connection_ack');
    socket.send({
      type: 'subscribe',
      id: '1',
      payload: {
        query:
          'mutation OverWs { createThread(input: { id: "audit-ws-1", agentId: "a" }) { thread { id } } }',
      },
    });
    await socket.next((m) => m.id === '1' && m.type === 'next');
    socket.ws.close();
    expect(audit().slice(before)).toEqual([
      expect.objectContaining({
        tenant: 'audit-ws',
        subject: 'user-1',
        transport: 'ws',
        operation: 'OverWs',
        field: 'createThread',
        threadId: 'audit-ws-1',
        outcome: 'ok',
      }),
    ]);
  });

  /** Creates an API key with scope threads:read as the JWT `token`'s caller; its secret. */
  const readKeySecret = async (token: string, name: string): Promise<string> => {
    const key = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: `mutation { createApiKey(input: { name: "${name}", scopes: ["threads:read"] }) { secret } }`,
      }),
    });
    return ((await key.json()) as { data: { createApiKey: { secret: string } } }).data.createApiKey
      .secret;
  };

  it('never logs content, variables, tokens or secrets', async () => {
    const token = await hs256({ tenant: 'audit-co' });
    const secret = await readKeySecret(token, 'k');
    expect(await post('{ viewer { tenantId } }', {}, { authorization: `Bearer ${secret}` })).toBe(
      200,
    );
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    for (const needle of [
      CONTENT,
      SECRET_WORD,
      token,
      secret,
      secret.slice(-20),
      TEST_JWT_SECRET,
    ]) {
      expect(text).not.toContain(needle);
    }
    expect(audit().some((l) => l.field === 'createApiKey' && l.outcome === 'ok')).toBe(true);
  });

  it('gives the request id to the lines of a request with a chunked body', async () => {
    const send = (query: string, id: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(base, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': id },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        // Two writes and no content-length: the body arrives chunked.
        const body = JSON.stringify({ query });
        req.write(body.slice(0, 10));
        req.end(body.slice(10));
      });
    expect(
      await send(
        'mutation Make { createThread(input: { agentId: "chunked" }) { thread { id } } }',
        'chunked-1',
      ),
    ).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const mine = lines.filter((l) => l.requestId === 'chunked-1');
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({ operation: 'Make', status: 200 });
    expect(mine.find((l) => l.msg === 'audit')).toMatchObject({
      field: 'createThread',
      outcome: 'ok',
    });
  });

  it('logs a failure while checking an API key once, with the request id', async () => {
    const secret = await readKeySecret(await hs256({ tenant: 'audit-co' }), 'gone');
    // The key lookup fails inside Prisma: an unexpected error while authenticating.
    await t.app.db.prisma.$executeRawUnsafe('ALTER TABLE "ApiKey" RENAME TO "ApiKeyGone"');
    try {
      const status = await post(
        '{ viewer { tenantId } }',
        {},
        {
          authorization: `Bearer ${secret}`,
          'x-request-id': 'auth-fails-1',
        },
      );
      expect(status).toBe(500);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const errors = lines.filter((l) => (l.level as number) >= 50);
      const mine = errors.filter((l) => l.requestId === 'auth-fails-1');
      expect(mine.map((l) => l.msg)).toEqual(['unexpected error']);
      // Yoga's own copy of it goes at debug, not as a second error line without the id.
      expect(
        errors.filter((l) => l.requestId === undefined && /ApiKey/.test(String(l.msg))),
      ).toEqual([]);
    } finally {
      await t.app.db.prisma.$executeRawUnsafe('ALTER TABLE "ApiKeyGone" RENAME TO "ApiKey"');
    }
  });
});
