/**
 * Redis pub/sub for several instances: yoga's Redis event target over two ioredis connections
 * (one publishes, one subscribes), so every instance hears every event. One Redis channel per
 * topic key, subscribed once per process however many followers listen.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BusEventTarget } from './bus.js';

export interface RedisEventTarget {
  target: BusEventTarget;
  /** Calls `handler` each time the subscriber connection is ready again after a loss. */
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

/**
 * Connects both clients; resolves once they are ready.
 * @throws Error when Redis cannot be reached at start
 */
export async function connectRedisEventTarget(url: string, logger: Logger): Promise<RedisEventTarget> {
  const options = { maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: true };
  const publishClient = new Redis(url, options);
  const subscribeClient = new Redis(url, options);
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection error'));
  }
  await Promise.all([publishClient.connect(), subscribeClient.connect()]);
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
    async close() {
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}
