// The drop-and-mark inspector's marks on a time chart: a tick above the
// plot at each recorded drop and mark, which a click selects. Drawn in the
// chart's top margin, outside the hover area, so that a click reaches it.

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

export function DecisionMarks({ marks, selected, onSelect, x }: DecisionMarksProps & { x: ScaleLinear<number, number> }) {
  const [from, to] = x.domain();
  const shown = marks.filter((m) => m.verdict !== 'pass' && m.t_s >= from && m.t_s <= to);
  return (
    <g className="decision-marks" data-testid="decision-marks" data-count={shown.length}>
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
            data-selected={chosen || undefined}
            transform={`translate(${x(m.t_s)},${MARK_Y})`}
            d={`M${-size},${-size}L${size},${-size}L0,${size}Z`}
            fill={m.verdict === 'mark' ? COLORS.orange : COLORS.vermillion}
            stroke={chosen ? COLORS.black : 'white'}
            strokeWidth={chosen ? 1.5 : 0.75}
            style={{ cursor: 'pointer' }}
            onClick={() => onSelect(m.index)}
          >
            <title>{`${m.verdict} at ${m.t_s.toFixed(4)} s`}</title>
          </path>
        );
      })}
    </g>
  );
}
