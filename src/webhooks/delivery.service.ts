/**
 * Delivery of the webhook outbox (contract part beyond: Webhook): the worker claims due rows
 * with a lease (webhook.store.ts, claimDeliveries: one at a time per webhook and thread, in
 * order; a few at a time per webhook, taken round-robin across webhooks) as slots free up,
 * POSTs each one independently of the others, and records the outcome under the lease: a 2xx answer deletes the row and clears the
 * webhook's failingSince; anything else (another status, a timeout, a refused address, a
 * network error) counts a failure, sets failingSince if unset, and schedules a retry with
 * exponential backoff and jitter until the retry window (24 hours by default) after the event
 * has passed; then the row is DEAD and later events of the thread go on.
 *
 * The request: POST, `content-type: application/json`, the body
 * {"id","type","tenantId","threadId","at","data"} (the same bytes on every attempt), and
 * `threadstore-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
 * secret>`. Redirects are not followed (a 3xx is a failure). The connection goes to the
 * address checked by address-check.ts, never to a second DNS answer.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Database } from '../db/client.js';
import { resolveDeliveryAddress } from './address-check.js';
import {
  claimDeliveries,
  type DeliveryRecord,
  markDelivered,
  markFailed,
  releaseDelivery,
  selectWebhooksByKey,
  type WebhookRecord,
} from './webhook.store.js';

/** How deliveries are made and retried (env.ts: WEBHOOK_*). Times in ms. */
export interface DeliverySettings {
  allowPrivate: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  retryForMs: number;
  /** Deliveries in flight at once in one instance (its slots). */
  concurrency: number;
  /** Rows of one webhook in flight at once, over all instances (claimDeliveries). */
  perWebhook: number;
}

/** How long a claim outlasts the delivery timeout: time to record the outcome. */
const LEASE_MARGIN_MS = 5_000;

/** The body of a delivery: the same text on every attempt. */
export function deliveryBody(d: DeliveryRecord): string {
  // dataJson is inserted as is: it is JSON text written by the outbox writers.
  return `{"id":${JSON.stringify(d.eventId)},"type":${JSON.stringify(d.type)},"tenantId":${JSON.stringify(d.tenantId)},"threadId":${JSON.stringify(d.threadId)},"at":${JSON.stringify(d.createdAt.toISOString())},"data":${d.dataJson}}`;
}

/**
 * The threadstore-signature header value for `body` at `timestamp` (unix seconds):
 * `t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret>`.
 */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/**
 * The wait before the next attempt after `failures` failed ones: retryBaseMs doubled per
 * failure, at most retryMaxMs, then "equal jitter" (half of it fixed, half random), so
 * receivers coming back are not hit by every instance at once.
 */
export function backoffMs(
  failures: number,
  s: Pick<DeliverySettings, 'retryBaseMs' | 'retryMaxMs'>,
) {
  const exp = Math.min(s.retryMaxMs, s.retryBaseMs * 2 ** Math.min(Math.max(failures - 1, 0), 40));
  return Math.round(exp / 2 + (Math.random() * exp) / 2);
}

/** The outcome of one POST: delivered, or why not. */
type Outcome = { ok: true } | { ok: false; error: string };

/**
 * POSTs `body` to `webhook.url` through the checked address. The whole attempt, the DNS
 * look-up included, ends within timeoutMs, so it never outlives the claim's lease (timeoutMs
 * plus LEASE_MARGIN_MS) and a late attempt cannot reach the receiver after another worker
 * claimed the row again. Never throws: failures are outcomes.
 */
async function post(
  webhook: WebhookRecord,
  body: string,
  s: DeliverySettings,
  stop: AbortSignal,
): Promise<Outcome> {
  // One signal for the attempt: the deadline or the server stopping. (Not AbortSignal.any,
  // which keeps a reference per call on the long-lived stop signal in Node 20.)
  const cut = new AbortController();
  const timer = setTimeout(
    () => cut.abort(new Error(`no answer within ${s.timeoutMs} ms`)),
    s.timeoutMs,
  );
  const onStop = () => cut.abort(new Error('the server is stopping'));
  if (stop.aborted) onStop();
  else stop.addEventListener('abort', onStop, { once: true });
  try {
    return await attempt(webhook, body, s.allowPrivate, cut.signal);
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', onStop);
  }
}

