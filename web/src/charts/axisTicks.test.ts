import { scaleLinear } from 'd3';
import { describe, expect, it } from 'vitest';
import { fitTicks, fitTitle, siTickFormat, textMeasure } from './axisTicks';

/** About what 12.5 px digits take. */
const measure = textMeasure(12.5);

function overlaps(values: number[], labels: string[], scale: (v: number) => number): boolean {
  return values.some((v, i) => i > 0 && Math.abs(scale(v) - scale(values[i - 1])) < (measure(labels[i]) + measure(labels[i - 1])) / 2);
}

describe('axis ticks', () => {
  it('label bit rates with SI prefixes', () => {
    const scale = scaleLinear().domain([0, 8e6]);
    expect(scale.ticks(8).map(siTickFormat(scale, 8))).toEqual(['0', '1M', '2M', '3M', '4M', '5M', '6M', '7M', '8M']);
    const half = scaleLinear().domain([0, 5e6]);
    expect(half.ticks(10).map(siTickFormat(half, 10))).toContain('2.5M');
    expect(
      scaleLinear()
        .domain([0, 150000])
        .ticks(4)
        .map(siTickFormat(scaleLinear().domain([0, 150000]), 4)),
    ).toEqual(['0', '50k', '100k', '150k']);
  });

  it('keep small values and fractions as they are', () => {
    const probability = scaleLinear().domain([0, 1]);
    expect(probability.ticks(5).map(siTickFormat(probability, 5))).toEqual(['0.0', '0.2', '0.4', '0.6', '0.8', '1.0']);
  });

  it('label fewer ticks when the axis is short, never overlapping', () => {
    const wide = scaleLinear().domain([0, 8e6]).range([0, 600]);
    const narrow = scaleLinear().domain([0, 8e6]).range([0, 90]);
    const onWide = fitTicks(wide, 8, undefined, measure, 'horizontal', 16);
    const onNarrow = fitTicks(narrow, 8, undefined, measure, 'horizontal', 16);
    expect(onWide.values).toHaveLength(9);
    expect(onNarrow.values.length).toBeLessThan(onWide.values.length);
    expect(onNarrow.values.length).toBeGreaterThanOrEqual(2);
    expect(overlaps(onNarrow.values, onNarrow.labels, narrow)).toBe(false);
    // Without SI prefixes the same narrow axis would have to drop to even fewer.
    const long = fitTicks(narrow, 8, (v) => v.toLocaleString('en'), measure, 'horizontal', 16);
    expect(long.values.length).toBeLessThanOrEqual(onNarrow.values.length);
    expect(long.maxWidth).toBeGreaterThan(onNarrow.maxWidth);
  });

  it('stack vertical labels at least a line apart', () => {
    const short = scaleLinear().domain([0, 100]).range([60, 0]);
    const ticks = fitTicks(short, 10, undefined, measure, 'vertical', 16);
    ticks.values.forEach((v, i) => i > 0 && expect(Math.abs(short(v) - short(ticks.values[i - 1]))).toBeGreaterThanOrEqual(16));
    expect(fitTicks(scaleLinear().domain([0, 100]).range([400, 0]), 10, undefined, measure, 'vertical', 16).values).toHaveLength(11);
  });

  it('shrink a title that is too long for its axis, then shorten it and keep the whole in a tooltip', () => {
    const label = 'average queue (flows at or above max(min_q, avgcq)) (packets)';
    expect(fitTitle(label, 1000, 13, 11, textMeasure)).toEqual({ text: label, sizePx: 13 });
    const widthAt11 = textMeasure(11)(label);
    expect(fitTitle(label, widthAt11 + 1, 13, 11, textMeasure)).toEqual({ text: label, sizePx: 11 });
    const short = fitTitle(label, 200, 13, 11, textMeasure);
    expect(short.full).toBe(label);
    expect(short.text.endsWith('…')).toBe(true);
    expect(textMeasure(11)(short.text)).toBeLessThanOrEqual(200);
    expect(label.startsWith(short.text.slice(0, -1))).toBe(true);
  });
});
