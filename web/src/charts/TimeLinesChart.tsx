// A quantity of each flow (or each group's mean) over simulated time, one
// line each: the frame, scales, hover and parameter-change marks shared by
// the round-trip-time and congestion-window charts, which say only what
// they plot.

import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea } from './ChartFrame';
import { maxOf, nearestIndex } from './decimate';
import { ParamChangeLines, TIME_MARGIN, formatSeconds, stepSample, timeScale, type ParamChange, type TimeWindow } from './timeAxis';

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

/** Where a chart of lines over time stands: its samples' times, their bins, the window shown. */
export interface TimeLinesPlacement {
  timeS: Float64Array;
  /** Bin width the lines were averaged over, for the title. */
  binS: number;
  paramChanges: readonly ParamChange[];
  window: TimeWindow;
  height: number;
}

/** A chart's lines and where it stands. */
export interface TimeLinesData extends TimeLinesPlacement {
  lines: readonly TimeLine[];
}

interface TimeLinesChartProps extends TimeLinesData {
  spec: TimeLinesSpec;
}

/** The tooltip lists this many lines at most. */
const TOOLTIP_LINES = 12;
/** Above this many lines, each is drawn thinner and a little transparent. */
const MANY_LINES = 6;

export function TimeLinesChart({ spec, timeS, lines, binS, paramChanges, window, height }: TimeLinesChartProps) {
  const legend: LegendEntry[] = lines.map((l) => ({ label: l.label, color: l.color }));
  const top = Math.max(spec.minTop, ...lines.map((l) => maxOf(l.values.filter((v) => Number.isFinite(v))))) * 1.1;
  const many = lines.length > MANY_LINES;
  const scales = (plot: PlotArea) => ({
    x: timeScale(window, plot.width),
    y: scaleLinear().domain([0, top]).range([plot.height, 0]).nice(),
  });
  const binText = binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`;
  return (
    <ChartFrame
      title={`${spec.title} (${binText} averages)`}
      testId={spec.testId}
      height={height}
      margin={TIME_MARGIN}
      legend={legend}
      description={spec.description}
      emptyMessage={lines.length === 0 ? spec.noLines : timeS.length === 0 ? 'Waiting for the first samples…' : undefined}
      hover={(plotX, plot) => {
        const x = timeScale(window, plot.width);
        const i = nearestIndex(timeS, x.invert(plotX));
        if (i < 0) return null;
        const rows = lines.slice(0, TOOLTIP_LINES).map((l) => ({ label: l.label, value: spec.format(l.values[i]), color: l.color }));
        if (lines.length > TOOLTIP_LINES) rows.push({ label: `…and ${lines.length - TOOLTIP_LINES} more`, value: '', color: '' });
        return { x: x(timeS[i]), title: `t = ${formatSeconds(timeS[i])}`, rows };
      }}
      hoverStep={(fromX, move, plot) => stepSample(timeS, timeScale(window, plot.width), fromX, move)}
      series={(plot) => {
        const { x: xScale, y: yScale } = scales(plot);
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
      {(plot) => {
        const { x, y } = scales(plot);
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            <AxisLeft scale={y} label={spec.yLabel} gridLength={plot.width} />
            <ParamChangeLines changes={paramChanges} xScale={x} height={plot.height} />
          </>
        );
      }}
    </ChartFrame>
  );
}
