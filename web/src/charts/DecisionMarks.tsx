// The drop-and-mark inspector's marks on a time chart: a tick above the
// plot at each recorded drop and mark. A click on the strip they sit in
// selects the one nearest in time (drops often lie closer together than a
// pixel); focused, the arrow keys step through them. Drawn in the chart's
// top margin, outside the hover area, so that a click reaches it.

import type { KeyboardEvent, MouseEvent } from 'react';
import type { ScaleLinear } from 'd3';
import { COLORS } from './palette';

/** One decision a time chart can mark: its time, its verdict, its place in the inspector's list. */
export interface DecisionMark {
  t_s: number;
  verdict: 'drop' | 'mark' | 'pass';
  index: number;
}

export interface DecisionMarksProps {
  marks: readonly DecisionMark[];
  /** The inspector's selected decision (its index), if any. */
  selected: number | null;
  onSelect: (index: number) => void;
}

const MARK_Y = -9;
const STRIP_HEIGHT = 20;
/** Where the strip ends, in the plot's coordinates: a label above the plot must stay below it. */
export const DECISION_STRIP_BOTTOM = MARK_Y + STRIP_HEIGHT / 2;

/** The mark nearest in time to `t`. */
function nearest(shown: readonly DecisionMark[], t: number): DecisionMark | undefined {
  return shown.reduce<DecisionMark | undefined>((best, m) => (!best || Math.abs(m.t_s - t) < Math.abs(best.t_s - t) ? m : best), undefined);
}

export function DecisionMarks({ marks, selected, onSelect, x }: DecisionMarksProps & { x: ScaleLinear<number, number> }) {
  const [from, to] = x.domain();
  const shown = marks.filter((m) => m.verdict !== 'pass' && m.t_s >= from && m.t_s <= to);
  const [left, right] = x.range();
  const pick = (event: MouseEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = x.invert(left + ((event.clientX - box.left) / box.width) * (right - left));
    const found = nearest(shown, at);
    if (found) onSelect(found.index);
  };
  // From the keyboard: the arrow keys step through the marks in view, Home and End go to the ends.
  const step = (event: KeyboardEvent<SVGRectElement>) => {
    const at = shown.findIndex((m) => m.index === selected);
    const target = { ArrowLeft: at - 1, ArrowRight: at === -1 ? shown.length - 1 : at + 1, Home: 0, End: shown.length - 1 }[event.key];
    if (target === undefined || shown.length === 0) return;
    event.preventDefault();
    onSelect(shown[Math.max(0, Math.min(shown.length - 1, target))].index);
  };
  const chosen = shown.find((m) => m.index === selected);
  const counted = `${shown.length} ${shown.length === 1 ? 'drop or mark' : 'drops and marks'} in view`;
  const label = `${counted}${chosen ? `, the ${chosen.verdict} at ${chosen.t_s.toFixed(3)} s selected` : ''}: left and right arrows pick one, explained above the charts`;
  return (
    <g className="decision-marks" data-testid="decision-marks" data-count={shown.length}>
      <rect
        data-testid="decision-strip"
        x={left}
        y={MARK_Y - STRIP_HEIGHT / 2}
        width={right - left}
        height={STRIP_HEIGHT}
        fill="transparent"
        style={{ cursor: 'pointer' }}
        onClick={pick}
        onKeyDown={step}
        tabIndex={shown.length > 0 ? 0 : -1}
        role="button"
        aria-label={label}
      />
      {shown.map((m) => {
        const chosen = m.index === selected;
        const size = chosen ? 7 : 4.5;
        return (
          <path
            key={m.index}
            className="decision-mark"
            data-testid="decision-mark"
            data-index={m.index}
            data-verdict={m.verdict}
            data-t={m.t_s}
            data-selected={chosen || undefined}
            transform={`translate(${x(m.t_s)},${MARK_Y})`}
            d={`M${-size},${-size}L${size},${-size}L0,${size}Z`}
            fill={m.verdict === 'mark' ? COLORS.orange : COLORS.vermillion}
            stroke={chosen ? COLORS.black : 'white'}
            strokeWidth={chosen ? 1.5 : 0.75}
            pointerEvents="none"
          />
        );
      })}
    </g>
  );
}
