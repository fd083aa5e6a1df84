/**
 * graphql-ws on the HTTP server's port and yoga's path (yoga's examples/graphql-ws): yoga's
 * envelop runs parse, validate, context, limits, metrics and error masking for WebSocket
 * operations too. Each socket authenticates once (ws-sessions.ts) and every operation's
 * context acts as that identity; scopes are checked when each subscription starts
 * (scope-auth's authorizeOnSubscribe). At most WS_MAX_SUBSCRIPTIONS operations run at once
 * on a socket: one more fails with RATE_LIMITED and the socket stays open.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionArgs, type execute, GraphQLError } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
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
      extensions: { ...error.extensions, code: 'GRAPHQL_PARSE_FAILED' },
    }),
  ];
}

/** An error for one operation, without the HTTP details meant for yoga's responses. */
function operationError(error: GraphQLError): GraphQLError[] {
  const { http: _http, ...extensions } = error.extensions as Record<string, unknown>;
  return [new GraphQLError(error.message, { extensions })];
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
    return operationError(
      rateLimited(
        `Too many operations on this WebSocket (at most ${options.maxSubscriptions} at once): complete one first, or open another connection.`,
      ),
    );
  }
  // After the count: it must see this socket's operations as they arrive, before any await.
  if (!(await sessions.recheck(ctx))) {
    return operationError(
      new GraphQLError('The API key was revoked.', { extensions: { code: 'UNAUTHENTICATED' } }),
    );
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
    if (error instanceof GraphQLError) return [error];
    throw error;
  }
  if (errors.length) return errors;
  let contextValue: Awaited<ReturnType<typeof contextFactory>>;
  try {
    contextValue = await contextFactory();
  } catch (error) {
    if (error instanceof GraphQLError) return operationError(error);
    options.logger.error({ err: error }, 'graphql-ws: context failed');
    return [
      new GraphQLError('Unexpected error.', { extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
    ];
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

/** Serves graphql-ws on `server` at yoga's GraphQL endpoint. */
export function attachGraphqlWs(server: Server, options: GraphqlWsOptions): GraphqlWs {
  const { yoga, audit } = options;
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes });
  routeUpgrades(server, wsServer, yoga.graphqlEndpoint, options.upgradeProblem, audit);
  const sessions = createWsSessions({
    authenticator: options.authenticator,
    audit,
    logger: options.logger,
    maxConnections: options.maxConnections,
  });
  const cleanup = useServer(
    {
      // Close reasons never carry internal error messages.
      isProd: true,
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args),
      onConnect: (ctx) => sessions.connect(ctx as WsContext),
      onClose: (ctx, code) => sessions.closed(ctx as WsContext, code),
      onSubscribe: (ctx, _id, params) =>
        prepareOperation(yoga, sessions, options, ctx as WsContext, params),
      connectionInitWaitTimeout: options.initTimeoutMs,
    },
    wsServer,
    12_000, // keep-alive ping interval, ms
  );
  return {
    async close() {
      await cleanup.dispose();
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
