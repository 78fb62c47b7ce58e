// Theory beside each TCP flow's goodput bar: what the Mathis and Padhye
// formulas predict from the flow's own measured loss rate and RTT.

import type { ScaleBand, ScaleLinear } from 'd3';
import { Marker } from './markers';
import { COLORS } from './palette';

export const MATHIS_COLOR = COLORS.black;
export const PADHYE_COLOR = COLORS.purple;

export interface TcpModelFlow {
  flowId: number;
  /** Null for flows the models do not cover (non-TCP, or no loss yet). */
  mathisBps: number | null;
  padhyeBps: number | null;
}

interface TcpModelMarksProps {
  flows: readonly TcpModelFlow[];
  x: ScaleBand<number>;
  /** In Mb/s. */
  y: ScaleLinear<number, number>;
}

/** Hollow markers at each prediction; one above the plot is pinned to its top edge with a caret. */
export function TcpModelMarks({ flows, x, y }: TcpModelMarksProps) {
  const r = Math.min(6, Math.max(2.5, x.bandwidth() / 2.2));
  const top = y.domain()[1];
  const mark = (flowId: number, bps: number | null, shape: 'diamond' | 'circle', color: string) => {
    if (bps === null || !Number.isFinite(bps)) return null;
    const cx = (x(flowId) ?? 0) + x.bandwidth() / 2;
    const offScale = bps / 1e6 > top;
    const cy = offScale ? r : y(bps / 1e6);
    return (
      <g key={`${flowId}-${shape}`} className={`tcp-model ${shape === 'diamond' ? 'mathis' : 'padhye'}`} data-bps={bps}>
        {offScale && <path d={`M${cx - r},${-2}L${cx},${-2 - r}L${cx + r},${-2}`} fill="none" stroke={color} strokeWidth={1.5} />}
        <Marker shape={shape} x={cx} y={cy} r={r} color={color} />
      </g>
    );
  };
  return (
    <g className="tcp-models" data-testid="tcp-models">
      {flows.map((f) => [mark(f.flowId, f.mathisBps, 'diamond', MATHIS_COLOR), mark(f.flowId, f.padhyeBps, 'circle', PADHYE_COLOR)])}
    </g>
  );
}
