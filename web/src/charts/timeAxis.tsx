// Pieces shared by the charts whose x axis is simulated time.

import { line, scaleLinear, type ScaleLinear } from 'd3';
import { nearestIndex } from './decimate';
import { COLORS } from './palette';

/** A live parameter change (not an ECN mark): a labelled line on every time axis. */
export interface ParamChange {
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

export function ParamChangeLines({ changes, xScale, height }: { changes: readonly ParamChange[]; xScale: ScaleLinear<number, number>; height: number }) {
  const [from, to] = xScale.domain();
  const visible = changes.filter((c) => c.timeS >= from && c.timeS <= to);
  return (
    <g className="param-changes" data-changes={visible.length}>
      {visible.map((change, i) => (
        <g key={`${change.timeS}-${i}`} transform={`translate(${xScale(change.timeS)},0)`}>
          <line y1={-6} y2={height} stroke={COLORS.vermillion} strokeDasharray="4 3" strokeWidth={1.5} />
          <text y={-9} textAnchor="middle" className="annotation-label" fill={COLORS.vermillion}>
            {change.label}
          </text>
        </g>
      ))}
    </g>
  );
}

/** How a keyboard moves the hover cursor along a chart's samples. */
export type CursorMove = 'previous' | 'next' | 'previous-page' | 'next-page' | 'first' | 'last';

/** Presses of Shift+arrow that cross the visible samples. */
const PAGES_PER_WINDOW = 20;

/**
 * The plot x of the sample `move` leads to from the one nearest `fromX`
 * (null: no cursor yet, so "previous" starts at the newest sample and "next"
 * at the oldest), among the samples inside the scale's domain; null when
 * none is.
 */
export function stepSample(timeS: Float64Array, xScale: ScaleLinear<number, number>, fromX: number | null, move: CursorMove): number | null {
  const [startS, endS] = xScale.domain();
  let first = 0;
  while (first < timeS.length && timeS[first] < startS) first += 1;
  let last = timeS.length - 1;
  while (last >= first && timeS[last] > endS) last -= 1;
  if (last < first) return null;
  const page = Math.max(1, Math.round((last - first + 1) / PAGES_PER_WINDOW));
  const current = fromX === null ? null : Math.min(last, Math.max(first, nearestIndex(timeS, xScale.invert(fromX))));
  const steps: Record<CursorMove, number> = {
    previous: current === null ? last : current - 1,
    next: current === null ? first : current + 1,
    'previous-page': current === null ? last : current - page,
    'next-page': current === null ? first : current + page,
    first,
    last,
  };
  return xScale(timeS[Math.min(last, Math.max(first, steps[move]))]);
}
