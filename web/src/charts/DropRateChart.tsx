// The observed drop and mark rates over time: packets dropped (or marked)
// per packet arriving at the bottleneck, per time bin.

import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea, type TooltipRow } from './ChartFrame';
import { maxOf, nearestIndex } from './decimate';
import { COLORS } from './palette';
import { DecisionMarks, type DecisionMarksProps } from './DecisionMarks';
import type { SeriesLine } from './seriesCanvas';
import { ParamChangeLines, TIME_MARGIN, formatSeconds, stepSample, timeScale, type ParamChange, type TimeWindow } from './timeAxis';

interface DropRateChartProps {
  timeS: Float64Array;
  /** Fraction of arrivals dropped, for every reason. */
  dropRate: Float64Array;
  /** Fraction of arrivals dropped early (before the buffer was full). */
  earlyDropRate: Float64Array;
  /** Fraction of arrivals ECN-marked; omitted when nothing was marked. */
  markRate?: Float64Array;
  paramChanges: readonly ParamChange[];
  window: TimeWindow;
  height: number;
  /** The inspector's drops and marks, when the run is paused. */
  decisions?: DecisionMarksProps;
}

const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 });
/** Tick labels in per cent without the sign (the axis title carries it): "0.05" is narrower than "0.05%". */
const PERCENT_TICK = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const formatPercentTick = (share: number) => PERCENT_TICK.format(share * 100);

export function DropRateChart({ timeS, dropRate, earlyDropRate, markRate, paramChanges, window, height, decisions }: DropRateChartProps) {
  const legend: LegendEntry[] = [
    { label: 'dropped (all reasons)', color: COLORS.vermillion },
    { label: 'dropped early', color: COLORS.purple, dashed: true },
  ];
  if (markRate) legend.push({ label: 'ECN-marked', color: COLORS.skyBlue });
  const top = Math.max(0.01, maxOf(dropRate), markRate ? maxOf(markRate) : 0) * 1.15;
  const scales = (plot: PlotArea) => ({
    x: timeScale(window, plot.width),
    y: scaleLinear()
      .domain([0, Math.min(1, top)])
      .range([plot.height, 0])
      .nice(),
  });

  return (
    <ChartFrame
      title="Drop and mark rate"
      testId="chart-rate"
      height={height}
      margin={TIME_MARGIN}
      legend={legend}
      description="share of arriving packets dropped or marked at the bottleneck over simulated time"
      emptyMessage={timeS.length === 0 ? 'Waiting for the first samples…' : undefined}
      hover={(plotX, plot) => {
        const x = timeScale(window, plot.width);
        const i = nearestIndex(timeS, x.invert(plotX));
        if (i < 0) return null;
        const rows: TooltipRow[] = [
          { label: 'dropped', value: PERCENT.format(dropRate[i]), color: COLORS.vermillion },
          { label: 'early', value: PERCENT.format(earlyDropRate[i]), color: COLORS.purple },
        ];
        if (markRate) rows.push({ label: 'marked', value: PERCENT.format(markRate[i]), color: COLORS.skyBlue });
        return { x: x(timeS[i]), title: `t = ${formatSeconds(timeS[i])}`, rows };
      }}
      hoverStep={(fromX, move, plot) => stepSample(timeS, timeScale(window, plot.width), fromX, move)}
      series={(plot) => {
        const { x: xScale, y: yScale } = scales(plot);
        const lines: SeriesLine[] = [
          { key: 'early', x: timeS, y: earlyDropRate, xScale, yScale, color: COLORS.purple, width: 2, dash: [5, 3] },
          { key: 'dropped', x: timeS, y: dropRate, xScale, yScale, color: COLORS.vermillion, width: 2.25, testId: 'drop-rate-line' },
        ];
        if (markRate) lines.push({ key: 'marked', x: timeS, y: markRate, xScale, yScale, color: COLORS.skyBlue, width: 2.25 });
        return lines;
      }}
    >
      {(plot) => {
        const { x, y } = scales(plot);
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            <AxisLeft scale={y} label="share of arrivals (%)" gridLength={plot.width} format={formatPercentTick} />
            <ParamChangeLines changes={paramChanges} xScale={x} height={plot.height} />
            {decisions && <DecisionMarks {...decisions} x={x} />}
          </>
        );
      }}
    </ChartFrame>
  );
}
