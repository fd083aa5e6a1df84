/**
 * JWT bearer tokens (jose): HS256 with a shared secret, or RS256/ES256 with a JWKS from a file
 * or a URL (fetched, cached and refreshed by jose). The issuer and audience are checked when
 * configured, expiry with a small clock skew, and only the algorithms of the configured key
 * are accepted: `alg: none` and algorithm confusion (an HS256 token signed with a public key)
 * fail. Tenant and scopes come from configurable claims.
 */
import { readFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { ConfigError } from '../env.js';
import { UnavailableError } from '../errors.js';
import { type Identity, scopesFrom, UnauthenticatedError } from './identity.js';

/** JWT settings (src/env.ts: AUTH_JWT_*, AUTH_JWKS_*, AUTH_*_CLAIM). */
export interface JwtSettings {
  secret?: string;
  jwksUrl?: string;
  jwksFile?: string;
  issuer?: string;
  audience?: string;
  tenantClaim: string;
  scopesClaim: string;
}

/** Seconds of clock difference tolerated on exp and nbf. */
export const CLOCK_TOLERANCE_S = 30;

/** Verifies a token and returns its identity. @throws UnauthenticatedError */
export type JwtVerifier = (token: string) => Promise<Identity>;

/** The key (or key set) and the algorithms it may verify. */
function keyOf(settings: JwtSettings): {
  key: Uint8Array | JWTVerifyGetKey;
  algorithms: string[];
} {
  if (settings.secret) {
    return { key: new TextEncoder().encode(settings.secret), algorithms: ['HS256'] };
  }
  const algorithms = ['RS256', 'ES256'];
  if (settings.jwksUrl) {
    // Cached for 10 minutes; an unknown kid refetches at most every 30 s (key rotation).
    const jwks = createRemoteJWKSet(new URL(settings.jwksUrl), {
      cacheMaxAge: 600_000,
      cooldownDuration: 30_000,
      timeoutDuration: 5_000,
    });
    return { key: jwks, algorithms };
  }
  if (settings.jwksFile) return { key: localJwks(settings.jwksFile), algorithms };
  throw new Error('no JWT key configured');
}

/**
 * The key set of a JWKS file.
 * @throws ConfigError naming AUTH_JWKS_FILE when it cannot be read or is not a JWKS
 */
function localJwks(path: string): JWTVerifyGetKey {
  try {
    return createLocalJWKSet(JSON.parse(readFileSync(path, 'utf8')));
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(
      'AUTH_JWKS_FILE',
      `AUTH_JWKS_FILE: cannot use ${path} as a JWKS (${why}): set it to a JSON file {"keys": [...]} of public keys.`,
    );
  }
}

/** True when verification failed because the remote JWKS could not be fetched. */
function jwksUnreachable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout) return true;
  // jose passes fetch's own failure through (connection refused, DNS, TLS), and a bad answer
  // (HTTP 5xx, not JSON) as a JOSEError without a more specific class.
  if (error instanceof TypeError) return true;
  return error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC';
}

/** A claim read from the payload, following dots for nested claims ("app.tenant"). */
function claim(payload: JWTPayload, path: string): unknown {
  let value: unknown = payload;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Why jose refused a token, in words a caller can act on. */
function reason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired; get a new one';
  if (error instanceof errors.JWTClaimValidationFailed) {
    return `the token's "${error.claim}" claim is not accepted (${error.reason})`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return 'the token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'no key of the JWKS matches the token';
  if (error instanceof errors.JWKSTimeout) return 'the JWKS could not be fetched in time';
  return 'the token is malformed or cannot be verified';
}

/**
 * Builds the verifier for the configured key, or null when no JWT key is configured.
 * @throws Error when the JWKS file cannot be read (a start-up failure)
 */
export function createJwtVerifier(settings: JwtSettings): JwtVerifier | null {
  if (!settings.secret && !settings.jwksUrl && !settings.jwksFile) return null;
  const { key, algorithms } = keyOf(settings);
  return async (token) => {
    let payload: JWTPayload;
    try {
      const options = {
        algorithms,
        issuer: settings.issuer,
        audience: settings.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        // A token without exp would be valid forever.
        requiredClaims: ['exp'],
      };
      payload =
        key instanceof Uint8Array
          ? (await jwtVerify(token, key, options)).payload
          : (await jwtVerify(token, key, options)).payload;
    } catch (error) {
      if (jwksUnreachable(error)) {
        throw new UnavailableError(
          "The identity provider's keys (AUTH_JWKS_URL) cannot be fetched right now; retry shortly.",
        );
      }
      throw new UnauthenticatedError(`Bearer token refused: ${reason(error)}.`);
    }
    const tenantId = claim(payload, settings.tenantClaim);
    if (typeof tenantId !== 'string' || tenantId === '' || tenantId.length > 128) {
      throw new UnauthenticatedError(
        `Bearer token refused: it has no "${settings.tenantClaim}" claim naming the tenant.`,
      );
    }
    return {
      tenantId,
      subject: typeof payload.sub === 'string' ? payload.sub : null,
      scopes: scopesFrom(claim(payload, settings.scopesClaim)),
      method: 'JWT',
      expiresAt: typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : null,
    };
  };
}
