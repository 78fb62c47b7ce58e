import { describe, expect, it } from 'vitest';
import { LABEL_HEIGHT_PX, placeLabels, type PlacedLabel } from './levelLabels';

/** Whether two right-aligned labels' boxes (12 px text, one label height tall) cross; widths as the page's fallback measure gives them. */
function cross(a: PlacedLabel, b: PlacedLabel): boolean {
  const width = (label: PlacedLabel) => label.text.length * 12 * 0.6 * 1.08;
  return a.x - width(a) < b.x && b.x - width(b) < a.x && Math.abs(a.y - b.y) < LABEL_HEIGHT_PX;
}

describe('level labels', () => {
  it('a threshold label at the same height as the capacity label takes another row', () => {
    const capacity: PlacedLabel = { text: 'capacity 2.1 Mb/s', x: 396, y: 100 };
    const [target] = placeLabels([{ text: 'target = 5 ms', short: 'target = 5 ms', y: 100 }], 396, 197, [capacity]);
    expect(cross(target, capacity)).toBe(false);
    expect(Math.abs(target.y - 100)).toBeGreaterThanOrEqual(LABEL_HEIGHT_PX);
  });

  it('returns only the labels it placed, in the order of their heights, each on its own line when rows are free', () => {
    const placed = placeLabels(
      [
        { text: 'max_th = 15', short: 'max_th = 15', y: 40 },
        { text: 'min_th = 5', short: 'min_th = 5', y: 150 },
      ],
      396,
      197,
      [{ text: 'capacity 10 Mb/s', x: 396, y: 20 }],
    );
    expect(placed.map((label) => [label.text, label.y])).toEqual([
      ['max_th = 15', 40],
      ['min_th = 5', 150],
    ]);
  });
});
