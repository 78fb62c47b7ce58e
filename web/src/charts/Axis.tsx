// Axes drawn by React from d3 scales: tick positions and labels come from the
// scale, so every chart formats its own units; an axis labels fewer ticks
// when their labels would touch (axisTicks.ts), and its title stands clear
// of the widest tick label. Ticks are keyed by position in
// the list, not by value: as a time axis slides, its tick elements are moved
// and relabelled rather than removed and created again every frame.

import { memo } from 'react';
import type { ScaleContinuousNumeric } from 'd3';
import { fitTicks, fitTitle, textMeasure, type AxisTitle } from './axisTicks';

interface AxisProps {
  /** Linear or logarithmic. */
  scale: ScaleContinuousNumeric<number, number>;
  /** Length of grid lines across the plot (0 = no grid). */
  gridLength?: number;
  label: string;
  /** Tick label format; by default the scale's, with SI prefixes from 1000 on. */
  format?: (value: number) => string;
  /** The most ticks to label. */
  ticks?: number;
}

const TICK = 5;
/** Baselines below a horizontal axis: its tick labels clear the lowest label of a vertical axis beside them, its title clears its tick labels. */
const BOTTOM_LABEL_Y = TICK + 15;
const BOTTOM_TITLE_Y = TICK + 34;
/** Font sizes of tick labels and axis titles (app.css `.axis text`, `.axis .axis-label`). */
const TICK_FONT_PX = 12.5;
const TITLE_FONT_PX = 13;
/** A title too long for its axis first shrinks to this size. */
const SMALL_TITLE_FONT_PX = 11;
const TICK_LINE_PX = 16;
/** From a vertical axis line to its title's baseline: past the tick, the gap, the widest label and the title's descent. */
const titleOffset = (maxLabelWidth: number, least: number) => Math.max(least, TICK + 3 + maxLabelWidth + 8);

/** The title along an axis `lengthPx` long: it may reach a little past the plot's ends, into the margins. */
const axisTitle = (label: string, lengthPx: number): AxisTitle => fitTitle(label, Math.abs(lengthPx) + 30, TITLE_FONT_PX, SMALL_TITLE_FONT_PX, textMeasure);

function TitleText({ title, ...position }: { title: AxisTitle; x?: number; y?: number; transform?: string }) {
  return (
    <text className="axis-label" textAnchor="middle" style={title.sizePx === TITLE_FONT_PX ? undefined : { fontSize: title.sizePx }} {...position}>
      {title.full && <title>{title.full}</title>}
      {title.text}
    </text>
  );
}

/**
 * Charts re-render every frame while data streams in, with new scale
 * objects; an axis whose scale maps the same domain to the same range (the
 * value axes, most frames) is not drawn again.
 */
function sameAxis(a: AxisProps & { offset?: number }, b: AxisProps & { offset?: number }): boolean {
  const [a0, a1] = a.scale.domain();
  const [b0, b1] = b.scale.domain();
  const [ar0, ar1] = a.scale.range();
  const [br0, br1] = b.scale.range();
  return (
    a0 === b0 &&
    a1 === b1 &&
    ar0 === br0 &&
    ar1 === br1 &&
    a.gridLength === b.gridLength &&
    a.label === b.label &&
    a.format === b.format &&
    a.ticks === b.ticks &&
    a.offset === b.offset
  );
}

export const AxisBottom = memo(function AxisBottom({ scale, gridLength = 0, label, format, ticks = 6, offset }: AxisProps & { offset: number }) {
  const { values, labels } = fitTicks(scale, ticks, format, textMeasure(TICK_FONT_PX), 'horizontal', TICK_LINE_PX);
  const [x0, x1] = scale.range();
  return (
    <g className="axis" transform={`translate(0,${offset})`}>
      <line x1={x0} x2={x1} className="axis-line" />
      {values.map((v, i) => (
        <g key={i} transform={`translate(${scale(v)},0)`}>
          {gridLength > 0 && <line y1={-gridLength} y2={0} className="grid-line" />}
          <line y2={TICK} className="axis-line" />
          <text y={BOTTOM_LABEL_Y} textAnchor="middle">
            {labels[i]}
          </text>
        </g>
      ))}
      <TitleText title={axisTitle(label, x1 - x0)} x={(x0 + x1) / 2} y={BOTTOM_TITLE_Y} />
    </g>
  );
}, sameAxis);

export const AxisLeft = memo(function AxisLeft({ scale, gridLength = 0, label, format, ticks = 5 }: AxisProps) {
  const { values, labels, maxWidth } = fitTicks(scale, ticks, format, textMeasure(TICK_FONT_PX), 'vertical', TICK_LINE_PX);
  const [y0, y1] = scale.range();
  return (
    <g className="axis">
      <line y1={y0} y2={y1} className="axis-line" />
      {values.map((v, i) => (
        <g key={i} transform={`translate(0,${scale(v)})`}>
          {gridLength > 0 && <line x2={gridLength} className="grid-line" />}
          <line x2={-TICK} className="axis-line" />
          <text x={-TICK - 3} dy="0.32em" textAnchor="end">
            {labels[i]}
          </text>
        </g>
      ))}
      <TitleText title={axisTitle(label, y1 - y0)} transform={`translate(${-titleOffset(maxWidth, 46)},${(y0 + y1) / 2}) rotate(-90)`} />
    </g>
  );
}, sameAxis);

export const AxisRight = memo(function AxisRight({ scale, label, format, ticks = 5, offset }: AxisProps & { offset: number }) {
  const { values, labels, maxWidth } = fitTicks(scale, ticks, format, textMeasure(TICK_FONT_PX), 'vertical', TICK_LINE_PX);
  const [y0, y1] = scale.range();
  return (
    <g className="axis" transform={`translate(${offset},0)`}>
      <line y1={y0} y2={y1} className="axis-line" />
      {values.map((v, i) => (
        <g key={i} transform={`translate(0,${scale(v)})`}>
          <line x2={TICK} className="axis-line" />
          <text x={TICK + 3} dy="0.32em" textAnchor="start">
            {labels[i]}
          </text>
        </g>
      ))}
      <TitleText title={axisTitle(label, y1 - y0)} transform={`translate(${titleOffset(maxWidth, 48)},${(y0 + y1) / 2}) rotate(90)`} />
    </g>
  );
}, sameAxis);
