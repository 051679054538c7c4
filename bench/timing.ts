// What the in-process benchmarks share: the median of a list, and the median
// time of a piece of work run several times after one run to warm it up.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median of `runs` timings of `run`, in milliseconds, after one run that is not timed. */
export function medianTime(run: () => unknown, runs: number): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}
