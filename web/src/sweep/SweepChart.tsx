// A sweep's result: the chosen metric against the swept value. Each value
// gets the mean over its seeds (a line through the means), a whisker from
// the lowest to the highest seed, and every seed's own result as a dot, so
// the spread between seeds is never hidden behind the mean.

import { memo } from 'react';
import { extent, scaleLinear } from 'd3';
import { AxisBottom, AxisLeft } from '../charts/Axis';
import { ChartFrame } from '../charts/ChartFrame';
import { COLORS } from '../charts/palette';
import type { SweepAggregate } from './model';

interface SweepChartProps {
  title: string;
  aggregates: readonly SweepAggregate[];
  /** The swept field with its unit, e.g. "max_p" or "bottleneck rate (Mb/s)". */
  xLabel: string;
  /** Engine units per axis unit of the swept field (1e6 for Mb/s). */
  xScale: number;
  /** The metric with its unit. */
  yLabel: string;
  yUnit: string;
  /** Start the vertical axis at zero. */
  fromZero: boolean;
  height: number;
}

const MARGIN = { top: 16, right: 24, bottom: 46, left: 66 };
const NUMBER = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const WHISKER_CAP_PX = 5;

function withUnit(value: number, unit: string): string {
  return unit === '%' ? `${NUMBER.format(value)}%` : unit ? `${NUMBER.format(value)} ${unit}` : NUMBER.format(value);
}

export const SweepChart = memo(function SweepChart({ title, aggregates, xLabel, xScale, yLabel, yUnit, fromZero, height }: SweepChartProps) {
  const xs = aggregates.map((a) => a.value / xScale);
  const ys = aggregates.flatMap((a) => [a.min, a.max]);
  const [xLo = 0, xHi = 1] = extent(xs);
  const [yLo = 0, yHi = 1] = extent(ys);
  // A single value (or flat results) still needs an axis with some width.
  const xPad = xLo === xHi ? Math.abs(xLo) * 0.1 || 1 : (xHi - xLo) * 0.04;
  const yPad = yLo === yHi ? Math.abs(yLo) * 0.1 || 1 : (yHi - yLo) * 0.08;
  const xDomain: [number, number] = [xLo - xPad, xHi + xPad];
  const yDomain: [number, number] = [fromZero ? Math.min(0, yLo) : yLo - yPad, yHi + yPad];
  const runs = aggregates.reduce((sum, a) => sum + a.bySeed.length, 0);

  const scales = (width: number, plotHeight: number) => ({
    x: scaleLinear().domain(xDomain).range([0, width]),
    y: scaleLinear().domain(yDomain).range([plotHeight, 0]).nice(),
  });

  return (
    <ChartFrame
      title={title}
      testId="chart-sweep"
      height={height}
      margin={MARGIN}
      legend={[
        { label: 'mean over seeds', color: COLORS.blue },
        { label: 'lowest to highest seed', color: COLORS.black },
        { label: 'each seed', color: COLORS.orange },
      ]}
      description={`${yLabel} against ${xLabel}: the mean over seeds, the range between seeds, and each seed's run`}
      emptyMessage={aggregates.length ? undefined : 'Points appear here as the runs finish.'}
      hover={(plotX, plot) => {
        if (!aggregates.length) return null;
        const { x } = scales(plot.width, plot.height);
        let nearest = aggregates[0];
        for (const a of aggregates) if (Math.abs(x(a.value / xScale) - plotX) < Math.abs(x(nearest.value / xScale) - plotX)) nearest = a;
        return {
          x: x(nearest.value / xScale),
          title: `${xLabel} = ${NUMBER.format(nearest.value / xScale)}`,
          rows: [
            { label: 'mean', value: withUnit(nearest.mean, yUnit), color: COLORS.blue },
            { label: 'lowest – highest', value: `${NUMBER.format(nearest.min)} – ${withUnit(nearest.max, yUnit)}` },
            ...nearest.bySeed.map(({ seed, y }) => ({ label: `seed ${seed}`, value: withUnit(y, yUnit), color: COLORS.orange })),
          ],
        };
      }}
    >
      {(plot) => {
        if (!aggregates.length) return null;
        const { x, y } = scales(plot.width, plot.height);
        const meanPath = aggregates.map((a, i) => `${i ? 'L' : 'M'}${x(a.value / xScale)},${y(a.mean)}`).join('');
        return (
          <>
            <AxisLeft scale={y} label={yLabel} gridLength={plot.width} />
            <AxisBottom scale={x} label={xLabel} offset={plot.height} gridLength={plot.height} />
            <g className="sweep-whiskers" stroke={COLORS.black} strokeWidth={1.5}>
              {aggregates.map((a) => {
                const cx = x(a.value / xScale);
                return (
                  <g key={a.value}>
                    <line x1={cx} x2={cx} y1={y(a.min)} y2={y(a.max)} />
                    <line x1={cx - WHISKER_CAP_PX} x2={cx + WHISKER_CAP_PX} y1={y(a.min)} y2={y(a.min)} />
                    <line x1={cx - WHISKER_CAP_PX} x2={cx + WHISKER_CAP_PX} y1={y(a.max)} y2={y(a.max)} />
                  </g>
                );
              })}
            </g>
            <path className="series" d={meanPath} stroke={COLORS.blue} strokeWidth={2.5} />
            <g className="sweep-seeds" data-runs={runs}>
              {aggregates.flatMap((a) =>
                a.bySeed.map(({ seed, y: value }) => (
                  <circle
                    key={`${a.value}/${seed}`}
                    cx={x(a.value / xScale) + 9}
                    cy={y(value)}
                    r={3.5}
                    fill="#fff"
                    stroke={COLORS.orange}
                    strokeWidth={2}
                    data-testid="sweep-seed-point"
                    data-value={a.value}
                    data-seed={seed}
                    data-y={value}
                  />
                )),
              )}
            </g>
            <g className="sweep-means" data-points={aggregates.length}>
              {aggregates.map((a) => (
                <circle
                  key={a.value}
                  cx={x(a.value / xScale)}
                  cy={y(a.mean)}
                  r={5}
                  fill={COLORS.blue}
                  stroke="#fff"
                  strokeWidth={1.5}
                  data-testid="sweep-mean-point"
                  data-value={a.value}
                  data-mean={a.mean}
                  data-min={a.min}
                  data-max={a.max}
                  data-seeds={a.bySeed.length}
                />
              ))}
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
});
