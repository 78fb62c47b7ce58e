// The observed drop and mark rates over time: packets dropped (or marked)
// per packet arriving at the bottleneck, per time bin.

import { scaleLinear } from 'd3';
import { AxisLeft } from './Axis';
import type { LegendEntry, PlotArea, TooltipRow } from './ChartFrame';
import { maxOf } from './decimate';
import { COLORS } from './palette';
import type { DecisionMarksProps } from './DecisionMarks';
import type { SeriesLine } from './seriesCanvas';
import { TimeChartFrame, type TimePlacement } from './TimeChartFrame';

interface DropRateChartProps extends TimePlacement {
  /** Fraction of arrivals dropped, for every reason. */
  dropRate: Float64Array;
  /** Fraction of arrivals dropped early (before the buffer was full). */
  earlyDropRate: Float64Array;
  /** Fraction of arrivals ECN-marked; omitted when nothing was marked. */
  markRate?: Float64Array;
  /** The inspector's drops and marks, when the run is paused. */
  decisions?: DecisionMarksProps;
}

const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 });
/** Tick labels in per cent without the sign (the axis title carries it): "0.05" is narrower than "0.05%". */
const PERCENT_TICK = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const formatPercentTick = (share: number) => PERCENT_TICK.format(share * 100);

export function DropRateChart({ dropRate, earlyDropRate, markRate, decisions, ...placement }: DropRateChartProps) {
  const { timeS } = placement;
  const legend: LegendEntry[] = [
    { label: 'dropped (all reasons)', color: COLORS.vermillion },
    { label: 'dropped early', color: COLORS.purple, dashed: true },
  ];
  if (markRate) legend.push({ label: 'ECN-marked', color: COLORS.skyBlue });
  const top = Math.max(0.01, maxOf(dropRate), markRate ? maxOf(markRate) : 0) * 1.15;
  const shareScale = (plot: PlotArea) =>
    scaleLinear()
      .domain([0, Math.min(1, top)])
      .range([plot.height, 0])
      .nice();

  return (
    <TimeChartFrame
      title="Drop and mark rate"
      testId="chart-rate"
      legend={legend}
      description="share of arriving packets dropped or marked at the bottleneck over simulated time"
      {...placement}
      decisions={decisions}
      rowsAt={(i) => {
        const rows: TooltipRow[] = [
          { label: 'dropped', value: PERCENT.format(dropRate[i]), color: COLORS.vermillion },
          { label: 'early', value: PERCENT.format(earlyDropRate[i]), color: COLORS.purple },
        ];
        if (markRate) rows.push({ label: 'marked', value: PERCENT.format(markRate[i]), color: COLORS.skyBlue });
        return rows;
      }}
      series={(plot, xScale) => {
        const yScale = shareScale(plot);
        const lines: SeriesLine[] = [
          { key: 'early', x: timeS, y: earlyDropRate, xScale, yScale, color: COLORS.purple, width: 2, dash: [5, 3] },
          { key: 'dropped', x: timeS, y: dropRate, xScale, yScale, color: COLORS.vermillion, width: 2.25, testId: 'drop-rate-line' },
        ];
        if (markRate) lines.push({ key: 'marked', x: timeS, y: markRate, xScale, yScale, color: COLORS.skyBlue, width: 2.25 });
        return lines;
      }}
    >
      {(plot) => <AxisLeft scale={shareScale(plot)} label="share of arrivals (%)" gridLength={plot.width} format={formatPercentTick} />}
    </TimeChartFrame>
  );
}
