/**
 * Serving the thread browser and GraphiQL (issue 12, points 3 and 4) through a real server on
 * port 0: /ui's files with their content types, precompressed variants when accepted, cache
 * headers, the client-side-route fallback, the Content-Security-Policy, 405 and 404, a 503
 * hint while ui/dist is not built; GraphiQL's page with its example query and variables, sent
 * brotli- or gzip-compressed when accepted; graphql-ws accepting this server's own origin
 * (the thread browser's page) under AUTH=optional.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHIQL_EXAMPLE_QUERY } from '../src/server/graphiql.js';
import { buildTestApp, type TestApp } from './testkit/app.js';
import { rawSocket } from './testkit/transport.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET (or `method`) 127.0.0.1:<port><path> with exactly these headers; the body as bytes. */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const INDEX =
  '<!doctype html><title>threadstore</title><script type="module" src="/ui/assets/app-abc123.js"></script>';
const SCRIPT = `console.log(${JSON.stringify('thread browser '.repeat(200))});`;

describe('the thread browser at /ui', () => {
  let dist: string;
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // A built app as scripts/build-ui.mjs leaves it: hashed assets with .br and .gz beside.
    dist = mkdtempSync(join(tmpdir(), 'threadstore-ui-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(SCRIPT));
    t = await buildTestApp({ HOST: '127.0.0.1' }, { uiRoot: dist });
    port = await t.app.start(0);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at /ui/ (after a redirect from /ui), revalidated, with a strict CSP', async () => {
    const redirect = await get(port, '/ui');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/ui/');
    const page = await get(port, '/ui/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body.toString()).toBe(INDEX);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const again = await get(port, '/ui/', { 'if-none-match': String(page.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('answers client-side routes with index.html (thread ids with dots too)', async () => {
    for (const path of [
      '/ui/threads/demo-1',
      '/ui/threads/run.2026.v1.json?seq=42',
      '/ui/settings',
    ]) {
      const page = await get(port, path);
      expect(page.status, path).toBe(200);
      expect(page.body.toString(), path).toBe(INDEX);
    }
  });

  it('sends hashed assets precompressed as accepted (br, then gzip), cached for a year', async () => {
    const cases: [string | undefined, string | undefined, (b: Buffer) => Buffer][] = [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', gunzipSync],
      ['identity', undefined, (b) => b],
      [undefined, undefined, (b) => b],
    ];
    for (const [accept, encoding, decode] of cases) {
      const asset = await get(
        port,
        '/ui/assets/app-abc123.js',
        accept ? { 'accept-encoding': accept } : {},
      );
      expect(asset.status, accept).toBe(200);
      expect(asset.headers['content-encoding'], accept).toBe(encoding);
      expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.vary).toBe('Accept-Encoding');
      expect(Number(asset.headers['content-length'])).toBe(asset.body.length);
      expect(decode(asset.body).toString(), accept).toBe(SCRIPT);
      if (encoding) expect(asset.body.length).toBeLessThan(SCRIPT.length / 5);
    }
  });

  it('answers 404 for a missing asset, never a file outside ui/dist, and 405 for POST', async () => {
    expect((await get(port, '/ui/assets/gone-123.js')).status).toBe(404);
    for (const path of ['/ui/%2e%2e/package.json', '/ui/..%2f..%2fpackage.json', '/ui/%00']) {
      const answer = await get(port, path);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.body.toString(), path).not.toContain('"name"');
    }
    const post = await get(port, '/ui/', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('accepts graphql-ws from its own origin (the thread browser), not from another port', async () => {
    for (const origin of [`http://127.0.0.1:${port}`]) {
      const socket = await rawSocket(port, { origin });
      socket.send({ type: 'connection_init' });
      await socket.next((m) => m.type === 'connection_ack');
      socket.ws.close();
    }
    const socket = await rawSocket(port, {
      origin: `http://localhost:${port}`,
      host: `localhost:${port}`,
    });
    socket.send({ type: 'connection_init' });
    await socket.next((m) => m.type === 'connection_ack');
    socket.ws.close();
    const refused = await rawSocket(port, { origin: `http://127.0.0.1:${port + 1}` }).then(
      () => null,
      (error: { status?: number }) => error,
    );
    expect(refused?.status).toBe(403);
  });
});

describe('the thread browser before `npm run build:ui`', () => {
  it('answers 503 with a one-line hint', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'threadstore-ui-empty-'));
    const t = await buildTestApp({ HOST: '127.0.0.1' }, { uiRoot: empty });
    try {
      const port = await t.app.start(0);
      for (const path of ['/ui/', '/ui/threads/x']) {
        const answer = await get(port, path);
        expect(answer.status).toBe(503);
        expect(answer.body.toString()).toMatch(
          /^The thread browser is not built: run `npm run build:ui`.*\n$/,
        );
      }
    } finally {
      await t.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('GraphiQL', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp({ HOST: '127.0.0.1' });
    port = await t.app.start(0);
  });
  afterAll(() => t.close());

  const page = (encoding?: string) =>
    get(port, '/graphql', {
      accept: 'text/html',
      ...(encoding ? { 'accept-encoding': encoding } : {}),
    });

  it('opens on the example query and its variables, and the example runs', async () => {
    const html = (await page()).body.toString();
    expect(html).toContain(JSON.stringify(GRAPHIQL_EXAMPLE_QUERY).slice(1, -1));
    expect(html).toContain('\\"lastItems\\": 3');
    const example = await t.execute(GRAPHIQL_EXAMPLE_QUERY, {
      first: 5,
      lastItems: 3,
      filter: { includeArchived: false },
    });
    expect(example.threads).toEqual({
      totalCount: 0,
      pageInfo: { hasNextPage: false, endCursor: null },
      edges: [],
    });
  });

  it('sends its 9 MB page brotli- or gzip-compressed when accepted', async () => {
    const plain = await page();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    expect(plain.body.length).toBeGreaterThan(5_000_000);
    const br = await page('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await page('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.body.length / 3);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    // JSON answers stay as they are.
    const json = await get(port, '/graphql?query=%7B__typename%7D', {
      'accept-encoding': 'br',
      'x-graphql-yoga-csrf': '1',
    });
    expect(json.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(json.body.toString())).toEqual({ data: { __typename: 'Query' } });
  });
});
