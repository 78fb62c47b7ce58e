import { describe, expect, it } from 'vitest';
import { atPercent, flowPositions } from './sortedCurve';

describe('sorted curve', () => {
  it('places each value at the middle of its share of the axis', () => {
    expect(Array.from(flowPositions(4))).toEqual([12.5, 37.5, 62.5, 87.5]);
    expect(Array.from(flowPositions(1))).toEqual([50]);
  });

  it('reads the value whose share of the axis holds a percentage', () => {
    const sorted = Float64Array.from([10, 20, 30, 40]);
    expect(atPercent(sorted, 0)).toBe(10);
    expect(atPercent(sorted, 24)).toBe(10);
    expect(atPercent(sorted, 25)).toBe(20);
    expect(atPercent(sorted, 99)).toBe(40);
    expect(atPercent(sorted, 100)).toBe(40);
    expect(atPercent(new Float64Array(0), 50)).toBeNaN();
  });
});
