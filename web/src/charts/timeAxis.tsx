// Pieces shared by the charts whose x axis is simulated time.

import { line, scaleLinear, type ScaleLinear } from 'd3';
import { COLORS } from './palette';

/** A live parameter change, marked on every time axis. */
export interface ParamMark {
  timeS: number;
  label: string;
}

export interface TimeWindow {
  startS: number;
  endS: number;
}

export const TIME_MARGIN = { top: 22, right: 62, bottom: 44, left: 62 };

export function timeScale(window: TimeWindow, width: number): ScaleLinear<number, number> {
  return scaleLinear()
    .domain([window.startS, Math.max(window.endS, window.startS + 1e-3)])
    .range([0, width]);
}

export function formatSeconds(t: number): string {
  return `${t.toFixed(t < 10 ? 2 : 1)} s`;
}

/** An SVG path through (x[i], y[i]); NaN values leave gaps. */
export function linePath(x: Float64Array, y: Float64Array, xScale: ScaleLinear<number, number>, yScale: ScaleLinear<number, number>): string {
  const indices = Array.from({ length: Math.min(x.length, y.length) }, (_, i) => i);
  return (
    line<number>()
      .defined((i) => Number.isFinite(y[i]))
      .x((i) => xScale(x[i]))
      .y((i) => yScale(y[i]))(indices) ?? ''
  );
}

export function ParamMarks({ marks, xScale, height }: { marks: readonly ParamMark[]; xScale: ScaleLinear<number, number>; height: number }) {
  const [from, to] = xScale.domain();
  const visible = marks.filter((m) => m.timeS >= from && m.timeS <= to);
  return (
    <g className="param-marks" data-marks={visible.length}>
      {visible.map((mark, i) => (
        <g key={`${mark.timeS}-${i}`} transform={`translate(${xScale(mark.timeS)},0)`}>
          <line y1={-6} y2={height} stroke={COLORS.vermillion} strokeDasharray="4 3" strokeWidth={1.5} />
          <text y={-9} textAnchor="middle" className="mark-label" fill={COLORS.vermillion}>
            {mark.label}
          </text>
        </g>
      ))}
    </g>
  );
}
