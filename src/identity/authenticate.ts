/**
 * Credentials to identity, for every transport (HTTP, SSE, graphql-ws): `Authorization:
 * Bearer <token>` carries an API key (tsk_...) or a JWT. Which requests may come without
 * credentials depends on AUTH (src/env.ts): `required` refuses them; `optional` and `none` let
 * them act as the default tenant with every scope. Credentials that are sent are always
 * verified, in every mode.
 */
import type { Database } from '../db/client.js';
import type { AuthMode } from '../env.js';
import { isApiKeySecret, verifyApiKey } from './api-key.service.js';
import { anonymousIdentity, type Identity, UnauthenticatedError } from './identity.js';
import type { JwtVerifier } from './jwt.js';

export interface Authenticator {
  mode: AuthMode;
  /**
   * The identity of an `Authorization` header value (or a graphql-ws connection_init
   * `authorization`); `undefined`/empty = no credentials.
   * @throws UnauthenticatedError for bad credentials, or none where they are required
   */
  authenticate(authorization: string | null | undefined): Promise<Identity>;
}

/** Builds the authenticator of a deployment. */
export function createAuthenticator(options: {
  mode: AuthMode;
  db: Database;
  jwt: JwtVerifier | null;
  defaultTenant: string;
}): Authenticator {
  const { mode, db, jwt } = options;
  const anonymous = anonymousIdentity(options.defaultTenant);
  return {
    mode,
    async authenticate(authorization) {
      if (authorization == null || authorization.trim() === '') {
        if (mode === 'required') {
          throw new UnauthenticatedError(
            'Authentication required: send "Authorization: Bearer <API key or JWT>".',
          );
        }
        return anonymous;
      }
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) {
        throw new UnauthenticatedError('The Authorization header must be "Bearer <token>".');
      }
      const token = match[1]!;
      if (isApiKeySecret(token)) return verifyApiKey(db, token);
      if (!jwt) {
        throw new UnauthenticatedError(
          'This server accepts API keys (tsk_...) only: no JWT key is configured.',
        );
      }
      return jwt(token);
    },
  };
}
