/**
 * Redis pub/sub for several instances, and live delivery while Redis is away.
 *
 * An event is dispatched in this process at once (followers here never wait for Redis) and
 * published to Redis tagged with this instance's id; the other instances dispatch what they
 * hear, and each ignores its own messages coming back, so every follower gets an event once.
 * Channels are managed by yoga's Redis event target: one channel per topic key, subscribed once
 * per process however many followers listen.
 *
 * While the subscriber connection is down, publishes are dropped, not queued (the publisher has
 * no offline queue: a long outage costs no memory and no request waits for Redis), and the
 * catch-up handlers run every `pollMs` so followers re-read the database for what other
 * instances wrote; once the channels are subscribed again they run one last time and polling
 * stops. An instance that dropped publishes says so on a control channel once its publisher is
 * back, so instances whose own connection never broke (a partition) re-read too.
 *
 * At start Redis must answer (within CONNECT_TIMEOUT_MS): a bad REDIS_URL fails the start with
 * one line instead of retrying forever. Once connected, a lost connection is retried for as
 * long as it takes.
 */
import { randomUUID } from 'node:crypto';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from '../env.js';
import { type BusEventTarget, unboundedEventTarget } from './bus.js';

const CONNECT_TIMEOUT_MS = 5_000;
/** A publish not answered within this is counted as dropped (a half-open connection). */
const COMMAND_TIMEOUT_MS = 2_000;
/** Instances announce here, after an outage, since when they dropped publishes. */
const DROPPED_CHANNEL = 'threadstore:dropped';
/**
 * Channels carry envelopes under this prefix; instances of a version that published bare
 * payloads on bare topic names neither hear them nor are heard (no payload of the other shape).
 */
const CHANNEL_PREFIX = 'threadstore:';

/** What goes over a channel: the publishing instance (origin) and the event's detail. */
interface Envelope {
  o: string;
  d: unknown;
}

/** ok: events pass through Redis; degraded: Redis is unreachable, followers poll the database. */
export type RedisStatus = 'ok' | 'degraded';

export interface RedisEventTarget {
  target: BusEventTarget;
  /**
   * Calls `handler(since)` whenever events committed after `since` may have been missed: every
   * `pollMs` while the subscriber is down (since: the previous call, or the loss), once when
   * its channels are subscribed again, and when another instance says it dropped publishes.
   */
  onCatchUp(handler: (since: Date) => void): void;
  /** degraded while either connection is not ready. */
  status(): RedisStatus;
  /** True while both connections are ready. */
  connected(): boolean;
  close(): Promise<void>;
}

