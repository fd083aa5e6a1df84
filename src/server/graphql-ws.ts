/**
 * graphql-ws on the HTTP server's port and yoga's path (yoga's examples/graphql-ws): yoga's
 * envelop runs parse, validate, context, limits, metrics and error masking for WebSocket
 * operations too.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionArgs, type execute, GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
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

export interface GraphqlWs {
  /** Closes every socket and stops accepting new ones. */
  close(): Promise<void>;
}

/**
 * Upgrades requests to yoga's GraphQL endpoint on `server` to `wsServer`; refuses the others.
 * (Not `new WebSocketServer({ server })`: that re-emits the HTTP server's errors, such as a
 * port in use, on the WebSocket server, where graphql-ws prints them with a stack.)
 */
function routeUpgrades(server: Server, wsServer: WebSocketServer, path: string): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if ((req.url ?? '/').split('?')[0] !== path) {
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    wsServer.handleUpgrade(req, socket, head, (ws) => wsServer.emit('connection', ws, req));
  });
}

/** Serves graphql-ws on `server` at yoga's GraphQL endpoint. */
export function attachGraphqlWs(server: Server, yoga: ThreadstoreYoga): GraphqlWs {
  const wsServer = new WebSocketServer({ noServer: true });
  routeUpgrades(server, wsServer, yoga.graphqlEndpoint);
  const cleanup = useServer(
    {
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
        });
        let document: ReturnType<typeof parse>;
        try {
          document = parse(params.query);
        } catch (error) {
          return parseFailure(error);
        }
        const args = {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
      connectionInitWaitTimeout: 10_000,
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
