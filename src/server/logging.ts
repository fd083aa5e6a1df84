/**
 * Logs: the pino logger (JSON by default, LOG_FORMAT=pretty for people), and one line per HTTP
 * request with a request id that is also sent back in `x-request-id`. The lines written for a
 * request carry its requestId: its request line, its audit lines, and the unexpected errors and
 * dependency failures of its operations (mask-error.ts). Never logged: bodies, variables, item
 * content, query strings (a GET request carries its query and variables there).
 *
 * The request a line belongs to is looked up from the objects the code at hand holds (node's
 * IncomingMessage, yoga's Request for it), not from an AsyncLocalStorage: on Node 20 an enabled
 * AsyncLocalStorage runs a hook on every promise of the process (measured at 17% of the CPU of
 * a live event's delivery to 1,000 followers; bench/README.md, round four).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import pino, { type DestinationStream, type Logger } from 'pino';
import { ConfigError, type Env, redact } from '../env.js';

/** The request being served on the current async path (HTTP only). */
interface RequestScope {
  id: string;
  /** The GraphQL operation's name once known ("Anonymous" for an unnamed one, as in metrics). */
  operation?: string;
}

/** The scope of each HTTP request being served, by node's IncomingMessage and yoga's Request. */
const scopes = new WeakMap<object, RequestScope>();

/** An incoming id is kept when it is short and plain; anything else gets a fresh one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

// Polled by load balancers and scrapers: logged at debug, so info logs stay readable.
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

type LogRecord = Record<string, unknown>;

// Shown in the message by prettyMessage, so not repeated below it.
const PRETTY_HIDDEN =
  'pid,hostname,requestId,method,path,operation,status,durationMs,aborted,version,commit,port,database,redis,auth';

/** One line for people: a request as "POST /graphql M 200 12.5 ms [id]", others as the message. */
function prettyMessage(log: LogRecord, messageKey: string): string {
  const id = log.requestId ? ` [${log.requestId}]` : '';
  if (log[messageKey] !== 'request' || log.method === undefined) return `${log[messageKey]}${id}`;
  const operation = log.operation ? ` ${log.operation}` : '';
  const aborted = log.aborted ? ' (aborted)' : '';
  return `${log.method} ${log.path}${operation} ${log.status} ${log.durationMs} ms${aborted}${id}`;
}

/** pino-pretty, a development dependency: a clear start-up failure when it is missing. */
function prettyStream(): DestinationStream {
  let pretty: (options: Record<string, unknown>) => DestinationStream;
  try {
    pretty = createRequire(import.meta.url)('pino-pretty') as typeof pretty;
  } catch {
    throw new ConfigError(
      'LOG_FORMAT',
      'LOG_FORMAT=pretty needs the pino-pretty package, which is not installed here: run npm install (with dev dependencies), or set LOG_FORMAT=json.',
    );
  }
  // sync: a fatal start-up line is written before the process exits.
  return pretty({
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: PRETTY_HIDDEN,
    messageFormat: prettyMessage,
  });
}

/**
 * The id of the HTTP request `carrier` stands for: node's IncomingMessage, or the Request yoga
 * made of it (linked by requestScopePlugin). Undefined for anything else (a WebSocket, a request
 * through yoga.fetch in-process, null).
 */
export function requestIdOf(carrier: object | null | undefined): string | undefined {
  return carrier ? scopes.get(carrier)?.id : undefined;
}

/**
 * The process logger. Errors are logged with their messages and stacks redacted (a driver
 * error may quote a connection URL).
 * @throws ConfigError when LOG_FORMAT=pretty and pino-pretty is not installed
 */
export function createLogger(env: Pick<Env, 'LOG_LEVEL' | 'LOG_FORMAT'>): Logger {
  const options: pino.LoggerOptions = {
    level: env.LOG_LEVEL,
    serializers: {
      err: (error: Error) => {
        const serialized = pino.stdSerializers.err(error);
        serialized.message = redact(serialized.message);
        if (serialized.stack) serialized.stack = redact(serialized.stack);
        return serialized;
      },
    },
  };
  return env.LOG_FORMAT === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/**
 * Wraps an HTTP handler: assigns the request id (a sane incoming `x-request-id`, else a new
 * UUID), sends it back (requestIdOf(req) tells it from then on), runs `handler`, and logs one
 * line when the response ends: method, path, operation, status, durationMs, requestId.
 */
export function withRequestLog(
  logger: Logger,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const incoming = req.headers['x-request-id'];
    const id =
      typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const scope: RequestScope = { id };
    scopes.set(req, scope);
    const started = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.setHeader('x-request-id', id);
    res.once('close', () => {
      const level = QUIET_PATHS.has(path) ? 'debug' : 'info';
      // LOG_LEVEL above it: no line to build.
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        requestId: id,
        method: req.method,
        path,
        operation: scope.operation,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      logger[level](line, 'request');
    });
    handler(req, res);
  };
}

/**
 * Links the Request yoga makes of an HTTP request to that request's scope (requestIdOf), and
 * records its operation name for the request line: the one the client named, else the
 * document's only operation's name, else "Anonymous". List it first: other plugins' onRequest
 * hooks may write lines for the request.
 */
export function requestScopePlugin(): Plugin {
  return {
    onRequest({ request, serverContext }) {
      const req = (serverContext as { req?: IncomingMessage } | undefined)?.req;
      const scope = req && scopes.get(req);
      if (scope) scopes.set(request, scope);
    },
    onParams({ params, request }) {
      const scope = scopes.get(request);
      if (scope && params.operationName) scope.operation = params.operationName;
    },
    onParse({ context }) {
      const { request } = context as { request?: Request };
      const scope = request && scopes.get(request);
      if (!scope || scope.operation) return undefined;
      return ({ result }) => {
        if (result && !(result instanceof Error) && 'kind' in result) {
          scope.operation = getOperationAST(result)?.name?.value ?? 'Anonymous';
        }
      };
    },
  };
}