export interface RedisEventTargetOptions {
  /** How often followers re-read the database while the subscriber is down, in ms. */
  pollMs: number;
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
 * The bus's target: listeners on an in-process target, fed by local dispatches and by other
 * instances' messages; one relay per channel from yoga's Redis target.
 */
function relayingTarget(
  remote: BusEventTarget,
  origin: string,
  publish: (type: string, envelope: Envelope) => void,
): BusEventTarget {
  const local = unboundedEventTarget();
  const relays = new Map<string, { relay: (event: Event) => void; listeners: number }>();
  return {
    addEventListener(type, listener) {
      local.addEventListener(type, listener);
      const known = relays.get(type);
      if (known) {
        known.listeners += 1;
        return;
      }
      const relay = (event: Event) => {
        const envelope = (event as CustomEvent<Envelope | null>).detail;
        if (!envelope || envelope.o === origin) return;
        local.dispatchEvent(new CustomEvent(type, { detail: envelope.d }));
      };
      relays.set(type, { relay, listeners: 1 });
      remote.addEventListener(CHANNEL_PREFIX + type, relay);
    },
    removeEventListener(type, listener) {
      local.removeEventListener(type, listener);
      const known = relays.get(type);
      if (!known || --known.listeners > 0) return;
      relays.delete(type);
      remote.removeEventListener(CHANNEL_PREFIX + type, known.relay);
    },
    dispatchEvent(event) {
      local.dispatchEvent(event);
      publish(CHANNEL_PREFIX + event.type, { o: origin, d: (event as CustomEvent).detail });
      return true;
    },
    dispatchLocalEvent: (event) => local.dispatchEvent(event),
  };
}

/** The two connections: the publisher fails commands at once while down; the subscriber
 * queues its (un)subscribes, at most one per followed key, and resubscribes when back. */
function redisClients(
  url: string,
  started: () => boolean,
): { publisher: Redis; subscriber: Redis } {
  const common: RedisOptions = {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Before the first connection no retry (the start fails); after it, retry forever.
    retryStrategy: (attempt: number) => (started() ? Math.min(attempt * 200, 2_000) : null),
  };
  return {
    publisher: new Redis(url, {
      ...common,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
    }),
    subscriber: new Redis(url, { ...common, enableOfflineQueue: true, maxRetriesPerRequest: null }),
  };
}

/**
 * Connects both clients; resolves once they are ready.
 * @throws ConfigError when Redis cannot be reached or refuses the login at start
 */
export async function connectRedisEventTarget(
  url: string,
  logger: Logger,
  { pollMs }: RedisEventTargetOptions,
): Promise<RedisEventTarget> {
  let started = false;
  let closing = false;
  const { publisher, subscriber } = redisClients(url, () => started);
  const clients = [publisher, subscriber];
  // The socket's error says why; connect() itself rejects with "Connection is closed."
  let firstError: Error | undefined;
  for (const client of clients) {
    // One warning per outage and connection, not one per reconnect attempt.
    let warned = false;
    client.on('ready', () => {
      warned = false;
    });
    client.on('error', (error: Error) => {
      if (!started) firstError ??= error;
      else if (!warned) logger.warn({ err: error }, 'redis connection error');
      else logger.debug({ err: error }, 'redis connection error');
      if (started) warned = true;
    });
  }
  try {
    await Promise.all(clients.map((client) => client.connect()));
  } catch (error) {
    for (const client of clients) client.disconnect();
    throw connectError(firstError ?? error, url);
  }
  started = true;

  const origin = randomUUID();
  const handlers: ((since: Date) => void)[] = [];
  const catchUp = (since: Date) => {
    for (const handler of handlers) handler(since);
  };
  const dropped = droppedPublishes(publisher, origin, logger);
  const remote = createRedisEventTarget<CustomEvent>({
    publishClient: publisher,
    subscribeClient: subscriber,
  }) as unknown as BusEventTarget;
  remote.addEventListener(DROPPED_CHANNEL, (event) => {
    const notice = (event as CustomEvent<Envelope | null>).detail;
    if (!notice || notice.o === origin || typeof notice.d !== 'string') return;
    logger.info(
      { since: notice.d },
      'another instance dropped events during an outage; re-reading',
    );
    catchUp(new Date(notice.d));
  });
  const poller = degradedPoller(subscriber, pollMs, catchUp, logger, () => closing);
  return {
    target: relayingTarget(remote, origin, dropped.publish),
    onCatchUp: (handler) => handlers.push(handler),
    status: () => (clients.every((client) => client.status === 'ready') ? 'ok' : 'degraded'),
    connected: () => clients.every((client) => client.status === 'ready'),
    async close() {
      closing = true;
      poller.stop();
      await Promise.allSettled(clients.map((client) => client.quit()));
    },
  };
}

/**
 * Publishes envelopes, dropping them while the publisher is down; once it is ready again, tells
 * the other instances since when it dropped (retried at the next ready if that fails too).
 */
function droppedPublishes(publisher: Redis, origin: string, logger: Logger) {
  let since: Date | null = null;
  const announce = () => {
    if (!since || publisher.status !== 'ready') return;
    const notice: Envelope = { o: origin, d: since.toISOString() };
    since = null;
    publisher.publish(DROPPED_CHANNEL, JSON.stringify(notice)).catch(() => {
      since ??= new Date(notice.d as string);
    });
  };
  const drop = () => {
    if (!since)
      logger.warn(
        'redis unreachable: events published here reach only this instance until it is back (other instances read them from the database)',
      );
    since ??= new Date();
    // A publish lost on a connection that is ready again (a half-open one that timed out).
    queueMicrotask(announce);
  };
  publisher.on('ready', announce);
  return {
    publish(type: string, envelope: Envelope) {
      if (publisher.status !== 'ready') return drop();
      publisher.publish(type, JSON.stringify(envelope)).catch(drop);
    },
  };
}

/**
 * While the subscriber is down, calls `catchUp` every `pollMs`; when it is back and its channels
 * are subscribed again (a PING sent after the resubscribe answered), calls it once more and
 * stops.
 */
function degradedPoller(
  subscriber: Redis,
  pollMs: number,
  catchUp: (since: Date) => void,
  logger: Logger,
  closing: () => boolean,
) {
  let lostAt: Date | null = null;
  let timer: NodeJS.Timeout | null = null;
  let last = new Date();
  const tick = () => {
    const since = last;
    last = new Date();
    catchUp(since);
  };
  subscriber.on('close', () => {
    if (closing() || lostAt) return;
    lostAt = new Date();
    last = lostAt;
    logger.warn({ pollMs }, 'redis subscriber lost: followers re-read the database meanwhile');
    timer = setInterval(tick, pollMs);
    timer.unref();
  });
  subscriber.on('ready', () => {
    // After ioredis has sent the resubscribe commands this 'ready' precedes.
    setImmediate(async () => {
      if (!lostAt) return;
      const answered = await subscriber.ping().then(
        () => true,
        () => false,
      );
      if (!answered || !lostAt || subscriber.status !== 'ready') return;
      if (timer) clearInterval(timer);
      timer = null;
      logger.info(
        { downMs: Date.now() - lostAt.getTime() },
        'redis subscriber back; followers re-read what they may have missed',
      );
      lostAt = null;
      tick();
    });
  });
  return {
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
