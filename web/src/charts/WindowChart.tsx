// TCP congestion windows over time: one line per flow, each in its own
// colour, or each group's mean when there are many flows. Global
// synchronisation and RTT unfairness are about windows: whether they fall
// together, and how fast each grows back.

import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea } from './ChartFrame';
import { maxOf, nearestIndex } from './decimate';
import { ParamChangeLines, TIME_MARGIN, formatSeconds, stepSample, timeScale, type ParamChange, type TimeWindow } from './timeAxis';

export interface WindowChartLine {
  label: string;
  color: string;
  /** Congestion window in packets at each of `timeS`. */
  cwndPackets: Float64Array;
}

interface WindowChartProps {
  timeS: Float64Array;
  lines: readonly WindowChartLine[];
  /** Bin width the lines were averaged over, for the subtitle. */
  binS: number;
  paramChanges: readonly ParamChange[];
  window: TimeWindow;
  height: number;
}

const PACKETS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
/** The tooltip lists this many lines at most. */
const TOOLTIP_LINES = 12;

export function WindowChart({ timeS, lines, binS, paramChanges, window, height }: WindowChartProps) {
  const legend: LegendEntry[] = lines.map((l) => ({ label: l.label, color: l.color }));
  const top = Math.max(4, ...lines.map((l) => maxOf(l.cwndPackets))) * 1.1;
  const strokeWidth = lines.length > 6 ? 1.25 : 2;
  const scales = (plot: PlotArea) => ({
    x: timeScale(window, plot.width),
    y: scaleLinear().domain([0, top]).range([plot.height, 0]).nice(),
  });
  const binText = binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`;

  return (
    <ChartFrame
      title={`Congestion window (${binText} averages)`}
      testId="chart-cwnd"
      height={height}
      margin={TIME_MARGIN}
      legend={legend}
      description="congestion window in packets of each TCP flow, or each flow group's mean, over simulated time"
      emptyMessage={lines.length === 0 ? 'No TCP flows: only TCP has a congestion window.' : timeS.length === 0 ? 'Waiting for the first samples…' : undefined}
      hover={(plotX, plot) => {
        const x = timeScale(window, plot.width);
        const i = nearestIndex(timeS, x.invert(plotX));
        if (i < 0) return null;
        const rows = lines.slice(0, TOOLTIP_LINES).map((l) => ({ label: l.label, value: `${PACKETS.format(l.cwndPackets[i])} packets`, color: l.color }));
        if (lines.length > TOOLTIP_LINES) rows.push({ label: `…and ${lines.length - TOOLTIP_LINES} more`, value: '', color: '' });
        return { x: x(timeS[i]), title: `t = ${formatSeconds(timeS[i])}`, rows };
      }}
      hoverStep={(fromX, move, plot) => stepSample(timeS, timeScale(window, plot.width), fromX, move)}
      series={(plot) => {
        const { x: xScale, y: yScale } = scales(plot);
        return lines.map((l) => ({
          key: l.label,
          x: timeS,
          y: l.cwndPackets,
          xScale,
          yScale,
          color: l.color,
          width: strokeWidth,
          opacity: lines.length > 6 ? 0.8 : 1,
          className: 'cwnd-line',
        }));
      }}
    >
      {(plot) => {
        const { x, y } = scales(plot);
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            <AxisLeft scale={y} label="congestion window (packets)" gridLength={plot.width} />
            <ParamChangeLines changes={paramChanges} xScale={x} height={plot.height} />
          </>
        );
      }}
    </ChartFrame>
  );
}
