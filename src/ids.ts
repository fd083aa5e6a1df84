/**
 * The id and seq rules in one place (contract: Thread.id, ConversationItem.id and seq,
 * CompactionRecord.id, Node). A thread id is 1-128 chars of [A-Za-z0-9._-]; an item is
 * "<threadId>:<seq>"; a compaction record is "<threadId>:compaction:<markerSeq>"; an API key
 * is "apikey:<keyId>"; a webhook "webhook:<webhookId>". Seqs are
 * 0-based 32-bit integers (GraphQL Int, PostgreSQL integer), handed out by the thread's
 * nextSeq counter (src/items/item.service.ts, reserveSeqs) and never reused. A deleted
 * thread's id is never used again either: its tombstone keeps threadIdHash(id).
 */
import { createHash } from 'node:crypto';
import { BadUserInputError, quote } from './errors.js';

/** Thread ids: 1-128 chars of [A-Za-z0-9._-] (contract: Thread.id). */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** Seqs are 32-bit (GraphQL Int, PostgreSQL integer): a larger number names no item. */
export const MAX_SEQ = 2 ** 31 - 1;

/** True for a value that can be a seq: an integer in 0..MAX_SEQ. */
export function isSeq(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_SEQ;
}

/** True when `id` has the form of a thread id. */
export function isThreadId(id: string): boolean {
  return THREAD_ID_PATTERN.test(id);
}

/**
 * @param field the input field named in the message
 * @throws BadUserInputError when `id` is not a valid thread id
 */
export function assertThreadId(id: string, field = 'id'): void {
  if (!isThreadId(id)) {
    throw new BadUserInputError(
      `${field}: ${quote(id, 140)} is not a valid thread id; use 1-128 characters of A-Z, a-z, 0-9, ".", "_" and "-".`,
      { field },
    );
  }
}

/**
 * What a deleted thread's tombstone keeps of its id: SHA-256 of the id (UTF-8), 64 hex digits.
 * Enough to refuse the id again (ids are never reused), without keeping the id itself.
 */
export function threadIdHash(threadId: string): string {
  return createHash('sha256').update(threadId, 'utf8').digest('hex');
}

/** The stable id of an item (contract: ConversationItem.id). */
export function itemId(threadId: string, seq: number): string {
  return `${threadId}:${seq}`;
}

/** The stable id of a compaction record: its marker seq never changes and is never reused. */
export function compactionId(threadId: string, markerSeq: number): string {
  return `${threadId}:compaction:${markerSeq}`;
}

/** API key ids (the part of a secret after tsk_): "k" and 18 hex digits. */
export const API_KEY_ID_PATTERN = /^k[0-9a-f]{18}$/;

/** The node id of an API key: "apikey:<keyId>" (never an item id: a key id is not a seq). */
export function apiKeyNodeId(keyId: string): string {
  return `apikey:${keyId}`;
}

/** An API key id from its node id or the bare key id; null for anything else. */
export function parseApiKeyId(id: string): string | null {
  const keyId = id.startsWith('apikey:') ? id.slice('apikey:'.length) : id;
  return API_KEY_ID_PATTERN.test(keyId) ? keyId : null;
}

/** Webhook ids: "w" and 18 hex digits. */
export const WEBHOOK_ID_PATTERN = /^w[0-9a-f]{18}$/;

/** The node id of a webhook: "webhook:<id>". */
export function webhookNodeId(id: string): string {
  return `webhook:${id}`;
}

/** A webhook id from its node id or the bare id; null for anything else. */
export function parseWebhookId(id: string): string | null {
  const bare = id.startsWith('webhook:') ? id.slice('webhook:'.length) : id;
  return WEBHOOK_ID_PATTERN.test(bare) ? bare : null;
}

/** A node id taken apart; null when it has none of the five forms. */
export type ParsedNodeId =
  | { kind: 'thread'; threadId: string }
  | { kind: 'item'; threadId: string; seq: number }
  | { kind: 'compaction'; threadId: string; markerSeq: number }
  | { kind: 'apiKey'; keyId: string }
  | { kind: 'webhook'; webhookId: string };

/** Parses a node id of any of the forms (see the module comment); null otherwise. */
export function parseNodeId(id: string): ParsedNodeId | null {
  const parts = id.split(':');
  const [threadId, a, b] = parts;
  if (!threadId || !isThreadId(threadId)) return null;
  // A seq out of the column's range would make the lookup fail instead of find nothing.
  const seqOf = (s: string | undefined) =>
    s !== undefined && /^(0|[1-9]\d{0,9})$/.test(s) && isSeq(Number(s)) ? Number(s) : null;
  if (parts.length === 1) return { kind: 'thread', threadId };
  if (parts.length === 2) {
    if (threadId === 'apikey' && a !== undefined && API_KEY_ID_PATTERN.test(a)) {
      return { kind: 'apiKey', keyId: a };
    }
    if (threadId === 'webhook' && a !== undefined && WEBHOOK_ID_PATTERN.test(a)) {
      return { kind: 'webhook', webhookId: a };
    }
    const seq = seqOf(a);
    return seq === null ? null : { kind: 'item', threadId, seq };
  }
  if (parts.length === 3 && a === 'compaction') {
    const markerSeq = seqOf(b);
    return markerSeq === null ? null : { kind: 'compaction', threadId, markerSeq };
  }
  return null;
}
