// Queueing delay against goodput, one point per interval of the run, a
// 1-sigma covariance ellipse and the mean per scheme: the plot RFC 7928,
// the ns-3 AQM evaluation suite and Flent use to rank schemes at a glance.
// The delay axis runs backwards, so better (less delay, more goodput) is up
// and to the right for every scheme.

import { extent, scaleLinear } from 'd3';
import type { ReactNode } from 'react';
import { AxisBottom, AxisLeft } from '../charts/Axis';
import { ChartFrame, type LegendEntry } from '../charts/ChartFrame';
import { covarianceEllipse, ellipseOutline, type IntervalPoint } from './delayGoodput';
import { PARTNER_DASH } from './CompareTimeChart';

export interface SchemeCloud {
  label: string;
  color: string;
  /** The partner's cloud: hollow points, dashed ellipse. */
  partner: boolean;
  points: readonly IntervalPoint[];
}

interface DelayGoodputChartProps {
  clouds: readonly SchemeCloud[];
  intervalS: number;
  height: number;
}

const MARGIN = { top: 22, right: 18, bottom: 44, left: 62 };
const INSET_PX = 10;
const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

/** A domain around `values` with some room, never below zero. */
function paddedDomain(values: number[]): [number, number] {
  const [lo = 0, hi = 1] = extent(values);
  const pad = Math.max((hi - lo) * 0.12, Math.abs(hi) * 0.02, 1e-3);
  return [Math.max(0, lo - pad), hi + pad];
}

/** The mean of a cloud: a circle for the first scheme, a diamond for the partner (shape, not only colour, tells them apart). */
function MeanMarker({ x, y, color, diamond, children }: { x: number; y: number; color: string; diamond: boolean; children: ReactNode }) {
  return diamond ? (
    <rect
      x={x - 5.5}
      y={y - 5.5}
      width={11}
      height={11}
      transform={`rotate(45 ${x} ${y})`}
      fill={color}
      stroke="#000"
      strokeWidth={1.5}
      data-testid="delay-goodput-mean"
    >
      {children}
    </rect>
  ) : (
    <circle cx={x} cy={y} r={6.5} fill={color} stroke="#000" strokeWidth={1.5} data-testid="delay-goodput-mean">
      {children}
    </circle>
  );
}

export function DelayGoodputChart({ clouds, intervalS, height }: DelayGoodputChartProps) {
  const legend: LegendEntry[] = clouds.map((c) => ({ label: `${c.label} (${c.points.length} intervals)`, color: c.color, dashed: c.partner }));
  const summaries = clouds.map((c) => ({
    cloud: c,
    ellipse: covarianceEllipse(c.points.map((p) => ({ x: p.delayMs, y: p.goodputBps / 1e6 }))),
  }));
  const all = clouds.flatMap((c) => c.points);
  const outlines = summaries.flatMap((s) => (s.ellipse ? ellipseOutline(s.ellipse) : []));
  const [delayLo, delayHi] = paddedDomain([...all.map((p) => p.delayMs), ...outlines.map((p) => p.x)]);
  const [goodLo, goodHi] = paddedDomain([...all.map((p) => p.goodputBps / 1e6), ...outlines.map((p) => p.y)]);
  const means = summaries
    .filter((s) => s.ellipse)
    .map((s) => `${s.cloud.label}: ${NUMBER.format(s.ellipse!.cx)} ms, ${NUMBER.format(s.ellipse!.cy)} Mb/s`)
    .join('; ');

  return (
    <ChartFrame
      title={`Queueing delay vs goodput (${intervalS} s intervals)`}
      testId="chart-delay-goodput"
      height={height}
      margin={MARGIN}
      legend={legend}
      description={`one point per interval of the measurement window, a one-standard-deviation ellipse and the mean per scheme; the delay axis is reversed so better is up and right. Means: ${means || 'none yet'}`}
      emptyMessage={all.length === 0 ? `Waiting for the first ${intervalS} s interval of the measurement window…` : undefined}
    >
      {(plot) => {
        // Reversed: less delay is further right. The inset keeps points at zero delay clear of the edge.
        const x = scaleLinear()
          .domain([delayHi, delayLo])
          .range([0, plot.width - INSET_PX])
          .nice();
        const y = scaleLinear()
          .domain([goodLo, goodHi])
          .range([plot.height - INSET_PX, INSET_PX])
          .nice();
        return (
          <>
            <AxisBottom scale={x} offset={plot.height} label="mean queueing delay (ms), better →" gridLength={plot.height} ticks={5} />
            <AxisLeft scale={y} label="goodput (Mb/s), better ↑" gridLength={plot.width} />
            <g clipPath={plot.clip}>
              {summaries.map(({ cloud, ellipse }) => (
                <g
                  key={cloud.label}
                  data-testid="delay-goodput-cloud"
                  data-points={cloud.points.length}
                  data-mean-delay-ms={ellipse?.cx}
                  data-mean-goodput-mbps={ellipse?.cy}
                >
                  {cloud.points.map((p) => (
                    <circle
                      key={p.startS}
                      cx={x(p.delayMs)}
                      cy={y(p.goodputBps / 1e6)}
                      r={3}
                      fill={cloud.partner ? 'none' : cloud.color}
                      fillOpacity={0.55}
                      stroke={cloud.color}
                      strokeWidth={cloud.partner ? 1.5 : 0}
                    >
                      <title>{`${cloud.label}, t = ${p.startS}–${p.startS + intervalS} s: ${NUMBER.format(p.delayMs)} ms, ${NUMBER.format(p.goodputBps / 1e6)} Mb/s`}</title>
                    </circle>
                  ))}
                  {ellipse && (
                    <>
                      <polygon
                        points={ellipseOutline(ellipse)
                          .map((q) => `${x(q.x)},${y(q.y)}`)
                          .join(' ')}
                        fill={cloud.color}
                        fillOpacity={0.08}
                        stroke={cloud.color}
                        strokeWidth={2}
                        strokeDasharray={cloud.partner ? PARTNER_DASH : undefined}
                      />
                      <MeanMarker x={x(ellipse.cx)} y={y(ellipse.cy)} color={cloud.color} diamond={cloud.partner}>
                        <title>{`${cloud.label} mean: ${NUMBER.format(ellipse.cx)} ms, ${NUMBER.format(ellipse.cy)} Mb/s`}</title>
                      </MeanMarker>
                    </>
                  )}
                </g>
              ))}
            </g>
          </>
        );
      }}
    </ChartFrame>
  );
}
