import { describe, expect, it } from 'vitest';
import type { GroupInfo } from './flowGroups';
import { flowColumn, groupColumn, parseFlowColumn } from './flowColumns';
import { GroupAggregator, sortedGroupGoodputs } from './groupAggregates';
import { RowBuffers } from './rowBuffers';

// Two groups of two flows, two samples; a CBR flow (flow 3) has no window or RTT.
const ENGINE_COLUMNS = [
  't_s',
  'queue_packets',
  'probe.avg',
  'goodput_bps.0',
  'goodput_bps.1',
  'goodput_bps.2',
  'goodput_bps.3',
  'cwnd_packets.0',
  'cwnd_packets.1',
  'cwnd_packets.2',
  'cwnd_packets.3',
  'srtt_ms.0',
  'srtt_ms.1',
  'srtt_ms.2',
  'srtt_ms.3',
];
const GROUPS: GroupInfo[] = [
  { label: 'tcp', kind: 'tcp', count: 2, firstFlow: 0 },
  { label: 'mixed', kind: 'tcp', count: 2, firstFlow: 2 },
];
const ROWS: Record<string, [number, number]> = {
  t_s: [0.01, 0.02],
  queue_packets: [3, 4],
  'probe.avg': [1.5, 2.5],
  'goodput_bps.0': [1e6, 2e6],
  'goodput_bps.1': [3e6, 0],
  'goodput_bps.2': [5e5, 5e5],
  'goodput_bps.3': [1e6, 4e6],
  'cwnd_packets.0': [10, 12],
  'cwnd_packets.1': [20, 2],
  'cwnd_packets.2': [7, 8],
  'cwnd_packets.3': [NaN, NaN],
  'srtt_ms.0': [40, 44],
  'srtt_ms.1': [NaN, 60],
  'srtt_ms.2': [100, 90],
  'srtt_ms.3': [NaN, NaN],
};

function columnMajor(columns: readonly string[], values: Record<string, [number, number]>): Float64Array {
  return Float64Array.from(columns.flatMap((name) => values[name]));
}

function byColumn(columns: readonly string[], data: Float64Array, rows: number): Record<string, number[]> {
  return Object.fromEntries(columns.map((name, c) => [name, Array.from(data.subarray(c * rows, (c + 1) * rows))]));
}

/** The statistics of `ENGINE_COLUMNS`' groups written out plainly, in the order the aggregator adds: the reference it must match. */
function aggregatedAfresh(rows: number, data: Float64Array): Float64Array {
  const columns = new GroupAggregator(ENGINE_COLUMNS, GROUPS).columns;
  const engineColumn = (name: string) => Array.from(data.subarray(ENGINE_COLUMNS.indexOf(name) * rows, (ENGINE_COLUMNS.indexOf(name) + 1) * rows));
  const out = columns.flatMap((name) => {
    const group = /^(\w+)\.group(\d+)\.(\w+)$/.exec(name);
    if (!group) return engineColumn(name);
    const [, metric, g, stat] = group;
    const { firstFlow, count } = GROUPS[Number(g)];
    const members = Array.from({ length: count }, (_, k) => engineColumn(`${metric}.${firstFlow + k}`));
    return Array.from({ length: rows }, (_, r) => {
      const values = members.map((column) => column[r]).filter((v) => !Number.isNaN(v));
      if (values.length === 0) return NaN;
      const sum = values.reduce((a, b) => a + b, 0);
      return { sum, mean: sum / values.length, min: Math.min(...values), max: Math.max(...values) }[stat as 'sum'];
    });
  });
  return Float64Array.from(out);
}

