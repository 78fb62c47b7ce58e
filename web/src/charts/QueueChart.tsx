// Queue length over time: the instantaneous queue, the scheme's own queue
// measures (RED's average queue, ARED's target band, …), its thresholds,
// the buffer limit, and the queueing delay on a second axis (a dual
// queue's L and C delays apart).

import { scaleLinear } from 'd3';
import { AxisLeft, AxisRight } from './Axis';
import { LABEL_HEIGHT_PX, placeLabels, type PlacedLabel } from './levelLabels';
import type { LegendEntry, PlotArea, TooltipRow } from './ChartFrame';
import { decimateMinMax, maxOf, nearestIndex } from './decimate';
import { COLORS } from './palette';
import { DECISION_STRIP_BOTTOM, type DecisionMarksProps } from './DecisionMarks';
import type { SeriesLine } from './seriesCanvas';
import { TimeChartFrame, type TimePlacement } from './TimeChartFrame';

export interface Threshold {
  /** The parameter's id (its symbol, e.g. max_th). */
  id: string;
  /** Its visible name. */
  label: string;
  value: number;
}

/** A scheme probe in the buffer's unit, e.g. RED's average queue. */
export interface ProbeLine {
  id: string;
  label: string;
  values: Float64Array;
}

/** Probe lines take these colours in order; the first (usually the average queue) is the boldest. */
const PROBE_COLORS = [COLORS.orange, COLORS.purple, COLORS.skyBlue, COLORS.vermillion, COLORS.black];

interface QueueChartProps extends TimePlacement {
  /** Instantaneous queue, in the buffer's unit. */
  queueLength: Float64Array;
  /** The scheme's probes in the buffer's unit (e.g. RED's average queue). */
  probeLines: readonly ProbeLine[];
  queueDelayMs: Float64Array;
  unit: string;
  bufferCapacity: number;
  thresholds: readonly Threshold[];
  /** The scheme's queueing-delay targets in ms (CoDel's and PIE's target), drawn on the delay axis. */
  delayTargets: readonly Threshold[];
  /** The link's capacity (bits/s), when it follows a rate trace. */
  capacityBps?: Float64Array;
  /** A dual queue's (DualPI2's) own delays, drawn instead of the one queueing delay. */
  laneDelays?: LaneDelays;
  /** The inspector's drops and marks, when the run is paused. */
  decisions?: DecisionMarksProps;
}

/** Mean sojourn of the packets that left the L (L4S) and the C (classic) queue in each interval, in ms. */
export interface LaneDelays {
  lMs: Float64Array;
  cMs: Float64Array;
}

/** The delay lines: one for a single queue, the L and the C queue's for a dual queue. */
function delayLines(queueDelayMs: Float64Array, laneDelays: LaneDelays | undefined) {
  if (!laneDelays) return [{ key: 'delay', label: 'queueing delay', values: queueDelayMs, color: COLORS.green, width: 1.25, opacity: 0.75, testId: undefined }];
  // The L queue's delay (a fraction of a millisecond) runs along the axis: drawn bold and opaque so it stays visible there.
  return [
    { key: 'delay-l', label: 'L4S queue delay', values: laneDelays.lMs, color: COLORS.vermillion, width: 2.5, opacity: 1, testId: 'queue-delay-l-line' },
    { key: 'delay-c', label: 'classic queue delay', values: laneDelays.cMs, color: COLORS.green, width: 1.25, opacity: 0.75, testId: 'queue-delay-c-line' },
  ];
}

