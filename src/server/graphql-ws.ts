/**
 * graphql-ws on the HTTP server's port and yoga's path (yoga's examples/graphql-ws): yoga's
 * envelop runs parse, validate, context, limits, metrics and error masking for WebSocket
 * operations too. Each socket authenticates once (ws-sessions.ts) and every operation's
 * context acts as that identity; scopes are checked when each subscription starts
 * (scope-auth's authorizeOnSubscribe). At most WS_MAX_SUBSCRIPTIONS operations run at once
 * on a socket: one more fails with RATE_LIMITED and the socket stays open. Whatever refuses or
 * fails an operation (a limit, a parse error, credentials, an unexpected error) fails that
 * operation only; nothing is printed outside the pino log, and close reasons never carry an
 * internal message. Each `next` payload is serialised once per result object, however many
 * followers get it (shared-subscriptions.ts hands a group of identical subscriptions one result
 * per event): see payloadSplicer.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionArgs, type ExecutionResult, type execute, GraphQLError } from 'graphql';
import {
  CloseCode,
  type FormattedExecutionResult,
  handleProtocols,
  makeServer,
  type ServerOptions,
  type SubscribePayload,
} from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { dependencyFailure, unavailableError } from '../db/unavailable.js';
import type { Authenticator } from '../identity/authenticate.js';
import type { Audit } from './audit.js';
import { rateLimited } from './rate-limit.js';
import { createWsSessions, type WsContext, type WsSessions } from './ws-sessions.js';
import type { ThreadstoreYoga } from './yoga.js';

type Run = (args: ExecutionArgs) => ReturnType<typeof execute>;
type EnvelopedRoot = { execute: Run; subscribe: Run };

/** A syntax error fails this operation only, not the socket and its other subscriptions. */
function parseFailure(error: unknown): GraphQLError[] {
  if (!(error instanceof GraphQLError)) throw error;
  return [
    new GraphQLError(error.message, {
      source: error.source,
      positions: error.positions,
      extensions: { ...error.extensions, code: error.extensions.code ?? 'GRAPHQL_PARSE_FAILED' },
    }),
  ];
}

/** Sent for an operation that failed unexpectedly (the log has the error). */
function internalError(): GraphQLError[] {
  return [new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } })];
}

/**
 * The errors for an operation that threw outside yoga (preparing its context, running it):
 * UNAVAILABLE when a dependency failed (the database lost, the disk full: logged as a warning),
 * else INTERNAL_SERVER_ERROR (a bug: logged as an error with `what`).
 */
function failure(logger: Logger, error: unknown, what: string): GraphQLError[] {
  const failed = dependencyFailure(error);
  if (!failed) {
    logger.error({ err: error }, what);
    return internalError();
  }
  logger.warn({ err: error, reason: failed.kind }, 'dependency failed');
  const unavailable = unavailableError(failed);
  return [
    new GraphQLError(unavailable.message, {
      extensions: { ...unavailable.details, code: unavailable.code },
    }),
  ];
}

/**
 * An error for one operation, without yoga's `http` extension (a status meant for HTTP
 * responses, which graphql-ws has no use for; validation errors carry it), locations kept.
 */
function operationError(error: GraphQLError): GraphQLError {
  if (!('http' in error.extensions)) return error;
  const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions,
  });
}

/** A `next` message's payload as JSON text. */
class SerializedPayload {
  constructor(readonly json: string) {}
}

/** What stands in for a serialised payload in graphql-ws's message text, until `send`. */
const PAYLOAD_MARK = 'threadstore:serialized-payload';
const MARKED_END = `,"payload":${JSON.stringify(PAYLOAD_MARK)}}`;

// One per result object: followers of a group share theirs (shared-subscriptions.ts).
const payloadTexts = new WeakMap<ExecutionResult, SerializedPayload>();

/** The payload graphql-ws would send for `result` (errors last, as toJSON()), serialised once. */
function serializedPayload(result: ExecutionResult): SerializedPayload {
  let payload = payloadTexts.get(result);
  if (!payload) {
    const { errors, ...rest } = result;
    const shaped = errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest;
    payload = new SerializedPayload(JSON.stringify(shaped));
    payloadTexts.set(result, payload);
  }
  return payload;
}

/**
 * Sends `next` payloads as text serialised once: graphql-ws's onNext returns a
 * SerializedPayload, its jsonMessageReplacer writes a mark in its place and keeps the text, and
 * `splice` (on the way to the socket) puts the text where the mark is. graphql-ws stringifies a
 * message and passes it to `send` in one synchronous step, so the text kept is that message's.
 * The message stays `{"id":…,"type":"next","payload":…}` (the payload is its last key).
 */
