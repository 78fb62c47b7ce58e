// The math of the delay-vs-goodput plot (RFC 7928 §2.7, the ns-3 AQM
// evaluation suite, Flent): a run cut into intervals, one (queueing delay,
// goodput) point per interval, and the 1-sigma covariance ellipse of those
// points, so schemes can be ranked by where their clouds sit.

export interface IntervalPoint {
  /** Start of the interval, in simulated seconds. */
  startS: number;
  /** Time-average over the interval of the per-sample mean queueing delay, in ms. */
  delayMs: number;
  /** Mean aggregate goodput over the interval, in bits per second. */
  goodputBps: number;
}

/** A sample at t covers the sample interval before t, so one ending exactly on an edge belongs to the interval before it. */
const EDGE_TOLERANCE_S = 1e-9;

/**
 * Cut the series into intervals of `intervalS` from `fromS` (the start of the
 * measurement window) and average each. Only complete intervals count: the
 * one still filling would jump about as samples arrive.
 *
 * `goodputColumns` are the per-flow goodput columns (bits/s per sample); their
 * sum is the aggregate goodput of a sample.
 */
export function intervalPoints(
  timeS: ArrayLike<number>,
  delayMs: ArrayLike<number>,
  goodputColumns: readonly ArrayLike<number>[],
  intervalS: number,
  fromS: number,
): IntervalPoint[] {
  if (!(intervalS > 0) || timeS.length === 0) return [];
  const lastS = timeS[timeS.length - 1];
  const complete = Math.floor((lastS - fromS + EDGE_TOLERANCE_S) / intervalS);
  if (complete <= 0) return [];
  const delaySum = new Float64Array(complete);
  const goodputSum = new Float64Array(complete);
  const count = new Float64Array(complete);
  for (let i = 0; i < timeS.length; i++) {
    const bin = Math.ceil((timeS[i] - fromS - EDGE_TOLERANCE_S) / intervalS) - 1;
    if (bin < 0 || bin >= complete) continue;
    let goodput = 0;
    for (const column of goodputColumns) goodput += column[i];
    delaySum[bin] += delayMs[i];
    goodputSum[bin] += goodput;
    count[bin] += 1;
  }
  const points: IntervalPoint[] = [];
  for (let b = 0; b < complete; b++) {
    if (count[b] === 0) continue;
    points.push({ startS: fromS + b * intervalS, delayMs: delaySum[b] / count[b], goodputBps: goodputSum[b] / count[b] });
  }
  return points;
}

export interface CovarianceEllipse {
  /** The mean point. */
  cx: number;
  cy: number;
  /** Semi-axes: one standard deviation along each principal direction (rx ≥ ry). */
  rx: number;
  ry: number;
  /** Direction of the rx axis, in radians from the x axis. */
  angle: number;
}

/**
 * The 1-sigma ellipse of a point cloud: centred on the mean, axes along the
 * eigenvectors of the sample covariance matrix, semi-axes the square roots of
 * its eigenvalues. Needs at least two points.
 */
export function covarianceEllipse(points: readonly { x: number; y: number }[]): CovarianceEllipse | null {
  const n = points.length;
  if (n < 2) return null;
  let cx = 0;
  let cy = 0;
  for (const p of points) {
    cx += p.x;
    cy += p.y;
  }
  cx /= n;
  cy /= n;
  let xx = 0;
  let xy = 0;
  let yy = 0;
  for (const p of points) {
    const dx = p.x - cx;
    const dy = p.y - cy;
    xx += dx * dx;
    xy += dx * dy;
    yy += dy * dy;
  }
  xx /= n - 1;
  xy /= n - 1;
  yy /= n - 1;
  // Eigenvalues of the symmetric 2×2 matrix [[xx, xy], [xy, yy]].
  const mid = (xx + yy) / 2;
  const spread = Math.hypot((xx - yy) / 2, xy);
  return {
    cx,
    cy,
    rx: Math.sqrt(mid + spread),
    ry: Math.sqrt(Math.max(0, mid - spread)),
    angle: 0.5 * Math.atan2(2 * xy, xx - yy),
  };
}

/** `count` points around the ellipse, in data coordinates (map them through the chart's scales: a linear map keeps it an ellipse). */
export function ellipseOutline(ellipse: CovarianceEllipse, count = 64): { x: number; y: number }[] {
  const cos = Math.cos(ellipse.angle);
  const sin = Math.sin(ellipse.angle);
  return Array.from({ length: count }, (_, k) => {
    const t = (2 * Math.PI * k) / count;
    const u = ellipse.rx * Math.cos(t);
    const v = ellipse.ry * Math.sin(t);
    return { x: ellipse.cx + u * cos - v * sin, y: ellipse.cy + u * sin + v * cos };
  });
}