const PRECISION = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const mbps = (bps: number) => `${PRECISION.format(bps / 1e6)} Mb/s`;
export function QueueChart({
  queueLength,
  probeLines,
  queueDelayMs,
  unit,
  bufferCapacity,
  thresholds,
  delayTargets,
  capacityBps,
  laneDelays,
  decisions,
  ...placement
}: QueueChartProps) {
  const { timeS } = placement;
  const delays = delayLines(queueDelayMs, laneDelays);
  const legend: LegendEntry[] = [{ label: 'queue', color: COLORS.blue }];
  // The capacity shares no axis with the queue: it spans the plot's height
  // (its peak at 90 %, clear of the buffer line at the top), so a queue that
  // grows as the link slows reads at a glance.
  const capacityTop = capacityBps ? Math.max(maxOf(capacityBps), 1) : 1;
  if (capacityBps)
    legend.push({ label: `link capacity (own scale: its peak in view, ${mbps(capacityTop)}, at 90 % height)`, color: COLORS.black, dashed: true });
  probeLines.forEach((p, i) => legend.push({ label: p.label, color: PROBE_COLORS[i % PROBE_COLORS.length] }));
  delays.forEach((d) => legend.push({ label: `${d.label} (right axis)`, color: d.color }));
  if (delayTargets.length > 0) legend.push({ label: 'delay target (right axis)', color: COLORS.green, dashed: true });

  const observedMax = Math.max(maxOf(queueLength), ...probeLines.map((p) => maxOf(p.values)));
  const thresholdMax = Math.max(0, ...thresholds.map((t) => t.value));
  // Zoom to where the action is, but never past the buffer: thresholds and
  // the observed queue decide; a huge empty buffer would flatten everything.
  const yTop = Math.min(bufferCapacity, Math.max(observedMax * 1.15, thresholdMax * 1.25, 10));
  // A delay target is always in view: it is what the queue is steered to.
  const delayTop = Math.max(...delays.map((d) => maxOf(d.values) * 1.15), ...delayTargets.map((t) => t.value * 1.25), 1);
  const scales = (plot: PlotArea) => ({
    y: scaleLinear().domain([0, yTop]).range([plot.height, 0]).nice(),
    yDelay: scaleLinear().domain([0, delayTop]).range([plot.height, 0]).nice(),
  });

  return (
    <TimeChartFrame
      title="Queue length"
      testId="chart-queue"
      legend={legend}
      description={`queue length in ${unit} and queueing delay in milliseconds over simulated time`}
      {...placement}
      decisions={decisions}
      rowsAt={(i) => {
        const rows: TooltipRow[] = [{ label: 'queue', value: `${PRECISION.format(queueLength[i])} ${unit}`, color: COLORS.blue }];
        probeLines.forEach((p, k) =>
          rows.push({ label: p.label, value: `${PRECISION.format(p.values[i])} ${unit}`, color: PROBE_COLORS[k % PROBE_COLORS.length] }),
        );
        delays.forEach((d) => rows.push({ label: d.label, value: `${PRECISION.format(d.values[i])} ms`, color: d.color }));
        if (capacityBps) rows.push({ label: 'link capacity', value: mbps(capacityBps[i]), color: COLORS.black });
        return rows;
      }}
      series={(plot, xScale) => {
        const { y, yDelay } = scales(plot);
        // About one point per pixel column: more cannot be seen, and it costs paint time.
        const buckets = plot.width / 2;
        const lines: SeriesLine[] = [];
        if (capacityBps) {
          const yCapacity = scaleLinear()
            .domain([0, capacityTop / 0.9])
            .range([plot.height, 0]);
          lines.push({
            key: 'capacity',
            ...decimateMinMax(timeS, capacityBps, buckets),
            xScale,
            yScale: yCapacity,
            color: COLORS.black,
            width: 1.25,
            opacity: 0.55,
            dash: [5, 4],
            testId: 'queue-capacity-line',
          });
        }
        delays.forEach((d) =>
          lines.push({
            key: d.key,
            ...decimateMinMax(timeS, d.values, buckets),
            xScale,
            yScale: yDelay,
            color: d.color,
            width: d.width,
            opacity: d.opacity,
            testId: d.testId,
          }),
        );
        lines.push({ key: 'queue', ...decimateMinMax(timeS, queueLength, buckets), xScale, yScale: y, color: COLORS.blue, width: 1.5, testId: 'queue-line' });
        probeLines.forEach((p, i) =>
          lines.push({
            key: `probe-${p.id}`,
            ...decimateMinMax(timeS, p.values, buckets),
            xScale,
            yScale: y,
            color: PROBE_COLORS[i % PROBE_COLORS.length],
            width: i === 0 ? 3 : 2,
            testId: `probe-line-${p.id}`,
          }),
        );
        return lines;
      }}
    >
      {(plot, x) => {
        const { y, yDelay } = scales(plot);
        const [, yMax] = y.domain();
        // A threshold of 0 means "off" or "automatic" for the schemes that have one.
        const visibleThresholds = thresholds.filter((t) => t.value > 0 && t.value <= yMax);
        const visibleTargets = delayTargets.filter((t) => t.value > 0);
        const capacity = capacityBps ? capacityLabel(timeS, capacityBps, capacityTop, x.domain()[1], plot) : null;
        const labels = placeLabels(
          [
            ...visibleThresholds.map((t) => ({
              text: `${t.label} = ${PRECISION.format(t.value)}`,
              short: `${t.id} = ${PRECISION.format(t.value)}`,
              y: y(t.value) - 4,
            })),
            ...visibleTargets.map((t) => ({
              text: `${t.label} = ${PRECISION.format(t.value)} ms`,
              short: `${t.id} = ${PRECISION.format(t.value)} ms`,
              y: yDelay(t.value) - 4,
            })),
          ],
          plot.width - 4,
          plot.height - 3,
          capacity ? [capacity] : [],
        );
        return (
          <>
            <AxisLeft scale={y} label={`queue (${unit})`} gridLength={plot.width} />
            <AxisRight scale={yDelay} offset={plot.width} label="queueing delay (ms)" />
            <g clipPath={plot.clip}>
              {bufferCapacity <= yMax && <line x2={plot.width} y1={y(bufferCapacity)} y2={y(bufferCapacity)} stroke={COLORS.black} strokeWidth={2} />}
              {visibleThresholds.map((t) => (
                <DashedLevel key={t.id} width={plot.width} y={y(t.value)} color={COLORS.purple} data-threshold={t.id} />
              ))}
              {visibleTargets.map((t) => (
                <DashedLevel key={`target-${t.id}`} width={plot.width} y={yDelay(t.value)} color={COLORS.green} data-delay-target={t.id} />
              ))}
            </g>
            {/* Labels go over the data so a busy queue never hides them. */}
            {bufferCapacity <= yMax && (
              <text
                x={4}
                y={bufferLabelY(y(bufferCapacity), decisions !== undefined)}
                className="threshold-label"
              >{`buffer ${PRECISION.format(bufferCapacity)}`}</text>
            )}
            {labels.map((label) => (
              <text key={label.text} x={label.x} y={label.y} textAnchor="end" className="threshold-label">
                {label.text}
              </text>
            ))}
            {capacity && <CapacityLabel label={capacity} peakBps={capacityTop} />}
          </>
        );
      }}
    </TimeChartFrame>
  );
}

