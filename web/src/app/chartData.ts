// From the page's series store to the plain typed arrays each chart takes,
// for the visible time window only.

import { binSums, ratio } from '../charts/bins';
import type { FairShareLevel } from '../charts/FairShareLines';
import type { GoodputLine } from '../charts/GoodputChart';
import type { GroupDistribution } from '../charts/GoodputDistribution';
import { COLORS, flowColor, groupColor } from '../charts/palette';
import { flowColumn, groupGoodputColumns, groupWindowColumns } from '../engine/flowColumns';
import type { SeriesStore } from '../engine/seriesStore';
import { flowCount, flowsOf, type GroupInfo } from '../scenario/model';
import type { ProbeSpec, Scenario, Summary } from '../scenario/types';
import type { MeasuredLoad } from '../charts/MarkovChart';
import type { CoupledPoint } from '../charts/CoupledCurveChart';
import type { LaneDelays, ProbeLine } from '../charts/QueueChart';
import type { VisibleRows } from '../charts/visibleWindow';
import type { WindowChartLine } from '../charts/WindowChart';

/** Above this many flows the goodput and window charts show one line per group; up to it, each flow has its own colour. */
const MAX_FLOW_LINES = 12;
function slice(store: SeriesStore, column: string, rows: VisibleRows): Float64Array {
  return store.column(column).subarray(rows.from, rows.to);
}

export interface QueueData {
  timeS: Float64Array;
  queueLength: Float64Array;
  probeLines: ProbeLine[];
  queueDelayMs: Float64Array;
  /** The first hop's capacity (bits/s) when its link follows a rate trace. */
  capacityBps?: Float64Array;
  /** A DualPI2 hop's L and C queue delays. */
  laneDelays?: LaneDelays;
}

/** The series column of the first hop's capacity, present only when its link follows a rate trace. */
const CAPACITY_COLUMN = 'capacity_bps';

/** `queueProbes`: the scheme's probes in the buffer's unit (RED's average queue, ARED's targets, …). */
export function queueData(store: SeriesStore, rows: VisibleRows, unit: 'packets' | 'bytes', queueProbes: readonly ProbeSpec[]): QueueData {
  return {
    timeS: slice(store, 't_s', rows),
    queueLength: slice(store, unit === 'bytes' ? 'queue_bytes' : 'queue_packets', rows),
    probeLines: queueProbes.filter((p) => store.has(`probe.${p.id}`)).map((p) => ({ id: p.id, label: p.label, values: slice(store, `probe.${p.id}`, rows) })),
    queueDelayMs: slice(store, 'queue_delay_ms', rows),
    capacityBps: store.has(CAPACITY_COLUMN) ? slice(store, CAPACITY_COLUMN, rows) : undefined,
    laneDelays: store.has('l_sojourn_ms') ? { lMs: slice(store, 'l_sojourn_ms', rows), cMs: slice(store, 'c_sojourn_ms', rows) } : undefined,
  };
}

/** A DualPI2 hop's probabilities at the last visible sample: p′, p_C = p′², p_L. */
export function coupledOperatingPoint(store: SeriesStore, rows: VisibleRows): CoupledPoint | undefined {
  if (!store.has('p_prime') || rows.to <= rows.from) return undefined;
  const at = (column: string) => store.column(column)[rows.to - 1];
  return { pPrime: at('p_prime'), pC: at('p_c'), pL: at('p_l') };
}

export interface GoodputData {
  timeS: Float64Array;
  lines: GoodputLine[];
  /** The first hop's capacity (bits/s) over the same bins, when its link follows a rate trace. */
  capacityBps?: Float64Array;
}

/** Flows are drawn one by one, each in its own colour, up to this many. */
export function drawsEachFlow(groups: readonly GroupInfo[]): boolean {
  return flowCount(groups) <= MAX_FLOW_LINES;
}

/** How a flow is named on the charts, the same in every legend, tooltip and bar. */
export function flowLabel(flow: number, group: GroupInfo | undefined): string {
  return `flow ${flow}${group ? ` (${group.label})` : ''}`;
}

/** One line per flow, each its own colour, when there are few flows, else one (total) line per group. */
export function goodputData(store: SeriesStore, rows: VisibleRows, groups: readonly GroupInfo[], binS: number): GoodputData {
  const timeS = slice(store, 't_s', rows);
  const perFlow = drawsEachFlow(groups);
  const visible = (column: Float64Array) => column.subarray(rows.from, rows.to);
  const sources: { legend: string; label: string; color: string; columns: Float64Array[] }[] = [];
  groups.forEach((group, g) => {
    const color = groupColor(g);
    if (perFlow) {
      for (const f of flowsOf(group)) {
        const name = flowColumn('goodput_bps', f);
        const label = flowLabel(f, group);
        if (store.has(name)) sources.push({ legend: label, label, color: flowColor(f), columns: [slice(store, name, rows)] });
      }
    } else {
      const label = `${group.label} (${group.count} ${group.count === 1 ? 'flow' : 'flows'}, total)`;
      sources.push({ legend: label, label, color, columns: groupGoodputColumns(store, group, g).map(visible) });
    }
  });
  const capacity = store.has(CAPACITY_COLUMN) ? [slice(store, CAPACITY_COLUMN, rows)] : [];
  const binned = binSums(timeS, [...sources.map((s) => s.columns), capacity], binS);
  const mean = (i: number) => binned.sums[i].map((sum, b) => sum / binned.rows[b]);
  return {
    timeS: binned.timeS,
    lines: sources.map((s, i) => ({
      legend: s.legend,
      label: s.label,
      color: s.color,
      goodputBps: mean(i),
    })),
    capacityBps: capacity.length > 0 ? mean(sources.length) : undefined,
  };
}

