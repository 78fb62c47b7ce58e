import { describe, expect, it } from 'vitest';
import { covarianceEllipse, ellipseOutline, intervalPoints } from './delayGoodput';

describe('intervalPoints', () => {
  // Samples every 0.5 s from t = 0.5; the measurement window starts at t = 1.
  const timeS = [0.5, 1, 1.5, 2, 2.5, 3, 3.5];
  const delayMs = [99, 99, 10, 20, 30, 50, 7];
  const flowA = [9e6, 9e6, 1e6, 3e6, 2e6, 2e6, 5e6];
  const flowB = [9e6, 9e6, 1e6, 1e6, 2e6, 4e6, 5e6];

  it('averages each complete interval of the window, a sample belonging to the interval it ends', () => {
    const points = intervalPoints(timeS, delayMs, [flowA, flowB], 1, 1);
    // (1, 2]: samples at 1.5 and 2; (2, 3]: 2.5 and 3; (3, 4] is not complete yet.
    expect(points).toEqual([
      { startS: 1, delayMs: 15, goodputBps: 3e6 },
      { startS: 2, delayMs: 40, goodputBps: 5e6 },
    ]);
  });

  it('has nothing to say before the first interval completes', () => {
    expect(intervalPoints(timeS.slice(0, 3), delayMs, [flowA], 1, 1)).toEqual([]);
    expect(intervalPoints([], [], [], 1, 0)).toEqual([]);
    expect(intervalPoints(timeS, delayMs, [flowA], 0, 0)).toEqual([]);
  });

  it('skips intervals without samples (a window scrolled past them)', () => {
    const points = intervalPoints([1.5, 3.5, 4], [10, 20, 30], [[1, 2, 3]], 1, 0);
    expect(points.map((p) => p.startS)).toEqual([1, 3]);
    expect(points[1]).toEqual({ startS: 3, delayMs: 25, goodputBps: 2.5 });
  });
});

describe('covarianceEllipse', () => {
  it('is a circle of radius √(4/3) for the corners of a square', () => {
    // Sample variance of {0, 2, 0, 2} is 4/3 on each axis, covariance 0.
    const e = covarianceEllipse([
      { x: 0, y: 0 },
      { x: 2, y: 0 },
      { x: 0, y: 2 },
      { x: 2, y: 2 },
    ])!;
    expect(e.cx).toBe(1);
    expect(e.cy).toBe(1);
    expect(e.rx).toBeCloseTo(Math.sqrt(4 / 3), 12);
    expect(e.ry).toBeCloseTo(Math.sqrt(4 / 3), 12);
  });

  it('lies along the axes for uncorrelated points', () => {
    // var x = 18/3 = 6, var y = 2/3.
    const e = covarianceEllipse([
      { x: -3, y: 0 },
      { x: 3, y: 0 },
      { x: 0, y: -1 },
      { x: 0, y: 1 },
    ])!;
    expect(e.rx).toBeCloseTo(Math.sqrt(6), 12);
    expect(e.ry).toBeCloseTo(Math.sqrt(2 / 3), 12);
    expect(e.angle).toBeCloseTo(0, 12);
  });

  it('collapses onto the line for perfectly correlated points', () => {
    // Covariance matrix [[1, 1], [1, 1]]: eigenvalues 2 and 0, major axis at 45°.
    const e = covarianceEllipse([
      { x: 0, y: 0 },
      { x: 1, y: 1 },
      { x: 2, y: 2 },
    ])!;
    expect(e.rx).toBeCloseTo(Math.SQRT2, 12);
    expect(e.ry).toBeCloseTo(0, 6);
    expect(e.angle).toBeCloseTo(Math.PI / 4, 12);
    // Negative correlation tilts it the other way.
    expect(
      covarianceEllipse([
        { x: 0, y: 2 },
        { x: 1, y: 1 },
        { x: 2, y: 0 },
      ])!.angle,
    ).toBeCloseTo(-Math.PI / 4, 12);
  });

  it('needs two points', () => {
    expect(covarianceEllipse([])).toBeNull();
    expect(covarianceEllipse([{ x: 1, y: 1 }])).toBeNull();
  });
});

describe('ellipseOutline', () => {
  it('traces the ellipse: every point satisfies its equation', () => {
    const e = { cx: 10, cy: -2, rx: 3, ry: 1, angle: Math.PI / 6 };
    const outline = ellipseOutline(e, 16);
    expect(outline).toHaveLength(16);
    for (const p of outline) {
      const dx = p.x - e.cx;
      const dy = p.y - e.cy;
      const u = dx * Math.cos(e.angle) + dy * Math.sin(e.angle);
      const v = -dx * Math.sin(e.angle) + dy * Math.cos(e.angle);
      expect((u / e.rx) ** 2 + (v / e.ry) ** 2).toBeCloseTo(1, 12);
    }
    // The first point is the end of the major axis.
    expect(outline[0].x).toBeCloseTo(10 + 3 * Math.cos(Math.PI / 6), 12);
  });
});
