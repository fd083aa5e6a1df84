/**
 * Redis pub/sub for several instances: yoga's Redis event target over two ioredis connections
 * (one publishes, one subscribes), so every instance hears every event. One Redis channel per
 * topic key, subscribed once per process however many followers listen.
 *
 * At start Redis must answer (within CONNECT_TIMEOUT_MS): a bad REDIS_URL fails the start with
 * one line instead of retrying forever. Once connected, a lost connection is retried for as
 * long as it takes, and followers re-read what they may have missed when it comes back.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from '../env.js';
import type { BusEventTarget } from './bus.js';

const CONNECT_TIMEOUT_MS = 5_000;

export interface RedisEventTarget {
  target: BusEventTarget;
  /** Calls `handler` each time the subscriber connection is ready again after a loss. */
  onReconnect(handler: () => void): void;
  /** True while both connections are ready. */
  connected(): boolean;
  close(): Promise<void>;
}

/** What a failed first connection means for the person starting the server. */
function connectError(error: unknown, url: string): ConfigError {
  const { hostname, port } = new URL(url);
  const server = `${hostname || 'localhost'}:${port || 6379}`;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const reason = code === 'ECONNREFUSED' ? 'connection refused' : message;
  const refused = /NOAUTH|WRONGPASS|invalid password|ACL/i.test(message);
  const hint = refused
    ? 'check the password in REDIS_URL'
    : 'check the host and port in REDIS_URL and that Redis is running, or unset REDIS_URL to run one instance without Redis';
  const what = refused ? `Redis at ${server} refused the login` : `cannot reach Redis at ${server}`;
  return new ConfigError('REDIS_URL', `REDIS_URL: ${what} (${reason}): ${hint}.`);
}

/**
 * Connects both clients; resolves once they are ready.
 * @throws ConfigError when Redis cannot be reached or refuses the login at start
 */
export async function connectRedisEventTarget(
  url: string,
  logger: Logger,
): Promise<RedisEventTarget> {
  let started = false;
  const options = {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Before the first connection no retry (the start fails); after it, retry forever.
    retryStrategy: (attempt: number) => (started ? Math.min(attempt * 200, 2_000) : null),
  };
  const publishClient = new Redis(url, options);
  const subscribeClient = new Redis(url, options);
  const clients = [publishClient, subscribeClient];
  // The socket's error says why; connect() itself rejects with "Connection is closed."
  let firstError: Error | undefined;
  for (const client of clients) {
    client.on('error', (error: Error) => {
      if (started) logger.warn({ err: error }, 'redis connection error');
      else firstError ??= error;
    });
  }
  try {
    await Promise.all(clients.map((client) => client.connect()));
  } catch (error) {
    for (const client of clients) client.disconnect();
    throw connectError(firstError ?? error, url);
  }
  started = true;
  const handlers: (() => void)[] = [];
  let lost = false;
  subscribeClient.on('close', () => {
    lost = true;
  });
  subscribeClient.on('ready', () => {
    if (!lost) return;
    lost = false;
    logger.info('redis subscriber reconnected; followers re-read what they may have missed');
    for (const handler of handlers) handler();
  });
  const target = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    target: target as unknown as BusEventTarget,
    onReconnect: (handler) => handlers.push(handler),
    connected: () => clients.every((client) => client.status === 'ready'),
    async close() {
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}
