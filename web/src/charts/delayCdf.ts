// Reading the engine's delay CDFs (one point per occupied histogram bucket:
// its upper edge in ms and the fraction of samples at or below it).

export interface CdfPoints {
  ms: readonly number[];
  fraction: readonly number[];
}

/** The smallest bucket edge at or below which a fraction `q` of the samples lie; NaN without samples. */
export function quantileOf(cdf: CdfPoints, q: number): number {
  for (let i = 0; i < cdf.ms.length; i++) if (cdf.fraction[i] >= q - 1e-12) return cdf.ms[i];
  return Number.NaN;
}

/** The fraction of samples at or below `ms` (0 below the first bucket). */
export function fractionAt(cdf: CdfPoints, ms: number): number {
  let lo = 0;
  let hi = cdf.ms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf.ms[mid] <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : cdf.fraction[lo - 1];
}

/** Decades a log axis spans at most: packets sent at once (0 ns) would otherwise stretch it to nothing. */
const MAX_DECADES = 4;

/** Powers of ten around every value in `cdfs`, for a log axis: [10^⌊log lo⌋, 10^⌈log hi⌉], at most four decades (smaller values sit at its left edge). */
export function decadeDomain(cdfs: readonly CdfPoints[]): [number, number] {
  let lo = Infinity;
  let hi = 0;
  for (const c of cdfs) {
    if (c.ms.length === 0) continue;
    lo = Math.min(lo, c.ms[0]);
    hi = Math.max(hi, c.ms[c.ms.length - 1]);
  }
  if (!(hi > 0)) return [0.1, 100];
  const to = 10 ** Math.ceil(Math.log10(hi));
  // Sojourns of 0 ns (a packet straight onto an idle link) sit in the first bucket, edge 0.
  const from = Math.max(10 ** Math.floor(Math.log10(Math.max(lo, 1e-6))), to / 10 ** MAX_DECADES);
  return [from === to ? to / 10 : from, to];
}

/** The CDF as a staircase in (log10 ms, fraction): flat to each bucket's edge, then up. */
export function staircase(cdf: CdfPoints, floorMs: number): { x: Float64Array; y: Float64Array } {
  const n = cdf.ms.length;
  const x = new Float64Array(2 * n);
  const y = new Float64Array(2 * n);
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const at = Math.log10(Math.max(cdf.ms[i], floorMs));
    x[2 * i] = at;
    y[2 * i] = previous;
    x[2 * i + 1] = at;
    y[2 * i + 1] = cdf.fraction[i];
    previous = cdf.fraction[i];
  }
  return { x, y };
}