function payloadSplicer() {
  let pending: string | null = null;
  return {
    replacer(_key: string, value: unknown): unknown {
      if (!(value instanceof SerializedPayload)) return value;
      pending = value.json;
      return PAYLOAD_MARK;
    },
    /** `data` with the kept payload text in place of the mark (as is without one). */
    splice(data: string): string {
      const json = pending;
      pending = null;
      // Without the mark (a message whose stringify failed left text behind): as it is.
      if (json === null || !data.endsWith(MARKED_END)) return data;
      return `${data.slice(0, -MARKED_END.length)},"payload":${json}}`;
    },
  };
}

export interface GraphqlWs {
  /** Closes every socket and stops accepting new ones. */
  close(): Promise<void>;
}

export interface GraphqlWsOptions {
  yoga: ThreadstoreYoga;
  authenticator: Authenticator;
  audit: Audit;
  logger: Logger;
  /** WS_INIT_TIMEOUT_MS: how long a socket may wait before connection_init (4408). */
  initTimeoutMs: number;
  /** WS_MAX_CONNECTIONS: sockets per identity on this instance (1013 beyond). */
  maxConnections: number;
  /** WS_MAX_SUBSCRIPTIONS: operations running at once on one socket. */
  maxSubscriptions: number;
  /** MAX_BODY_BYTES: the largest message a socket may send (closed with 1009 beyond). */
  maxMessageBytes: number;
  /** Why an upgrade request is refused (answered 403), or null (browser.ts). */
  upgradeProblem: (req: IncomingMessage) => string | null;
}

/**
 * Upgrades requests to yoga's GraphQL endpoint on `server` to `wsServer`; refuses the others,
 * and those `problem` refuses (403, audited).
 * (Not `new WebSocketServer({ server })`: that re-emits the HTTP server's errors, such as a
 * port in use, on the WebSocket server, where graphql-ws prints them with a stack.)
 */
function routeUpgrades(
  server: Server,
  wsServer: WebSocketServer,
  path: string,
  problem: (req: IncomingMessage) => string | null,
  audit: Audit,
): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '/').split('?')[0] !== path) {
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    const refused = problem(req);
    if (refused) {
      audit.log({ transport: 'ws', outcome: 'FORBIDDEN', status: 403, reason: 'upgrade refused' });
      const body = JSON.stringify({
        errors: [{ message: refused, extensions: { code: 'FORBIDDEN' } }],
      });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit('connection', ws, req));
  });
}

/**
 * graphql-ws onSubscribe: the operation's arguments through yoga's envelop, acting as the
 * socket's identity, or its errors (the socket stays open).
 */
async function prepareOperation(
  yoga: ThreadstoreYoga,
  sessions: WsSessions,
  options: Pick<GraphqlWsOptions, 'audit' | 'logger' | 'maxSubscriptions'>,
  ctx: WsContext,
  params: SubscribePayload,
) {
  const identity = sessions.identityOf(ctx);
  // This operation is already counted in ctx.subscriptions.
  if (Object.keys(ctx.subscriptions).length > options.maxSubscriptions) {
    options.audit.log({
      transport: 'ws',
      identity,
      operation: params.operationName ?? null,
      outcome: 'RATE_LIMITED',
      reason: 'WS_MAX_SUBSCRIPTIONS',
    });
    return [
      operationError(
        rateLimited(
          `Too many operations on this WebSocket (at most ${options.maxSubscriptions} at once): complete one first, or open another connection.`,
        ),
      ),
    ];
  }
  // After the count: it must see this socket's operations as they arrive, before any await.
  if (!(await sessions.recheck(ctx))) {
    return [
      operationError(
        new GraphQLError('The API key was revoked.', { extensions: { code: 'UNAUTHENTICATED' } }),
      ),
    ];
  }
  const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
    req: ctx.extra.request,
    socket: ctx.extra.socket,
    params,
    identity,
  });
  let document: ReturnType<typeof parse>;
  try {
    document = parse(params.query);
  } catch (error) {
    return parseFailure(error);
  }
  let errors: readonly GraphQLError[];
  try {
    errors = validate(schema, document);
  } catch (error) {
    // graphql-armor's limits throw their rejection: it fails this operation, not the socket.
    if (error instanceof GraphQLError) return [operationError(error)];
    throw error;
  }
  if (errors.length) return errors.map(operationError);
  let contextValue: Awaited<ReturnType<typeof contextFactory>>;
  try {
    contextValue = await contextFactory();
  } catch (error) {
    if (error instanceof GraphQLError) return [operationError(error)];
    return failure(options.logger, error, 'graphql-ws: context failed');
  }
  return {
    schema,
    operationName: params.operationName,
    document,
    variableValues: params.variables,
    contextValue,
    rootValue: { execute, subscribe },
  };
}

