// One quantity of two runs over simulated time on one shared pair of axes:
// the first scheme's lines solid, the partner's dashed, so the two read
// apart even where they overlap and without relying on colour.

import { scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from '../charts/Axis';
import { ChartFrame, type LegendEntry, type TooltipRow } from '../charts/ChartFrame';
import { decimateMinMax, maxOf, nearestIndex } from '../charts/decimate';
import { TIME_MARGIN, formatSeconds, linePath, timeScale, type TimeWindow } from '../charts/timeAxis';

export interface CompareLine {
  label: string;
  color: string;
  dashed: boolean;
  timeS: Float64Array;
  values: Float64Array;
}

/** What one compare chart plots; the area gives them all one window and height. */
export interface CompareTimeChartSpec {
  title: string;
  testId: string;
  description: string;
  yLabel: string;
  lines: readonly CompareLine[];
  /** Smallest top of the y axis (both runs share the axis, which grows to the larger of them). */
  minTop: number;
  /** Caps the y axis (e.g. 1 for a share). */
  maxTop?: number;
  /** Tick and tooltip numbers; `unit` follows them in the tooltip. */
  format: (value: number) => string;
  unit?: string;
}

interface CompareTimeChartProps extends CompareTimeChartSpec {
  window: TimeWindow;
  height: number;
}

/** Dash pattern of the partner's lines. */
export const PARTNER_DASH = '7 4';

/** No right axis here: the time charts' usual right margin would only waste width. */
const MARGIN = { ...TIME_MARGIN, right: 18 };

export function CompareTimeChart({
  title,
  testId,
  description,
  yLabel,
  lines,
  minTop,
  maxTop = Infinity,
  format,
  unit,
  window,
  height,
}: CompareTimeChartProps) {
  const legend: LegendEntry[] = lines.map((l) => ({ label: l.label, color: l.color, dashed: l.dashed }));
  const top = Math.min(maxTop, Math.max(minTop, ...lines.map((l) => maxOf(l.values) * 1.1)));
  const empty = lines.every((l) => l.timeS.length === 0);

  return (
    <ChartFrame
      title={title}
      testId={testId}
      height={height}
      margin={MARGIN}
      legend={legend}
      description={description}
      emptyMessage={empty ? 'Waiting for the first samples…' : undefined}
      hover={(plotX, plot) => {
        const t = timeScale(window, plot.width).invert(plotX);
        const rows: TooltipRow[] = [];
        let atS: number | null = null;
        for (const l of lines) {
          const i = nearestIndex(l.timeS, t);
          if (i < 0) continue;
          atS ??= l.timeS[i];
          rows.push({ label: l.label, value: unit ? `${format(l.values[i])} ${unit}` : format(l.values[i]), color: l.color });
        }
        if (atS === null) return null;
        return { x: timeScale(window, plot.width)(atS), title: `t = ${formatSeconds(atS)}`, rows };
      }}
    >
      {(plot) => {
        const x = timeScale(window, plot.width);
        const y = scaleLinear().domain([0, top]).range([plot.height, 0]).nice();
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="simulated time (s)" gridLength={plot.height} />
            <AxisLeft scale={y} label={yLabel} gridLength={plot.width} format={format} />
            <g clipPath={plot.clip}>
              {lines.map((l) => {
                // About one point per pixel column, as in the single-run charts.
                const reduced = decimateMinMax(l.timeS, l.values, plot.width / 2);
                return (
                  <path
                    key={l.label}
                    className="series"
                    d={linePath(reduced.x, reduced.y, x, y)}
                    stroke={l.color}
                    strokeWidth={l.dashed ? 2.25 : 1.75}
                    strokeDasharray={l.dashed ? PARTNER_DASH : undefined}
                    data-points={reduced.x.length}
                  />
                );
              })}
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
}
