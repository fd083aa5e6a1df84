/**
 * Pure logic of compaction: pairing tool results with their calls, and assembling a thread's
 * context (ARCHITECTURE.md, "What the data means").
 */

/** The fields of an item that pairing needs. */
export interface ToolItemRef {
  seq: number;
  type: string;
  callId: string | null;
}

/** A tool call and the result that answers it. */
export interface ToolPair {
  callSeq: number;
  resultSeq: number;
}

/**
 * Pairs each tool_result with the nearest earlier tool_call of the same callId that has no
 * result yet (models re-use callIds within one conversation). Results with no open call and
 * calls with no result are left unpaired.
 * @param items tool_call and tool_result items in seq order (others are ignored)
 */
export function pairToolCalls(items: readonly ToolItemRef[]): ToolPair[] {
  const open = new Map<string, number[]>(); // callId -> seqs of calls without a result, oldest first
  const pairs: ToolPair[] = [];
  for (const item of items) {
    if (item.callId == null) continue;
    if (item.type === 'tool_call') {
      const stack = open.get(item.callId) ?? [];
      stack.push(item.seq);
      open.set(item.callId, stack);
    } else if (item.type === 'tool_result') {
      const stack = open.get(item.callId);
      const callSeq = stack?.pop(); // the nearest earlier open call
      if (callSeq !== undefined) pairs.push({ callSeq, resultSeq: item.seq });
    }
  }
  return pairs;
}

/** The first pair that a range [startSeq..endSeq] would separate, or null. */
export function separatedPair(
  pairs: readonly ToolPair[],
  startSeq: number,
  endSeq: number,
): ToolPair | null {
  const inside = (seq: number) => seq >= startSeq && seq <= endSeq;
  return pairs.find((p) => inside(p.callSeq) !== inside(p.resultSeq)) ?? null;
}

/** The fields of an item that the response rule needs. */
export interface ResponseItemRef {
  seq: number;
  responseId: string | null;
}

/** A response that a range would cut apart: one of its items inside, one outside. */
export interface SplitResponse {
  responseId: string;
  insideSeq: number;
  outsideSeq: number;
}

/**
 * The first response (items sharing a responseId) that a range [startSeq..endSeq] would cut
 * apart, or null. Items without a responseId belong to no response.
 * @param items any items of the thread, in any order; those of responses met in the range
 *   must all be there
 */
export function splitResponse(
  items: readonly ResponseItemRef[],
  startSeq: number,
  endSeq: number,
): SplitResponse | null {
  const inside = new Map<string, number>();
  const outside = new Map<string, number>();
  for (const item of items) {
    if (item.responseId == null) continue;
    const side = item.seq >= startSeq && item.seq <= endSeq ? inside : outside;
    if (!side.has(item.responseId)) side.set(item.responseId, item.seq);
  }
  for (const [responseId, insideSeq] of inside) {
    const outsideSeq = outside.get(responseId);
    if (outsideSeq !== undefined) return { responseId, insideSeq, outsideSeq };
  }
  return null;
}

/** A range that stands in for items. */
export interface CoveringRange {
  startSeq: number;
  endSeq: number;
}

/**
 * Interleaves records and uncovered items in seq order: each record at the position of its
 * startSeq, each item not inside any record's range at its own seq. Compaction markers are left
 * out. Records must not overlap (they never do in the store).
 */
export function assembleContext<R extends CoveringRange, I extends { seq: number; type: string }>(
  records: readonly R[],
  items: readonly I[],
): (R | I)[] {
  const sorted = [...records].sort((a, b) => a.startSeq - b.startSeq);
  const out: (R | I)[] = [];
  let r = 0;
  for (const item of items) {
    while (r < sorted.length && sorted[r]!.startSeq <= item.seq) out.push(sorted[r++]!);
    const last = sorted[r - 1];
    if (item.type === 'compaction') continue;
    if (last && item.seq <= last.endSeq) continue;
    out.push(item);
  }
  while (r < sorted.length) out.push(sorted[r++]!);
  return out;
}
