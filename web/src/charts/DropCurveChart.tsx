// The scheme's drop (or mark) probability as a function of its control
// variable, with a marker at the current operating point.

import { memo } from 'react';
import { format, scaleLinear } from 'd3';
import type { DropCurve } from '../scenario/types';
import { AxisBottom, AxisLeft } from './Axis';
import { textMeasure } from './axisTicks';
import { ChartFrame } from './ChartFrame';
import { COLORS } from './palette';

interface DropCurveChartProps {
  curve: DropCurve | undefined;
  schemeName: string;
  height: number;
  /** The inspector's selected decision on the curve: its control variable and probability. */
  decision?: { x: number; p: number; verdict: string };
}

const MARGIN = { top: 22, right: 24, bottom: 44, left: 62 };
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
/** Large control variables (CSFQ's packet label in b/s) read 4.83M, like the axis. */
const LARGE = format('.3~s');
const formatOperatingX = (value: number) => (Math.abs(value) >= 1000 ? LARGE(value) : VALUE.format(value));
/** The label is 12 px bold: a little wider than regular text. */
const measureLabel = (text: string) => textMeasure(12)(text) * 1.08;

// Memoised: its data changes with each snapshot (a few times per second), not every frame.
export const DropCurveChart = memo(function DropCurveChart({ curve, schemeName, height, decision }: DropCurveChartProps) {
  const points = curve?.points ?? [];
  const xTop = Math.max(1e-9, ...points.map((p) => p[0]), curve ? curve.operating_point[0] : 0);
  const xLabel = curve ? `${curve.x_label}${curve.x_unit ? ` (${curve.x_unit})` : ''}` : '';
  const [opX, opP] = curve?.operating_point ?? [0, 0];

  return (
    <ChartFrame
      title="Drop-probability curve"
      testId="chart-curve"
      height={height}
      margin={MARGIN}
      legend={
        curve
          ? [
              { label: 'drop probability', color: COLORS.blue },
              { label: 'operating point', color: COLORS.vermillion },
            ]
          : []
      }
      description={curve ? `drop probability against ${xLabel}, with the current operating point` : `${schemeName} has no drop-probability curve`}
      emptyMessage={curve ? undefined : `${schemeName} has no drop-probability curve to draw: see the drop rate instead.`}
      hover={(plotX, plot) => {
        if (points.length === 0) return null;
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        const target = x.invert(plotX);
        const nearest = points.reduce((best, p) => (Math.abs(p[0] - target) < Math.abs(best[0] - target) ? p : best), points[0]);
        return {
          x: x(nearest[0]),
          title: `${curve?.x_label ?? ''} = ${VALUE.format(nearest[0])}`,
          rows: [
            { label: 'probability', value: VALUE.format(nearest[1]), color: COLORS.blue },
            { label: 'now', value: `${VALUE.format(opX)} → ${VALUE.format(opP)}`, color: COLORS.vermillion },
          ],
        };
      }}
    >
      {(plot) => {
        if (!curve) return null;
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        const y = scaleLinear().domain([0, 1]).range([plot.height, 0]);
        const markerX = x(Math.min(opX, x.domain()[1]));
        // The axis names the variable: the label gives its value, in the axis's unit.
        const label = `${formatOperatingX(opX)}${curve.x_unit ? ` ${curve.x_unit}` : ''}, p = ${VALUE.format(opP)}`;
        // Inside the plot: to the left of the marker on the right half, to its right on the left half,
        // but never past the plot's edge on either side.
        const labelOnLeft = markerX > plot.width / 2;
        const labelWidth = measureLabel(label);
        const labelX = labelOnLeft ? Math.max(-10, labelWidth - markerX) : Math.min(10, plot.width - markerX - labelWidth);
        const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p[0])},${y(p[1])}`).join('');
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label={xLabel} gridLength={plot.height} />
            <AxisLeft scale={y} label="probability" gridLength={plot.width} />
            <g clipPath={plot.clip}>
              <path className="series" d={path} stroke={COLORS.blue} strokeWidth={2.5} data-testid="curve-line" data-points={points.length} />
            </g>
            <g className="operating-point" transform={`translate(${markerX},${y(opP)})`} data-x={opX} data-p={opP}>
              <line y1={0} y2={plot.height - y(opP)} stroke={COLORS.vermillion} strokeDasharray="3 3" />
              <circle r={7} fill={COLORS.vermillion} stroke="white" strokeWidth={2} />
              <text x={labelX} y={-10} textAnchor={labelOnLeft ? 'end' : 'start'} className="annotation-label" fill={COLORS.vermillion}>
                {label}
              </text>
            </g>
            {decision && (
              <g
                className="decision-point"
                data-testid="decision-point"
                data-x={decision.x}
                data-p={decision.p}
                transform={`translate(${x(Math.min(decision.x, x.domain()[1]))},${y(Math.min(1, decision.p))})`}
              >
                <rect x={-6} y={-6} width={12} height={12} fill={COLORS.black} stroke="white" strokeWidth={2} transform="rotate(45)" />
                <text x={10} y={16} className="annotation-label">{`this ${decision.verdict}`}</text>
              </g>
            )}
          </>
        );
      }}
    </ChartFrame>
  );
});
