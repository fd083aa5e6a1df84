/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that records every POST (headers,
 * body, parsed event, whether its signature verifies) and answers what `respond` says (200 by
 * default; a status, or 'hang' to never answer).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A delivered event's body. */
export interface WebhookBody {
  id: string;
  type: string;
  tenantId: string;
  threadId: string;
  at: string;
  data: Record<string, unknown>;
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: WebhookBody;
}

export interface Receiver {
  port: number;
  /** Base URL, e.g. http://127.0.0.1:1234 */
  url: string;
  /** Every request received, in arrival order (also those answered with an error). */
  received: Received[];
  /** What to answer the next request: a status code or 'hang' (default 200). */
  respond: (r: Received) => number | 'hang';
  /** Resolves once `predicate` holds for `received`, or rejects after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver (on `port`, default any free one). */
export function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    port: 0,
    url: '',
    received: [],
    respond: () => 200,
    async until(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) {
          throw new Error(
            `receiver: condition not met within ${timeoutMs} ms; received ${JSON.stringify(
              receiver.received.map((r) => r.event),
            ).slice(0, 3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const r: Received = {
        path: req.url ?? '/',
        headers: req.headers,
        body,
        event: JSON.parse(body) as WebhookBody,
      };
      receiver.received.push(r);
      const answer = receiver.respond(r);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer).end();
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      receiver.port = (server.address() as AddressInfo).port;
      receiver.url = `http://127.0.0.1:${receiver.port}`;
      resolve(receiver);
    });
  });
}

/**
 * True when `header` (threadstore-signature) signs `body` with `secret`:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">, t within `toleranceS` of now.
 */
export function verifySignature(
  secret: string,
  header: string | undefined,
  body: string,
  toleranceS = 300,
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, t, v1] = match as unknown as [string, string, string];
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceS) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