describe('GroupAggregator', () => {
  const aggregator = new GroupAggregator(ENGINE_COLUMNS, GROUPS);

  it('keeps the other columns in order, then one column per metric, group and statistic', () => {
    expect(aggregator.columns).toEqual([
      't_s',
      'queue_packets',
      'probe.avg',
      ...['sum', 'mean', 'min', 'max'].map((s) => `goodput_bps.group0.${s}`),
      ...['sum', 'mean', 'min', 'max'].map((s) => `goodput_bps.group1.${s}`),
      ...['sum', 'mean', 'min', 'max'].map((s) => `cwnd_packets.group0.${s}`),
      ...['sum', 'mean', 'min', 'max'].map((s) => `cwnd_packets.group1.${s}`),
      ...['mean', 'min', 'max'].map((s) => `srtt_ms.group0.${s}`),
      ...['mean', 'min', 'max'].map((s) => `srtt_ms.group1.${s}`),
    ]);
  });

  it('computes sum, mean, min and max per group and sample, leaving out flows without a value', () => {
    const out = byColumn(aggregator.columns, aggregator.aggregate(2, columnMajor(ENGINE_COLUMNS, ROWS), new RowBuffers()), 2);
    expect(out.t_s).toEqual([0.01, 0.02]);
    expect(out.queue_packets).toEqual([3, 4]);
    expect(out['probe.avg']).toEqual([1.5, 2.5]);
    // Group 0: flows 0 and 1.
    expect(out['goodput_bps.group0.sum']).toEqual([4e6, 2e6]);
    expect(out['goodput_bps.group0.mean']).toEqual([2e6, 1e6]);
    expect(out['goodput_bps.group0.min']).toEqual([1e6, 0]);
    expect(out['goodput_bps.group0.max']).toEqual([3e6, 2e6]);
    expect(out['cwnd_packets.group0.sum']).toEqual([30, 14]);
    expect(out['cwnd_packets.group0.mean']).toEqual([15, 7]);
    // Flow 1 has no RTT estimate yet at the first sample: the statistics are flow 0's alone.
    expect(out['srtt_ms.group0.mean']).toEqual([40, 52]);
    expect(out['srtt_ms.group0.min']).toEqual([40, 44]);
    expect(out['srtt_ms.group0.max']).toEqual([40, 60]);
    // Group 1: flows 2 and 3; flow 3 has neither window nor RTT.
    expect(out['goodput_bps.group1.sum']).toEqual([1.5e6, 4.5e6]);
    expect(out['goodput_bps.group1.mean']).toEqual([7.5e5, 2.25e6]);
    expect(out['goodput_bps.group1.min']).toEqual([5e5, 5e5]);
    expect(out['goodput_bps.group1.max']).toEqual([1e6, 4e6]);
    expect(out['cwnd_packets.group1.sum']).toEqual([7, 8]);
    expect(out['cwnd_packets.group1.mean']).toEqual([7, 8]);
    expect(out['srtt_ms.group1.mean']).toEqual([100, 90]);
  });

  it('gives NaN where no flow of a group has a value', () => {
    const cbrOnly = new GroupAggregator(['t_s', 'goodput_bps.0', 'cwnd_packets.0', 'srtt_ms.0'], [{ label: 'cbr', kind: 'cbr', count: 1, firstFlow: 0 }]);
    const out = byColumn(cbrOnly.columns, cbrOnly.aggregate(1, Float64Array.from([1, 8e5, NaN, NaN]), new RowBuffers()), 1);
    expect(out['goodput_bps.group0.sum']).toEqual([8e5]);
    expect(out['cwnd_packets.group0.sum']).toEqual([NaN]);
    expect(out['cwnd_packets.group0.min']).toEqual([NaN]);
    expect(out['srtt_ms.group0.mean']).toEqual([NaN]);
  });

  it('gives every batch the values computed afresh, when its buffer and statistics are reused from earlier batches', () => {
    const reused = new GroupAggregator(ENGINE_COLUMNS, GROUPS);
    const buffers = new RowBuffers();
    let seed = 7;
    // A fixed pseudo-random sequence: a fifth of the flows' values missing (NaN).
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const rows of [5, 2, 9, 1, 9, 3]) {
      const data = Float64Array.from({ length: rows * ENGINE_COLUMNS.length }, () => (next() < 0.2 ? NaN : next() * 1e6));
      const out = reused.aggregate(rows, data, buffers);
      expect(byColumn(reused.columns, out, rows)).toEqual(byColumn(reused.columns, aggregatedAfresh(rows, data), rows));
      // The page hands the buffer back, still holding this batch; the next batch must overwrite all of it.
      buffers.recycle(out.buffer);
    }
  });

  it('writes its output into a buffer the page handed back', () => {
    const buffers = new RowBuffers();
    const returned = new ArrayBuffer(4096);
    new Float64Array(returned).fill(-1);
    buffers.recycle(returned);
    const out = aggregator.aggregate(2, columnMajor(ENGINE_COLUMNS, ROWS), buffers);
    expect(out.buffer).toBe(returned);
    expect(out.length).toBe(2 * aggregator.columns.length);
  });

  it('refuses a batch of the wrong width', () => {
    expect(() => aggregator.aggregate(2, new Float64Array(3), new RowBuffers())).toThrow(/does not hold 2 rows of 15 columns/);
  });
});

describe('flow column names', () => {
  it('name and parse per-flow and per-group columns', () => {
    expect(flowColumn('goodput_bps', 17)).toBe('goodput_bps.17');
    expect(groupColumn('srtt_ms', 2, 'mean')).toBe('srtt_ms.group2.mean');
    expect(parseFlowColumn('cwnd_packets.4')).toEqual({ metric: 'cwnd_packets', flow: 4 });
    expect(parseFlowColumn('goodput_bps.group0.sum')).toBeNull();
    expect(parseFlowColumn('queue_packets@1')).toBeNull();
    expect(parseFlowColumn('probe.avg')).toBeNull();
  });
});

describe('sortedGroupGoodputs', () => {
  it("sorts each group's goodputs from lowest to highest", () => {
    const flows = [
      { group: 0, goodput_bps: 3e6 },
      { group: 1, goodput_bps: 2e5 },
      { group: 0, goodput_bps: 1e6 },
      { group: 0, goodput_bps: 2e6 },
      { group: 1, goodput_bps: 1e5 },
    ];
    expect(sortedGroupGoodputs(flows, 3).map((g) => Array.from(g))).toEqual([[1e6, 2e6, 3e6], [1e5, 2e5], []]);
  });
});
