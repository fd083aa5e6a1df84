/**
 * Authentication on the way into GraphQL: each operation's ServiceContext acts as the identity
 * of its credentials (src/identity/authenticate.ts). HTTP and SSE read the Authorization
 * header; graphql-ws authenticates once per socket (graphql-ws.ts) and hands the identity in.
 * Refused credentials are UNAUTHENTICATED with HTTP 401 and `WWW-Authenticate: Bearer`.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ServiceContext } from '../context.js';
import type { Env } from '../env.js';
import { UnavailableError } from '../errors.js';
import type { Authenticator } from '../identity/authenticate.js';
import { type Identity, UnauthenticatedError } from '../identity/identity.js';
import type { JwtSettings } from '../identity/jwt.js';

/** What yoga (HTTP) or graphql-ws passes to the context factory. */
export interface InitialContext {
  request?: Request;
  /** Set by the graphql-ws wiring once the socket's credentials were verified. */
  identity?: Identity;
}

/** The GraphQL error for refused credentials: code UNAUTHENTICATED, HTTP 401. */
export function unauthenticated(error: UnauthenticatedError): GraphQLError {
  return new GraphQLError(error.message, {
    extensions: {
      code: 'UNAUTHENTICATED',
      http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="threadstore"' } },
    },
  });
}

/**
 * The identity of an HTTP request's credentials.
 * @throws GraphQLError UNAUTHENTICATED (HTTP 401)
 */
export async function identityOfRequest(
  authenticator: Authenticator,
  request: Request | undefined,
): Promise<Identity> {
  try {
    return await authenticator.authenticate(request?.headers.get('authorization'));
  } catch (error) {
    if (error instanceof UnauthenticatedError) throw unauthenticated(error);
    if (error instanceof UnavailableError) {
      // The identity provider is down: not the caller's fault, and worth a retry.
      throw new GraphQLError(error.message, {
        extensions: { code: 'UNAVAILABLE', http: { status: 503, headers: { 'Retry-After': '5' } } },
      });
    }
    throw error;
  }
}

/**
 * Authentication of yoga's operations: `plugin` verifies an HTTP request's credentials as soon
 * as its parameters are read, before the document is parsed or validated (a caller without
 * valid credentials learns nothing from validation errors, and costs no parse); `context` is
 * the factory of each operation's service context (a fresh object per operation: dataloaders
 * cache per context), acting as that identity, or as the socket's for graphql-ws.
 */
export function requestAuthentication(
  authenticator: Authenticator,
  base: Omit<ServiceContext, 'identity' | 'tenantId'>,
): { plugin: Plugin; context: (initial: InitialContext) => Promise<ServiceContext> } {
  const identities = new WeakMap<Request, Identity>();
  return {
    plugin: {
      async onParams({ request }) {
        identities.set(request, await identityOfRequest(authenticator, request));
      },
    },
    async context(initial) {
      const identity =
        initial.identity ??
        (initial.request && identities.get(initial.request)) ??
        (await identityOfRequest(authenticator, initial.request));
      return { ...base, identity, tenantId: identity.tenantId };
    },
  };
}

/** The JWT settings of the configuration. */
export function jwtSettings(env: Env): JwtSettings {
  return {
    secret: env.AUTH_JWT_SECRET,
    jwksUrl: env.AUTH_JWKS_URL,
    jwksFile: env.AUTH_JWKS_FILE,
    issuer: env.AUTH_JWT_ISSUER,
    audience: env.AUTH_JWT_AUDIENCE,
    tenantClaim: env.AUTH_TENANT_CLAIM,
    scopesClaim: env.AUTH_SCOPES_CLAIM,
  };
}
