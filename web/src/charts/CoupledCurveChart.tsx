// DualPI2's two probabilities against its base probability p′ (RFC 9332
// §2.4): the classic queue's p_C = p′² and the L4S queue's coupled
// min(k·p′, 1), with the current operating point of each, and the
// inspector's selected decision at the p′ and p it recorded.

import { memo } from 'react';
import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from './Axis';
import { textMeasure } from './axisTicks';
import { ChartFrame } from './ChartFrame';
import { COLORS } from './palette';
import { pointLabel } from './pointLabel';

/** The probabilities at one sample: the base p′, the classic p_C and the L4S p_L. */
export interface CoupledPoint {
  pPrime: number;
  pC: number;
  pL: number;
}

interface CoupledCurveChartProps {
  /** The coupling factor k. */
  k: number;
  /** k's visible name, as on its slider. */
  kName: string;
  point: CoupledPoint | undefined;
  height: number;
  /** The inspector's selected decision: its base probability p′ and the probability the packet met. */
  decision?: { x: number; p: number; verdict: string };
}

const MARGIN = { top: 22, right: 24, bottom: 44, left: 62 };
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
/** Probabilities now: two significant digits, so p′² = 0.00008 does not read as 0. */
const NOW = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 });
const STEPS = 200;
const measureLabel = (text: string) => textMeasure(12)(text) * 1.08;
const classic = (p: number) => p * p;
const coupled = (k: number) => (p: number) => Math.min(k * p, 1);

export const CoupledCurveChart = memo(function CoupledCurveChart({ k, kName, point, height, decision }: CoupledCurveChartProps) {
  // Show the overload threshold 1/k and a little past it, and the operating point and the decision wherever they are.
  const xTop = Math.min(1, Math.max(1.25 / k, (point?.pPrime ?? 0) * 1.2, (decision?.x ?? 0) * 1.2));
  const samples = Array.from({ length: STEPS + 1 }, (_, i) => (i / STEPS) * xTop);
  const overload = 1 / k;
  const lines = [
    { key: 'c', label: 'classic p_C = p′²', color: COLORS.blue, p: classic, at: point?.pC },
    { key: 'l', label: `L4S coupled min(k·p′, 1), k = ${VALUE.format(k)}`, color: COLORS.vermillion, p: coupled(k), at: point?.pL },
  ];
  return (
    <ChartFrame
      title="Coupled probabilities (DualPI2)"
      testId="chart-curve"
      height={height}
      margin={MARGIN}
      // The values live in the legend: labels beside two markers at one p′ would collide near 0.
      legend={[
        ...lines.map((l) => ({ label: l.label, color: l.color })),
        {
          label: point ? `now: p′ = ${NOW.format(point.pPrime)}, p_C = ${NOW.format(point.pC)}, p_L = ${NOW.format(point.pL)}` : 'now',
          color: COLORS.black,
          dashed: true,
        },
        ...(decision ? [{ label: `this ${decision.verdict}`, color: COLORS.black, marker: 'diamond' as const }] : []),
      ]}
      description={`DualPI2's classic probability p′ squared and L4S probability min(k·p′, 1) against the base probability p′, with ${kName} = ${VALUE.format(k)} and the current values`}
      hover={(plotX, plot) => {
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]);
        const p = Math.max(0, Math.min(xTop, x.invert(plotX)));
        return {
          x: x(p),
          title: `p′ = ${VALUE.format(p)}`,
          rows: [
            ...lines.map((l) => ({ label: l.label, value: VALUE.format(l.p(p)), color: l.color })),
            ...(point
              ? [{ label: 'now', value: `p′ ${NOW.format(point.pPrime)}: p_C ${NOW.format(point.pC)}, p_L ${NOW.format(point.pL)}`, color: COLORS.black }]
              : []),
          ],
        };
      }}
    >
      {(plot) => {
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]);
        const y = scaleLinear().domain([0, 1]).range([plot.height, 0]);
        const path = (p: (v: number) => number) => samples.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(v)},${y(p(v))}`).join('');
        const overloadX = x(Math.min(overload, xTop));
        const opX = point ? x(Math.min(point.pPrime, xTop)) : 0;
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="base probability p′" gridLength={plot.height} />
            <AxisLeft scale={y} label="probability" gridLength={plot.width} />
            <g clipPath={plot.clip}>
              {overload < xTop && (
                <rect x={overloadX} width={plot.width - overloadX} height={plot.height} fill={COLORS.vermillion} opacity={0.08} data-testid="curve-overload" />
              )}
              {lines.map((l) => (
                <path
                  key={l.key}
                  className="series"
                  d={path(l.p)}
                  stroke={l.color}
                  strokeWidth={2.5}
                  fill="none"
                  data-testid={`curve-line-${l.key}`}
                  data-points={samples.length}
                />
              ))}
            </g>
            {overload < xTop && (
              <text x={overloadX + 6} y={plot.height - 8} className="chart-note">
                {overloadX + 6 + measureLabel('overload: L4S dropped with p_C') < plot.width ? 'overload: L4S dropped with p_C' : 'overload'}
              </text>
            )}
            {point && (
              <>
                {lines.map((l) => (
                  <circle
                    key={l.key}
                    cx={opX}
                    cy={y(l.at ?? 0)}
                    r={6}
                    fill={l.color}
                    stroke="white"
                    strokeWidth={2}
                    data-testid={`operating-point-${l.key}`}
                    data-p={l.at ?? 0}
                  />
                ))}
                <line x1={opX} x2={opX} y1={0} y2={plot.height} stroke={COLORS.black} strokeDasharray="3 3" data-testid="operating-line" />
              </>
            )}
            {decision && <DecisionPoint decision={decision} x={x(Math.min(decision.x, xTop))} y={y(Math.min(1, decision.p))} plot={plot} />}
          </>
        );
      }}
    </ChartFrame>
  );
});

/** The selected decision as a diamond, labelled with its probabilities. */
function DecisionPoint({
  decision,
  x,
  y,
  plot,
}: {
  decision: { x: number; p: number; verdict: string };
  x: number;
  y: number;
  plot: { width: number; height: number };
}) {
  const text = `this ${decision.verdict}: p′ = ${NOW.format(decision.x)}, p = ${NOW.format(decision.p)}`;
  const label = pointLabel(x, plot.width, [text]);
  return (
    <g className="decision-point" data-testid="decision-point" data-x={decision.x} data-p={decision.p} transform={`translate(${x},${y})`}>
      <rect x={-6} y={-6} width={12} height={12} fill={COLORS.black} stroke="white" strokeWidth={2} transform="rotate(45)" />
      <text x={label.x} y={y < plot.height / 2 ? 22 : -12} textAnchor={label.anchor} className="annotation-label">
        {text}
      </text>
    </g>
  );
}
