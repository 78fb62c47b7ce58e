// Delay per flow group as box plots on a log time axis: the box spans the
// 25th to 75th percentile with a line at the median, the whiskers reach the
// 10th and 90th, and a dot marks the 99th (read from the engine's
// histograms). One row per group's queueing delay, and per TCP or ping
// group's RTT.

import { memo } from 'react';
import { scaleLog } from 'd3';
import { AxisBottom } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea } from './ChartFrame';
import { decadeDomain, quantileOf, type CdfPoints } from './delayCdf';
import type { CdfCurve } from './DelayCdfChart';

interface DelayBoxChartProps {
  rows: readonly CdfCurve[];
  /** Seconds of measurement window so far; omitted where a title cannot say it (compare mode's two runs). */
  windowS?: number;
  height: number;
  testId?: string;
}

const MARGIN = { top: 22, right: 20, bottom: 44, left: 20 };
const MS = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9, 0.99] as const;
/** Each row: a label line above a box this tall. */
const ROW_PX = 44;
const BOX_PX = 16;

const formatMs = (ms: number) => (ms >= 1000 ? `${MS.format(ms / 1000)} s` : MS.format(ms));

/** The plot needs a row per distribution: never shorter than `height`. */
export function boxChartHeight(rows: number, height: number): number {
  return Math.max(height, rows * ROW_PX + MARGIN.top + MARGIN.bottom + 8);
}

function Box({ cdf, y, axis, color }: { cdf: CdfPoints; y: number; axis: (ms: number) => number; color: string }) {
  const [p10, p25, p50, p75, p90, p99] = QUANTILES.map((q) => axis(quantileOf(cdf, q)));
  const mid = y + BOX_PX / 2;
  return (
    <g className="delay-box" stroke={color} strokeWidth={2} fill="none">
      <line x1={p10} x2={p25} y1={mid} y2={mid} />
      <line x1={p75} x2={p90} y1={mid} y2={mid} />
      <line x1={p10} x2={p10} y1={y + 3} y2={y + BOX_PX - 3} />
      <line x1={p90} x2={p90} y1={y + 3} y2={y + BOX_PX - 3} />
      <rect x={p25} y={y} width={Math.max(1, p75 - p25)} height={BOX_PX} fill={color} fillOpacity={0.18} />
      <line x1={p50} x2={p50} y1={y} y2={y + BOX_PX} strokeWidth={3} />
      <circle cx={p99} cy={mid} r={3.5} fill={color} />
    </g>
  );
}

export const DelayBoxChart = memo(function DelayBoxChart({ rows, windowS, height, testId = 'chart-delay-box' }: DelayBoxChartProps) {
  const drawn = rows.filter((r) => r.ms.length > 0);
  const [loMs, hiMs] = decadeDomain(drawn);
  const axisOf = (plot: PlotArea) => scaleLog().domain([loMs, hiMs]).range([0, plot.width]).clamp(true);
  const legend: LegendEntry[] = drawn.map((r) => ({ label: r.label, color: r.color }));
  const description =
    'box plots of delay per flow group: box from the 25th to the 75th percentile, a line at the median, whiskers to the 10th and 90th, a dot at the 99th';
  return (
    <ChartFrame
      title={`Delay per group (box 25–75 %, median line, whiskers 10–90 %, dot 99 %${windowS === undefined || windowS > 0 ? '' : '; measurement window not reached yet'})`}
      testId={testId}
      height={boxChartHeight(drawn.length, height)}
      margin={MARGIN}
      legend={legend}
      description={description}
      emptyMessage={drawn.length === 0 ? 'The boxes appear once packets have queued in the measurement window.' : undefined}
      hover={(plotX, plot) => {
        const axis = axisOf(plot);
        return {
          x: plotX,
          title: `${formatMs(axis.invert(plotX))} ms`,
          rows: drawn.map((r) => ({
            label: r.label,
            value: `median ${formatMs(quantileOf(r, 0.5))}, p90 ${formatMs(quantileOf(r, 0.9))}, p99 ${formatMs(quantileOf(r, 0.99))} ms`,
            color: r.color,
          })),
        };
      }}
    >
      {(plot) => {
        const axis = axisOf(plot);
        const floor = (ms: number) => axis(Math.max(ms, loMs));
        return (
          <>
            <AxisBottom scale={axis} offset={plot.height} label="delay (ms, log scale)" gridLength={plot.height} format={formatMs} />
            {drawn.map((r, i) => {
              const y = 8 + i * ROW_PX;
              return (
                <g key={r.label} data-testid="delay-box" data-label={r.label} data-median-ms={quantileOf(r, 0.5)}>
                  <text className="chart-note" x={0} y={y + 10}>
                    {r.label}
                  </text>
                  <Box cdf={r} y={y + 16} axis={floor} color={r.color} />
                </g>
              );
            })}
          </>
        );
      }}
    </ChartFrame>
  );
});
