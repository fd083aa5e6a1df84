/**
 * Who a request acts as (contract part identity: Viewer): a tenant, a subject and scopes, and
 * how the caller authenticated. Every read and write is scoped to `tenantId`; scopes guard the
 * root fields (src/schema/builder.ts, scope-auth). The scope list is written here once.
 */
import { BadUserInputError, quote, ThreadstoreError } from '../errors.js';

/** Scopes (contract part identity, header): what each one allows is in its description. */
export const SCOPES = ['threads:read', 'threads:write', 'threads:delete', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** How the caller authenticated (contract: AuthMethod). */
export const AUTH_METHODS = ['JWT', 'API_KEY', 'NONE'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The identity a request, stream or socket acts as. */
export interface Identity {
  tenantId: string;
  /** The token's `sub`, or the API key's id; null without authentication. */
  subject: string | null;
  scopes: ReadonlySet<Scope>;
  method: AuthMethod;
  /** When the credential stops being valid (a JWT's exp); null when it does not expire. */
  expiresAt: Date | null;
}

/** Missing, malformed, expired, revoked or forged credentials (HTTP 401). */
export class UnauthenticatedError extends ThreadstoreError {
  constructor(message: string) {
    super('UNAUTHENTICATED', message);
  }
}

/** A scope the caller lacks (contract: FORBIDDEN names the scope). */
export class ForbiddenError extends ThreadstoreError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, details);
  }
}

/** True for a known scope name. */
export function isScope(value: unknown): value is Scope {
  return (SCOPES as readonly unknown[]).includes(value);
}

/**
 * Scopes from a claim or a setting: a space-separated string or an array of strings. Names
 * this service does not know are left out (a token may carry other APIs' scopes).
 */
export function scopesFrom(value: unknown): Set<Scope> {
  const names = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [];
  return new Set(names.filter(isScope));
}

/**
 * Scopes a caller asked for by name (createApiKey, the keys CLI): every name must be known.
 * @throws BadUserInputError naming the unknown scope
 */
export function requireScopes(names: readonly string[], field: string): Scope[] {
  const unknown = names.find((name) => !isScope(name));
  if (unknown !== undefined) {
    throw new BadUserInputError(
      `${field}: ${quote(unknown, 64)} is not a scope; use ${SCOPES.join(', ')}.`,
      { field },
    );
  }
  if (names.length === 0) {
    throw new BadUserInputError(`${field} must name at least one scope.`, { field });
  }
  return [...new Set(names as Scope[])];
}

/** The identity of requests without credentials where that is allowed: every scope. */
export function anonymousIdentity(tenantId: string): Identity {
  return { tenantId, subject: null, scopes: new Set(SCOPES), method: 'NONE', expiresAt: null };
}
