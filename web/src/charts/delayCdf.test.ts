import { describe, expect, it } from 'vitest';
import { decadeDomain, fractionAt, quantileOf, staircase } from './delayCdf';

const cdf = { ms: [0.5, 2, 40], fraction: [0.25, 0.9, 1] };

describe('delay CDF points', () => {
  it('reads quantiles as the first edge that reaches them', () => {
    expect(quantileOf(cdf, 0.1)).toBe(0.5);
    expect(quantileOf(cdf, 0.25)).toBe(0.5);
    expect(quantileOf(cdf, 0.5)).toBe(2);
    expect(quantileOf(cdf, 0.99)).toBe(40);
    expect(quantileOf({ ms: [], fraction: [] }, 0.5)).toBeNaN();
  });

  it('reads the fraction at or below a delay', () => {
    expect(fractionAt(cdf, 0.1)).toBe(0);
    expect(fractionAt(cdf, 0.5)).toBe(0.25);
    expect(fractionAt(cdf, 10)).toBe(0.9);
    expect(fractionAt(cdf, 1e6)).toBe(1);
  });

  it('spans whole decades around every curve', () => {
    expect(decadeDomain([cdf])).toEqual([0.1, 100]);
    expect(decadeDomain([{ ms: [0, 3], fraction: [0.5, 1] }])).toEqual([0.001, 10]);
    expect(decadeDomain([{ ms: [0, 400], fraction: [0.1, 1] }])).toEqual([0.1, 1000]);
    expect(decadeDomain([{ ms: [10, 10], fraction: [0.5, 1] }])).toEqual([1, 10]);
    expect(decadeDomain([])).toEqual([0.1, 100]);
  });

  it('draws a staircase that ends at one', () => {
    const { x, y } = staircase(cdf, 0.001);
    expect(Array.from(y)).toEqual([0, 0.25, 0.25, 0.9, 0.9, 1]);
    expect(x[5]).toBeCloseTo(Math.log10(40));
  });
});
