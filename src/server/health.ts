/**
 * /healthz and /readyz: both answer 200 only while the database answers; /healthz also tells
 * the version and commit; /readyz also fails while the server is stopping, so a load balancer
 * drains this instance first, and with Redis says `"redis": "ok"` or `"degraded"`.
 */
import type { ServerResponse } from 'node:http';
import type { Database } from '../db/client.js';
import type { BuildInfo } from './build-info.js';

export interface HealthOptions {
  db: Database;
  build: BuildInfo;
  /** True once stop() began. */
  stopping(): boolean;
  /** With REDIS_URL: degraded while Redis is unreachable (reported by /readyz, never failing it). */
  redisStatus?: () => 'ok' | 'degraded';
}

/**
 * A handler for the two health paths: answers and returns true for them, returns false for
 * any other path (left to the next handler).
 */
export function healthHandler({ db, build, stopping, redisStatus }: HealthOptions) {
  return async (path: string, res: ServerResponse): Promise<boolean> => {
    if (path !== '/healthz' && path !== '/readyz') return false;
    const ready = path === '/readyz';
    const ok = !(ready && stopping()) && (await db.ping());
    const status = ok ? 'ok' : 'unavailable';
    // Followers poll the database while Redis is down: degraded, still ready.
    const redis = redisStatus ? { redis: redisStatus() } : {};
    const body = ready
      ? { status, ...redis }
      : { status, version: build.version, commit: build.commit };
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return true;
  };
}
