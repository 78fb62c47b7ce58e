// Which ticks an axis labels: as many as were asked for, fewer when their
// labels would touch in the space the axis has. Large values use SI
// prefixes (1M, 2.5M) so that a label stays a few characters long.

import { format as d3Format, type ScaleContinuousNumeric } from 'd3';

/** Width of `text` in pixels as the axis draws it. */
export type MeasureText = (text: string) => number;

export interface AxisTicks {
  values: number[];
  labels: string[];
  /** The widest label, in pixels. */
  maxWidth: number;
}

/** Free space between neighbouring labels, in pixels. */
const LABEL_GAP_PX = 6;
/** From this magnitude on, tick labels use SI prefixes. */
const SI_FROM = 1000;

/** Each value with its own SI prefix and no trailing zeros: 1M, 2.5M, 150k (ticks are round, four digits are plenty). */
const SI = d3Format('.4~s');

/** The scale's own tick format, with SI prefixes for the values from 1000 on. */
export function siTickFormat(scale: ScaleContinuousNumeric<number, number>, count: number): (value: number) => string {
  const plain = scale.tickFormat(count);
  return (value) => (Math.abs(value) >= SI_FROM ? SI(value) : plain(value));
}

/**
 * The most ticks, up to `count`, whose labels keep `LABEL_GAP_PX` apart:
 * side by side along a horizontal axis (`labelExtent` = width), or stacked
 * along a vertical one (`labelExtent` = the line height).
 */
export function fitTicks(
  scale: ScaleContinuousNumeric<number, number>,
  count: number,
  format: ((value: number) => string) | undefined,
  measure: MeasureText,
  orientation: 'horizontal' | 'vertical',
  lineHeightPx: number,
): AxisTicks {
  // Nothing fits: the fewest ticks there are.
  let fewest: AxisTicks = { values: [], labels: [], maxWidth: 0 };
  for (let n = count; n >= 1; n--) {
    const values = scale.ticks(n);
    const formatTick = format ?? siTickFormat(scale, n);
    const labels = values.map(formatTick);
    const widths = labels.map(measure);
    const ticks = { values, labels, maxWidth: Math.max(0, ...widths) };
    const extent = (i: number) => (orientation === 'horizontal' ? widths[i] : lineHeightPx);
    const fits = values.every((v, i) => i === 0 || Math.abs(scale(v) - scale(values[i - 1])) >= (extent(i) + extent(i - 1)) / 2 + LABEL_GAP_PX);
    if (fits) return ticks;
    fewest = ticks;
  }
  return fewest;
}

let context: CanvasRenderingContext2D | null | undefined;
/**
 * Widths already measured, per font: while a run streams in, every frame
 * measures the same tick labels and threshold names again, and setting a
 * canvas font and measuring costs far more than a lookup. The page's fonts
 * are the system's, so a width does not change once measured.
 */
const measuredWidths = new Map<string, Map<string, number>>();
const MAX_MEASURED_PER_FONT = 5000;

/** Measures with the page's font at `sizePx`; without a document (tests), about 0.6 em per character. */
export function textMeasure(sizePx: number): MeasureText {
  if (context === undefined) context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  const ctx = context;
  if (!ctx) return (text) => text.length * sizePx * 0.6;
  const font = `${sizePx}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  let widths = measuredWidths.get(font);
  if (!widths) {
    widths = new Map();
    measuredWidths.set(font, widths);
  }
  const known = widths;
  return (text) => {
    let width = known.get(text);
    if (width === undefined) {
      ctx.font = font;
      width = ctx.measureText(text).width;
      // Labels of a sliding time axis keep coming: forget them all now and then rather than grow without end.
      if (known.size >= MAX_MEASURED_PER_FONT) known.clear();
      known.set(text, width);
    }
    return width;
  };
}

export interface AxisTitle {
  text: string;
  sizePx: number;
  /** The whole title, when `text` had to be shortened. */
  full?: string;
}

/**
 * An axis title that fits `availablePx`: at `sizePx`, else at `smallPx`,
 * else shortened with an ellipsis (the whole title then goes in a tooltip).
 */
export function fitTitle(label: string, availablePx: number, sizePx: number, smallPx: number, measureAt: (sizePx: number) => MeasureText): AxisTitle {
  if (measureAt(sizePx)(label) <= availablePx) return { text: label, sizePx };
  const measure = measureAt(smallPx);
  if (measure(label) <= availablePx) return { text: label, sizePx: smallPx };
  let length = label.length;
  while (length > 1 && measure(`${label.slice(0, length).trimEnd()}…`) > availablePx) length--;
  return { text: `${label.slice(0, length).trimEnd()}…`, sizePx: smallPx, full: label };
}
