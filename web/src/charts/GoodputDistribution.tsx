// Goodput per flow when there are too many flows for a bar each: every
// group's per-flow goodputs over the measurement window, sorted from lowest
// to highest and drawn as one curve (the bars of GoodputBars, sorted and
// squeezed side by side). A flat curve at the fair share is a fair split; a
// steep one means some flows got far more than others.

import { memo, useMemo } from 'react';
import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry } from './ChartFrame';
import { FairShareLines, type FairShareLevel } from './FairShareLines';
import { COLORS } from './palette';
import { atPercent, flowPositions } from './sortedCurve';
import type { CursorMove } from './timeAxis';

export interface GroupDistribution {
  label: string;
  color: string;
  /** The group's per-flow goodputs, sorted from lowest to highest. */
  sortedGoodputsBps: Float64Array;
}

interface GoodputDistributionProps {
  groups: readonly GroupDistribution[];
  /** Each group's max-min fair share per flow (theory). */
  fairShares: readonly FairShareLevel[];
  /** What every flow would get if the delivered total were split evenly. */
  equalShareBps: number;
  windowS: number;
  height: number;
}

const MARGIN = { top: 22, right: 20, bottom: 44, left: 62 };
const MBPS = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
const COUNT = new Intl.NumberFormat('en');
/** Shift+arrow moves the cursor this many percent. */
const PAGE_PERCENT = 10;

const stepPercent = (from: number | null, move: CursorMove): number => {
  const steps: Record<CursorMove, number> = {
    previous: from === null ? 100 : from - 1,
    next: from === null ? 0 : from + 1,
    'previous-page': from === null ? 100 : from - PAGE_PERCENT,
    'next-page': from === null ? 0 : from + PAGE_PERCENT,
    first: 0,
    last: 100,
  };
  return Math.min(100, Math.max(0, steps[move]));
};

// Memoised: its data changes with each summary (a few times per second), not every frame.
export const GoodputDistribution = memo(function GoodputDistribution({ groups, fairShares, equalShareBps, windowS, height }: GoodputDistributionProps) {
  const positions = useMemo(() => groups.map((g) => flowPositions(g.sortedGoodputsBps.length)), [groups]);
  const flows = groups.reduce((n, g) => n + g.sortedGoodputsBps.length, 0);
  const top = Math.max(1e3, equalShareBps, ...groups.map((g) => g.sortedGoodputsBps.at(-1) ?? 0), ...fairShares.map((f) => f.bps)) * 1.1;
  const hasData = windowS > 0 && flows > 0;
  const x = (width: number) => scaleLinear().domain([0, 100]).range([0, width]);
  const y = (plotHeight: number) =>
    scaleLinear()
      .domain([0, top / 1e6])
      .range([plotHeight, 0])
      .nice();
  const legend: LegendEntry[] = [
    ...groups.map((g) => ({ label: `${g.label} (${COUNT.format(g.sortedGoodputsBps.length)} flows)`, color: g.color })),
    { label: 'equal share', color: COLORS.black, dashed: true },
    ...(fairShares.length > 0
      ? [
          {
            label: `max-min fair share (theory${fairShares.length > 1 ? ', group colours' : ''})`,
            color: fairShares.length === 1 ? fairShares[0].color : COLORS.black,
            dashed: true,
          },
        ]
      : []),
  ];

  return (
    <ChartFrame
      title={`Goodput per flow, sorted (${COUNT.format(flows)} flows; measurement window${windowS > 0 ? `, ${windowS.toFixed(1)} s so far` : ' not reached yet'})`}
      testId="chart-bars"
      height={height}
      margin={MARGIN}
      legend={legend}
      description="each flow's goodput over the measurement window, sorted from lowest to highest, one curve per flow group, against the equal share of the total and each group's max-min fair share"
      emptyMessage={hasData ? undefined : 'The curves appear once the measurement window starts.'}
      hover={(plotX, plot) => {
        const percent = Math.round(Math.min(100, Math.max(0, x(plot.width).invert(plotX))));
        return {
          x: x(plot.width)(percent),
          title: `${percent} % of flows got less than`,
          rows: [
            ...groups.map((g) => ({ label: g.label, value: `${MBPS.format(atPercent(g.sortedGoodputsBps, percent) / 1e6)} Mb/s`, color: g.color })),
            { label: 'equal share', value: `${MBPS.format(equalShareBps / 1e6)} Mb/s` },
          ],
        };
      }}
      hoverStep={(fromX, move, plot) => x(plot.width)(stepPercent(fromX === null ? null : Math.round(x(plot.width).invert(fromX)), move))}
      series={(plot) => {
        const xScale = x(plot.width);
        // The curves hold bits per second; the axis reads Mb/s.
        const yScale = y(plot.height).copy();
        yScale.domain(yScale.domain().map((mbps) => mbps * 1e6));
        return groups.map((g, i) => ({
          key: g.label,
          x: positions[i],
          y: g.sortedGoodputsBps,
          xScale,
          yScale,
          color: g.color,
          width: 2.25,
          className: 'goodput-distribution',
        }));
      }}
    >
      {(plot) => {
        if (!hasData) return null;
        const yScale = y(plot.height);
        return (
          <>
            <AxisBottom scale={x(plot.width)} offset={plot.height} label="flows of each group, lowest goodput first (%)" gridLength={plot.height} />
            <AxisLeft scale={yScale} label="goodput (Mb/s)" gridLength={plot.width} />
            <FairShareLines levels={fairShares} width={plot.width} y={yScale} />
            <g transform={`translate(0,${yScale(equalShareBps / 1e6)})`}>
              <line x2={plot.width} stroke={COLORS.black} strokeWidth={2} strokeDasharray="6 4" data-testid="equal-share" />
            </g>
            {/* Bottom right stays clear: there the curves are at their highest. */}
            <text className="chart-note" x={plot.width - 6} y={plot.height - 8} textAnchor="end">
              one point per flow
            </text>
          </>
        );
      }}
    </ChartFrame>
  );
});
