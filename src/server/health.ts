/**
 * /healthz and /readyz, as JSON objects (other parts of the app add fields to /readyz's body).
 * - /healthz (liveness): 200 while the database answers a query; it does not fail for a full
 *   disk or a read-only database, which a restart cannot fix. Also tells the version and commit.
 * - /readyz (readiness): 200 only while the database answers AND can write (not unreachable,
 *   read-only, on a full disk, or failing writes: src/db/availability.ts), and the server is
 *   not stopping, so a load balancer drains this instance first. Recovers by itself.
 * Bodies: `{"status":"ok"|"unavailable"|"stopping","database":"ok"|"unreachable"|"disk full"|...}`,
 *   with REDIS_URL also `"redis":"ok"|"degraded"` (followers poll the database while Redis is
 *   down: degraded, still ready).
 */
import type { ServerResponse } from 'node:http';
import type { Availability } from '../db/availability.js';
import type { Database } from '../db/client.js';
import type { BuildInfo } from './build-info.js';

export interface HealthOptions {
  db: Database;
  availability: Availability;
  build: BuildInfo;
  /** True once stop() began. */
  stopping(): boolean;
  /** With REDIS_URL: degraded while Redis is unreachable (reported by /readyz, never failing it). */
  redisStatus?: () => 'ok' | 'degraded';
}

/** The body of /readyz: a status and one field per dependency. */
export interface Readiness {
  status: 'ok' | 'unavailable' | 'stopping';
  database: string;
  [dependency: string]: unknown;
}

/** /readyz's answer now: 200 with status ok, or 503 with what is wrong. */
export async function readiness({
  availability,
  stopping,
  redisStatus,
}: Pick<HealthOptions, 'availability' | 'stopping' | 'redisStatus'>): Promise<Readiness> {
  const database = await availability.state();
  const redis = redisStatus ? { redis: redisStatus() } : {};
  if (stopping()) return { status: 'stopping', database, ...redis };
  return { status: database === 'ok' ? 'ok' : 'unavailable', database, ...redis };
}

/**
 * A handler for the two health paths: answers and returns true for them, returns false for
 * any other path (left to the next handler).
 */
export function healthHandler(options: HealthOptions) {
  const { db, build } = options;
  return async (path: string, res: ServerResponse): Promise<boolean> => {
    if (path !== '/healthz' && path !== '/readyz') return false;
    let ok: boolean;
    let body: Record<string, unknown>;
    if (path === '/readyz') {
      body = await readiness(options);
      ok = body.status === 'ok';
    } else {
      ok = await db.ping();
      body = { status: ok ? 'ok' : 'unavailable', version: build.version, commit: build.commit };
    }
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return true;
  };
}
