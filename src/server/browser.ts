/**
 * Browser safety (issue 9, point 4; contract part identity, settled details):
 * - CORS: only origins listed in CORS_ORIGINS (exact match) get CORS headers, credentials
 *   included; any other origin gets none (never a reflected origin), and so does every origin
 *   while the list is empty.
 * - CSRF: a request a browser sends without a preflight (GET, or POST as a form, multipart or
 *   text/plain) runs only with a header no plain page can set: Authorization, or
 *   `x-graphql-yoga-csrf` (yoga's CSRF-prevention plugin, both headers accepted).
 * - DNS rebinding: while AUTH=optional, only loopback Host names are served (localhost,
 *   127.0.0.1, [::1], any port), and WebSocket upgrades must come without an Origin, from a
 *   listed one, or from this server's own origin (the thread browser at /ui); no cross-site
 *   WebSocket hijacking. AUTH=none checks neither.
 * - INTROSPECTION=false refuses `__schema` and `__type` as a validation error.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { type AuthMode, isLoopbackHost } from '../env.js';
import { quote } from '../errors.js';
import { type Audit, attemptedMethod } from './audit.js';
import { requestIdOf } from './logging.js';

/** The header a script sets to show a request is not a plain page's (yoga's default name). */
export const CSRF_HEADER = 'x-graphql-yoga-csrf';

/** Request headers a listed origin may send, and response headers its scripts may read. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'accept', CSRF_HEADER, 'x-request-id'];
const EXPOSED_HEADERS = ['x-request-id', 'retry-after', 'www-authenticate'];

type CorsOption = NonNullable<YogaServerOptions<object, object>['cors']>;

/**
 * Yoga's `cors` option: CORS headers with credentials for a listed origin only (exact match);
 * none for any other origin, or for every origin while `origins` is empty.
 */
export function corsOptions(origins: readonly string[]): CorsOption {
  const listed = new Set(origins);
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (origin === null || !listed.has(origin)) return false;
    return {
      origin: [origin],
      credentials: true,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    };
  };
}

/** `Vary: Origin` on every response while some origins are listed (answers differ by origin). */
export function varyOnOrigin(origins: readonly string[]): Plugin {
  return {
    onResponse({ response }) {
      if (origins.length === 0) return;
      const vary = response.headers.get('vary') ?? '';
      if (!/(^|,\s*)origin(\s*,|$)/i.test(vary)) response.headers.append('vary', 'Origin');
    },
  };
}

/** The 403 FORBIDDEN error of a refused request, with a message a person can act on. */
function forbidden(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN', http: { status: 403 } } });
}

/**
 * Yoga's CSRF prevention, accepting Authorization as well as its own header, with a code and
 * a message that says what to send; refusals are audited.
 */
export function csrfPrevention(audit: Audit): Plugin {
  const yogaCsrf = useCSRFPrevention({ requestHeaders: [CSRF_HEADER, 'authorization'] });
  return {
    onRequestParse(payload) {
      try {
        yogaCsrf.onRequestParse?.(payload);
      } catch {
        audit.log(
          { transport: 'http', outcome: 'FORBIDDEN', status: 403, reason: 'no CSRF header' },
          payload.request,
        );
        throw forbidden(
          `A ${payload.request.method} request without a JSON content type could come from any web page, so it runs only with an Authorization header or the header "${CSRF_HEADER}: 1"; add one, or POST with content-type application/json.`,
        );
      }
    },
  };
}

/** The host name of a Host header value (port and IPv6 brackets removed), or null. */
export function hostName(host: string | null | undefined): string | null {
  if (!host) return null;
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/@]+)(?::\d{1,5})?$/.exec(host.trim());
  return match ? match[1]! : null;
}

/**
 * Why a request with this Host is refused while AUTH=optional (DNS rebinding: a page of any
 * site may point its own name at 127.0.0.1), or null when it is served.
 */
export function foreignHostProblem(mode: AuthMode, host: string | null | undefined): string | null {
  if (mode !== 'optional') return null;
  const name = hostName(host);
  if (name !== null && isLoopbackHost(name)) return null;
  return `This server runs without required authentication (AUTH=optional) and serves only loopback Host names (localhost, 127.0.0.1, [::1]), not ${quote(host ?? '', 64)}: use http://localhost:<port>, or set AUTH=required and send credentials.`;
}

/**
 * True when `origin` is this server's own origin as the request reached it (http:// and the
 * Host header, port included): a page this server served, such as the thread browser.
 */
export function isSameOrigin(origin: string, host: string | undefined): boolean {
  return host !== undefined && origin.toLowerCase() === `http://${host.toLowerCase()}`;
}

/**
 * Why a WebSocket upgrade is refused (a foreign Host, or while AUTH=optional an Origin that
 * is not listed in CORS_ORIGINS), or null when it is accepted.
 */
export function upgradeProblem(
  mode: AuthMode,
  origins: readonly string[],
  req: IncomingMessage,
): string | null {
  const host = foreignHostProblem(mode, req.headers.host);
  if (host) return host;
  const origin = req.headers.origin;
  if (mode !== 'optional' || origin === undefined || origins.includes(origin)) return null;
  // This server's own pages (the thread browser at /ui): the Host is a loopback name here.
  if (isSameOrigin(origin, req.headers.host)) return null;
  return `WebSocket connections from the web page ${quote(origin, 64)} are refused while AUTH=optional: list its origin in CORS_ORIGINS, or set AUTH=required.`;
}

/** A GraphQL-shaped JSON error body. */
function errorBody(code: string, message: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/**
 * Answers 400 for a Host header that is not a host (and port): the request URL is built from
 * it, and a malformed one would fail inside the HTTP adapter.
 * @returns true when the request was answered
 */
export function refuseMalformedHost(req: IncomingMessage, res: ServerResponse): boolean {
  const host = req.headers.host;
  if (host === undefined || URL.canParse(`http://${host}/`)) return false;
  res
    .writeHead(400, { 'content-type': 'application/json', connection: 'close' })
    .end(errorBody('BAD_USER_INPUT', 'The Host header is not a valid host name and port.'));
  return true;
}

/**
 * The DNS-rebinding guard for every path of the HTTP server (also /healthz and /metrics):
 * answers 403 and returns true when the request's Host is refused.
 */
export function refuseForeignHost(
  mode: AuthMode,
  audit: Audit,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const problem = foreignHostProblem(mode, req.headers.host);
  if (!problem) return false;
  audit.log({
    transport: 'http',
    attempted: attemptedMethod(req.headers.authorization),
    outcome: 'FORBIDDEN',
    status: 403,
    reason: 'Host is not a loopback name',
    requestId: requestIdOf(req),
  });
  res.writeHead(403, { 'content-type': 'application/json' }).end(errorBody('FORBIDDEN', problem));
  return true;
}

/** The same guard inside yoga (in-process requests through yoga.fetch). */
export function loopbackHostOnly(mode: AuthMode, audit: Audit): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      const problem = foreignHostProblem(mode, request.headers.get('host') ?? url.host);
      if (!problem) return;
      audit.log(
        {
          transport: 'http',
          outcome: 'FORBIDDEN',
          status: 403,
          reason: 'Host is not a loopback name',
        },
        request,
      );
      endResponse(
        new fetchAPI.Response(errorBody('FORBIDDEN', problem), {
          status: 403,
          headers: { 'content-type': 'application/json' },
        }),
      );
    },
  };
}

/** Refuses introspection (`__schema`, `__type`) as a validation error (INTROSPECTION=false). */
export function introspectionOff(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