/** Each group's max-min fair share on the goodput chart's scale: per flow when
 *  it draws flows, the group's total when it draws group totals. Web groups
 *  are left out: their transfers come and go, so no steady share applies. */
export function fairShareLevels(groups: readonly GroupInfo[], summaryGroups: Summary['groups']): FairShareLevel[] {
  return shareLevels(groups, summaryGroups, flowCount(groups) <= MAX_FLOW_LINES ? 'flow' : 'groupTotal');
}

/** The fair shares the goodput chart draws: none on a link that follows a
 *  rate trace, whose shares are of the nominal rate and would mislead beside
 *  the capacity line it draws instead. */
export function goodputFairShareLevels(groups: readonly GroupInfo[], summaryGroups: Summary['groups'], scenario: Scenario): FairShareLevel[] {
  const traced = scenario.topology.bottleneck.trace !== undefined || (scenario.topology.hop_traces ?? []).some((t) => t !== null && t !== undefined);
  return traced ? [] : fairShareLevels(groups, summaryGroups);
}

/** Each group's max-min fair share of one flow (web groups left out, as above). */
export function flowFairShareLevels(groups: readonly GroupInfo[], summaryGroups: Summary['groups']): FairShareLevel[] {
  return shareLevels(groups, summaryGroups, 'flow');
}

function shareLevels(groups: readonly GroupInfo[], summaryGroups: Summary['groups'], scale: 'flow' | 'groupTotal'): FairShareLevel[] {
  // Where each flow has its own colour, a group's colour would name one of its flows: the shares are black, labelled by group.
  const color = (group: number) => (drawsEachFlow(groups) ? COLORS.black : groupColor(group));
  return summaryGroups
    .filter((g) => g.kind !== 'web' && g.flows > 0 && g.mean_fair_share_bps > 0)
    .map((g) => ({
      label: `${groups[g.group]?.label ?? g.label} ${scale === 'flow' ? 'per flow' : 'total'}`,
      color: color(g.group),
      bps: scale === 'flow' ? g.mean_fair_share_bps : g.mean_fair_share_bps * g.flows,
    }));
}

export interface WindowData {
  timeS: Float64Array;
  /** A bin's mean, and for a group the mean over its flows. */
  lines: WindowChartLine[];
}

/** TCP congestion windows: one line per flow, each its own colour, when there are few flows, else each group's mean. */
export function windowData(store: SeriesStore, rows: VisibleRows, groups: readonly GroupInfo[], binS: number): WindowData {
  const perFlow = drawsEachFlow(groups);
  const sources: { label: string; color: string; columns: Float64Array[]; flows: number }[] = [];
  groups.forEach((group, g) => {
    if (group.kind !== 'tcp') return;
    if (perFlow) {
      for (const f of flowsOf(group)) {
        const name = flowColumn('cwnd_packets', f);
        if (store.has(name)) sources.push({ label: flowLabel(f, group), color: flowColor(f), columns: [slice(store, name, rows)], flows: 1 });
      }
      return;
    }
    const { columns, flows } = groupWindowColumns(store, group, g);
    const label = `${group.label} (mean of ${group.count} ${group.count === 1 ? 'flow' : 'flows'})`;
    if (flows > 0) sources.push({ label, color: groupColor(g), columns: columns.map((column) => column.subarray(rows.from, rows.to)), flows });
  });
  const binned = binSums(
    slice(store, 't_s', rows),
    sources.map((s) => s.columns),
    binS,
  );
  return {
    timeS: binned.timeS,
    lines: sources.map((s, i) => ({ label: s.label, color: s.color, values: binned.sums[i].map((sum, b) => sum / (binned.rows[b] * s.flows)) })),
  };
}

export interface DistributionData {
  groups: GroupDistribution[];
  equalShareBps: number;
}

/** The sorted goodput curve of each group that has flows, and the equal share of everything they got. */
export function distributionData(groups: readonly GroupInfo[], groupGoodputsBps: readonly Float64Array[]): DistributionData {
  let total = 0;
  let flows = 0;
  for (const goodputs of groupGoodputsBps) {
    for (const bps of goodputs) total += bps;
    flows += goodputs.length;
  }
  return {
    groups: groupGoodputsBps.flatMap((sortedGoodputsBps, g) =>
      sortedGoodputsBps.length > 0 ? [{ label: groups[g]?.label ?? `group ${g}`, color: groupColor(g), sortedGoodputsBps }] : [],
    ),
    equalShareBps: flows > 0 ? total / flows : 0,
  };
}

export interface DropRateData {
  timeS: Float64Array;
  dropRate: Float64Array;
  earlyDropRate: Float64Array;
  markRate?: Float64Array;
}

export function dropRateData(store: SeriesStore, rows: VisibleRows, binS: number): DropRateData {
  const column = (name: string) => slice(store, name, rows);
  const binned = binSums(
    column('t_s'),
    [[column('arrivals')], [column('drops_early'), column('drops_forced'), column('drops_overflow')], [column('drops_early')], [column('marks')]],
    binS,
  );
  const [arrivals, drops, early, marks] = binned.sums;
  return {
    timeS: binned.timeS,
    dropRate: ratio(drops, arrivals),
    earlyDropRate: ratio(early, arrivals),
    markRate: marks.some((m) => m > 0) ? ratio(marks, arrivals) : undefined,
  };
}

/** Each hop's measured load and drop and mark rates, for the Markov chart's points. */
export function measuredLoadsOf(hops: Summary['hops']): MeasuredLoad[] {
  return hops.map((h) => ({ hop: h.hop, offeredLoad: h.offered_load, dropRate: h.drop_rate, markRate: h.mark_rate }));
}
