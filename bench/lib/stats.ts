/**
 * Small statistics for the bench: percentiles of samples and summaries of rounds. Every
 * reported ratio is the median of per-round ratios, shown with the rounds' min and max.
 */

/** The p-th percentile (0..100) of `values` by linear interpolation; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (rank - lo);
}

/** Median of `values`; NaN when empty. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** A figure measured over several rounds: its median with the min and max of the rounds. */
export interface Range {
  median: number;
  min: number;
  max: number;
  /** Every round's value, in run order. */
  rounds: number[];
}

/** Median/min/max of per-round values. */
export function range(rounds: readonly number[]): Range {
  return {
    median: median(rounds),
    min: rounds.length ? Math.min(...rounds) : Number.NaN,
    max: rounds.length ? Math.max(...rounds) : Number.NaN,
    rounds: [...rounds],
  };
}

/** Per-round ratios `a[i] / b[i]` summarised. */
export function ratioRange(a: readonly number[], b: readonly number[]): Range {
  return range(a.map((value, i) => value / b[i]!));
}

/** Latency summary of one round, in ms. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

/** Summarises latency samples (ms). */
export function latencySummary(samples: readonly number[]): LatencySummary {
  const sum = samples.reduce((s, v) => s + v, 0);
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    mean: samples.length ? sum / samples.length : Number.NaN,
    // A loop, not Math.max(...samples): a spread of 100k+ arguments overflows the stack.
    max: samples.reduce(
      (m, v) => Math.max(m, v),
      samples.length ? Number.NEGATIVE_INFINITY : Number.NaN,
    ),
  };
}

/** A number with a sensible count of digits for tables. */
export function fmt(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const abs = Math.abs(value);
  const d = digits ?? (abs >= 100 ? 0 : abs >= 10 ? 1 : 2);
  return value.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

/** "0.62 (0.58–0.66)" for a ratio range. */
export function fmtRange(r: Range, digits = 2): string {
  return `${fmt(r.median, digits)} (${fmt(r.min, digits)}–${fmt(r.max, digits)})`;
}

/**
 * A deterministic random number generator (mulberry32): numbers in [0, 1) from a 32-bit seed,
 * so every run draws the same threads and positions.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
