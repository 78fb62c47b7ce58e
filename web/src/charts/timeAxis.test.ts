import { describe, expect, it } from 'vitest';
import { stepSample, timeScale } from './timeAxis';

// Samples every 0.5 s from 0 to 10 s; the window shows 2..6 s on 400 px (100 px per second).
const timeS = Float64Array.from({ length: 21 }, (_, i) => i * 0.5);
const x = timeScale({ startS: 2, endS: 6 }, 400);
const timeAt = (plotX: number | null) => (plotX === null ? null : x.invert(plotX));

describe('stepSample', () => {
  it('starts at the newest visible sample going left and the oldest going right', () => {
    expect(timeAt(stepSample(timeS, x, null, 'previous'))).toBe(6);
    expect(timeAt(stepSample(timeS, x, null, 'next'))).toBe(2);
  });

  it('moves one sample per step from the sample nearest the cursor', () => {
    expect(timeAt(stepSample(timeS, x, x(3.1), 'next'))).toBe(3.5);
    expect(timeAt(stepSample(timeS, x, x(3.1), 'previous'))).toBe(2.5);
  });

  it('takes a twentieth of the visible samples per page, and stops at the window edges', () => {
    // 9 visible samples (2, 2.5, …, 6): a page is one sample, at least.
    expect(timeAt(stepSample(timeS, x, x(4), 'next-page'))).toBe(4.5);
    const dense = Float64Array.from({ length: 401 }, (_, i) => 2 + i * 0.01);
    expect(timeAt(stepSample(dense, x, x(4), 'next-page'))).toBeCloseTo(4.2, 9);
    expect(timeAt(stepSample(timeS, x, x(5.9), 'next-page'))).toBe(6);
    expect(timeAt(stepSample(timeS, x, x(2), 'previous'))).toBe(2);
    expect(timeAt(stepSample(timeS, x, x(4), 'first'))).toBe(2);
    expect(timeAt(stepSample(timeS, x, x(4), 'last'))).toBe(6);
  });

  it('has nowhere to go without visible samples', () => {
    expect(stepSample(new Float64Array(0), x, null, 'previous')).toBeNull();
    expect(stepSample(Float64Array.from([7, 8]), x, null, 'next')).toBeNull();
  });
});