/** A frame ws refused (it closes the socket itself): the code it closes with, and why. */
const FRAME_ERRORS: Record<string, [closeCode: number, outcome: string]> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: [1009, 'PAYLOAD_TOO_LARGE'],
};

/**
 * graphql-ws on `wsServer`, as graphql-ws/use/ws does it, but nothing reaches the console:
 * a frame ws refuses (over maxPayload: 1009; malformed: 1002, 1007) is audited; an unexpected
 * error while handling a message is logged and closes that socket with 4500 and a fixed
 * reason. Keep-alive: a ping every `keepAliveMs`; a socket without a pong by the next one is
 * ended.
 */
function serveSockets(
  gql: ReturnType<typeof makeServer<Record<string, unknown> | undefined, Extra>>,
  wsServer: WebSocketServer,
  deps: { logger: Logger; audit: Audit; keepAliveMs: number; splice: (data: string) => string },
): void {
  const { logger, audit } = deps;
  wsServer.options.handleProtocols = handleProtocols;
  wsServer.on('error', (error) => logger.error({ err: error }, 'graphql-ws: server error'));
  wsServer.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.once('error', (error: Error & { code?: string }) => {
      const [closeCode, outcome] = FRAME_ERRORS[error.code ?? ''] ?? [1002, 'BAD_USER_INPUT'];
      audit.log({ transport: 'ws', outcome, closeCode, reason: error.code ?? 'invalid frame' });
      if (socket.readyState === socket.OPEN) socket.close(closeCode);
    });
    let alive = true;
    socket.on('pong', () => {
      alive = true;
    });
    const keepAlive = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, deps.keepAliveMs);
    const closed = gql.opened(
      {
        protocol: socket.protocol,
        send: (message) =>
          new Promise((resolve, reject) => {
            const data = deps.splice(message);
            if (socket.readyState !== socket.OPEN) return resolve();
            // Resolves once written to the kernel: a client that stops reading holds up its
            // operations here (TCP backpressure), and their backlog stays in the byte-counted
            // follower queues.
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on('message', async (data) => {
            try {
              await handle(String(data));
            } catch (error) {
              logger.error({ err: error }, 'graphql-ws: handling a message failed');
              socket.close(CloseCode.InternalServerError, 'Internal server error');
            }
          }),
      },
      { socket, request },
    );
    socket.once('close', (code, reason) => {
      clearInterval(keepAlive);
      closed(code, String(reason)).catch((error: unknown) =>
        logger.error({ err: error }, 'graphql-ws: closing a socket failed'),
      );
    });
  });
}

/** yoga's execute or subscribe for an operation; an unexpected throw fails it alone (logged). */
function run(logger: Logger, pick: (root: EnvelopedRoot) => Run): Run {
  return async (args) => {
    try {
      return await pick(args.rootValue as EnvelopedRoot)(args);
    } catch (error) {
      return { errors: failure(logger, error, 'graphql-ws: an operation failed unexpectedly') };
    }
  };
}

/** Serves graphql-ws on `server` at yoga's GraphQL endpoint. */
export function attachGraphqlWs(server: Server, options: GraphqlWsOptions): GraphqlWs {
  const { yoga, audit, logger } = options;
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  routeUpgrades(server, wsServer, yoga.graphqlEndpoint, options.upgradeProblem, audit);
  const sessions = createWsSessions({
    authenticator: options.authenticator,
    audit,
    logger,
    maxConnections: options.maxConnections,
  });
  const splicer = payloadSplicer();
  const serverOptions: ServerOptions<Record<string, unknown> | undefined, Extra> = {
    execute: run(logger, (root) => root.execute),
    subscribe: run(logger, (root) => root.subscribe),
    onConnect: (ctx) => sessions.connect(ctx as WsContext),
    onClose: (ctx, code) => sessions.closed(ctx as WsContext, code),
    onSubscribe: async (ctx, _id, params) => {
      try {
        return await prepareOperation(yoga, sessions, options, ctx as WsContext, params);
      } catch (error) {
        return failure(logger, error, 'graphql-ws: preparing an operation failed');
      }
    },
    // The payload serialised once per result: the replacer and `send` put its text in place.
    onNext: (_ctx, _id, _payload, _args, result) =>
      serializedPayload(result) as unknown as FormattedExecutionResult,
    jsonMessageReplacer: splicer.replacer,
    connectionInitWaitTimeout: options.initTimeoutMs,
  };
  serveSockets(makeServer(serverOptions), wsServer, {
    logger,
    audit,
    keepAliveMs: 12_000,
    splice: splicer.splice,
  });
  return {
    async close() {
      for (const client of wsServer.clients) client.close(1001, 'Going away');
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
