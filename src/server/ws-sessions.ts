/**
 * Who a graphql-ws socket acts as (issue 9, point 3). Credentials come in the connection_init
 * payload (`{"authorization": "Bearer ..."}`, or `Authorization`), else in the upgrade
 * request's Authorization header, and are verified once, before connection_ack. Close codes:
 * - 4403 for refused credentials (under AUTH=required also for none), before any ack, and when
 *   a JWT expires on an open socket (clients reconnect with a fresh token and resume with
 *   afterSeq);
 * - 1013 (Try Again Later) when the identity already holds WS_MAX_CONNECTIONS sockets on this
 *   instance: graphql-ws clients retry it with back-off, whereas 4429 means a repeated
 *   connection_init to them and is never retried;
 * - graphql-ws itself closes with 4401 (an operation before the ack), 4408 (no init in time)
 *   and 4429 (a second init).
 * Refusals are audited; API keys are read on each connection (a revoked key's next connection
 * is refused).
 */
import type { Context } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { dependencyFailure } from '../db/unavailable.js';
import { UnavailableError } from '../errors.js';
import type { Authenticator } from '../identity/authenticate.js';
import { type Identity, UnauthenticatedError } from '../identity/identity.js';
import { CLOCK_TOLERANCE_S } from '../identity/jwt.js';
import { type Audit, attemptedMethod } from './audit.js';

/** Close codes this module uses (RFC 6455 and graphql-ws). */
export const WS_CLOSE = { forbidden: 4403, tryAgainLater: 1013, internalError: 4500 } as const;

/** Protocol closes graphql-ws makes on its own, audited when the socket closes. */
const PROTOCOL_CLOSES: Record<number, [outcome: string, reason: string]> = {
  4400: ['BAD_USER_INPUT', 'invalid message'],
  4401: ['UNAUTHENTICATED', 'operation before connection_ack'],
  4408: ['UNAUTHENTICATED', 'no connection_init in time'],
  4409: ['BAD_USER_INPUT', 'operation id already in use'],
  4429: ['BAD_USER_INPUT', 'second connection_init'],
};

/** setTimeout's longest delay (about 24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A close reason within the protocol's 123 bytes, cut on a code point boundary. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  const points = Array.from(text);
  while (Buffer.byteLength(`${points.join('')}…`) > 123) points.pop();
  return `${points.join('')}…`;
}

export type WsContext = Context<Record<string, unknown> | undefined, Extra>;

interface Session {
  identity: Identity | null;
  /** The per-identity connection count this socket holds, once accepted. */
  key: string | null;
  timer: NodeJS.Timeout | null;
  closed: boolean;
}

export interface WsSessions {
  /** graphql-ws onConnect: verifies the credentials; false when the socket was closed. */
  connect(ctx: WsContext): Promise<boolean>;
  /** The identity of an acknowledged socket. */
  identityOf(ctx: WsContext): Identity | undefined;
  /**
   * Before each operation of an API-key socket: the key is read again, so a revocation takes
   * effect on the socket's next operation (it is then closed with 4403). False when closed.
   */
  recheck(ctx: WsContext): Promise<boolean>;
  /** graphql-ws onClose: clears the expiry timer and the connection count. */
  closed(ctx: WsContext, code: number | undefined): void;
}

/**
 * The credentials of a connection: the connection_init payload's `authorization` (or
 * `Authorization`), else the upgrade request's header.
 * @throws UnauthenticatedError when the payload's value is not a string
 */
export function credentialsOf(
  payload: Readonly<Record<string, unknown>> | undefined,
  header: string | undefined,
): string | undefined {
  const key = ['authorization', 'Authorization'].find((name) => payload && name in payload);
  if (key === undefined) return header;
  const value = payload![key];
  if (typeof value !== 'string') {
    throw new UnauthenticatedError(
      'connection_init: "authorization" must be the string "Bearer <token>".',
    );
  }
  return value;
}

/** The connection-count key of an identity: tenant and subject (or the auth method). */
function identityKey(identity: Identity): string {
  return JSON.stringify([identity.tenantId, identity.subject ?? identity.method]);
}

interface Deps {
  authenticator: Authenticator;
  audit: Audit;
  logger: Logger;
  maxConnections: number;
}

/** Closes the socket with `code` and a reason cut to the protocol's limit. */
function refuse(ctx: WsContext, code: number, reason: string): void {
  ctx.extra.socket.close(code, closeReason(reason));
}

