// Names of the series columns that describe flows. The engine samples every
// flow on its own (`goodput_bps.17`); for a run with more flows than the page
// shows one by one, the engine worker replaces those columns with a few per
// flow group (`goodput_bps.group0.sum`), so the page never receives,
// stores or sums thousands of columns.

import type { GroupInfo } from './flowGroups';

/** The engine's per-flow quantities, in the order of its columns. */
export const FLOW_METRICS = ['goodput_bps', 'cwnd_packets', 'srtt_ms'] as const;
export type FlowMetric = (typeof FLOW_METRICS)[number];

/** A statistic over the flows of one group at one sample. */
export type GroupStat = 'sum' | 'mean' | 'min' | 'max';

/** The statistics kept per group: a total of round-trip times would mean nothing. */
export const GROUP_STATS: Readonly<Record<FlowMetric, readonly GroupStat[]>> = {
  goodput_bps: ['sum', 'mean', 'min', 'max'],
  cwnd_packets: ['sum', 'mean', 'min', 'max'],
  srtt_ms: ['mean', 'min', 'max'],
};

/** The engine's column of one flow's `metric`. */
export function flowColumn(metric: FlowMetric, flow: number): string {
  return `${metric}.${flow}`;
}

/** The worker's column of a statistic of `metric` over the flows of group `group` (0-based, as in the summary's `groups`). */
export function groupColumn(metric: FlowMetric, group: number, stat: GroupStat): string {
  return `${metric}.group${group}.${stat}`;
}

export interface FlowColumnName {
  metric: FlowMetric;
  flow: number;
}

const FLOW_COLUMN = new RegExp(`^(${FLOW_METRICS.join('|')})\\.(\\d+)$`);

/** Which flow and metric an engine column holds; null for every other column. */
export function parseFlowColumn(name: string): FlowColumnName | null {
  const match = FLOW_COLUMN.exec(name);
  return match ? { metric: match[1] as FlowMetric, flow: Number(match[2]) } : null;
}

/** What reading a group's goodput needs of the series (the page's `SeriesStore` fits). */
export interface FlowSeries {
  has(name: string): boolean;
  column(name: string): Float64Array;
}

/**
 * The columns whose sum is the total goodput of group `index`: its flows'
 * own columns, or the group's total where the worker sent per-group columns.
 */
export function groupGoodputColumns(series: FlowSeries, group: GroupInfo, index: number): Float64Array[] {
  const total = groupColumn('goodput_bps', index, 'sum');
  if (series.has(total)) return [series.column(total)];
  const columns: Float64Array[] = [];
  for (let k = 0; k < group.count; k++) {
    const name = flowColumn('goodput_bps', group.firstFlow + k);
    if (series.has(name)) columns.push(series.column(name));
  }
  return columns;
}

/**
 * The columns whose mean is group `index`'s mean congestion window: the
 * worker's group mean where it sent per-group columns (one column), else its
 * flows' own columns, with how many flows they hold.
 */
export function groupWindowColumns(series: FlowSeries, group: GroupInfo, index: number): { columns: Float64Array[]; flows: number } {
  const mean = groupColumn('cwnd_packets', index, 'mean');
  if (series.has(mean)) return { columns: [series.column(mean)], flows: 1 };
  const columns: Float64Array[] = [];
  for (let k = 0; k < group.count; k++) {
    const name = flowColumn('cwnd_packets', group.firstFlow + k);
    if (series.has(name)) columns.push(series.column(name));
  }
  return { columns, flows: columns.length };
}
