/**
 * Transport helpers for the identity tests: HS256 tokens, a raw graphql-transport-ws socket
 * (to see acks and close codes as they are), HTTP requests with any Host header, and a log
 * sink that parses pino's JSON lines.
 */
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { SignJWT } from 'jose';
import pino, { type Logger } from 'pino';
import WebSocket from 'ws';

/** The HS256 secret of test apps that accept JWTs (AUTH_JWT_SECRET: at least 32 characters). */
export const TEST_JWT_SECRET = 'transport-test-secret-of-at-least-32-chars';

/**
 * An HS256 token for TEST_JWT_SECRET: tenant `acme`, subject `user-1`, every scope, valid for
 * an hour; `claims` override any of them (`exp` in seconds since the epoch).
 */
export function hs256(claims: Record<string, unknown> = {}): Promise<string> {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return new SignJWT({
    tenant: 'acme',
    sub: 'user-1',
    scope: 'threads:read threads:write threads:delete admin',
    exp,
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .sign(new TextEncoder().encode(TEST_JWT_SECRET));
}

/** A message of the graphql-transport-ws protocol. */
export interface WsMessage {
  type: string;
  id?: string;
  payload?: unknown;
}

export interface RawSocket {
  ws: WebSocket;
  /** Every message received, in order. */
  messages: WsMessage[];
  /** Resolves with the close code and reason once the socket closed. */
  closed: Promise<{ code: number; reason: string }>;
  send(message: WsMessage): void;
  /** Waits for the next message satisfying `match` (already received ones count). */
  next(match: (m: WsMessage) => boolean, ms?: number): Promise<WsMessage>;
}

/**
 * Opens a graphql-transport-ws socket to `ws://127.0.0.1:<port>/graphql` with upgrade
 * `headers`; resolves once open.
 * @throws Error with the HTTP status when the upgrade is refused
 */
export function rawSocket(port: number, headers: Record<string, string> = {}): Promise<RawSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { headers });
  const messages: WsMessage[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as WsMessage);
    for (const waiter of waiters.splice(0)) waiter();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => {
      resolve({ code, reason: String(reason) });
      for (const waiter of waiters.splice(0)) waiter();
    }),
  );
  const next = async (match: (m: WsMessage) => boolean, ms = 10_000): Promise<WsMessage> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (ws.readyState === WebSocket.CLOSED || Date.now() > deadline) {
        throw new Error(`no such message; received ${JSON.stringify(messages)}`);
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () =>
      resolve({ ws, messages, closed, send: (m) => ws.send(JSON.stringify(m)), next }),
    );
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`upgrade refused: ${res.statusCode}`), {
            status: res.statusCode,
            body,
          }),
        ),
      );
    });
    ws.once('error', reject);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP request to 127.0.0.1:<port> with exactly these headers (Host included). */
export function rawHttp(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/graphql',
        headers: options.headers,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A logger at info whose JSON lines are collected in `lines`. */
export function collectingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}
