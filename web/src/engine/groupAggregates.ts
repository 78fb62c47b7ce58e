// Per-group statistics in place of per-flow series, computed in the engine
// worker for runs with more flows than the page shows one by one: each
// sample's per-flow goodput, window and RTT become their sum, mean, minimum
// and maximum over each flow group (GROUP_STATS says which per metric).

import type { GroupInfo } from './flowGroups';
import type { RowBuffers } from './rowBuffers';
import { FLOW_METRICS, GROUP_STATS, groupColumn, parseFlowColumn, type FlowMetric, type GroupStat } from './flowColumns';

interface AggregateSource {
  metric: FlowMetric;
  /** Indices of the group's flow columns among the engine's columns. */
  members: number[];
  /** Output column of each of `GROUP_STATS[metric]`, in that order. */
  outputs: number[];
}

/**
 * Turns the engine's column-major batches into batches of the columns in
 * `columns`: the engine's other columns unchanged and in order, then one
 * column per metric, group and statistic. Flows that have no value at a
 * sample (NaN: a source without a window or RTT) are left out of that
 * sample's statistics; a group with no value at all gets NaN.
 */
export class GroupAggregator {
  readonly columns: readonly string[];
  /** Engine column index of each passed-through column, in output order. */
  private readonly passed: number[] = [];
  private readonly sources: AggregateSource[] = [];
  private readonly engineWidth: number;
  /** Each sample's running statistics over one group, kept from batch to batch (grown to the longest batch). */
  private sum = new Float64Array(0);
  private count = new Float64Array(0);
  private min = new Float64Array(0);
  private max = new Float64Array(0);

  constructor(engineColumns: readonly string[], groups: readonly GroupInfo[]) {
    this.engineWidth = engineColumns.length;
    const columns: string[] = [];
    const flowIndex = new Map<string, number>();
    engineColumns.forEach((name, i) => {
      const flow = parseFlowColumn(name);
      if (flow) flowIndex.set(`${flow.metric}.${flow.flow}`, i);
      else {
        this.passed.push(i);
        columns.push(name);
      }
    });
    for (const metric of FLOW_METRICS) {
      groups.forEach((group, g) => {
        const members: number[] = [];
        for (let k = 0; k < group.count; k++) {
          const index = flowIndex.get(`${metric}.${group.firstFlow + k}`);
          if (index !== undefined) members.push(index);
        }
        if (members.length === 0) return;
        const outputs = GROUP_STATS[metric].map((stat) => columns.push(groupColumn(metric, g, stat)) - 1);
        this.sources.push({ metric, members, outputs });
      });
    }
    this.columns = columns;
  }

  /**
   * `rows` rows of the engine's columns (column-major) as rows of `columns` (column-major), in an array from
   * `buffers` (the worker's, which the page hands back).
   */
  aggregate(rows: number, engineData: Float64Array, buffers: Pick<RowBuffers, 'take'>): Float64Array<ArrayBuffer> {
    if (engineData.length !== rows * this.engineWidth) {
      throw new Error(`batch of ${engineData.length} values does not hold ${rows} rows of ${this.engineWidth} columns`);
    }
    const out = buffers.take(rows * this.columns.length);
    for (let c = 0; c < this.passed.length; c++) {
      const from = this.passed[c] * rows;
      const to = c * rows;
      for (let r = 0; r < rows; r++) out[to + r] = engineData[from + r];
    }
    if (this.sum.length < rows) {
      [this.sum, this.count, this.min, this.max] = [0, 1, 2, 3].map(() => new Float64Array(rows));
    }
    const { sum, count, min, max } = this;
    for (const source of this.sources) {
      sum.fill(0, 0, rows);
      count.fill(0, 0, rows);
      min.fill(Infinity, 0, rows);
      max.fill(-Infinity, 0, rows);
      // Column by column: each member's samples are contiguous in the batch.
      for (const member of source.members) {
        const base = member * rows;
        for (let r = 0; r < rows; r++) {
          const v = engineData[base + r];
          if (Number.isNaN(v)) continue;
          sum[r] += v;
          count[r] += 1;
          if (v < min[r]) min[r] = v;
          if (v > max[r]) max[r] = v;
        }
      }
      const stats = GROUP_STATS[source.metric];
      for (let s = 0; s < stats.length; s++) this.writeStat(stats[s], out, source.outputs[s] * rows, rows);
    }
    return out;
  }

  /** One statistic of the group just gathered into `out` from `base` on: NaN at a sample where no flow had a value. */
  private writeStat(stat: GroupStat, out: Float64Array, base: number, rows: number): void {
    const { sum, count, min, max } = this;
    switch (stat) {
      case 'sum':
        for (let r = 0; r < rows; r++) out[base + r] = count[r] > 0 ? sum[r] : Number.NaN;
        break;
      case 'mean':
        for (let r = 0; r < rows; r++) out[base + r] = count[r] > 0 ? sum[r] / count[r] : Number.NaN;
        break;
      case 'min':
        for (let r = 0; r < rows; r++) out[base + r] = count[r] > 0 ? min[r] : Number.NaN;
        break;
      case 'max':
        for (let r = 0; r < rows; r++) out[base + r] = count[r] > 0 ? max[r] : Number.NaN;
        break;
    }
  }
}

/** Each group's per-flow goodputs (from the summary's flow records), sorted from lowest to highest. */
export function sortedGroupGoodputs(flows: readonly { group: number; goodput_bps: number }[], groupCount: number): Float64Array[] {
  const counts = new Array<number>(groupCount).fill(0);
  for (const flow of flows) counts[flow.group] += 1;
  const goodputs = counts.map((n) => new Float64Array(n));
  const filled = new Array<number>(groupCount).fill(0);
  for (const flow of flows) goodputs[flow.group][filled[flow.group]++] = flow.goodput_bps;
  return goodputs.map((values) => values.sort());
}
