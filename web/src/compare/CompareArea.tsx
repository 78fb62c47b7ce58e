// Compare mode's charts: two runs of the same scenario and seed, with
// different schemes or TCP flavours, on shared axes (the first run solid,
// the partner dashed), the delay-vs-goodput plot, and where the two part.

import { memo, useMemo } from 'react';
import { binSums, ratio } from '../charts/bins';
import { DelayBoxChart } from '../charts/DelayBoxChart';
import { DelayCdfChart } from '../charts/DelayCdfChart';
import { compareDelayCurves } from '../charts/delayCurves';
import { COLORS, groupColor } from '../charts/palette';
import { OnScreen } from '../charts/OnScreen';
import type { TimeWindow } from '../charts/timeAxis';
import { useStoreRevision } from '../charts/useStoreRevision';
import { binWidth, visibleRows } from '../charts/visibleWindow';
import { groupGoodputColumns, groupWindowColumns } from '../engine/flowColumns';
import type { SeriesStore } from '../engine/seriesStore';
import { bufferCapacity, bufferUnit, flowGroups, type GroupInfo } from '../scenario/model';
import type { DelayDistributions, ResolvedPlan, Scenario } from '../scenario/types';
import { SKIP_TARGETS } from '../controls/SkipLinks';
import { WindowChoice } from '../controls/WindowChoice';
import { CompareTimeChart, type CompareLine, type CompareTimeChartSpec } from './CompareTimeChart';
import { capacityLine, rttChart, rttLines } from './compareLines';
import { divergence } from './comparison';
import { DelayGoodputChart, type SchemeCloud } from './DelayGoodputChart';
import { intervalPoints } from './delayGoodput';
import './compare.css';

const CHART_HEIGHT = 230;
/** Interval of the delay-vs-goodput points: long enough to average TCP's sawtooth, short enough for a cloud. */
const INTERVAL_S = 1;
/** Colours of the two runs where a chart has one quantity per run. */
const RUN_COLORS = [COLORS.blue, COLORS.vermillion] as const;
/** Colours of each run's ping RTT in the delay CDF. */
const PING_COLORS = [COLORS.green, COLORS.purple] as const;

export interface ComparedRun {
  name: string;
  store: SeriesStore | null;
  /** The run's delay distributions from its latest snapshot. */
  delays: DelayDistributions | undefined;
}

interface CompareAreaProps {
  scenario: Scenario;
  /** The engine's plan of the runs (both have the same): groups, sample interval and measurement window come from it. */
  plan: ResolvedPlan;
  runs: readonly [ComparedRun, ComparedRun];
  /** What differs between the runs: the queue scheme, or the TCP groups' flavour (on the same queue, `queueName`). */
  varies: 'scheme' | 'cc';
  queueName: string;
  windowS: number;
  onWindow: (windowS: number) => void;
}

const PACKETS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const MBPS = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });
const SECONDS = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function latestOf(store: SeriesStore | null): number {
  if (!store || store.rows === 0) return 0;
  const t = store.column('t_s');
  return t[t.length - 1];
}

/** The columns whose sum is the goodput of the groups numbered `indices`, rows `from` to `to`. */
function goodputColumns(store: SeriesStore, groups: readonly GroupInfo[], indices: readonly number[], from: number, to: number): Float64Array[] {
  return indices.flatMap((g) => groupGoodputColumns(store, groups[g], g).map((column) => column.subarray(from, to)));
}

/** What the header says the partner is. */
function partnerNote(varies: 'scheme' | 'cc', queueName: string): string {
  return varies === 'scheme' ? '(its default parameters)' : `(every TCP group switched to it, on the same ${queueName} queue)`;
}

