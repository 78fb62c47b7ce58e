// Reduce a series to at most about two points per pixel column while keeping
// its extremes, so a queue spike never disappears from a zoomed-out chart.

export interface XYSeries {
  x: Float64Array;
  y: Float64Array;
}

/**
 * Keep every point when there are few; otherwise split the points into
 * `buckets` runs and keep each run's minimum and maximum, in time order.
 */
export function decimateMinMax(x: Float64Array, y: Float64Array, buckets: number): XYSeries {
  const n = Math.min(x.length, y.length);
  const target = Math.max(1, Math.floor(buckets));
  if (n <= 2 * target) return { x: x.subarray(0, n), y: y.subarray(0, n) };
  const outX = new Float64Array(2 * target);
  const outY = new Float64Array(2 * target);
  let out = 0;
  for (let b = 0; b < target; b++) {
    const from = Math.floor((b * n) / target);
    const to = Math.floor(((b + 1) * n) / target);
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (y[i] < y[lo]) lo = i;
      if (y[i] > y[hi]) hi = i;
    }
    const [first, second] = lo <= hi ? [lo, hi] : [hi, lo];
    outX[out] = x[first];
    outY[out++] = y[first];
    if (second !== first) {
      outX[out] = x[second];
      outY[out++] = y[second];
    }
  }
  return { x: outX.subarray(0, out), y: outY.subarray(0, out) };
}

/** Index of the sample nearest to `target` in increasing `x`. */
export function nearestIndex(x: Float64Array, target: number): number {
  let lo = 0;
  let hi = x.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(x[lo - 1] - target) <= Math.abs(x[lo] - target)) return lo - 1;
  return lo;
}

/** The largest finite value, or `fallback` when there is none. */
export function maxOf(values: Float64Array, fallback = 0): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return Number.isFinite(max) ? max : fallback;
}
