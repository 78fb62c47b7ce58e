// Axes drawn by React from d3 scales: tick positions and labels come from the
// scale, so every chart formats its own units.

import type { ScaleContinuousNumeric } from 'd3';

interface AxisProps {
  /** Linear or logarithmic. */
  scale: ScaleContinuousNumeric<number, number>;
  /** Length of grid lines across the plot (0 = no grid). */
  gridLength?: number;
  label: string;
  format?: (value: number) => string;
  ticks?: number;
}

const TICK = 5;

export function AxisBottom({ scale, gridLength = 0, label, format, ticks = 6, offset }: AxisProps & { offset: number }) {
  const values = scale.ticks(ticks);
  const formatTick = format ?? scale.tickFormat(ticks);
  const [x0, x1] = scale.range();
  return (
    <g className="axis" transform={`translate(0,${offset})`}>
      <line x1={x0} x2={x1} className="axis-line" />
      {values.map((v) => (
        <g key={v} transform={`translate(${scale(v)},0)`}>
          {gridLength > 0 && <line y1={-gridLength} y2={0} className="grid-line" />}
          <line y2={TICK} className="axis-line" />
          <text y={TICK + 13} textAnchor="middle">
            {formatTick(v)}
          </text>
        </g>
      ))}
      <text className="axis-label" x={(x0 + x1) / 2} y={TICK + 32} textAnchor="middle">
        {label}
      </text>
    </g>
  );
}

export function AxisLeft({ scale, gridLength = 0, label, format, ticks = 5 }: AxisProps) {
  const values = scale.ticks(ticks);
  const formatTick = format ?? scale.tickFormat(ticks);
  const [y0, y1] = scale.range();
  return (
    <g className="axis">
      <line y1={y0} y2={y1} className="axis-line" />
      {values.map((v) => (
        <g key={v} transform={`translate(0,${scale(v)})`}>
          {gridLength > 0 && <line x2={gridLength} className="grid-line" />}
          <line x2={-TICK} className="axis-line" />
          <text x={-TICK - 3} dy="0.32em" textAnchor="end">
            {formatTick(v)}
          </text>
        </g>
      ))}
      <text className="axis-label" transform={`translate(-46,${(y0 + y1) / 2}) rotate(-90)`} textAnchor="middle">
        {label}
      </text>
    </g>
  );
}

export function AxisRight({ scale, label, format, ticks = 5, offset }: AxisProps & { offset: number }) {
  const values = scale.ticks(ticks);
  const formatTick = format ?? scale.tickFormat(ticks);
  const [y0, y1] = scale.range();
  return (
    <g className="axis" transform={`translate(${offset},0)`}>
      <line y1={y0} y2={y1} className="axis-line" />
      {values.map((v) => (
        <g key={v} transform={`translate(0,${scale(v)})`}>
          <line x2={TICK} className="axis-line" />
          <text x={TICK + 3} dy="0.32em" textAnchor="start">
            {formatTick(v)}
          </text>
        </g>
      ))}
      <text className="axis-label" transform={`translate(48,${(y0 + y1) / 2}) rotate(90)`} textAnchor="middle">
        {label}
      </text>
    </g>
  );
}
