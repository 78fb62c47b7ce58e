// Time binning for noisy per-interval series (goodput, drop counts). Bins are
// aligned to multiples of the bin width, so they stay put as the window slides.

export interface BinnedSums {
  /** Centre time of each bin. */
  timeS: Float64Array;
  /** For each source, the sum over its member columns and the bin's rows. */
  sums: Float64Array[];
  /** Rows that fell into each bin. */
  rows: Float64Array;
}

/**
 * Sum each source (a list of columns added together) per bin of `binS`.
 * `timeS` must be increasing; every column has the same length as `timeS`.
 */
export function binSums(timeS: Float64Array, sources: readonly (readonly Float64Array[])[], binS: number): BinnedSums {
  const n = timeS.length;
  if (n === 0 || !(binS > 0)) return { timeS: new Float64Array(0), sums: sources.map(() => new Float64Array(0)), rows: new Float64Array(0) };
  const firstBin = Math.floor(timeS[0] / binS);
  const binCount = Math.floor(timeS[n - 1] / binS) - firstBin + 1;
  // Time increases, so each bin is a run of rows: find where each run starts.
  const start = new Int32Array(binCount + 1);
  const rows = new Float64Array(binCount);
  let bin = 0;
  for (let i = 0; i < n; i++) {
    const own = Math.min(binCount - 1, Math.max(0, Math.floor(timeS[i] / binS) - firstBin));
    while (bin < own) start[++bin] = i;
    rows[own] += 1;
  }
  while (bin < binCount) start[++bin] = n;
  // Column by column over contiguous runs: tight loops over typed arrays (this runs every frame).
  const sums = sources.map((members) => {
    const total = new Float64Array(binCount);
    for (const column of members) {
      for (let b = 0; b < binCount; b++) {
        let sum = 0;
        for (let i = start[b]; i < start[b + 1]; i++) sum += column[i];
        total[b] += sum;
      }
    }
    return total;
  });
  // Drop empty bins (a gap in sampling) so lines do not dive to zero there.
  const kept: number[] = [];
  for (let b = 0; b < binCount; b++) if (rows[b] > 0) kept.push(b);
  const pick = (values: Float64Array) => {
    const picked = new Float64Array(kept.length);
    for (let k = 0; k < kept.length; k++) picked[k] = values[kept[k]];
    return picked;
  };
  const centres = new Float64Array(kept.length);
  for (let k = 0; k < kept.length; k++) centres[k] = (firstBin + kept[k] + 0.5) * binS;
  return {
    timeS: centres,
    sums: sums.map(pick),
    rows: pick(rows),
  };
}

/** Element-wise `numerator / denominator`, 0 where the denominator is 0. */
export function ratio(numerator: Float64Array, denominator: Float64Array): Float64Array {
  return numerator.map((v, i) => (denominator[i] > 0 ? v / denominator[i] : 0));
}

/** A bin width giving about `bins` bins over `spanS`, never finer than the sample interval, rounded to 1/2/5·10^k. */
export function niceBinWidth(spanS: number, bins: number, sampleIntervalS: number): number {
  const raw = Math.max(sampleIntervalS, spanS / Math.max(1, bins));
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * magnitude >= raw - 1e-12) ?? 10;
  return step * magnitude;
}
