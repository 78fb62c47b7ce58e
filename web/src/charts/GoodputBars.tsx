// Each flow's goodput over the measurement window, against the equal share
// of what the link delivered, each flow's max-min fair share and, for TCP
// flows, the throughput the Mathis and Padhye formulas predict from the
// flow's measured loss and RTT: the quickest picture of (un)fairness.

import { memo } from 'react';
import { scaleBand, scaleLinear } from 'd3';
import { AxisLeft } from './Axis';
import { ChartFrame, type LegendEntry } from './ChartFrame';
import { COLORS } from './palette';
import { MATHIS_COLOR, PADHYE_COLOR, TcpModelMarks } from './TcpModelMarks';

export interface FlowBar {
  flowId: number;
  label: string;
  color: string;
  goodputBps: number;
  /** The flow's max-min fair share (a CBR slower than its share keeps its rate). */
  fairShareBps: number;
  droppedPackets: number;
  lossRate: number;
  meanRttMs: number | null;
  /** TCP throughput models (theory) from this flow's loss rate and RTT; null when they do not apply. */
  mathisBps: number | null;
  padhyeBps: number | null;
}

interface GoodputBarsProps {
  flows: readonly FlowBar[];
  /** Legend: one entry per flow group. */
  groups: readonly LegendEntry[];
  windowS: number;
  height: number;
}

const MARGIN = { top: 22, right: 20, bottom: 44, left: 62 };
const MBPS = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 2 });
/** A prediction far above the measured scale is pinned to the top rather than flattening the bars. */
const THEORY_HEADROOM = 2;

// Memoised: its data changes with each summary (a few times per second), not every frame.
export const GoodputBars = memo(function GoodputBars({ flows, groups, windowS, height }: GoodputBarsProps) {
  const total = flows.reduce((sum, f) => sum + f.goodputBps, 0);
  const equalShare = flows.length > 0 ? total / flows.length : 0;
  const measuredTop = Math.max(equalShare, ...flows.map((f) => Math.max(f.goodputBps, f.fairShareBps)), 1e3);
  const theoryTop = Math.max(0, ...flows.map((f) => Math.max(f.mathisBps ?? 0, f.padhyeBps ?? 0)));
  const top = Math.max(measuredTop, Math.min(theoryTop, THEORY_HEADROOM * measuredTop)) * 1.1;
  const hasModels = flows.some((f) => f.mathisBps !== null || f.padhyeBps !== null);
  const hasData = windowS > 0 && flows.length > 0;

  return (
    <ChartFrame
      title={`Goodput per flow (measurement window${windowS > 0 ? `, ${windowS.toFixed(1)} s so far` : ' not reached yet'})`}
      testId="chart-bars"
      height={height}
      margin={MARGIN}
      legend={[
        ...groups,
        { label: 'equal share', color: COLORS.black, dashed: true },
        { label: 'max-min fair share (theory)', color: COLORS.vermillion },
        ...(hasModels
          ? [
              { label: 'Mathis (theory)', color: MATHIS_COLOR, marker: 'diamond' as const },
              { label: 'Padhye (theory)', color: PADHYE_COLOR, marker: 'circle' as const },
            ]
          : []),
      ]}
      description="each flow's goodput over the measurement window compared with an equal share of the total, its max-min fair share and, for TCP flows, the Mathis and Padhye throughput predictions"
      emptyMessage={hasData ? undefined : 'Bars appear once the measurement window starts.'}
      hover={(plotX, plot) => {
        const band = scaleBand<number>()
          .domain(flows.map((f) => f.flowId))
          .range([0, plot.width])
          .padding(0.15);
        const index = Math.floor(plotX / band.step());
        const flow = flows[Math.min(flows.length - 1, Math.max(0, index))];
        if (!flow) return null;
        return {
          x: (band(flow.flowId) ?? 0) + band.bandwidth() / 2,
          title: flow.label,
          rows: [
            { label: 'goodput', value: `${MBPS.format(flow.goodputBps / 1e6)} Mb/s`, color: flow.color },
            { label: 'fair share (theory)', value: `${MBPS.format(flow.fairShareBps / 1e6)} Mb/s`, color: COLORS.vermillion },
            ...(flow.mathisBps !== null ? [{ label: 'Mathis (theory)', value: `${MBPS.format(flow.mathisBps / 1e6)} Mb/s`, color: MATHIS_COLOR }] : []),
            ...(flow.padhyeBps !== null ? [{ label: 'Padhye (theory)', value: `${MBPS.format(flow.padhyeBps / 1e6)} Mb/s`, color: PADHYE_COLOR }] : []),
            { label: 'equal share', value: `${MBPS.format(equalShare / 1e6)} Mb/s` },
            { label: 'dropped', value: `${flow.droppedPackets} packets (${PERCENT.format(flow.lossRate)})` },
            ...(flow.meanRttMs !== null ? [{ label: 'mean RTT', value: `${MBPS.format(flow.meanRttMs)} ms` }] : []),
          ],
        };
      }}
    >
      {(plot) => {
        if (!hasData) return null;
        const x = scaleBand<number>()
          .domain(flows.map((f) => f.flowId))
          .range([0, plot.width])
          .padding(0.15);
        const y = scaleLinear()
          .domain([0, top / 1e6])
          .range([plot.height, 0])
          .nice();
        const labelEvery = Math.max(1, Math.ceil(flows.length / Math.max(1, plot.width / 28)));
        return (
          <>
            <AxisLeft scale={y} label="goodput (Mb/s)" gridLength={plot.width} />
            <g className="bars" data-points={flows.length}>
              {flows.map((f) => (
                <rect
                  key={f.flowId}
                  x={x(f.flowId)}
                  width={x.bandwidth()}
                  y={y(f.goodputBps / 1e6)}
                  height={plot.height - y(f.goodputBps / 1e6)}
                  fill={f.color}
                />
              ))}
            </g>
            <g className="fair-shares">
              {flows.map((f) => (
                <line
                  key={f.flowId}
                  x1={x(f.flowId)}
                  x2={(x(f.flowId) ?? 0) + x.bandwidth()}
                  y1={y(f.fairShareBps / 1e6)}
                  y2={y(f.fairShareBps / 1e6)}
                  stroke={COLORS.vermillion}
                  strokeWidth={3}
                />
              ))}
            </g>
            <TcpModelMarks flows={flows} x={x} y={y} />
            <g className="axis" transform={`translate(0,${plot.height})`}>
              <line x2={plot.width} className="axis-line" />
              {flows
                .filter((_, i) => i % labelEvery === 0)
                .map((f) => (
                  <text key={f.flowId} x={(x(f.flowId) ?? 0) + x.bandwidth() / 2} y={18} textAnchor="middle">
                    {f.flowId}
                  </text>
                ))}
              <text className="axis-label" x={plot.width / 2} y={37} textAnchor="middle">
                flow
              </text>
            </g>
            <g transform={`translate(0,${y(equalShare / 1e6)})`}>
              <line x2={plot.width} stroke={COLORS.black} strokeWidth={2} strokeDasharray="6 4" data-testid="equal-share" />
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
});
