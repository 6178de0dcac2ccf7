/** Wall-clock milliseconds with sub-millisecond resolution, for per-node timings and the benchmark. */
export function hrNow(): number {
  return performance.timeOrigin + performance.now();
}
