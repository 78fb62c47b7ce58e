import { describe, expect, it } from 'vitest';
import { binSums, niceBinWidth, ratio } from './bins';
import { decimateMinMax, nearestIndex } from './decimate';

describe('binSums', () => {
  it('sums sources per aligned bin and skips empty bins', () => {
    const t = Float64Array.from([0.05, 0.15, 0.25, 0.95, 1.05]);
    const a = Float64Array.from([1, 2, 3, 4, 5]);
    const b = Float64Array.from([10, 10, 10, 10, 10]);
    const binned = binSums(t, [[a], [a, b]], 0.5);
    expect(Array.from(binned.timeS)).toEqual([0.25, 0.75, 1.25]);
    expect(Array.from(binned.rows)).toEqual([3, 1, 1]);
    expect(Array.from(binned.sums[0])).toEqual([6, 4, 5]);
    expect(Array.from(binned.sums[1])).toEqual([36, 14, 15]);
  });

  it('skips a gap of empty bins between runs of rows', () => {
    // Bins of 0.5 s: rows in [0, 0.5) and [2, 2.5), nothing in between.
    const t = Float64Array.from([0.1, 0.3, 2.1, 2.2, 2.4]);
    const a = Float64Array.from([1, 2, 3, 4, 5]);
    const binned = binSums(t, [[a]], 0.5);
    expect(Array.from(binned.timeS)).toEqual([0.25, 2.25]);
    expect(Array.from(binned.rows)).toEqual([2, 3]);
    expect(Array.from(binned.sums[0])).toEqual([3, 12]);
  });

  it('handles empty input', () => {
    expect(binSums(new Float64Array(0), [[new Float64Array(0)]], 1).timeS.length).toBe(0);
  });
});

describe('helpers', () => {
  it('ratio is zero where the denominator is zero', () => {
    expect(Array.from(ratio(Float64Array.from([1, 2]), Float64Array.from([4, 0])))).toEqual([0.25, 0]);
  });

  it('niceBinWidth rounds to 1-2-5 steps and respects the sample interval', () => {
    expect(niceBinWidth(30, 150, 0.01)).toBe(0.2);
    expect(niceBinWidth(1, 1000, 0.01)).toBe(0.01);
    expect(niceBinWidth(600, 100, 0.01)).toBe(10);
  });

  it('decimation keeps extremes and order', () => {
    const n = 10_000;
    const x = Float64Array.from({ length: n }, (_, i) => i);
    const y = Float64Array.from({ length: n }, (_, i) => (i === 4321 ? 99 : i === 777 ? -5 : 0));
    const reduced = decimateMinMax(x, y, 100);
    expect(reduced.x.length).toBeLessThanOrEqual(200);
    expect(Array.from(reduced.y)).toContain(99);
    expect(Array.from(reduced.y)).toContain(-5);
    for (let i = 1; i < reduced.x.length; i++) expect(reduced.x[i]).toBeGreaterThan(reduced.x[i - 1]);
  });

  it('nearestIndex finds the closest sample', () => {
    const x = Float64Array.from([0, 1, 2, 3]);
    expect(nearestIndex(x, 1.4)).toBe(1);
    expect(nearestIndex(x, 1.6)).toBe(2);
    expect(nearestIndex(x, -3)).toBe(0);
    expect(nearestIndex(x, 9)).toBe(3);
    expect(nearestIndex(new Float64Array(0), 1)).toBe(-1);
  });
});