/**
 * The buffer label's baseline: above its line, unless the line is so near the
 * plot's top that the label would reach into the strip of decision marks
 * above it; then just below the line, inside the plot.
 */
function bufferLabelY(lineY: number, marksShown: boolean): number {
  const above = lineY - 4;
  return marksShown && above - LABEL_HEIGHT_PX < DECISION_STRIP_BOTTOM ? lineY + LABEL_HEIGHT_PX + 2 : above;
}

/**
 * The capacity line has no axis of its own: the legend gives its peak in
 * view (drawn at 90 % of the plot's height) and this label its value at the
 * window's right edge, beside the line's end, so a student reads Mb/s off
 * the chart without hovering. The threshold labels make way for it.
 */
function capacityLabel(
  timeS: Float64Array,
  capacityBps: Float64Array,
  capacityTop: number,
  endS: number,
  plot: PlotArea,
): (PlacedLabel & { nowBps: number }) | null {
  const i = nearestIndex(timeS, endS);
  if (i < 0) return null;
  const nowY = plot.height * (1 - (0.9 * capacityBps[i]) / capacityTop);
  // Under the line near the plot's top, where the buffer's line and the decision marks are; above it elsewhere.
  const y = nowY < plot.height * 0.25 ? nowY + LABEL_HEIGHT_PX + 2 : nowY - 4;
  return { text: `capacity ${mbps(capacityBps[i])}`, x: plot.width - 4, y, nowBps: capacityBps[i] };
}

function CapacityLabel({ label, peakBps }: { label: PlacedLabel & { nowBps: number }; peakBps: number }) {
  return (
    <text
      x={label.x}
      y={label.y}
      textAnchor="end"
      className="threshold-label"
      data-testid="queue-capacity-label"
      data-now-bps={label.nowBps}
      data-peak-bps={peakBps}
    >
      {label.text}
    </text>
  );
}

/** A dashed level across the plot: a threshold on the queue axis, a target on the delay axis. */
function DashedLevel({ width, y, color, ...data }: { width: number; y: number; color: string; 'data-threshold'?: string; 'data-delay-target'?: string }) {
  return <line x2={width} y1={y} y2={y} stroke={color} strokeWidth={1.5} strokeDasharray="6 4" {...data} />;
}
