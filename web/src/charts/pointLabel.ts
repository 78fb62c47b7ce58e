// Where a marked point's label goes: beside the point, away from the nearer
// edge, but never past the plot's edge, whatever the screen's width.

import { textMeasure } from './axisTicks';

/** The annotation labels are 12 px bold: a little wider than regular text. */
const measureLabel = (text: string) => textMeasure(12)(text) * 1.08;

/** The label's x offset from a point at `pointX` and its anchor, for the longest of `texts`, inside a plot `plotWidth` wide. */
export function pointLabel(pointX: number, plotWidth: number, texts: readonly string[]): { x: number; anchor: 'start' | 'end' } {
  const width = Math.max(0, ...texts.map(measureLabel));
  return pointX > plotWidth / 2 ? { x: Math.max(-12, width - pointX), anchor: 'end' } : { x: Math.min(12, plotWidth - pointX - width), anchor: 'start' };
}
