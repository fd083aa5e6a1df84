/**
 * Unit tests of the pure compaction logic: pairing tool results with their calls, finding the
 * pair a range separates, and assembling a thread's context.
 */
import { describe, expect, it } from 'vitest';
import {
  assembleContext,
  pairToolCalls,
  separatedPair,
  type ToolItemRef,
} from '../src/compaction/context.js';

const call = (seq: number, callId: string | null): ToolItemRef => ({
  seq,
  type: 'tool_call',
  callId,
});
const result = (seq: number, callId: string | null): ToolItemRef => ({
  seq,
  type: 'tool_result',
  callId,
});
const other = (seq: number, type = 'message'): ToolItemRef => ({ seq, type, callId: null });

/** Pairs as "call->result" strings, sorted by call seq, for readable assertions. */
function pairsOf(items: ToolItemRef[]): string[] {
  return pairToolCalls(items)
    .map((p) => `${p.callSeq}->${p.resultSeq}`)
    .sort();
}

describe('pairToolCalls', () => {
  it('pairs a call with its result and ignores other items', () => {
    expect(pairsOf([other(0), call(1, 'A'), other(2), result(3, 'A'), other(4)])).toEqual(['1->3']);
  });

  it('leaves a call with no result unpaired', () => {
    expect(pairToolCalls([other(0), call(1, 'A')])).toEqual([]);
    expect(pairsOf([call(0, 'A'), result(1, 'A'), call(2, 'B')])).toEqual(['0->1']);
  });

  it('leaves a result with no open call unpaired', () => {
    expect(pairToolCalls([result(0, 'A')])).toEqual([]);
    expect(pairsOf([call(0, 'A'), result(1, 'A'), result(2, 'A')])).toEqual(['0->1']);
    expect(pairToolCalls([call(0, 'A'), result(1, 'B')])).toEqual([]);
  });

  it('pairs a re-used callId call by call: [call A, result A, call A, result A]', () => {
    expect(pairsOf([call(0, 'A'), result(1, 'A'), call(2, 'A'), result(3, 'A')])).toEqual([
      '0->1',
      '2->3',
    ]);
  });

  it('pairs nested re-use with the nearest open call: [call A, call A, result A, result A]', () => {
    expect(pairsOf([call(0, 'A'), call(1, 'A'), result(2, 'A'), result(3, 'A')])).toEqual([
      '0->3',
      '1->2',
    ]);
  });

  it('pairs parallel calls by callId: [call A, call B, result B, result A]', () => {
    expect(pairsOf([call(0, 'A'), call(1, 'B'), result(2, 'B'), result(3, 'A')])).toEqual([
      '0->3',
      '1->2',
    ]);
    expect(pairsOf([call(0, 'A'), call(1, 'B'), result(2, 'A'), result(3, 'B')])).toEqual([
      '0->2',
      '1->3',
    ]);
  });

  it('skips items without a callId', () => {
    expect(pairToolCalls([call(0, null), result(1, null)])).toEqual([]);
  });

  it('works with holes in the seqs (purged items)', () => {
    expect(pairsOf([call(3, 'A'), result(9, 'A'), call(12, 'A'), result(20, 'A')])).toEqual([
      '12->20',
      '3->9',
    ]);
  });
});

describe('separatedPair', () => {
  const reuse = pairToolCalls([call(0, 'A'), result(1, 'A'), call(2, 'A'), result(3, 'A')]);
  const nested = pairToolCalls([call(0, 'A'), call(1, 'A'), result(2, 'A'), result(3, 'A')]);

  it('returns null when both sides are inside or both outside', () => {
    expect(separatedPair([{ callSeq: 2, resultSeq: 5 }], 2, 5)).toBeNull();
    expect(separatedPair([{ callSeq: 2, resultSeq: 5 }], 0, 1)).toBeNull();
    expect(separatedPair([{ callSeq: 2, resultSeq: 5 }], 6, 9)).toBeNull();
    expect(separatedPair([{ callSeq: 2, resultSeq: 5 }], 3, 4)).toBeNull();
    expect(separatedPair([], 0, 100)).toBeNull();
  });

  it('returns the pair whose call is inside and result outside', () => {
    const pair = { callSeq: 2, resultSeq: 5 };
    expect(separatedPair([pair], 0, 2)).toEqual(pair);
    expect(separatedPair([pair], 2, 4)).toEqual(pair);
  });

  it('returns the pair whose result is inside and call outside', () => {
    const pair = { callSeq: 2, resultSeq: 5 };
    expect(separatedPair([pair], 3, 5)).toEqual(pair);
    expect(separatedPair([pair], 5, 7)).toEqual(pair);
  });

  it('returns the first separated pair of several', () => {
    const pairs = [
      { callSeq: 0, resultSeq: 1 },
      { callSeq: 3, resultSeq: 6 },
      { callSeq: 4, resultSeq: 8 },
    ];
    expect(separatedPair(pairs, 0, 1)).toBeNull();
    expect(separatedPair(pairs, 2, 5)).toEqual({ callSeq: 3, resultSeq: 6 });
    expect(separatedPair(pairs, 5, 9)).toEqual({ callSeq: 3, resultSeq: 6 });
    expect(separatedPair(pairs, 7, 9)).toEqual({ callSeq: 4, resultSeq: 8 });
  });

  it('judges callId re-use by the pairing', () => {
    expect(separatedPair(reuse, 0, 1)).toBeNull();
    expect(separatedPair(reuse, 2, 3)).toBeNull();
    expect(separatedPair(reuse, 0, 3)).toBeNull();
    expect(separatedPair(reuse, 1, 2)).toEqual({ callSeq: 0, resultSeq: 1 });
    expect(separatedPair(nested, 1, 2)).toBeNull();
    expect(separatedPair(nested, 0, 3)).toBeNull();
    expect(separatedPair(nested, 0, 2)).toEqual({ callSeq: 0, resultSeq: 3 });
    expect(separatedPair(nested, 1, 1)).toEqual({ callSeq: 1, resultSeq: 2 });
  });
});

