// Delay distributions as CDFs on a log time axis, as Flent draws latency:
// one curve per flow group (its packets' queueing delay, and the RTT of a
// TCP or ping group dashed), or in compare mode one per run. A curve far to
// the left is a short wait; a long flat stretch before it reaches 1 is a
// tail of long waits.

import { memo } from 'react';
import { scaleLinear, scaleLog } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry, type PlotArea } from './ChartFrame';
import { decadeDomain, fractionAt, staircase, type CdfPoints } from './delayCdf';
import type { CursorMove } from './timeAxis';

export interface CdfCurve extends CdfPoints {
  label: string;
  color: string;
  dashed?: boolean;
}

interface DelayCdfChartProps {
  curves: readonly CdfCurve[];
  /** The measurement window so far, for the title; undefined where the chart does not know it (compare mode). */
  windowS?: number;
  height: number;
  testId?: string;
}

const MARGIN = { top: 22, right: 20, bottom: 44, left: 66 };
const MS = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
/** The arrow keys move the cursor a twentieth of a decade (Shift: half a decade). */
const STEP_DECADES = 0.05;
const PAGE_DECADES = 0.5;

const formatMs = (ms: number) => (ms >= 1000 ? `${MS.format(ms / 1000)} s` : `${MS.format(ms)}`);

function step(fromX: number | null, move: CursorMove, x: ReturnType<typeof scaleLinear<number, number>>): number {
  const [lo, hi] = x.domain();
  const at = fromX === null ? null : x.invert(fromX);
  const moved: Record<CursorMove, number> = {
    previous: at === null ? hi : at - STEP_DECADES,
    next: at === null ? lo : at + STEP_DECADES,
    'previous-page': at === null ? hi : at - PAGE_DECADES,
    'next-page': at === null ? lo : at + PAGE_DECADES,
    first: lo,
    last: hi,
  };
  return x(Math.min(hi, Math.max(lo, moved[move])));
}

// Memoised: the curves change with each snapshot (a few times per second), not every frame.
export const DelayCdfChart = memo(function DelayCdfChart({ curves, windowS, height, testId = 'chart-cdf' }: DelayCdfChartProps) {
  const drawn = curves.filter((c) => c.ms.length > 0);
  const [loMs, hiMs] = decadeDomain(drawn);
  // Lines are drawn over log10(ms) on a linear scale; the axis reads the same span in ms.
  const scales = (plot: PlotArea) => ({
    x: scaleLinear()
      .domain([Math.log10(loMs), Math.log10(hiMs)])
      .range([0, plot.width]),
    axis: scaleLog().domain([loMs, hiMs]).range([0, plot.width]),
    y: scaleLinear().domain([0, 1]).range([plot.height, 0]),
  });
  const legend: LegendEntry[] = curves.map((c) => ({ label: c.label, color: c.color, dashed: c.dashed }));

  return (
    <ChartFrame
      title={`Delay distribution (CDF; measurement window${windowS === undefined ? '' : windowS > 0 ? `, ${windowS.toFixed(1)} s so far` : ' not reached yet'})`}
      testId={testId}
      height={height}
      margin={MARGIN}
      legend={legend}
      description="cumulative distribution of queueing delay per flow group and of RTT per TCP and ping group, over the measurement window, on a logarithmic time axis"
      emptyMessage={drawn.length === 0 ? 'The curves appear once packets have queued in the measurement window.' : undefined}
      hover={(plotX, plot) => {
        const { x } = scales(plot);
        const ms = 10 ** x.invert(plotX);
        return {
          x: plotX,
          title: `at or below ${formatMs(ms)} ms`,
          rows: drawn.map((c) => ({ label: c.label, value: PERCENT.format(fractionAt(c, ms)), color: c.color })),
        };
      }}
      hoverStep={(fromX, move, plot) => step(fromX, move, scales(plot).x)}
      series={(plot) => {
        const { x: xScale, y: yScale } = scales(plot);
        return drawn.map((c) => ({
          key: c.label,
          ...staircase(c, loMs),
          xScale,
          yScale,
          color: c.color,
          width: 2,
          dash: c.dashed ? [6, 4] : undefined,
          className: 'cdf-line',
        }));
      }}
    >
      {(plot) => {
        const { axis, y } = scales(plot);
        return (
          <>
            <AxisBottom scale={axis} offset={plot.height} label="delay (ms, log scale)" gridLength={plot.height} format={formatMs} />
            <AxisLeft scale={y} label="share at or below" gridLength={plot.width} format={(v) => PERCENT.format(v)} />
          </>
        );
      }}
    </ChartFrame>
  );
});
