/**
 * Subscriptions as a given identity, over graphql-ws (credentials in the connection_init
 * payload) or SSE (POST with `Accept: text/event-stream` and the Authorization header), both
 * collected the same way; and a raw WebSocket for protocol-level tests (frames, close codes,
 * upgrade refusals).
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** A running subscription: what it delivered so far. */
export interface Subscription {
  /** The `data` of every result, in order. */
  results: Record<string, unknown>[];
  /** GraphQL errors received, or `{ close, reason }` when the socket closed, or `{ message }`. */
  errors: unknown[];
  /** True once the server completed the operation. */
  completed: boolean;
  /** Stops listening (unsubscribes, closes the socket or the stream). */
  close(): Promise<void>;
}

/** An error of a sink as plain data: GraphQL errors, a close event, or a message. */
function errorsOf(error: unknown): unknown[] {
  if (Array.isArray(error)) return error;
  if (typeof error === 'object' && error !== null && 'code' in error && 'reason' in error) {
    const close = error as { code: number; reason: string };
    return [{ close: close.code, reason: close.reason }];
  }
  return [{ message: error instanceof Error ? error.message : String(error) }];
}

/** A graphql-ws client of `ws://127.0.0.1:<port>/graphql` sending `authorization` in connection_init. */
export function wsClientAs(port: number, authorization: string | null): Client {
  return createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: authorization === null ? undefined : { authorization },
  });
}

/** Subscribes over graphql-ws on its own socket, as `authorization`. */
export function wsSubscribe(
  port: number,
  authorization: string,
  query: string,
  variables: Record<string, unknown> = {},
): Subscription {
  const client = wsClientAs(port, authorization);
  const subscription: Subscription = {
    results: [],
    errors: [],
    completed: false,
    close: async () => {
      unsubscribe();
      await client.dispose();
    },
  };
  const unsubscribe = client.subscribe<Record<string, unknown>>(
    { query, variables },
    {
      next: (result) => {
        if (result.data) subscription.results.push(result.data);
        if (result.errors) subscription.errors.push(...result.errors);
      },
      error: (error) => subscription.errors.push(...errorsOf(error)),
      complete: () => {
        subscription.completed = true;
      },
    },
  );
  return subscription;
}

/** Subscribes over SSE at `${base}/graphql`, sending `authorization` as the header. */
export function sseSubscribe(
  base: string,
  authorization: string,
  query: string,
  variables: Record<string, unknown> = {},
): Subscription {
  const controller = new AbortController();
  const subscription: Subscription = {
    results: [],
    errors: [],
    completed: false,
    close: async () => controller.abort(),
  };
  const onEvent = (block: string) => {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (event === 'complete') {
      subscription.completed = true;
      return;
    }
    if (!data) return;
    const result = JSON.parse(data) as { data?: Record<string, unknown>; errors?: unknown[] };
    if (result.data) subscription.results.push(result.data);
    if (result.errors) subscription.errors.push(...result.errors);
  };
  (async () => {
    const response = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization },
      body: JSON.stringify({ query, variables }),
      signal: controller.signal,
    });
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      const text = await response.text();
      try {
        const body = JSON.parse(text) as { errors?: unknown[] };
        subscription.errors.push(...(body.errors ?? [{ message: `HTTP ${response.status}` }]));
      } catch {
        subscription.errors.push({ message: `HTTP ${response.status}: ${text}` });
      }
      subscription.completed = true;
      return;
    }
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        onEvent(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
    subscription.completed = true;
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) subscription.errors.push(...errorsOf(error));
  });
  return subscription;
}

/**
 * Waits until `check` holds, polling. Fails at once, with the errors, when one of `watched`
 * received an error; fails after `ms` otherwise, naming `what`.
 */
export async function until(
  check: () => boolean,
  watched: Subscription[],
  what: string,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    const failed = watched.find((s) => s.errors.length > 0);
    if (failed)
      throw new Error(`${what}: the subscription failed: ${JSON.stringify(failed.errors)}`);
    if (Date.now() > deadline) {
      const state = watched.map((s) => ({ results: s.results, completed: s.completed }));
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(state)}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Waits until a subscription that sends no acknowledgement (threadEvents) is live: calls
 * `poke` (a write the subscription reports) every 250 ms until `seen` holds.
 * @throws Error when the subscription fails or nothing is seen within `ms`
 */
export async function untilLive(
  subscription: Subscription,
  poke: () => Promise<unknown>,
  seen: () => boolean,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!seen()) {
    if (Date.now() > deadline) throw new Error('the subscription never reported a probe write');
    await poke();
    await until(
      seen,
      [subscription],
      'a probe event',
      Math.max(0, Math.min(250, deadline - Date.now())),
    ).catch((error: Error) => {
      if (subscription.errors.length > 0) throw error;
    });
  }
}

/** A raw WebSocket speaking graphql-transport-ws, for frames a client library would not send. */
export interface RawSocket {
  ws: WebSocket;
  /** Parsed (or, when not JSON, raw text) messages received. */
  messages: unknown[];
  /** Resolves once open, or with the HTTP status when the upgrade was refused. */
  opened: Promise<{ open: true } | { open: false; status: number | null }>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** The close code and reason once closed, else null. */
  closeInfo: { code: number; reason: string } | null;
  /** Sends a JSON message (or a string or buffer as is). */
  send(message: unknown): void;
  /** Waits up to `ms` for the close; 'open' when still open then. */
  closeCode(ms?: number): Promise<number | 'open'>;
}

/** Opens a raw graphql-transport-ws socket on `ws://127.0.0.1:<port><path>`. */
export function rawSocket(
  port: number,
  options: { path?: string; origin?: string; headers?: Record<string, string> } = {},
): RawSocket {
  const ws = new WebSocket(
    `ws://127.0.0.1:${port}${options.path ?? '/graphql'}`,
    'graphql-transport-ws',
    { origin: options.origin, headers: options.headers },
  );
  const messages: unknown[] = [];
  ws.on('message', (data) => {
    const text = String(data);
    try {
      messages.push(JSON.parse(text));
    } catch {
      messages.push(text);
    }
  });
  const opened = new Promise<{ open: true } | { open: false; status: number | null }>((resolve) => {
    ws.once('open', () => resolve({ open: true }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ open: false, status: res.statusCode ?? null });
      res.resume();
      ws.terminate();
    });
    ws.once('error', () => resolve({ open: false, status: null }));
  });
  ws.on('error', () => {}); // refusals surface through `opened` and `closed`
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const raw: RawSocket = {
    ws,
    messages,
    opened,
    closed,
    closeInfo: null,
    send: (message) =>
      ws.send(
        typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message),
      ),
    closeCode: async (ms = 3_000) => {
      const timeout = new Promise<'open'>((r) => setTimeout(() => r('open'), ms));
      const result = await Promise.race([closed, timeout]);
      return result === 'open' ? 'open' : result.code;
    },
  };
  closed.then((info) => {
    raw.closeInfo = info;
  });
  return raw;
}
