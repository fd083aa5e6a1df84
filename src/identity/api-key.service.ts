/**
 * API keys for agents and scripts (contract part identity: ApiKey, createApiKey,
 * revokeApiKey): secrets `tsk_<id>_<random>` shown once and stored only as a SHA-256, compared
 * in constant time; scopes a subset of the creator's; revocation effective from the next
 * request on every instance (every request reads its key's row: no cache to invalidate);
 * lastUsedAt written at most every LAST_USED_PRECISION_MS per key and process.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/client.js';
import { assertNoNul, BadUserInputError, NotFoundError, quote } from '../errors.js';
import {
  type ApiKeyRecord,
  insertApiKey,
  revokeApiKeyRow,
  selectApiKey,
  selectApiKeys,
  selectApiKeysByIds,
  touchApiKey,
} from './api-key.store.js';
import {
  ForbiddenError,
  type Identity,
  requireScopes,
  type Scope,
  UnauthenticatedError,
} from './identity.js';

/** Every secret starts with this, so a leaked one is easy to find (secret scanners). */
export const API_KEY_PREFIX = 'tsk_';
const SECRET_PATTERN = /^tsk_(k[0-9a-f]{18})_([A-Za-z0-9_-]{43})$/;
const MAX_NAME_LENGTH = 256;
/** How stale lastUsedAt may be (contract: coarse). */
const LAST_USED_PRECISION_MS = 5 * 60_000;

/** What the key functions need: the database and the caller. */
export interface KeyContext {
  db: Database;
  identity: Identity;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** True when `secret` has the form of an API key (and so is not a JWT). */
export function isApiKeySecret(secret: string): boolean {
  return secret.startsWith(API_KEY_PREFIX);
}

/**
 * Creates a key in `tenantId` with exactly `scopes`, for the keys CLI (no caller to check).
 * @returns the key and its secret, which is not stored and cannot be shown again
 * @throws BadUserInputError for an empty or too long name, or an unknown scope
 */
export async function createApiKeyFor(
  db: Database,
  input: { tenantId: string; name: string; scopes: readonly string[] },
): Promise<{ apiKey: ApiKeyRecord; secret: string }> {
  assertNoNul(input.name, 'name');
  if (input.name.trim() === '' || input.name.length > MAX_NAME_LENGTH) {
    throw new BadUserInputError(`name must be 1 to ${MAX_NAME_LENGTH} characters.`, {
      field: 'name',
    });
  }
  const scopes = requireScopes(input.scopes, 'scopes');
  const id = `k${randomBytes(9).toString('hex')}`;
  const secret = `${API_KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
  const apiKey = await insertApiKey(db.prisma, {
    id,
    tenantId: input.tenantId,
    name: input.name,
    scopes,
    secretHash: sha256(secret).toString('hex'),
    createdAt: new Date(),
  });
  return { apiKey, secret };
}

/**
 * createApiKey: a key of the caller's tenant with a subset of the caller's scopes.
 * @throws ForbiddenError naming a scope the caller lacks
 * @throws BadUserInputError (see createApiKeyFor)
 */
export async function createApiKey(
  ctx: KeyContext,
  input: { name: string; scopes: readonly string[] },
): Promise<{ apiKey: ApiKeyRecord; secret: string }> {
  const wanted = requireScopes(input.scopes, 'scopes');
  const lacking = wanted.find((scope) => !ctx.identity.scopes.has(scope));
  if (lacking) {
    throw new ForbiddenError(
      `scopes: you cannot grant "${lacking}", which your own credentials lack.`,
      { scope: lacking },
    );
  }
  return createApiKeyFor(ctx.db, { tenantId: ctx.identity.tenantId, ...input, scopes: wanted });
}

/**
 * Revokes a key of the caller's tenant; revoking twice keeps the first time.
 * @throws NotFoundError for an id the tenant has no key with
 */
export async function revokeApiKey(ctx: KeyContext, id: string): Promise<ApiKeyRecord> {
  const key = await revokeApiKeyRow(ctx.db.prisma, ctx.identity.tenantId, id, new Date());
  if (!key) throw new NotFoundError(`API key ${quote(id, 64)} does not exist.`, { id });
  return key;
}

/** The caller's tenant's keys, newest first. */
export function listApiKeys(ctx: KeyContext): Promise<ApiKeyRecord[]> {
  return selectApiKeys(ctx.db.prisma, ctx.identity.tenantId);
}

/** One key of the tenant by id, or null. */
export async function findApiKey(
  db: Database,
  tenantId: string,
  id: string,
): Promise<ApiKeyRecord | null> {
  const key = await selectApiKey(db.prisma, id);
  return key && key.tenantId === tenantId ? key : null;
}

/** Keys of the tenant by id in one statement (per chunk), in the order asked; null where missing. */
export async function findApiKeys(
  db: Database,
  tenantId: string,
  ids: readonly string[],
): Promise<(ApiKeyRecord | null)[]> {
  const keys = ids.length ? await selectApiKeysByIds(db.prisma, tenantId, ids) : [];
  const byId = new Map(keys.map((key) => [key.id, key]));
  return ids.map((id) => byId.get(id) ?? null);
}

const lastTouched = new Map<string, number>();

/**
 * The identity of an API key secret: the key is read on every call (so a revocation anywhere
 * takes effect at once), the hash compared in constant time.
 * @throws UnauthenticatedError for a malformed, unknown, wrong or revoked secret
 */
export async function verifyApiKey(db: Database, secret: string): Promise<Identity> {
  const match = SECRET_PATTERN.exec(secret);
  const key = match ? await selectApiKey(db.prisma, match[1]!) : null;
  const given = sha256(secret);
  // Compare even when no key was found, so timing tells nothing about which ids exist.
  const stored = key ? Buffer.from(key.secretHash, 'hex') : Buffer.alloc(given.length);
  const equal = stored.length === given.length && timingSafeEqual(stored, given);
  if (!key || !equal) throw new UnauthenticatedError('The API key is not valid.');
  if (key.revokedAt) throw new UnauthenticatedError('The API key was revoked.');
  const now = Date.now();
  if (now - (lastTouched.get(key.id) ?? 0) > LAST_USED_PRECISION_MS) {
    lastTouched.set(key.id, now);
    // Not awaited: a failed bookkeeping write must not fail the request it rides on.
    touchApiKey(db.prisma, key.id, new Date(now)).catch(() => lastTouched.delete(key.id));
  }
  return {
    tenantId: key.tenantId,
    subject: key.id,
    scopes: new Set<Scope>(key.scopes),
    method: 'API_KEY',
    expiresAt: null,
  };
}
