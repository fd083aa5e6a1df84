/**
 * Helpers for the live scenarios: paced appends through HTTP (the orchestrator is the writer;
 * followers live in the load process), and raw broadcasts on the baseline server.
 */

import { sleep } from './proc.js';
import { appendBody, benchItem } from './queries.js';

/** POSTs a body; throws on HTTP or GraphQL errors; returns the parsed JSON. */
export async function postJson<T = unknown>(url: string, body: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"'))
    throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/**
 * `count` single-item appends to `threadId` at `app`, one every `paceMs` (each waits for the
 * previous to answer). Returns the seqs written (first, last).
 */
export async function pacedAppends(
  graphqlUrl: string,
  threadId: string,
  count: number,
  paceMs: number,
): Promise<{ first: number; last: number }> {
  const body = appendBody(threadId, 1);
  let first = -1;
  let last = -1;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const out = await postJson<{ data: { appendItems: { items: { seq: number }[] } } }>(
      graphqlUrl,
      body,
    );
    const seq = out.data.appendItems.items[0]!.seq;
    if (first < 0) first = seq;
    last = seq;
    const wait = paceMs - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  return { first, last };
}

/**
 * Appends to several (instance, thread) targets in turn, `count` each, so every target sees
 * the same machine at the same moments; each target gets one append every `paceMs`.
 */
export async function interleavedAppends(
  targets: { graphqlUrl: string; threadId: string }[],
  count: number,
  paceMs: number,
): Promise<{ first: number; last: number }[]> {
  const seqs = targets.map(() => ({ first: -1, last: -1 }));
  const step = paceMs / targets.length;
  for (let i = 0; i < count; i++) {
    for (const [k, t] of targets.entries()) {
      const t0 = performance.now();
      const out = await postJson<{ data: { appendItems: { items: { seq: number }[] } } }>(
        t.graphqlUrl,
        appendBody(t.threadId, 1),
      );
      const seq = out.data.appendItems.items[0]!.seq;
      if (seqs[k]!.first < 0) seqs[k]!.first = seq;
      seqs[k]!.last = seq;
      const wait = step - (performance.now() - t0);
      if (wait > 0) await sleep(wait);
    }
  }
  return seqs;
}

/** The same pacing on the raw ws baseline: one broadcast of one item per step. */
export async function pacedBroadcasts(
  baselineUrl: string,
  firstSeq: number,
  count: number,
  paceMs: number,
): Promise<{ first: number; last: number }> {
  const content = benchItem(0).message.content;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await postJson(
      `${baselineUrl}/broadcast`,
      JSON.stringify({ items: [{ seq: firstSeq + i, content }] }),
    );
    const wait = paceMs - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
  }
  return { first: firstSeq, last: firstSeq + count - 1 };
}

/** What the load process reports for one round of deliveries. */
export interface Delivery {
  followers: number;
  deliveries: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  unexpected: number;
  errors: string[];
  latency: { count: number; p50: number; p99: number; mean: number; max: number };
}

/**
 * Appends one probe item to each thread and waits until every follower of its group got it,
 * again until none is missing (at most `tries` times, 5 s each): a follower's `follow` answers
 * once its subscribe message is sent, not once the server listens, and items appended before
 * that are never delivered (the followers subscribe without afterSeq). Throws when followers
 * still miss a probe after the last try.
 */
export async function probeFollowers(
  load: { call<T>(command: Record<string, unknown>, timeoutMs?: number): Promise<T> },
  targets: { group: string; graphqlUrl: string; threadId: string }[],
  tries = 10,
): Promise<void> {
  let lost = 0;
  let errors: string[] = [];
  for (let i = 0; i < tries; i++) {
    const groups = [];
    for (const t of targets)
      groups.push({ group: t.group, ...(await pacedAppends(t.graphqlUrl, t.threadId, 1, 0)) });
    const got = await load.call<Delivery>({ cmd: 'collectMany', groups, timeoutMs: 5_000 });
    lost = got.lost;
    errors = got.errors;
    if (lost === 0) return;
  }
  throw new Error(
    `${lost} followers still miss the probe after ${tries} tries: ${errors.join('; ')}`,
  );
}
