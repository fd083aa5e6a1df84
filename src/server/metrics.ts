/**
 * GET /metrics in Prometheus text format, on one registry per app:
 * - GraphQL requests, latency and errors by operation (yoga's Prometheus plugin), errors also
 *   by the `extensions.code` clients see;
 * - threadstore's own series, observed from outside the domain code: appends and items
 *   appended (the bus's published `thread-items` events), live followers (bus listeners),
 *   follower queue depth (the bus's count of queued events), subscription executions per live
 *   event and the deliveries that reused one (shared-subscriptions.ts), the PostgreSQL pool,
 *   Redis connected;
 * - the process (prom-client's default metrics) and the build.
 * Services never import prom-client.
 */
import {
  createCounter,
  createHistogram,
  type FillLabelsFnParams,
  usePrometheus,
} from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import type { EventBus } from '../pubsub/bus.js';
import type { RedisEventTarget } from '../pubsub/redis.js';
import type { Topics } from '../pubsub/topics.js';
import type { BuildInfo } from './build-info.js';
import { clientErrorCode } from './mask-error.js';
import type { SharedExecutionStats } from './shared-subscriptions.js';

export interface Metrics {
  registry: Registry;
  /** Yoga's Prometheus plugin: serves /metrics and records GraphQL requests. */
  plugin: Plugin;
  /** `bus` as seen by services, with appends and listeners counted on the way through. */
  observeBus(bus: EventBus): EventBus;
}

export interface MetricsSources {
  db: Database;
  redis: RedisEventTarget | null;
  build: BuildInfo;
  /** The shared subscription executions' counters, when that plugin is in use. */
  sharing?: SharedExecutionStats;
}

// What a client sees for an error without a code of its own, by the phase it failed in.
const PHASE_CODES: Record<string, string> = {
  parse: 'GRAPHQL_PARSE_FAILED',
  validate: 'GRAPHQL_VALIDATION_FAILED',
  context: 'INTERNAL_SERVER_ERROR',
};

/** Distinct operation names given a label of their own; later ones share OTHER_OPERATIONS. */
const MAX_OPERATION_LABELS = 200;
const OTHER_OPERATIONS = '(other)';

/**
 * The operation-name label, bounded: clients choose operation names, so without a cap a caller
 * could add series (and memory) at will. The first MAX_OPERATION_LABELS names keep their own.
 */
function operationLabeller(): (name: string | undefined) => string {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'Anonymous';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_LABELS || !/^[A-Za-z_]\w{0,63}$/.test(name)) {
      return OTHER_OPERATIONS;
    }
    seen.add(name);
    return name;
  };
}

/** The request, latency and HTTP series, with bounded operation-name labels. */
function requestSeries(registry: Registry, operationName: (name: string | undefined) => string) {
  // Key order is the order labels are printed in.
  const operationLabels = (params: FillLabelsFnParams) => ({
    operationName: operationName(params.operationName),
    operationType: params.operationType ?? 'unknown',
  });
  const requests = createCounter<'execute' | 'subscribe', 'operationType' | 'operationName'>({
    registry,
    counter: {
      name: 'graphql_envelop_request',
      help: 'Counts the GraphQL operations executed, by operation',
      labelNames: ['operationType', 'operationName'],
    },
    fillLabelsFn: operationLabels,
  });
  const duration = createHistogram<'execute' | 'subscribe', 'operationType' | 'operationName'>({
    registry,
    histogram: {
      name: 'graphql_envelop_request_duration',
      help: 'Time spent on running the GraphQL operation from parse to execute, in seconds',
      labelNames: ['operationType', 'operationName'],
    },
    fillLabelsFn: operationLabels,
  });
  type HttpLabel = 'operationType' | 'operationName' | 'method' | 'statusCode';
  type HttpParams = FillLabelsFnParams & { request: Request; response: Response };
  const http = createHistogram<'request', HttpLabel, HttpParams>({
    registry,
    histogram: {
      name: 'graphql_yoga_http_duration',
      help: 'Time spent on HTTP connection, in seconds',
      // No url label: it would carry GET requests' query strings (queries and variables).
      labelNames: ['operationType', 'operationName', 'method', 'statusCode'],
    },
    fillLabelsFn: (params) => ({
      ...operationLabels(params),
      method: params.request.method,
      statusCode: params.response.status,
    }),
  });
  return { requests, duration, http };
}

/** Yoga's Prometheus plugin on `registry`: the request, latency and error series only. */
function graphqlPlugin(registry: Registry): Plugin {
  const operationName = operationLabeller();
  const { requests, duration, http } = requestSeries(registry, operationName);
  type Phase = 'parse' | 'validate' | 'context' | 'execute' | 'subscribe';
  type Label = 'operationType' | 'operationName' | 'phase' | 'code';
  const errors = createCounter<Phase, Label, FillLabelsFnParams & { errorPhase: Phase }>({
    registry,
    counter: {
      name: 'graphql_envelop_error_result',
      help: 'GraphQL errors by operation, phase and the extensions.code clients see',
      labelNames: ['operationType', 'operationName', 'phase', 'code'],
    },
    fillLabelsFn: (params) => {
      // A subscription that fails to start reports no phase (nor error).
      const phase = params.errorPhase ?? 'subscribe';
      const fallback = PHASE_CODES[phase] ?? 'UNKNOWN';
      return {
        operationType: params.operationType ?? 'unknown',
        operationName: operationName(params.operationName),
        phase,
        // A failed validation is reported once, without its errors.
        code: params.error ? clientErrorCode(params.error, fallback) : fallback,
      };
    },
  });
  return usePrometheus({
    registry,
    endpoint: '/metrics',
    metrics: {
      graphql_envelop_request: requests,
      graphql_envelop_request_duration: duration,
      graphql_envelop_error_result: errors,
      graphql_yoga_http_duration: http,
      graphql_envelop_request_time_summary: false,
      graphql_envelop_phase_parse: false,
      graphql_envelop_phase_validate: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_execute: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
    },
  });
}

