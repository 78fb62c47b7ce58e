// CoDel's control law in place of a drop-probability curve: once in its
// dropping state, CoDel drops again interval / √count after each drop
// (RFC 8289 §5), so the spacing of its drops against count is its rule. The
// live count sits on it while CoDel drops; the inspector's decision is
// placed from its recorded times.

import { memo } from 'react';
import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame } from './ChartFrame';
import { COLORS } from './palette';
import { pointLabel } from './pointLabel';

export interface CodelLawDecision {
  count: number;
  /** Time from this drop's due time to the next one it scheduled (ms). */
  gapMs: number;
  sojournMs: number;
  targetMs: number;
  verdict: string;
}

interface CodelLawChartProps {
  schemeName: string;
  intervalMs: number;
  /** The current count while CoDel is in its dropping state, else null. */
  count: number | null;
  decision?: CodelLawDecision;
  height: number;
}

const MARGIN = { top: 22, right: 24, bottom: 44, left: 62 };
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
/** Steps per unit of count on the drawn line. */
const STEPS = 8;

const spacing = (intervalMs: number, count: number) => intervalMs / Math.sqrt(Math.max(1, count));

const decisionLabels = (d: CodelLawDecision) => [
  `this ${d.verdict}: count ${d.count}, next ${VALUE.format(d.gapMs)} ms later`,
  `it waited ${VALUE.format(d.sojournMs)} ms (target ${VALUE.format(d.targetMs)} ms)`,
];

export const CodelLawChart = memo(function CodelLawChart({ schemeName, intervalMs, count, decision, height }: CodelLawChartProps) {
  const countTop = Math.max(10, Math.ceil(1.25 * Math.max(count ?? 0, decision?.count ?? 0)));
  const line = Array.from({ length: (countTop - 1) * STEPS + 1 }, (_, i) => 1 + i / STEPS);
  return (
    <ChartFrame
      title={`${schemeName}'s control law`}
      testId="chart-curve"
      height={height}
      margin={MARGIN}
      legend={[
        { label: 'next drop: interval / √count later', color: COLORS.blue },
        ...(count !== null ? [{ label: 'now (dropping)', color: COLORS.vermillion }] : []),
        ...(decision ? [{ label: `this ${decision.verdict}`, color: COLORS.black, marker: 'diamond' as const }] : []),
      ]}
      description={`${schemeName} has no drop probability: once the delay has stayed above target for an interval it drops, and drops again interval / √count later, count being the drops so far in this dropping state. The chart draws that spacing against count.`}
      hover={(plotX, plot) => {
        const x = scaleLinear().domain([0, countTop]).range([0, plot.width]);
        const c = Math.max(1, Math.min(countTop, Math.round(x.invert(plotX))));
        return {
          x: x(c),
          title: `count = ${c}`,
          rows: [{ label: 'next drop after', value: `${VALUE.format(spacing(intervalMs, c))} ms`, color: COLORS.blue }],
        };
      }}
    >
      {(plot) => {
        const x = scaleLinear().domain([0, countTop]).range([0, plot.width]);
        const y = scaleLinear().domain([0, intervalMs]).range([plot.height, 0]).nice();
        const path = line.map((c, i) => `${i === 0 ? 'M' : 'L'}${x(c)},${y(spacing(intervalMs, c))}`).join('');
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="count (drops in this dropping state)" gridLength={plot.height} />
            <AxisLeft scale={y} label="time to the next drop (ms)" gridLength={plot.width} />
            <g clipPath={plot.clip}>
              <path className="series" d={path} stroke={COLORS.blue} strokeWidth={2.5} fill="none" data-testid="law-line" data-interval-ms={intervalMs} />
            </g>
            {count !== null && (
              <g className="operating-point" transform={`translate(${x(Math.min(count, countTop))},${y(spacing(intervalMs, count))})`} data-count={count}>
                <circle r={7} fill={COLORS.vermillion} stroke="white" strokeWidth={2} />
              </g>
            )}
            {decision && (
              <g
                className="decision-point"
                data-testid="decision-point"
                data-count={decision.count}
                data-gap-ms={decision.gapMs}
                transform={`translate(${x(Math.min(decision.count, countTop))},${y(Math.min(decision.gapMs, y.domain()[1]))})`}
              >
                <rect x={-6} y={-6} width={12} height={12} fill={COLORS.black} stroke="white" strokeWidth={2} transform="rotate(45)" />
                {decisionLabels(decision).map((text, i, texts) => {
                  const label = pointLabel(x(Math.min(decision.count, countTop)), plot.width, texts);
                  return (
                    <text
                      key={text}
                      x={label.x}
                      // Below the mark in the plot's upper half, above it in the lower.
                      y={(y(decision.gapMs) < plot.height / 2 ? 22 : -24) + 16 * i}
                      textAnchor={label.anchor}
                      className="annotation-label"
                    >
                      {text}
                    </text>
                  );
                })}
              </g>
            )}
          </>
        );
      }}
    </ChartFrame>
  );
});
