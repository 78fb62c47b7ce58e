// Compare mode's RTT and capacity lines, from one run's series: each TCP or
// ping group's mean RTT, and the bottleneck's capacity when its link follows
// a rate trace, as bin means over the visible rows.

import { binSums } from '../charts/bins';
import { COLORS, groupColor } from '../charts/palette';
import { flowColumn, groupColumn } from '../engine/flowColumns';
import type { SeriesStore } from '../engine/seriesStore';
import { flowsOf, type GroupInfo } from '../scenario/model';
import type { CompareLine, CompareTimeChartSpec } from './CompareTimeChart';

/** One run's place in the comparison: its name, its colour, whether its lines are dashed. */
export interface RunStyle {
  name: string;
  color: string;
  dashed: boolean;
}

/** The columns whose mean over flows is group `g`'s RTT: the worker's group mean when it keeps one, else each flow's. */
function rttColumns(store: SeriesStore, group: GroupInfo, g: number): string[] {
  const mean = groupColumn('srtt_ms', g, 'mean');
  if (store.has(mean)) return [mean];
  return flowsOf(group)
    .map((f) => flowColumn('srtt_ms', f))
    .filter((name) => store.has(name));
}

/** Each TCP and ping group's mean RTT (ms) in rows `from` to `to`, in bins of `binS`. */
export function rttLines(store: SeriesStore, groups: readonly GroupInfo[], from: number, to: number, binS: number, run: RunStyle): CompareLine[] {
  const measured = groups.flatMap((group, g) => (group.kind === 'tcp' || group.kind === 'ping' ? [{ group, g, columns: rttColumns(store, group, g) }] : []));
  const shown = measured.filter((m) => m.columns.length > 0);
  const binned = binSums(
    store.column('t_s').subarray(from, to),
    shown.map((m) => m.columns.map((name) => store.column(name).subarray(from, to))),
    binS,
  );
  return shown.map((m, k) => ({
    label: shown.length > 1 ? `${m.group.label} · ${run.name}` : run.name,
    color: shown.length > 1 ? groupColor(m.g) : run.color,
    dashed: run.dashed,
    timeS: binned.timeS,
    values: binned.sums[k].map((sum, b) => sum / (binned.rows[b] * m.columns.length)),
  }));
}

/** The bottleneck's capacity (Mb/s) in rows `from` to `to` when its link follows a rate trace; both runs share it. */
export function capacityLine(store: SeriesStore, from: number, to: number, binS: number): CompareLine | undefined {
  if (!store.has('capacity_bps')) return undefined;
  const binned = binSums(store.column('t_s').subarray(from, to), [[store.column('capacity_bps').subarray(from, to)]], binS);
  return {
    label: 'link capacity',
    color: COLORS.black,
    dashed: true,
    timeS: binned.timeS,
    values: binned.sums[0].map((sum, b) => sum / binned.rows[b] / 1e6),
  };
}

const MS = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** The RTT chart of `lines`, both runs on one axis. */
export function rttChart(lines: CompareLine[]): CompareTimeChartSpec {
  return {
    title: 'Round-trip time (mean per TCP or ping group)',
    testId: 'compare-rtt',
    description: 'mean round-trip time in milliseconds of the TCP and ping groups of both runs over simulated time',
    yLabel: 'RTT (ms)',
    lines,
    minTop: 1,
    format: (v) => MS.format(v),
    unit: 'ms',
  };
}