/** Closes the socket with 4403 when its credentials expire (re-armed beyond setTimeout's range). */
function armExpiry(audit: Audit, ctx: WsContext, session: Session, identity: Identity): void {
  // A token is accepted CLOCK_TOLERANCE_S past its exp (jwt.ts): the socket too.
  const exp = identity.expiresAt?.getTime();
  if (exp === undefined) return;
  const expiresAt = exp + CLOCK_TOLERANCE_S * 1000;
  const expire = () => {
    audit.log({
      transport: 'ws',
      identity,
      outcome: 'UNAUTHENTICATED',
      closeCode: WS_CLOSE.forbidden,
      reason: 'credentials expired',
    });
    refuse(
      ctx,
      WS_CLOSE.forbidden,
      'Your token expired: reconnect with a fresh one and resume with afterSeq.',
    );
  };
  const arm = () => {
    const left = expiresAt - Date.now();
    session.timer =
      left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(expire, Math.max(0, left));
    session.timer.unref();
  };
  arm();
}

/**
 * The identity of a connection's credentials, or null once the socket was closed: 4403 for
 * refused (or, where required, missing) credentials, 4500 for an unexpected failure (logged).
 */
async function authenticate(deps: Deps, ctx: WsContext): Promise<Identity | null> {
  const header = ctx.extra.request.headers.authorization;
  let credentials: string | undefined;
  try {
    credentials = credentialsOf(ctx.connectionParams, header);
    return await deps.authenticator.authenticate(credentials);
  } catch (error) {
    if (error instanceof UnavailableError) {
      refuse(ctx, WS_CLOSE.tryAgainLater, error.message);
      return null;
    }
    const failed = dependencyFailure(error);
    if (failed) {
      // An API key looked up while the database is lost: try again later, not a server bug.
      deps.logger.warn({ err: error, reason: failed.kind }, 'dependency failed');
      refuse(ctx, WS_CLOSE.tryAgainLater, 'The database could not be reached; try again.');
      return null;
    }
    if (!(error instanceof UnauthenticatedError)) {
      deps.logger.error({ err: error }, 'graphql-ws: authentication failed unexpectedly');
      refuse(ctx, WS_CLOSE.internalError, 'Internal server error');
      return null;
    }
    deps.audit.log({
      transport: 'ws',
      attempted: attemptedMethod(credentials),
      outcome: 'UNAUTHENTICATED',
      closeCode: WS_CLOSE.forbidden,
      reason: credentials ? 'credentials refused' : 'no credentials',
    });
    const missing = !credentials?.trim();
    refuse(
      ctx,
      WS_CLOSE.forbidden,
      missing
        ? 'Authentication required: send {"authorization": "Bearer <API key or JWT>"} in connection_init.'
        : error.message,
    );
    return null;
  }
}

/** Audits a protocol close graphql-ws made (the code the client echoed; not its reason text). */
function auditProtocolClose(audit: Audit, identity: Identity | null, code: number | undefined) {
  const protocol = code === undefined ? undefined : PROTOCOL_CLOSES[code];
  if (!protocol) return;
  const [outcome, reason] = protocol;
  audit.log({ transport: 'ws', identity, outcome, closeCode: code, reason });
}

/** Builds the session registry of one graphql-ws server. */
export function createWsSessions(deps: Deps): WsSessions {
  const { audit, maxConnections } = deps;
  const sessions = new WeakMap<Extra, Session>();
  const open = new Map<string, number>();
  return {
    async connect(ctx) {
      const session: Session = { identity: null, key: null, timer: null, closed: false };
      sessions.set(ctx.extra, session);
      const identity = await authenticate(deps, ctx);
      if (!identity || session.closed) return false;
      const key = identityKey(identity);
      const count = open.get(key) ?? 0;
      if (count >= maxConnections) {
        audit.log({
          transport: 'ws',
          identity,
          outcome: 'RATE_LIMITED',
          closeCode: WS_CLOSE.tryAgainLater,
          reason: 'WS_MAX_CONNECTIONS',
        });
        refuse(
          ctx,
          WS_CLOSE.tryAgainLater,
          `Too many WebSocket connections for these credentials (at most ${maxConnections}): close one, or retry later.`,
        );
        return false;
      }
      open.set(key, count + 1);
      Object.assign(session, { identity, key });
      armExpiry(audit, ctx, session, identity);
      return true;
    },
    identityOf: (ctx) => sessions.get(ctx.extra)?.identity ?? undefined,
    async recheck(ctx) {
      const session = sessions.get(ctx.extra);
      if (session?.identity?.method !== 'API_KEY') return true;
      return (await authenticate(deps, ctx)) !== null;
    },
    closed(ctx, code) {
      const session = sessions.get(ctx.extra);
      auditProtocolClose(audit, session?.identity ?? null, code);
      if (!session) return;
      session.closed = true;
      if (session.timer) clearTimeout(session.timer);
      if (session.key === null) return;
      const left = (open.get(session.key) ?? 1) - 1;
      if (left > 0) open.set(session.key, left);
      else open.delete(session.key);
      session.key = null;
    },
  };
}
