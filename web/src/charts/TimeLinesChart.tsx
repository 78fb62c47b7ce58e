// A quantity of each flow (or each group's mean) over simulated time, one
// line each: the frame, scales, hover and parameter-change marks shared by
// the round-trip-time and congestion-window charts, which say only what
// they plot.

import { scaleLinear } from 'd3';
import { AxisLeft } from './Axis';
import type { LegendEntry, PlotArea } from './ChartFrame';
import { maxOf } from './decimate';
import { TimeChartFrame, type TimePlacement } from './TimeChartFrame';

export interface TimeLine {
  label: string;
  color: string;
  /** The value at each of `timeS`; NaN where there is none yet. */
  values: Float64Array;
}

/** What one chart of lines over time plots, and how it says so. */
export interface TimeLinesSpec {
  /** The title before the bin width, e.g. `Congestion window`. */
  title: string;
  testId: string;
  description: string;
  yLabel: string;
  /** The y axis reaches at least this high. */
  minTop: number;
  /** What the chart says when there is no line to draw. */
  noLines: string;
  /** A value in the tooltip (NaN included). */
  format: (value: number) => string;
  className: string;
}

/** A chart's lines, the bin width they were averaged over, and where it stands. */
export interface TimeLinesData extends TimePlacement {
  lines: readonly TimeLine[];
  /** Bin width the lines were averaged over, for the title. */
  binS: number;
}

interface TimeLinesChartProps extends TimeLinesData {
  spec: TimeLinesSpec;
}

/** The tooltip lists this many lines at most. */
const TOOLTIP_LINES = 12;
/** Above this many lines, each is drawn thinner and a little transparent. */
const MANY_LINES = 6;

export function TimeLinesChart({ spec, lines, binS, ...placement }: TimeLinesChartProps) {
  const { timeS } = placement;
  const legend: LegendEntry[] = lines.map((l) => ({ label: l.label, color: l.color }));
  const top = Math.max(spec.minTop, ...lines.map((l) => maxOf(l.values.filter((v) => Number.isFinite(v))))) * 1.1;
  const many = lines.length > MANY_LINES;
  const valueScale = (plot: PlotArea) => scaleLinear().domain([0, top]).range([plot.height, 0]).nice();
  const binText = binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`;
  return (
    <TimeChartFrame
      title={`${spec.title} (${binText} averages)`}
      testId={spec.testId}
      legend={legend}
      description={spec.description}
      {...placement}
      emptyMessage={lines.length === 0 ? spec.noLines : undefined}
      rowsAt={(i) => {
        const rows = lines.slice(0, TOOLTIP_LINES).map((l) => ({ label: l.label, value: spec.format(l.values[i]), color: l.color }));
        if (lines.length > TOOLTIP_LINES) rows.push({ label: `…and ${lines.length - TOOLTIP_LINES} more`, value: '', color: '' });
        return rows;
      }}
      series={(plot, xScale) => {
        const yScale = valueScale(plot);
        return lines.map((l) => ({
          key: l.label,
          x: timeS,
          y: l.values,
          xScale,
          yScale,
          color: l.color,
          width: many ? 1.25 : 2,
          opacity: many ? 0.8 : 1,
          className: spec.className,
        }));
      }}
    >
      {(plot) => <AxisLeft scale={valueScale(plot)} label={spec.yLabel} gridLength={plot.width} />}
    </TimeChartFrame>
  );
}
