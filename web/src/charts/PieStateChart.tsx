// PIE's state in place of a drop-probability curve: PIE's p is no function
// of the queue delay but the integral of its controller (RFC 8033 §4.2),
// rising while the delay is above target and falling below it. The chart
// draws where arrivals met p and the delay: the corner where PIE never drops
// early (delay below target / 2 and p below 0.2, §4.1), the target, the
// state now, and, while paused, the kept decisions with the selected one.

import { memo } from 'react';
import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame } from './ChartFrame';
import { COLORS } from './palette';
import { pointLabel } from './pointLabel';

export interface PiePoint {
  qdelayMs: number;
  p: number;
  verdict: string;
}

interface PieStateChartProps {
  schemeName: string;
  targetMs: number;
  /** p below which, with the delay below target / 2, PIE drops nothing early. */
  quietP: number;
  /** The state now (the probes), when known. */
  now?: { qdelayMs: number; p: number };
  /** The kept decisions, while paused. */
  points: readonly PiePoint[];
  decision?: PiePoint;
  height: number;
}

const MARGIN = { top: 22, right: 24, bottom: 44, left: 62 };
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
const DELAY = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const VERDICT_COLOR: Record<string, string> = { drop: COLORS.vermillion, mark: COLORS.orange, pass: COLORS.skyBlue };

export const PieStateChart = memo(function PieStateChart({ schemeName, targetMs, quietP, now, points, decision, height }: PieStateChartProps) {
  const all = [...points, ...(decision ? [decision] : []), ...(now ? [now] : [])];
  // A few arrivals after a burst met a long delay: the axis covers 95 % of the kept decisions (and the state now and the selected one) so the rest stay readable.
  const delays = points.map((d) => d.qdelayMs).sort((a, b) => a - b);
  const typicalDelay = delays.length > 0 ? delays[Math.floor(0.95 * (delays.length - 1))] : 0;
  const xTop = Math.max(2 * targetMs, 1.1 * Math.max(typicalDelay, decision?.qdelayMs ?? 0, now?.qdelayMs ?? 0));
  const yTop = Math.min(1, Math.max(1.25 * quietP, 1.1 * Math.max(0, ...all.map((d) => d.p))));
  const shown = new Set(points.map((d) => d.verdict));
  return (
    <ChartFrame
      title={`${schemeName}'s drop probability and queue delay`}
      testId="chart-curve"
      height={height}
      margin={MARGIN}
      legend={[
        { label: 'no early drop here', color: COLORS.green },
        { label: 'target', color: COLORS.black, dashed: true },
        ...(now ? [{ label: 'now', color: COLORS.blue }] : []),
        ...(['drop', 'mark', 'pass'] as const)
          .filter((v) => shown.has(v))
          .map((v) => ({ label: `${v === 'pass' ? 'passes' : `${v}s`} kept`, color: VERDICT_COLOR[v], marker: 'dot' as const })),
        ...(decision ? [{ label: `this ${decision.verdict}`, color: COLORS.black, marker: 'diamond' as const }] : []),
      ]}
      description={`${schemeName}'s drop probability p is not a function of the delay: every update raises it while the queue delay is above target and lowers it below. Arrivals are dropped with probability p, except in the corner where the delay is below half the target and p below ${quietP}.`}
      hover={(plotX, plot) => {
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        const delay = x.invert(plotX);
        return {
          x: plotX,
          title: `queue delay ${VALUE.format(delay)} ms`,
          rows: [
            { label: 'p moves', value: delay > targetMs ? 'up (above target)' : delay < targetMs ? 'down (below target)' : 'not at all', color: COLORS.black },
          ],
        };
      }}
    >
      {(plot) => {
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        const y = scaleLinear().domain([0, yTop]).range([plot.height, 0]).nice();
        const at = (d: { qdelayMs: number; p: number }) => `translate(${x(d.qdelayMs)},${y(d.p)})`;
        const decisionText = decision && `this ${decision.verdict}: p = ${VALUE.format(decision.p)}, delay ${DELAY.format(decision.qdelayMs)} ms`;
        const label = decision && decisionText ? pointLabel(x(decision.qdelayMs), plot.width, [decisionText]) : undefined;
        return (
          <>
            <rect x={0} y={y(quietP)} width={x(targetMs / 2)} height={plot.height - y(quietP)} fill={COLORS.green} opacity={0.25} data-testid="pie-quiet" />
            <AxisBottom scale={x} offset={plot.height} label="queue delay at the last update (ms)" gridLength={plot.height} />
            <AxisLeft scale={y} label="drop probability p" gridLength={plot.width} />
            <line x1={x(targetMs)} x2={x(targetMs)} y1={0} y2={plot.height} stroke={COLORS.black} strokeDasharray="4 3" data-testid="pie-target" />
            <g clipPath={plot.clip}>
              {points.map((d, i) => (
                <circle key={i} transform={at(d)} r={2.5} fill={VERDICT_COLOR[d.verdict] ?? COLORS.black} opacity={0.6} />
              ))}
            </g>
            {now && (
              <g className="operating-point" transform={at(now)} data-qdelay-ms={now.qdelayMs} data-p={now.p}>
                <circle r={7} fill={COLORS.blue} stroke="white" strokeWidth={2} />
              </g>
            )}
            {decision && (
              <g className="decision-point" data-testid="decision-point" data-qdelay-ms={decision.qdelayMs} data-p={decision.p} transform={at(decision)}>
                <rect x={-6} y={-6} width={12} height={12} fill={COLORS.black} stroke="white" strokeWidth={2} transform="rotate(45)" />
                <text x={label?.x} y={y(decision.p) < plot.height / 2 ? 22 : -12} textAnchor={label?.anchor} className="annotation-label">
                  {decisionText}
                </text>
              </g>
            )}
          </>
        );
      }}
    </ChartFrame>
  );
});
