// Round-trip time over time of the latency probes (ping flows): one line per
// ping flow, or each ping group's mean when there are many flows. Each
// sample is the latest echo's RTT, as ping prints it, so the line shows the
// base RTT plus whatever queue the probe met.

import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea } from './ChartFrame';
import { maxOf, nearestIndex } from './decimate';
import { ParamChangeLines, TIME_MARGIN, formatSeconds, stepSample, timeScale, type ParamChange, type TimeWindow } from './timeAxis';

export interface RttChartLine {
  label: string;
  color: string;
  /** RTT in ms at each of `timeS`; NaN before the first echo. */
  rttMs: Float64Array;
}

interface RttChartProps {
  timeS: Float64Array;
  lines: readonly RttChartLine[];
  binS: number;
  paramChanges: readonly ParamChange[];
  window: TimeWindow;
  height: number;
}

const MS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function RttChart({ timeS, lines, binS, paramChanges, window, height }: RttChartProps) {
  const legend: LegendEntry[] = lines.map((l) => ({ label: l.label, color: l.color }));
  const top = Math.max(10, ...lines.map((l) => maxOf(l.rttMs.filter((v) => Number.isFinite(v))))) * 1.1;
  const scales = (plot: PlotArea) => ({
    x: timeScale(window, plot.width),
    y: scaleLinear().domain([0, top]).range([plot.height, 0]).nice(),
  });
  const binText = binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`;
  return (
    <ChartFrame
      title={`Ping round-trip time (${binText} averages)`}
      testId="chart-rtt"
      height={height}
      margin={TIME_MARGIN}
      legend={legend}
      description="round-trip time in milliseconds of each ping flow, or each ping group's mean, over simulated time"
      emptyMessage={
        lines.length === 0
          ? 'No ping flows: add a flow group of kind ping to measure latency under load.'
          : timeS.length === 0
            ? 'Waiting for the first samples…'
            : undefined
      }
      hover={(plotX, plot) => {
        const x = timeScale(window, plot.width);
        const i = nearestIndex(timeS, x.invert(plotX));
        if (i < 0) return null;
        return {
          x: x(timeS[i]),
          title: `t = ${formatSeconds(timeS[i])}`,
          rows: lines.map((l) => ({ label: l.label, value: Number.isFinite(l.rttMs[i]) ? `${MS.format(l.rttMs[i])} ms` : 'no echo yet', color: l.color })),
        };
      }}
      hoverStep={(fromX, move, plot) => stepSample(timeS, timeScale(window, plot.width), fromX, move)}
      series={(plot) => {
        const { x: xScale, y: yScale } = scales(plot);
        return lines.map((l) => ({ key: l.label, x: timeS, y: l.rttMs, xScale, yScale, color: l.color, width: 2, className: 'rtt-line' }));
      }}
    >
      {(plot) => {
        const { x, y } = scales(plot);
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            <AxisLeft scale={y} label="round-trip time (ms)" gridLength={plot.width} />
            <ParamChangeLines changes={paramChanges} xScale={x} height={plot.height} />
          </>
        );
      }}
    </ChartFrame>
  );
}
