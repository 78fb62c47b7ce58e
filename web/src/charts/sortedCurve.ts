// A sorted curve: values sorted from lowest to highest, each drawn at the
// middle of its share of the x axis (0–100 %), so groups of any size share
// one axis.

/** Each of `n` values' place on the x axis, in percent. */
export function flowPositions(n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => (100 * (i + 0.5)) / n);
}

/** The value of `sorted` at `percent` % of the axis: the one whose share of the axis holds it (the last at 100 %). */
export function atPercent(sorted: Float64Array, percent: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor((percent / 100) * sorted.length)))];
}
