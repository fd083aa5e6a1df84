/**
 * Storage of API keys: every SQL statement on the ApiKey table, rows parsed into
 * ApiKeyRecords here and nowhere else. Keys are found by id across tenants (a secret names
 * its key, not its tenant); every other read is scoped to a tenant.
 */

import { readInChunks } from '../db/chunks.js';
import type { Executor } from '../db/transaction.js';
import { type ApiKey, Prisma } from '../generated/prisma/client.js';
import { type Scope, scopesFrom } from './identity.js';

/** A stored API key; `secretHash` never leaves the identity module. */
export interface ApiKeyRecord {
  /** The key id inside the secret (tsk_<id>_...). */
  id: string;
  tenantId: string;
  name: string;
  scopes: Scope[];
  secretHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Parses a row (raw statements return text times on SQLite). */
export function toApiKeyRecord(row: ApiKey): ApiKeyRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    scopes: [...scopesFrom(row.scopes)],
    secretHash: row.secretHash,
    createdAt: new Date(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt),
  };
}

/** Inserts a key. */
export async function insertApiKey(
  db: Executor,
  row: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>,
): Promise<ApiKeyRecord> {
  const created = await db.apiKey.create({ data: { ...row, scopes: row.scopes.join(' ') } });
  return toApiKeyRecord(created);
}

/** A key by id in any tenant, or null. */
export async function selectApiKey(db: Executor, id: string): Promise<ApiKeyRecord | null> {
  const [row] = await db.$queryRaw<ApiKey[]>`SELECT * FROM "ApiKey" WHERE "id" = ${id}`;
  return row ? toApiKeyRecord(row) : null;
}

/** A tenant's keys by id, in chunks under SQLite's parameter cap; unordered. */
export async function selectApiKeysByIds(
  db: Executor,
  tenantId: string,
  ids: readonly string[],
): Promise<ApiKeyRecord[]> {
  const rows = await readInChunks(
    ids,
    1,
    (chunk) => db.$queryRaw<ApiKey[]>`
      SELECT * FROM "ApiKey" WHERE "tenantId" = ${tenantId} AND "id" IN (${Prisma.join(chunk)})`,
  );
  return rows.map(toApiKeyRecord);
}

/** A tenant's keys, newest first (ties by id). */
export async function selectApiKeys(db: Executor, tenantId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.$queryRaw<ApiKey[]>`
    SELECT * FROM "ApiKey" WHERE "tenantId" = ${tenantId} ORDER BY "createdAt" DESC, "id"`;
  return rows.map(toApiKeyRecord);
}

/** Sets revokedAt unless already set; returns the key, or null when the tenant has no such key. */
export async function revokeApiKeyRow(
  db: Executor,
  tenantId: string,
  id: string,
  now: Date,
): Promise<ApiKeyRecord | null> {
  await db.apiKey.updateMany({
    where: { tenantId, id, revokedAt: null },
    data: { revokedAt: now },
  });
  const key = await selectApiKey(db, id);
  return key && key.tenantId === tenantId ? key : null;
}

/** Records that a key was used at `now`. */
export async function touchApiKey(db: Executor, id: string, now: Date): Promise<void> {
  await db.apiKey.updateMany({ where: { id }, data: { lastUsedAt: now } });
}