/** The PostgreSQL pool's gauges, read at scrape time (absent on SQLite: no pool). */
function registerPoolGauges(registry: Registry, db: Database): void {
  if (!db.pool()) return;
  const gauge = (
    name: string,
    help: string,
    read: (p: NonNullable<ReturnType<Database['pool']>>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const pool = db.pool();
        if (pool) this.set(read(pool));
      },
    });
  gauge(
    'threadstore_db_pool_in_use',
    'PostgreSQL connections checked out of the pool',
    (p) => p.total - p.idle,
  );
  gauge(
    'threadstore_db_pool_idle',
    'PostgreSQL connections open and idle in the pool',
    (p) => p.idle,
  );
  gauge(
    'threadstore_db_pool_waiting',
    'Queries waiting for a free PostgreSQL connection',
    (p) => p.waiting,
  );
}

/** The PostgreSQL statement cache's counters (statement-cache.ts), read at scrape time; none on SQLite. */
function registerStatementCounters(registry: Registry, db: Database): void {
  const statements = db.pool()?.statements;
  if (!statements) return;
  registerCount(
    registry,
    'threadstore_db_statements_prepared_total',
    'Named prepared statements created on PostgreSQL connections (DB_STATEMENT_CACHE_SIZE per connection)',
    () => statements.prepared,
  );
  registerCount(
    registry,
    'threadstore_db_statements_evicted_total',
    'Named prepared statements deallocated to stay within DB_STATEMENT_CACHE_SIZE',
    () => statements.evicted,
  );
  registerCount(
    registry,
    'threadstore_db_statement_cache_resets_total',
    'Times every named statement was prepared again after a table changed shape under one',
    () => statements.resets,
  );
}

/** The build's version and commit, as a gauge that is always 1. */
function registerBuildInfo(registry: Registry, build: BuildInfo): void {
  new Gauge({
    name: 'threadstore_build_info',
    help: 'The running build: version and commit (always 1)',
    labelNames: ['version', 'commit'] as const,
    registers: [registry],
  }).set({ version: build.version, commit: build.commit }, 1);
}

/** A counter that reports `read()` (a count kept elsewhere, only ever growing) at scrape time. */
function registerCount(registry: Registry, name: string, help: string, read: () => number): void {
  let reported = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read();
      this.inc(now - reported);
      reported = now;
    },
  });
}

/** Subscription executions and the deliveries that reused one, read at scrape time. */
function registerSharingCounters(registry: Registry, sharing: SharedExecutionStats): void {
  registerCount(
    registry,
    'threadstore_subscription_executions_total',
    "Executions of a subscription's selection for an event (one per group of identical subscriptions and event)",
    () => sharing.executions,
  );
  registerCount(
    registry,
    'threadstore_subscription_shared_deliveries_total',
    'Subscription events delivered with the result of an execution shared with other followers',
    () => sharing.reused,
  );
}

/** Redis connected (0/1), read at scrape time. */
function registerRedisGauge(registry: Registry, redis: RedisEventTarget): void {
  new Gauge({
    name: 'threadstore_redis_connected',
    help: '1 while both Redis connections (publish, subscribe) are ready, else 0',
    registers: [registry],
    collect() {
      this.set(redis.connected() ? 1 : 0);
    },
  });
}

/** Builds the registry and everything that reports to it. */
export function createMetrics({ db, redis, build, sharing }: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerBuildInfo(registry, build);
  const appends = new Counter({
    name: 'threadstore_appends_total',
    help: 'Appends committed by this instance (each publishes one thread-items event)',
    registers: [registry],
  });
  const itemsAppended = new Counter({
    name: 'threadstore_items_appended_total',
    help: 'Items appended by this instance',
    registers: [registry],
  });
  const followers: Record<keyof Topics, number> = { 'thread-items': 0, 'thread-events': 0 };
  new Gauge({
    name: 'threadstore_live_followers',
    help: 'Live subscriptions on this instance, by topic (thread-items: threadItems, thread-events: threadEvents)',
    labelNames: ['topic'] as const,
    registers: [registry],
    collect() {
      for (const [topic, count] of Object.entries(followers)) this.set({ topic }, count);
    },
  });
  let observed: EventBus | null = null;
  new Gauge({
    name: 'threadstore_follower_queue_depth',
    help: 'Live events waiting unread in the follower queues of this instance',
    registers: [registry],
    collect() {
      this.set(observed?.queuedEvents() ?? 0);
    },
  });
  registerPoolGauges(registry, db);
  registerStatementCounters(registry, db);
  if (redis) registerRedisGauge(registry, redis);
  if (sharing) registerSharingCounters(registry, sharing);
  return {
    registry,
    plugin: graphqlPlugin(registry),
    observeBus: (bus) => {
      observed = bus;
      return observedBus(bus);
    },
  };

  function observedBus(bus: EventBus): EventBus {
    return {
      ...bus,
      publish(topic, key, payload) {
        bus.publish(topic, key, payload);
        const event = payload as Topics['thread-items'];
        if (topic === 'thread-items' && event.kind === 'appended') {
          appends.inc();
          itemsAppended.inc(event.items.length);
        }
      },
      listen(topic, key, handler) {
        const stop = bus.listen(topic, key, handler);
        followers[topic] += 1;
        let active = true;
        return () => {
          if (active) followers[topic] -= 1;
          active = false;
          stop();
        };
      },
    };
  }
}
