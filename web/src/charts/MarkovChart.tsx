// Zheng & Atiquzzaman 2000 §2.3's Markov-chain model beside the run: the drop probability
// that RED or DSRED gives Poisson arrivals at offered load ρ = λ/μ (theory),
// and where each congested hop of this run sits (measured offered load and
// drop rate over the measurement window).

import { memo } from 'react';
import { scaleLinear, scaleLog } from 'd3';
import type { ModelPoint } from '../scenario/types';
import { AxisBottom, AxisLeft } from './Axis';
import { ChartFrame } from './ChartFrame';
import { Marker } from './markers';
import { COLORS } from './palette';

export interface MeasuredLoad {
  hop: number;
  /** Arriving bits over what the link carries in the window. */
  offeredLoad: number;
  /** Dropped over arrived packets at this hop in the window. */
  dropRate: number;
  /** ECN-marked over arrived packets: the model's "drop" is the scheme's drop-or-mark decision. */
  markRate: number;
}

/** What the model predicts for a hop: the share of arrivals dropped or marked. */
const congestionSignal = (m: MeasuredLoad) => m.dropRate + m.markRate;
const signalLabel = (m: MeasuredLoad) => (m.markRate > 0 ? 'drop + mark' : 'drop');

interface MarkovChartProps {
  model: readonly ModelPoint[];
  measured: readonly MeasuredLoad[];
  schemeName: string;
  windowS: number;
  height: number;
}

/** Left: room for "≤10⁻⁴" and the axis title beside it. */
const MARGIN = { top: 22, right: 24, bottom: 44, left: 70 };
const VALUE = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });

/** The model's assumptions, in the plot's bottom right corner: two lines, or four on a narrow plot (a phone). */
const NOTES = ['Poisson arrivals, avg = queue (Zheng & Atiquzzaman 2000 §2.3).', 'TCP backs off when dropped: it may sit off the curve.'];
const NOTES_NARROW = ['Poisson arrivals, avg = queue', '(Zheng & Atiquzzaman 2000 §2.3).', 'TCP backs off when dropped:', 'it may sit off the curve.'];
const NARROW_PLOT_PX = 480;
/** Line spacing of the notes in the corner. */
const NOTE_LINE_PX = 16;

/** The log axis's floor: below one drop in ten thousand the curve runs along the bottom. */
const P_FLOOR = 1e-4;
const atLeastFloor = (p: number) => Math.max(P_FLOOR, p);
const SUPERSCRIPT: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };
/** 1, 0.1, 0.01, then 10⁻³, 10⁻⁴: short labels for a narrow axis. */
const powerOfTen = (exponent: number) => (exponent >= -2 ? String(10 ** exponent) : `10${[...String(exponent)].map((c) => SUPERSCRIPT[c]).join('')}`);
/** Labels at powers of ten only; the floor reads "≤" since smaller values are drawn on it. */
const powerOfTenTick = (v: number) => {
  const exponent = Math.round(Math.log10(v) * 1e6) / 1e6;
  if (!Number.isInteger(exponent)) return '';
  return v <= P_FLOOR ? `≤${powerOfTen(exponent)}` : powerOfTen(exponent);
};

/** 1 − 1/ρ: what a saturated link must drop whatever the scheme (flow conservation). */
const saturationFloor = (rho: number) => Math.max(0, 1 - 1 / rho);

