/**
 * The Node interface (contract: interface Node). Ids are the contract's own: a thread's id,
 * "<threadId>:<seq>" for items, "<threadId>:compaction:<markerSeq>" for compaction records.
 */
import { isSeq } from '../items/item-types.js';
import { THREAD_ID_PATTERN } from '../threads/thread.service.js';
import { builder } from './builder.js';

export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object with a stable, store-wide unique id.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id; see the type for its form.' }),
  }),
});

/** A node id taken apart; null when it has none of the three forms. */
export type ParsedNodeId =
  | { kind: 'thread'; threadId: string }
  | { kind: 'item'; threadId: string; seq: number }
  | { kind: 'compaction'; threadId: string; markerSeq: number };

/** Parses a node id (see the module comment). */
export function parseNodeId(id: string): ParsedNodeId | null {
  const parts = id.split(':');
  const [threadId, a, b] = parts;
  if (!threadId || !THREAD_ID_PATTERN.test(threadId)) return null;
  // A seq out of the column's range would make the lookup fail instead of find nothing.
  const seqOf = (s: string | undefined) =>
    s !== undefined && /^(0|[1-9]\d{0,9})$/.test(s) && isSeq(Number(s)) ? Number(s) : null;
  if (parts.length === 1) return { kind: 'thread', threadId };
  if (parts.length === 2) {
    const seq = seqOf(a);
    return seq === null ? null : { kind: 'item', threadId, seq };
  }
  if (parts.length === 3 && a === 'compaction') {
    const markerSeq = seqOf(b);
    return markerSeq === null ? null : { kind: 'compaction', threadId, markerSeq };
  }
  return null;
}