describe('assembleContext', () => {
  interface Rec {
    startSeq: number;
    endSeq: number;
    name: string;
  }
  interface It {
    seq: number;
    type: string;
  }
  const rec = (startSeq: number, endSeq: number): Rec => ({
    startSeq,
    endSeq,
    name: `r${startSeq}-${endSeq}`,
  });
  const item = (seq: number, type = 'message'): It => ({ seq, type });
  const items = (...seqs: number[]): It[] => seqs.map((s) => item(s));
  /** Entries as strings: "r<start>-<end>" for records, the seq for items. */
  const labels = (entries: (Rec | It)[]): string[] =>
    entries.map((e) => ('name' in e ? e.name : String(e.seq)));

  it('returns all items except markers when there are no records', () => {
    const out = assembleContext<Rec, It>(
      [],
      [item(0), item(1, 'compaction'), item(2, 'tool_call'), item(3)],
    );
    expect(labels(out)).toEqual(['0', '2', '3']);
  });

  it('returns nothing for no records and no items', () => {
    expect(assembleContext<Rec, It>([], [])).toEqual([]);
  });

  it('puts each record in place of its range and keeps uncovered items in seq order', () => {
    const out = assembleContext([rec(1, 2), rec(5, 7)], items(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    expect(labels(out)).toEqual(['0', 'r1-2', '3', '4', 'r5-7', '8', '9']);
  });

  it('sorts records by startSeq whatever order they come in', () => {
    const out = assembleContext([rec(5, 7), rec(1, 2)], items(0, 1, 2, 3, 4, 5, 6, 7, 8));
    expect(labels(out)).toEqual(['0', 'r1-2', '3', '4', 'r5-7', '8']);
  });

  it('handles adjacent records and a record starting at 0', () => {
    const out = assembleContext([rec(3, 4), rec(0, 2)], items(0, 1, 2, 3, 4, 5));
    expect(labels(out)).toEqual(['r0-2', 'r3-4', '5']);
  });

  it('drops markers everywhere, inside and outside ranges', () => {
    const out = assembleContext(
      [rec(0, 1), rec(3, 4)],
      [
        item(0),
        item(1),
        item(2, 'compaction'),
        item(3),
        item(4, 'compaction'),
        item(5),
        item(6, 'compaction'),
      ],
    );
    expect(labels(out)).toEqual(['r0-1', 'r3-4', '5']);
  });

  it('keeps a record whose items were all purged, in its seq position', () => {
    // Items 2..4 purged: the record still stands for them, before item 5.
    const out = assembleContext([rec(2, 4)], items(0, 1, 5, 6));
    expect(labels(out)).toEqual(['0', '1', 'r2-4', '5', '6']);
  });

  it('appends records that start after the last item', () => {
    const out = assembleContext([rec(4, 6), rec(8, 9)], items(0, 1));
    expect(labels(out)).toEqual(['0', '1', 'r4-6', 'r8-9']);
    expect(labels(assembleContext([rec(0, 3)], []))).toEqual(['r0-3']);
  });

  it('keeps items after the last record', () => {
    const out = assembleContext([rec(0, 0)], items(0, 1, 2, 3));
    expect(labels(out)).toEqual(['r0-0', '1', '2', '3']);
  });

  it('returns the very objects it was given', () => {
    const r = rec(1, 1);
    const i0 = item(0);
    const out = assembleContext([r], [i0, item(1)]);
    expect(out[0]).toBe(i0);
    expect(out[1]).toBe(r);
    expect(out).toHaveLength(2);
  });

  it('does not reorder the records array it was given', () => {
    const records = [rec(5, 6), rec(0, 1)];
    assembleContext(records, items(0, 1, 5, 6));
    expect(records.map((r) => r.name)).toEqual(['r5-6', 'r0-1']);
  });
});
