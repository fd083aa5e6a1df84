/**
 * Identities through the real endpoint: requests without credentials (AUTH=optional on
 * loopback), API keys (create, scopes, revoke, list), JWTs (HS256 secret, RS256/ES256 JWKS
 * file) with their refusals (expired, wrong audience or issuer, alg none, algorithm confusion,
 * no tenant claim), AUTH=required (401 with WWW-Authenticate), and the settings AUTH refuses.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseEnv } from '../src/env.js';
import { buildTestApp, type TestApp } from './testkit/app.js';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const VIEWER = '{ viewer { tenantId subject scopes method } }';

/** An HS256 token; `claims` override the defaults (tenant acme, every thread scope, 1 h). */
function hs256(claims: Record<string, unknown> = {}, secret = SECRET): Promise<string> {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return new SignJWT({ tenant: 'acme', scope: 'threads:read threads:write', exp, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setIssuedAt()
    .sign(new TextEncoder().encode(secret));
}

/** POSTs a query with headers; returns status, headers and parsed body. */
async function post(t: TestApp, query: string, headers: Record<string, string> = {}) {
  const response = await t.app.yoga.fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  type Body = {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Body,
  };
}

describe('without credentials on loopback (AUTH=optional)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('acts as DEFAULT_TENANT with every scope', async () => {
    const data = await t.execute(VIEWER);
    expect(data.viewer).toEqual({
      tenantId: 'local',
      subject: null,
      scopes: ['threads:read', 'threads:write', 'threads:delete', 'admin'],
      method: 'NONE',
    });
  });

  it('creates API keys with the scopes asked; a key is refused from the request after its revocation', async () => {
    const created = await t.execute(
      `mutation { createApiKey(input: { name: "reader", scopes: ["threads:read"] }) { secret apiKey { id name scopes createdAt lastUsedAt revokedAt } } }`,
    );
    const { secret, apiKey } = created.createApiKey;
    expect(secret).toMatch(/^tsk_k[0-9a-f]{18}_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({
      name: 'reader',
      scopes: ['threads:read'],
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(apiKey.id).toMatch(/^apikey:k[0-9a-f]{18}$/);

    const reader = t.as(`Bearer ${secret}`);
    const viewer = await reader.execute(VIEWER);
    expect(viewer.viewer).toEqual({
      tenantId: 'local',
      subject: apiKey.id.slice('apikey:'.length),
      scopes: ['threads:read'],
      method: 'API_KEY',
    });
    expect(await reader.execute('{ threads(first: 1) { totalCount } }')).toHaveProperty('threads');
    const write = await reader.expectError(
      'mutation { createThread(input: { agentId: "a" }) { thread { id } } }',
    );
    expect(write.code).toBe('FORBIDDEN');
    expect(write.message).toContain('threads:write');
    const admin = await reader.expectError('{ apiKeys { id } }');
    expect(admin).toMatchObject({ code: 'FORBIDDEN' });
    expect(admin.message).toContain('admin');

    const revoked = await t.execute(
      `mutation($id: ID!) { revokeApiKey(input: { id: $id }) { apiKey { id revokedAt } } }`,
      {
        id: apiKey.id,
      },
    );
    expect(revoked.revokeApiKey.apiKey.revokedAt).not.toBeNull();
    const refused = await post(t, VIEWER, { authorization: `Bearer ${secret}` });
    expect(refused.status).toBe(401);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(refused.body.data ?? null).toBeNull();

    const keys = await t.execute('{ apiKeys { id name revokedAt lastUsedAt } }');
    expect(keys.apiKeys[0]).toMatchObject({ id: apiKey.id, name: 'reader' });
    expect(keys.apiKeys[0].revokedAt).not.toBeNull();
    expect(keys.apiKeys[0].lastUsedAt).not.toBeNull();
    const node = await t.execute(
      'query($id: ID!) { node(id: $id) { id ... on ApiKey { name } } }',
      { id: apiKey.id },
    );
    expect(node.node).toEqual({ id: apiKey.id, name: 'reader' });
  });

  it('keeps the log, context and compactions behind threads:read, also in mutation payloads', async () => {
    await t.execute(
      'mutation { createThread(input: { id: "scoped", agentId: "a" }) { thread { id } } }',
    );
    const created = await t.execute(
      `mutation { createApiKey(input: { name: "writer", scopes: ["threads:write", "threads:delete"] }) { secret } }`,
    );
    const writer = t.as(`Bearer ${created.createApiKey.secret}`);
    const ok = await writer.execute(
      'mutation { updateThread(input: { id: "scoped", name: "n" }) { thread { id name nextSeq } } }',
    );
    expect(ok.updateThread.thread).toEqual({ id: 'scoped', name: 'n', nextSeq: 0 });
    for (const field of [
      'items { totalCount }',
      'lastItem { __typename }',
      'context { __typename }',
      'compactions { id }',
    ]) {
      for (const mutation of [
        `mutation { updateThread(input: { id: "scoped" }) { thread { ${field} } } }`,
        `mutation { clearCompactions(input: { threadId: "scoped" }) { thread { ${field} } } }`,
      ]) {
        const refused = await writer.request(mutation);
        expect(refused.errors?.[0]?.extensions?.code, mutation).toBe('FORBIDDEN');
        expect(refused.errors?.[0]?.message, mutation).toContain('threads:read');
      }
    }
  });

  it('refuses to grant a scope the caller lacks, and unknown scopes', async () => {
    const created = await t.execute(
      `mutation { createApiKey(input: { name: "admin-reader", scopes: ["threads:read", "admin"] }) { secret } }`,
    );
    const limited = t.as(`Bearer ${created.createApiKey.secret}`);
    const escalate = await limited.expectError(
      `mutation { createApiKey(input: { name: "w", scopes: ["threads:write"] }) { secret } }`,
    );
    expect(escalate.code).toBe('FORBIDDEN');
    expect(escalate.message).toContain('threads:write');
    const bogus = await t.expectError(
      `mutation { createApiKey(input: { name: "x", scopes: ["root"] }) { secret } }`,
    );
    expect(bogus.code).toBe('BAD_USER_INPUT');
    // A key without admin sees no API key through node.
    const keys = await t.execute('{ apiKeys { id } }');
    const reader = await t.execute(
      `mutation { createApiKey(input: { name: "r", scopes: ["threads:read"] }) { secret } }`,
    );
    const seen = await t
      .as(`Bearer ${reader.createApiKey.secret}`)
      .execute('query($id: ID!) { node(id: $id) { id } }', { id: keys.apiKeys[0].id });
    expect(seen.node).toBeNull();
  });

  it('verifies credentials that are sent, even where none are needed', async () => {
    for (const authorization of [
      'Bearer tsk_k000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'Bearer not-a-jwt',
      'Basic dXNlcjpwdw==',
    ]) {
      const answer = await post(t, VIEWER, { authorization });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('AUTH=required with HS256 tokens', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      AUTH: 'required',
      AUTH_JWT_SECRET: SECRET,
      AUTH_JWT_ISSUER: 'https://issuer.test',
      AUTH_JWT_AUDIENCE: 'threadstore',
    });
  });
  afterAll(() => t.close());

  const valid = (claims: Record<string, unknown> = {}) =>
    hs256({ iss: 'https://issuer.test', aud: 'threadstore', ...claims });

  it('answers 401 with WWW-Authenticate and no data without credentials', async () => {
    const answer = await post(t, '{ threads(first: 1) { totalCount } }');
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(answer.body.data ?? null).toBeNull();
  });

  it('refuses before parsing: no validation error (nor field suggestion) without credentials', async () => {
    for (const query of [
      '{ thread(id: "x") { idd } }',
      '{ {{ not graphql',
      '{ __schema { types { name } } }',
    ]) {
      const answer = await post(t, query);
      expect(answer.status, query).toBe(401);
      expect(answer.body.errors?.[0]?.extensions?.code, query).toBe('UNAUTHENTICATED');
      expect(JSON.stringify(answer.body), query).not.toMatch(/Did you mean|Syntax Error|__schema/);
    }
  });

  it('reads tenant, subject and scopes from the token', async () => {
    const data = await t.as(`Bearer ${await valid()}`).execute(VIEWER);
    expect(data.viewer).toEqual({
      tenantId: 'acme',
      subject: 'user-1',
      scopes: ['threads:read', 'threads:write'],
      method: 'JWT',
    });
    const arrayScopes = await t
      .as(`Bearer ${await valid({ scope: ['threads:delete', 'other:api'] })}`)
      .execute(VIEWER);
    expect(arrayScopes.viewer.scopes).toEqual(['threads:delete']);
  });

  it('keeps tenants apart: another tenant sees neither the thread nor its id taken', async () => {
    const acme = t.as(`Bearer ${await valid()}`);
    const globex = t.as(`Bearer ${await valid({ tenant: 'globex' })}`);
    await acme.execute(
      'mutation { createThread(input: { id: "shared-id", agentId: "a" }) { thread { id } } }',
    );
    expect((await globex.execute('{ thread(id: "shared-id") { id } }')).thread).toBeNull();
    await globex.execute(
      'mutation { createThread(input: { id: "shared-id", agentId: "b" }) { thread { id } } }',
    );
    expect((await acme.execute('{ thread(id: "shared-id") { agentId } }')).thread.agentId).toBe(
      'a',
    );
  });

  it('refuses expired, foreign, unsigned and algorithm-confused tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({
        tenant: 'acme',
        scope: 'threads:read',
        iss: 'https://issuer.test',
        aud: 'threadstore',
        exp: now + 600,
      }),
    ).toString('base64url')}.`;
    const cases: [string, string][] = [
      ['expired', await valid({ exp: now - 120 })],
      ['wrong audience', await valid({ aud: 'someone-else' })],
      ['wrong issuer', await valid({ iss: 'https://evil.test' })],
      [
        'other secret',
        await hs256(
          { iss: 'https://issuer.test', aud: 'threadstore' },
          'another-secret-of-at-least-thirty-two-chars',
        ),
      ],
      ['alg none', unsigned],
      ['no tenant', await valid({ tenant: undefined })],
      ['no expiry', await valid({ exp: undefined })],
    ];
    for (const [name, token] of cases) {
      const answer = await post(t, VIEWER, { authorization: `Bearer ${token}` });
      expect(answer.status, name).toBe(401);
      expect(answer.body.errors?.[0]?.extensions?.code, name).toBe('UNAUTHENTICATED');
    }
    // Within the clock skew, a just-expired token still passes.
    const skew = await post(t, VIEWER, {
      authorization: `Bearer ${await valid({ exp: now - 5 })}`,
    });
    expect(skew.status).toBe(200);
  });
});

describe('JWKS file (RS256 and ES256)', () => {
  let t: TestApp;
  let dir: string;
  let rsa: CryptoKey;
  let ec: CryptoKey;
  let rsaPublicPem: string;
  beforeAll(async () => {
    const rs = await generateKeyPair('RS256');
    const es = await generateKeyPair('ES256');
    rsa = rs.privateKey;
    ec = es.privateKey;
    rsaPublicPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const keys = [
      { ...(await exportJWK(rs.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(es.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
    ];
    dir = mkdtempSync(join(tmpdir(), 'threadstore-jwks-'));
    writeFileSync(join(dir, 'jwks.json'), JSON.stringify({ keys }));
    t = await buildTestApp({
      AUTH: 'required',
      AUTH_JWKS_FILE: join(dir, 'jwks.json'),
      AUTH_TENANT_CLAIM: 'org.id',
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sign = (alg: 'RS256' | 'ES256', kid: string, key: CryptoKey | Uint8Array) =>
    new SignJWT({ org: { id: 'initech' }, scope: 'threads:read' })
      .setProtectedHeader({ alg, kid })
      .setExpirationTime('5m')
      .sign(key);

  it('accepts tokens of either key, with the tenant from a nested claim', async () => {
    for (const [alg, kid, key] of [
      ['RS256', 'rsa-1', rsa],
      ['ES256', 'ec-1', ec],
    ] as const) {
      const data = await t.as(`Bearer ${await sign(alg, kid, key)}`).execute(VIEWER);
      expect(data.viewer).toMatchObject({
        tenantId: 'initech',
        method: 'JWT',
        scopes: ['threads:read'],
      });
    }
  });

  it('refuses an HS256 token signed with a public key (algorithm confusion)', async () => {
    const confused = await new SignJWT({ org: { id: 'initech' }, scope: 'admin' })
      .setProtectedHeader({ alg: 'HS256', kid: 'rsa-1' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(rsaPublicPem));
    const answer = await post(t, VIEWER, { authorization: `Bearer ${confused}` });
    expect(answer.status).toBe(401);
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('AUTH settings', () => {
  it('defaults to optional on loopback and required elsewhere; refuses optional off loopback', () => {
    expect(parseEnv({}).AUTH).toBe('optional');
    expect(parseEnv({ HOST: '127.0.0.1' }).AUTH).toBe('optional');
    expect(parseEnv({ HOST: '0.0.0.0' }).AUTH).toBe('required');
    expect(parseEnv({ HOST: '0.0.0.0', AUTH: 'none' }).AUTH).toBe('none');
    expect(() => parseEnv({ HOST: '0.0.0.0', AUTH: 'optional' })).toThrow(ConfigError);
    expect(() => parseEnv({ HOST: '0.0.0.0', AUTH: 'optional' })).toThrow(/AUTH=optional.*HOST/);
    expect(() => parseEnv({ AUTH_JWT_SECRET: 'short' })).toThrow(/AUTH_JWT_SECRET/);
  });
});
