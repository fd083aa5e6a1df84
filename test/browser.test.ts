/**
 * Browser safety through a real server on port 0 (issue 9, point 4; contract part identity):
 * CORS only for listed origins (preflights from https://evil.example get no CORS header),
 * CSRF prevention for requests a browser sends without a preflight (Authorization or
 * x-graphql-yoga-csrf required), no mutation over GET, loopback Host names only and no
 * cross-site WebSocket while AUTH=optional, AUTH=none checking neither (and warning), and
 * GRAPHIQL=false / INTROSPECTION=false. Refused requests write nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { startServer } from './testkit/process.js';
import { collectingLogger, rawHttp, rawSocket } from './testkit/transport.js';

const APP_ORIGIN = 'https://app.example.com';
const EVIL = 'https://evil.example';

let serial = 0;
/** A createThread mutation with a fresh id; `id` to check it was (not) written. */
function creation(): { id: string; query: string } {
  const id = `browser-${process.pid}-${++serial}`;
  return {
    id,
    query: `mutation { createThread(input: { id: "${id}", agentId: "a" }) { thread { id } } }`,
  };
}

describe('AUTH=optional on loopback (npm start)', () => {
  let t: TestApp;
  let port: number;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1', CORS_ORIGINS: APP_ORIGIN });
    port = await t.app.start(0);
    base = `http://127.0.0.1:${port}/graphql`;
  });
  afterAll(() => t.close());

  const exists = async (id: string) =>
    (await t.execute(`{ thread(id: "${id}") { id } }`)).thread !== null;

  /** A CORS preflight for a POST with Authorization and a JSON body. */
  const preflight = (origin: string) =>
    fetch(base, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });

  it('answers a preflight from an unlisted origin without any CORS header', async () => {
    const response = await preflight(EVIL);
    const cors = [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));
    expect(cors).toEqual([]);
    const post = await fetch(base, {
      method: 'POST',
      headers: { origin: EVIL, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect(post.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('allows a listed origin exactly, with credentials, and varies on Origin', async () => {
    const response = await preflight(APP_ORIGIN);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(response.headers.get('vary')).toMatch(/Origin/);
    // Near misses are other origins.
    for (const origin of [
      `${APP_ORIGIN}.evil.example`,
      'http://app.example.com',
      `${APP_ORIGIN}:8443`,
    ]) {
      expect(
        (await preflight(origin)).headers.get('access-control-allow-origin'),
        origin,
      ).toBeNull();
    }
  });

  it('runs GET, form, multipart and text/plain requests only with Authorization or the CSRF header', async () => {
    const refused = [
      fetch(`${base}?query=${encodeURIComponent('{ __typename }')}`),
      fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ query: creation().query }),
      }),
      fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ query: creation().query }).toString(),
      }),
      fetch(base, {
        method: 'POST',
        body: (() => {
          const form = new FormData();
          form.set('operations', JSON.stringify({ query: creation().query }));
          form.set('map', '{}');
          return form;
        })(),
      }),
    ];
    for (const response of await Promise.all(refused)) {
      expect(response.status).toBe(403);
      const body = (await response.json()) as {
        errors: { message: string; extensions: { code: string } }[];
      };
      expect(body.errors[0]!.extensions.code).toBe('FORBIDDEN');
      expect(body.errors[0]!.message).toContain('x-graphql-yoga-csrf');
    }
    for (let n = 1; n <= serial; n++)
      expect(await exists(`browser-${process.pid}-${n}`)).toBe(false);

    const query = `${base}?query=${encodeURIComponent('{ __typename }')}`;
    const withHeader = await fetch(query, { headers: { 'x-graphql-yoga-csrf': '1' } });
    expect(withHeader.status).toBe(200);
    const { secret } = (
      await t.execute(
        'mutation { createApiKey(input: { name: "csrf", scopes: ["threads:read"] }) { secret } }',
      )
    ).createApiKey;
    const withKey = await fetch(query, { headers: { authorization: `Bearer ${secret}` } });
    expect(withKey.status).toBe(200);
    // The README's curl session: a JSON POST without any other header.
    const curl = await fetch(base, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(curl.status).toBe(200);
  });

  it('never runs a mutation over GET, even with the CSRF header', async () => {
    const { id, query } = creation();
    const response = await fetch(`${base}?query=${encodeURIComponent(query)}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await exists(id)).toBe(false);
  });

  it('serves loopback Host names only (no DNS rebinding), on every path', async () => {
    const { id, query } = creation();
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      'localhost.evil.example',
      '127.0.0.1.nip.io',
    ]) {
      const answer = await rawHttp(port, {
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      expect(answer.status, host).toBe(403);
      const body = JSON.parse(answer.body) as { errors: { extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code, host).toBe('FORBIDDEN');
    }
    expect(
      (await rawHttp(port, { path: '/healthz', headers: { host: 'evil.example' } })).status,
    ).toBe(403);
    expect(await exists(id)).toBe(false);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const answer = await rawHttp(port, {
        method: 'POST',
        headers: { host, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(answer.status, host).toBe(200);
    }
    // In process too (yoga.fetch).
    const inProcess = await t.app.yoga.fetch('http://evil.example/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(inProcess.status).toBe(403);
    expect(await exists(id)).toBe(false);
  });

  it('refuses WebSocket upgrades from unlisted origins or foreign Host names', async () => {
    const refusedHeaders: Record<string, string>[] = [
      { origin: EVIL },
      { origin: 'null' },
      { host: 'evil.example' },
    ];
    for (const headers of refusedHeaders) {
      const refused = await rawSocket(port, headers).then(
        () => null,
        (error: { status?: number; body?: string }) => error,
      );
      expect(refused?.status, JSON.stringify(headers)).toBe(403);
      expect(refused?.body, JSON.stringify(headers)).toContain('FORBIDDEN');
    }
    const accepted: Record<string, string>[] = [{}, { origin: APP_ORIGIN }];
    for (const headers of accepted) {
      const socket = await rawSocket(port, headers);
      socket.send({ type: 'connection_init' });
      await socket.next((m) => m.type === 'connection_ack');
      socket.ws.close();
    }
  });

  it('acknowledges sockets without credentials, and closes those with bad ones with 4403', async () => {
    const socket = await rawSocket(port);
    socket.send({ type: 'connection_init', payload: { authorization: 'Bearer not-a-token' } });
    expect((await socket.closed).code).toBe(4403);
    expect(socket.messages).toEqual([]);
  });

  it('serves GraphiQL (with its headers editor) and introspection by default', async () => {
    const page = await fetch(base, { headers: { accept: 'text/html' } });
    expect(await page.text()).toContain('<title>threadstore</title>');
    const data = await t.execute('{ __schema { queryType { name } } }');
    expect(data.__schema.queryType.name).toBe('Query');
  });
});

describe('AUTH=none', () => {
  it('checks neither Host nor WebSocket Origin, and warns at every start', async () => {
    const { logger, lines } = collectingLogger();
    const t = await buildTestApp({ HOST: '127.0.0.1', AUTH: 'none' }, { logger });
    try {
      const port = await t.app.start(0);
      const warning = lines.find((l) => l.level === 40 && String(l.msg).includes('AUTH=none'));
      expect(warning).toBeDefined();
      const answer = await rawHttp(port, {
        method: 'POST',
        headers: { host: 'threadstore.internal', 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { method } }' }),
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data.viewer.method).toBe('NONE');
      const socket = await rawSocket(port, { origin: EVIL, host: 'threadstore.internal' });
      socket.send({ type: 'connection_init' });
      await socket.next((m) => m.type === 'connection_ack');
      socket.ws.close();
      // CORS stays closed: no origin is listed.
      const preflight = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'OPTIONS',
        headers: { origin: EVIL, 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('GRAPHIQL=false and INTROSPECTION=false', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1', GRAPHIQL: 'false', INTROSPECTION: 'false' });
    base = `http://127.0.0.1:${await t.app.start(0)}/graphql`;
  });
  afterAll(() => t.close());

  it('serves no GraphiQL page', async () => {
    const page = await fetch(base, { headers: { accept: 'text/html' } });
    expect(await page.text()).not.toContain('<title>threadstore</title>');
  });

  it('refuses introspection as a validation error, and suggests no field names', async () => {
    for (const query of [
      '{ __schema { types { name } } }',
      '{ __type(name: "Thread") { name } }',
    ]) {
      const response = await fetch(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as {
        data?: unknown;
        errors: { message: string; extensions: { code: string } }[];
      };
      expect(body.errors[0]!.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(body.errors[0]!.message).toMatch(/introspection/i);
      expect(body.data).toBeUndefined();
    }
    const typo = await t.expectError('{ thread(id: "x") { agentI } }');
    expect(typo.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(typo.message).not.toContain('agentId');
    expect((await t.execute('{ __typename }')).__typename).toBe('Query');
  });
});

describe('npm start', () => {
  it('says which AUTH mode is on in the start-up line, and warns under AUTH=none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'threadstore-auth-mode-'));
    const servers = await Promise.all([
      startServer({ DATABASE_URL: `file:${join(dir, 'optional.db')}` }),
      startServer({ DATABASE_URL: `file:${join(dir, 'none.db')}`, AUTH: 'none' }),
    ]);
    try {
      // /healthz may answer before the start-up line reaches our end of the pipe.
      const deadline = Date.now() + 10_000;
      while (
        servers.some((server) => !server.output().includes('"msg":"threadstore ')) &&
        Date.now() < deadline
      )
        await new Promise((r) => setTimeout(r, 20));
      const [optional, none] = servers.map((server) =>
        server
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
      const started = (logs: Record<string, unknown>[]) =>
        logs.find((log) => String(log.msg).startsWith('threadstore '));
      expect(started(optional!)).toMatchObject({ auth: 'optional' });
      expect(String(started(optional!)?.msg)).toContain('AUTH=optional');
      expect(String(started(none!)?.msg)).toContain('AUTH=none');
      expect(none!.some((log) => log.level === 40 && String(log.msg).startsWith('AUTH=none'))).toBe(
        true,
      );
    } finally {
      for (const server of servers) server.kill();
      await Promise.all(servers.map((server) => server.exited));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