// Memoised: the model arrives with each snapshot (a few times per second).
export const MarkovChart = memo(function MarkovChart({ model, measured, schemeName, windowS, height }: MarkovChartProps) {
  const points = windowS > 0 ? measured : [];
  const xTop = Math.max(1e-9, ...model.map((p) => p.load));
  const title = 'Drop probability vs offered load — Markov model (theory)';

  return (
    <ChartFrame
      title={title}
      testId="chart-markov"
      height={height}
      margin={MARGIN}
      legend={[
        { label: `${schemeName} Markov model (theory)`, color: COLORS.blue },
        { label: '1 − 1/ρ: saturated link (theory)', color: COLORS.black, dashed: true },
        { label: 'this run (measured)', color: COLORS.vermillion, marker: 'dot' },
      ]}
      description={`drop probability that Zheng & Atiquzzaman's (2000) Markov chain predicts for ${schemeName} against the offered load, with this run's measured offered load and drop rate`}
      emptyMessage={model.length === 0 ? 'No model for this scheme.' : undefined}
      hover={(plotX, plot) => {
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        const target = x.invert(plotX);
        const nearest = model.reduce((best, p) => (Math.abs(p.load - target) < Math.abs(best.load - target) ? p : best), model[0]);
        if (!nearest) return null;
        return {
          x: x(nearest.load),
          title: `offered load ρ = ${VALUE.format(nearest.load)}`,
          rows: [
            { label: 'model P_D (theory)', value: VALUE.format(nearest.drop_probability), color: COLORS.blue },
            { label: '1 − 1/ρ', value: VALUE.format(saturationFloor(nearest.load)), color: COLORS.black },
            ...points.map((m) => ({
              label: points.length > 1 ? `hop ${m.hop} measured` : 'measured',
              value: `ρ ${VALUE.format(m.offeredLoad)}, ${signalLabel(m)} ${VALUE.format(congestionSignal(m))}`,
              color: COLORS.vermillion,
            })),
          ],
        };
      }}
    >
      {(plot) => {
        if (model.length === 0) return null;
        const x = scaleLinear().domain([0, xTop]).range([0, plot.width]).nice();
        // Logarithmic: below saturation the drop probabilities that tell schemes apart are small.
        const y = scaleLog().domain([P_FLOOR, 1]).range([plot.height, 0]).clamp(true);
        const line = (values: readonly (readonly [number, number])[]) =>
          values.map(([r, p], i) => `${i === 0 ? 'M' : 'L'}${x(r)},${y(atLeastFloor(p))}`).join('');
        // From 0.01 up: lower, the line would run down through the notes in the corner.
        const floor = model.filter((p) => saturationFloor(p.load) >= 0.01).map((p) => [p.load, saturationFloor(p.load)] as const);
        const notes = plot.width < NARROW_PLOT_PX ? NOTES_NARROW : NOTES;
        // The top of the notes' first line (its baseline less the type's height).
        const notesTop = plot.height - 8 - NOTE_LINE_PX * (notes.length - 1) - NOTE_LINE_PX;
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="offered load ρ = λ/μ (arrivals / link capacity)" gridLength={plot.height} />
            <AxisLeft scale={y} label="drop probability (log)" gridLength={plot.width} ticks={3} format={powerOfTenTick} />
            <g clipPath={plot.clip}>
              <path className="series" d={line(floor)} stroke={COLORS.black} strokeWidth={1.5} strokeDasharray="6 4" />
              <path
                className="series"
                d={line(model.map((p) => [p.load, p.drop_probability] as const))}
                stroke={COLORS.blue}
                strokeWidth={2.5}
                data-testid="markov-line"
                data-points={model.length}
              />
            </g>
            {/* Bottom right, where the curve is high and the saturation line above 0.01; over
                the lines, with a halo, since large type (present mode) reaches the rising curve. */}
            {notes.map((note, i) => (
              <text key={note} className="chart-note" x={plot.width - 6} y={plot.height - 8 - NOTE_LINE_PX * (notes.length - 1 - i)} textAnchor="end">
                {note}
              </text>
            ))}
            {points.map((m) => {
              const px = x(Math.min(m.offeredLoad, x.domain()[1]));
              const py = y(atLeastFloor(congestionSignal(m)));
              const labelOnLeft = px > plot.width / 2;
              // A point low in the plot would have its label on the notes: lift the label above them.
              const labelY = Math.min(py - 10, notesTop - 4);
              return (
                <g key={m.hop} className="measured-load" data-load={m.offeredLoad} data-drop={m.dropRate} data-mark={m.markRate}>
                  <Marker shape="dot" x={px} y={py} r={6} color={COLORS.vermillion} />
                  <text
                    x={px + (labelOnLeft ? -10 : 10)}
                    y={labelY}
                    textAnchor={labelOnLeft ? 'end' : 'start'}
                    className="annotation-label"
                    fill={COLORS.vermillion}
                  >
                    {`${points.length > 1 ? `hop ${m.hop}: ` : ''}ρ ${VALUE.format(m.offeredLoad)}, ${signalLabel(m)} ${VALUE.format(congestionSignal(m))}`}
                  </text>
                </g>
              );
            })}
          </>
        );
      }}
    </ChartFrame>
  );
});
