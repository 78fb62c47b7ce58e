// Goodput over time: one line per flow, or per flow group when there are
// many flows, averaged over time bins (a single sample interval is too noisy
// to read).

import { scaleLinear } from 'd3';
import { AxisLeft } from './Axis';
import type { LegendEntry, PlotArea } from './ChartFrame';
import { maxOf } from './decimate';
import { FairShareLines, type FairShareLevel } from './FairShareLines';
import { COLORS } from './palette';
import type { SeriesLine } from './seriesCanvas';
import { TimeChartFrame, type TimePlacement } from './TimeChartFrame';

export interface GoodputLine {
  /** Legend entry; lines sharing a legend label (flows of one group) share one entry. */
  legend: string;
  /** Tooltip label of this line. */
  label: string;
  color: string;
  /** Goodput in bits per second at each of `timeS`. */
  goodputBps: Float64Array;
}

interface GoodputChartProps extends TimePlacement {
  lines: readonly GoodputLine[];
  /** Bin width the lines were averaged over, for the subtitle. */
  binS: number;
  /** Max-min fair shares (theory) drawn as dashed lines over the measured goodput. */
  fairShares?: readonly FairShareLevel[];
  /** The bottleneck's capacity at each of `timeS`, when its link follows a rate trace. */
  capacityBps?: Float64Array;
}

/** The capacity line: the link's rate, which the goodput of all flows together stays under. */
const CAPACITY_COLOR = COLORS.black;

const MBPS = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
/** The scale covers this share of the points, when a few peaks rise far above the rest. */
const SCALE_QUANTILE = 0.995;
/** Peaks count as far above when they pass the quantile by this factor. */
const PEAK_FACTOR = 1.5;

/**
 * The top of the goodput scale. A receiver delivers data in order, so after a
 * lost packet is repaired it hands over everything held behind it at once: a
 * bin can show several times the link's rate. A few such peaks (a slow
 * start's losses) would flatten every other line, so the scale then covers
 * the rest and says the peaks are cut off.
 */
export function goodputScaleTop(lines: readonly { goodputBps: Float64Array }[], floorBps: number): { topBps: number; peaksCut: boolean } {
  const values: number[] = [];
  for (const line of lines) for (const v of line.goodputBps) if (Number.isFinite(v)) values.push(v);
  const highest = Math.max(floorBps, ...values);
  if (values.length < 50) return { topBps: highest, peaksCut: false };
  values.sort((a, b) => a - b);
  const quantile = Math.max(floorBps, values[Math.floor(SCALE_QUANTILE * (values.length - 1))]);
  return highest > PEAK_FACTOR * quantile ? { topBps: quantile * 1.2, peaksCut: true } : { topBps: highest, peaksCut: false };
}

export function GoodputChart({ lines, binS, fairShares = [], capacityBps, ...placement }: GoodputChartProps) {
  const { timeS } = placement;
  const legend: LegendEntry[] = [];
  for (const line of lines) if (!legend.some((e) => e.label === line.legend)) legend.push({ label: line.legend, color: line.color });
  if (capacityBps) legend.push({ label: 'link capacity (trace)', color: CAPACITY_COLOR, dashed: true });
  if (fairShares.length > 0) {
    const color = fairShares.length === 1 ? fairShares[0].color : COLORS.black;
    legend.push({ label: `max-min fair share (theory${fairShares.length > 1 ? ', group colours' : ''})`, color, dashed: true });
  }
  const capacityTop = capacityBps ? maxOf(capacityBps) : 0;
  const { topBps, peaksCut } = goodputScaleTop(lines, Math.max(1e3, capacityTop, ...fairShares.map((f) => f.bps)));
  const top = topBps * 1.1;
  // Per-flow lines get thinner as they multiply so they stay legible together.
  const strokeWidth = lines.length > 6 ? 1.25 : 2.25;
  const mbpsScale = (plot: PlotArea) =>
    scaleLinear()
      .domain([0, top / 1e6])
      .range([plot.height, 0])
      .nice();

  return (
    <TimeChartFrame
      title={`Goodput over time (${binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`} averages)`}
      testId="chart-goodput"
      legend={legend}
      description="goodput in megabits per second of each flow or flow group over simulated time"
      {...placement}
      rowsAt={(i) => {
        const rows = lines.slice(0, 12).map((l) => ({ label: l.label, value: `${MBPS.format(l.goodputBps[i] / 1e6)} Mb/s`, color: l.color }));
        if (lines.length > 12) rows.push({ label: `…and ${lines.length - 12} more`, value: '', color: '' });
        for (const f of fairShares) rows.push({ label: `fair share, ${f.label} (theory)`, value: `${MBPS.format(f.bps / 1e6)} Mb/s`, color: f.color });
        if (capacityBps) rows.push({ label: 'link capacity', value: `${MBPS.format(capacityBps[i] / 1e6)} Mb/s`, color: CAPACITY_COLOR });
        return rows;
      }}
      series={(plot, xScale) => {
        const y = mbpsScale(plot);
        // The lines hold bits per second; the axis reads Mb/s.
        const yScale = y.copy().domain(y.domain().map((mbps) => mbps * 1e6));
        const drawn: SeriesLine[] = lines.map((l) => ({
          key: l.label,
          x: timeS,
          y: l.goodputBps,
          xScale,
          yScale,
          color: l.color,
          width: strokeWidth,
          opacity: lines.length > 6 ? 0.75 : 1,
          className: 'goodput-line',
        }));
        // Over the goodput lines, thin, so that both stay readable where goodput meets it.
        if (capacityBps)
          drawn.push({ key: 'capacity', x: timeS, y: capacityBps, xScale, yScale, color: CAPACITY_COLOR, width: 1.5, dash: [6, 3], testId: 'capacity-line' });
        return drawn;
      }}
    >
      {(plot) => {
        const y = mbpsScale(plot);
        return (
          <>
            <AxisLeft scale={y} label="goodput (Mb/s)" gridLength={plot.width} />
            <FairShareLines levels={fairShares} width={plot.width} y={y} />
            {peaksCut && (
              <text className="chart-note" x={plot.width - 6} y={14} textAnchor="end" data-testid="goodput-peaks-cut">
                peaks cut off: catch-up after a loss
              </text>
            )}
          </>
        );
      }}
    </TimeChartFrame>
  );
}