/** Why the attempt failed: `signal`'s reason when it aborted (the deadline), else `error`. */
function reasonOf(signal: AbortSignal, error: unknown): string {
  const cause = signal.aborted ? signal.reason : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** One POST, the DNS look-up included, cut when `signal` aborts. Never throws. */
async function attempt(
  webhook: WebhookRecord,
  body: string,
  allowPrivate: boolean,
  signal: AbortSignal,
): Promise<Outcome> {
  let url: URL;
  let address: Awaited<ReturnType<typeof resolveDeliveryAddress>>;
  try {
    signal.throwIfAborted();
    url = new URL(webhook.url);
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    aborted.catch(() => {});
    address = await Promise.race([resolveDeliveryAddress(url.hostname, allowPrivate), aborted]);
  } catch (error) {
    return { ok: false, error: reasonOf(signal, error) };
  }
  // Connect to the address checked above whatever the name resolves to by now.
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const options: RequestOptions = {
    method: 'POST',
    lookup,
    signal,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'user-agent': 'threadstore-webhooks/1',
      'threadstore-signature': signatureHeader(webhook.secret, Math.floor(Date.now() / 1000), body),
    },
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = send(url, options, (res) => {
      res.resume(); // the answer's body is not read
      const status = res.statusCode ?? 0;
      res.on('end', () =>
        done(status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` }),
      );
      res.on('error', (error) => done({ ok: false, error: reasonOf(signal, error) }));
      res.on('close', () => done({ ok: false, error: reasonOf(signal, 'connection closed') }));
    });
    req.on('error', (error) => done({ ok: false, error: reasonOf(signal, error) }));
    req.end(body);
  });
}

/**
 * Claims up to `limit` due rows (at most perWebhook in flight per webhook; lease: timeoutMs
 * plus 5 s, the longest a delivery and its bookkeeping take, so a row whose worker died is
 * claimed again after that) and starts delivering them, each on its own: a slow receiver holds
 * only its own rows. Each outcome is recorded under the claim's lease (a lost lease writes
 * nothing). On `signal` (the server stops) the requests in flight are cut and their rows
 * given back unattempted.
 * @returns one promise per claimed row (none: nothing due), settled once its outcome is
 *   recorded; they never reject (errors go to `log`)
 */
export async function startDeliveries(
  db: Database,
  s: DeliverySettings,
  limit: number,
  signal: AbortSignal,
  log: (error: unknown, message: string) => void,
): Promise<Promise<void>[]> {
  const now = new Date();
  const claimed = await claimDeliveries(
    db,
    now,
    s.timeoutMs + LEASE_MARGIN_MS,
    limit,
    s.perWebhook,
  );
  if (claimed.length === 0) return [];
  let byKey: Map<string, WebhookRecord>;
  try {
    const webhooks = await selectWebhooksByKey(
      db.prisma,
      claimed.map((d) => ({ tenantId: d.tenantId, id: d.webhookId })),
    );
    byKey = new Map(webhooks.map((w) => [`${w.tenantId}\n${w.id}`, w]));
  } catch (error) {
    await Promise.all(claimed.map((d) => releaseDelivery(db, d).catch(() => {})));
    throw error;
  }
  return claimed.map((d) => deliverOne(db, s, d, byKey, signal, log));
}

/** Delivers one claimed row and records the outcome (startDeliveries). Never rejects. */
async function deliverOne(
  db: Database,
  s: DeliverySettings,
  d: DeliveryRecord,
  byKey: Map<string, WebhookRecord>,
  signal: AbortSignal,
  log: (error: unknown, message: string) => void,
): Promise<void> {
  try {
    const webhook = byKey.get(`${d.tenantId}\n${d.webhookId}`);
    if (!webhook) return; // deleted meanwhile: its rows went with it
    // The attempt must end before the lease does (it is cut at timeoutMs).
    if (signal.aborted || Date.now() + s.timeoutMs > d.leaseUntil.getTime()) {
      await releaseDelivery(db, d);
      return;
    }
    const outcome = await post(webhook, deliveryBody(d), s, signal);
    if (signal.aborted) {
      await releaseDelivery(db, d);
      return;
    }
    const at = new Date();
    if (outcome.ok) {
      if (!(await markDelivered(db, d)))
        log(null, `webhook ${d.webhookId}: lease of event ${d.eventId} lost before recording`);
      return;
    }
    const next = new Date(at.getTime() + backoffMs(d.attempts + 1, s));
    const giveUp = next.getTime() > d.createdAt.getTime() + s.retryForMs;
    if (!(await markFailed(db, d, at, giveUp ? null : next, outcome.error))) {
      log(null, `webhook ${d.webhookId}: lease of event ${d.eventId} lost before recording`);
      return;
    }
    if (giveUp) log(null, `webhook ${d.webhookId}: gave up event ${d.eventId} (${outcome.error})`);
  } catch (error) {
    log(error, `webhook ${d.webhookId}: recording delivery of event ${d.eventId} failed`);
  }
}
