// Labels of horizontal levels (a scheme's thresholds, a delay target) at a
// chart's right edge, placed so that none covers another.

import { textMeasure } from './axisTicks';

export const LABEL_HEIGHT_PX = 14;
/** One row of threshold labels: a label's height and the gap under it. */
const ROW_PX = LABEL_HEIGHT_PX + 3;

/** Rows a threshold label may take, in rows from its line: above it, below it, then further away, as far as the plot reaches. */
function rowOffsets(plotHeight: number): number[] {
  const offsets = [0];
  for (let k = 1; k * ROW_PX <= plotHeight; k++) offsets.push(k, -k);
  return offsets;
}

/** Threshold labels are 12 px bold: a little wider than the regular text measured. */
const measureLabel = (text: string) => textMeasure(12)(text) * 1.08;

export interface PlacedLabel {
  text: string;
  x: number;
  y: number;
}

/**
 * Right-align each label at `right` above its line, else below it, else a
 * row further up or down; where its full name fits nowhere, its symbol alone
 * (`short`) takes the first free row, or sits left of the labels in its way.
 * Never past the plot's left edge, above its top or below `bottom` (the time
 * axis's labels are under it).
 */
export function placeLabels(labels: { text: string; short: string; y: number }[], right: number, bottom: number, reserved: PlacedLabel[] = []): PlacedLabel[] {
  // Labels placed by their own rule (the capacity's) are in the way like any other, but not returned.
  const placed: (PlacedLabel & { width: number })[] = reserved.map((label) => ({ ...label, width: measureLabel(label.text) }));
  // Labels closer than a row (label height and its gap) collide: glyph boxes are taller than the nominal height.
  const inTheWay = (x: number, y: number, width: number) => placed.filter((p) => Math.abs(p.y - y) < ROW_PX && x - width < p.x && p.x - p.width < x);
  const freeRow = (label: { y: number }, width: number) =>
    width <= right
      ? rowOffsets(bottom)
          .map((k) => label.y + k * ROW_PX)
          .find((y) => y >= LABEL_HEIGHT_PX && y <= bottom && inTheWay(right, y, width).length === 0)
      : undefined;
  for (const label of [...labels].sort((a, b) => a.y - b.y)) {
    const text = [label.text, label.short].find((candidate) => freeRow(label, measureLabel(candidate)) !== undefined);
    if (text !== undefined) {
      const width = measureLabel(text);
      placed.push({ text, x: right, y: freeRow(label, width)!, width });
      continue;
    }
    const width = measureLabel(label.short);
    const x = inTheWay(right, label.y, width).reduce((edge, p) => Math.min(edge, p.x - p.width - 10), right);
    placed.push({ text: label.short, x: Math.max(width, x), y: Math.min(bottom, Math.max(LABEL_HEIGHT_PX, label.y)), width });
  }
  return placed.slice(reserved.length).map(({ text, x, y }) => ({ text, x, y }));
}
