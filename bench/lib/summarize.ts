/** Order statistics of one series of milliseconds. */
export interface Summary {
  /** Number of values. */
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * The nearest-rank percentile of ascending `sorted`: the smallest value with at least `p` % of the values at or
 * below it (no interpolation, so every figure is one that was actually measured).
 */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('nearestRank of an empty series');
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** p50/p95/p99 (nearest rank), max and mean of `values`. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((s, v) => s + v, 0);
  return {
    n: sorted.length,
    p50: nearestRank(sorted, 50),
    p95: nearestRank(sorted, 95),
    p99: nearestRank(sorted, 99),
    max: sorted[sorted.length - 1]!,
    mean: sum / sorted.length,
  };
}