export const CompareArea = memo(function CompareArea({ scenario, plan, runs, varies, queueName, windowS, onWindow }: CompareAreaProps) {
  useStoreRevision(runs[0].store);
  useStoreRevision(runs[1].store);
  const unit = bufferUnit(scenario);
  const groups = useMemo(() => flowGroups(plan), [plan]);
  const allGroups = useMemo(() => groups.map((_, g) => g), [groups]);
  const sampleIntervalS = plan.sample_interval_ms / 1000;
  const measureFromS = plan.measure_from_s;

  const endS = Math.max(latestOf(runs[0].store), latestOf(runs[1].store));
  const timeWindow: TimeWindow =
    windowS > 0 ? { startS: Math.max(0, endS - windowS), endS: Math.max(0, endS - windowS) + windowS } : { startS: 0, endS: plan.duration_s };
  const binS = binWidth(timeWindow, sampleIntervalS);

  const queueLines: CompareLine[] = [];
  const goodputLines: CompareLine[] = [];
  const dropLines: CompareLine[] = [];
  const windowLines: CompareLine[] = [];
  const rttChartLines: CompareLine[] = [];
  const tcpGroups = groups.flatMap((group, g) => (group.kind === 'tcp' ? [g] : []));
  const clouds: SchemeCloud[] = [];
  const perGroup = groups.length > 1;
  // The queueing delay in the run's colour, its ping RTT in the probe colour; the partner dashed.
  const delayCdfs = runs.flatMap((run, r) => compareDelayCurves(run.name, run.delays, { queue: RUN_COLORS[r], ping: PING_COLORS[r] }, r === 1));
  for (const [r, run] of runs.entries()) {
    const store = run.store;
    if (!store || store.rows === 0) continue;
    const dashed = r === 1;
    const { from, to } = visibleRows(store, timeWindow);
    const column = (name: string) => store.column(name).subarray(from, to);
    const timeS = column('t_s');
    queueLines.push({ label: run.name, color: RUN_COLORS[r], dashed, timeS, values: column(unit === 'bytes' ? 'queue_bytes' : 'queue_packets') });

    const goodputSources = perGroup ? allGroups.map((g) => goodputColumns(store, groups, [g], from, to)) : [goodputColumns(store, groups, allGroups, from, to)];
    const goodput = binSums(timeS, goodputSources, binS);
    goodputSources.forEach((_, g) =>
      goodputLines.push({
        label: perGroup ? `${groups[g].label} · ${run.name}` : run.name,
        color: perGroup ? groupColor(g) : RUN_COLORS[r],
        dashed,
        timeS: goodput.timeS,
        values: goodput.sums[g].map((sum, b) => sum / goodput.rows[b] / 1e6),
      }),
    );

    const windows = tcpGroups.map((g) => {
      const { columns, flows } = groupWindowColumns(store, groups[g], g);
      return { columns: columns.map((column) => column.subarray(from, to)), flows };
    });
    const windowBins = binSums(
      timeS,
      windows.map((w) => w.columns),
      binS,
    );
    tcpGroups.forEach((g, k) =>
      windowLines.push({
        label: tcpGroups.length > 1 ? `${groups[g].label} · ${run.name}` : run.name,
        color: tcpGroups.length > 1 ? groupColor(g) : RUN_COLORS[r],
        dashed,
        timeS: windowBins.timeS,
        values: windowBins.sums[k].map((sum, b) => sum / (windowBins.rows[b] * Math.max(1, windows[k].flows))),
      }),
    );

    rttChartLines.push(...rttLines(store, groups, from, to, binS, { name: run.name, color: RUN_COLORS[r], dashed }));
    // Both runs follow the same trace: its capacity is drawn once, beside the goodput.
    const capacity = r === 0 ? capacityLine(store, from, to, binS) : undefined;
    if (capacity) goodputLines.push(capacity);

    const drops = binSums(timeS, [[column('arrivals')], [column('drops_early'), column('drops_forced'), column('drops_overflow')]], binS);
    dropLines.push({ label: run.name, color: RUN_COLORS[r], dashed, timeS: drops.timeS, values: ratio(drops.sums[1], drops.sums[0]) });

    // The delay-vs-goodput cloud covers the whole measurement window held, not just the visible stretch.
    clouds.push({
      label: run.name,
      color: RUN_COLORS[r],
      partner: dashed,
      points: intervalPoints(
        store.column('t_s'),
        store.column('queue_delay_ms'),
        goodputColumns(store, groups, allGroups, 0, store.rows),
        INTERVAL_S,
        measureFromS,
      ),
    });
  }

  const parting = runs[0].store && runs[1].store ? divergence(runs[0].store, runs[1].store) : ({ kind: 'unknown' } as const);

  const timeCharts: CompareTimeChartSpec[] = [
    {
      title: 'Queue length',
      testId: 'compare-queue',
      description: `queue length in ${unit} of both runs over simulated time`,
      yLabel: `queue (${unit})`,
      lines: queueLines,
      minTop: 10,
      maxTop: bufferCapacity(scenario),
      format: (v) => PACKETS.format(v),
      unit,
    },
    {
      title: `Goodput (${binS < 1 ? `${Math.round(binS * 1000)} ms` : `${binS} s`} averages)`,
      testId: 'compare-goodput',
      description: 'goodput in megabits per second of both runs over simulated time',
      yLabel: 'goodput (Mb/s)',
      lines: goodputLines,
      minTop: 0.001,
      format: (v) => MBPS.format(v),
      unit: 'Mb/s',
    },
    {
      title: 'Drop rate (all reasons)',
      testId: 'compare-drops',
      description: 'share of arriving packets dropped at the bottleneck in both runs over simulated time',
      yLabel: 'share of arrivals',
      lines: dropLines,
      minTop: 0.01,
      maxTop: 1,
      format: (v) => PERCENT.format(v),
    },
  ];
  if (rttChartLines.length > 0) timeCharts.push(rttChart(rttChartLines));
  if (tcpGroups.length > 0) {
    timeCharts.push({
      title: 'Congestion window (mean per TCP flow)',
      testId: 'compare-cwnd',
      description: 'mean congestion window in packets of the TCP flows of both runs over simulated time',
      yLabel: 'congestion window (packets)',
      lines: windowLines,
      minTop: 4,
      format: (v) => PACKETS.format(v),
      unit: 'packets',
    });
  }

  return (
    <section
      className="compare-area"
      aria-label={`${runs[0].name} compared with ${runs[1].name}`}
      data-testid="compare-area"
      id={SKIP_TARGETS.charts}
      tabIndex={-1}
    >
      <div className="compare-header">
        <p
          className="compare-divergence"
          data-testid="compare-divergence"
          data-kind={parting.kind}
          data-diverged-at={parting.kind === 'diverged' ? parting.atS : undefined}
        >
          Same scenario and seed ({scenario.seed}): <strong>{runs[0].name}</strong> solid, <strong>{runs[1].name}</strong> {partnerNote(varies, queueName)}{' '}
          dashed.{' '}
          {parting.kind === 'diverged' &&
            `Identical until t = ${SECONDS.format(parting.atS - sampleIntervalS)} s; they part by ${SECONDS.format(parting.atS)} s, where ${varies === 'scheme' ? 'the queues first treated a packet differently' : 'the queue first saw different traffic'}.`}
          {parting.kind === 'identical' &&
            `Identical so far (to t = ${SECONDS.format(parting.throughS)} s): ${varies === 'scheme' ? 'the queues have treated every packet alike' : 'the queue has seen the same traffic'}.`}
        </p>
        <WindowChoice windowS={windowS} onWindow={onWindow} testId="compare-window" />
      </div>
      {/* data-rows-*: the series rows the page holds per run (what the time-series exports write). */}
      <div className="charts compare-charts" data-testid="compare-charts" data-rows-a={runs[0].store?.rows ?? 0} data-rows-b={runs[1].store?.rows ?? 0}>
        {timeCharts.map((chart) => (
          <OnScreen key={chart.testId} render={() => <CompareTimeChart {...chart} window={timeWindow} height={CHART_HEIGHT} />} />
        ))}
        <OnScreen render={() => <DelayGoodputChart clouds={clouds} intervalS={INTERVAL_S} height={CHART_HEIGHT} />} />
        <DelayCdfChart curves={delayCdfs} height={CHART_HEIGHT} testId="compare-cdf" />
        <DelayBoxChart rows={delayCdfs} height={CHART_HEIGHT} testId="compare-box" />
      </div>
    </section>
  );
});
