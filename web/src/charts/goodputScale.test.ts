import { describe, expect, it } from 'vitest';
import { goodputScaleTop } from './GoodputChart';

const line = (values: number[]) => ({ goodputBps: Float64Array.from(values) });

describe('the goodput scale', () => {
  it('covers every point when none stands far above the rest', () => {
    const steady = line(Array.from({ length: 200 }, (_, i) => 1e6 + (i % 10) * 1e4));
    expect(goodputScaleTop([steady], 1e3)).toEqual({ topBps: 1.09e6, peaksCut: false });
  });

  it('cuts off a few catch-up peaks, and says so', () => {
    const values = Array.from({ length: 400 }, () => 1e6);
    values[3] = 3.2e7;
    const { topBps, peaksCut } = goodputScaleTop([line(values)], 1e3);
    expect(peaksCut).toBe(true);
    expect(topBps).toBeCloseTo(1.2e6);
  });

  it('never drops below the floor (the fair share drawn on it)', () => {
    expect(goodputScaleTop([line(Array.from({ length: 100 }, () => 1e5))], 5e5)).toEqual({ topBps: 5e5, peaksCut: false });
  });
});
