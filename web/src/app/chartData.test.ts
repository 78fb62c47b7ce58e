// The fair-share levels drawn over goodput, on the scale of the lines the
// chart draws, the sorted goodput curves of the per-group view, and a
// DualPI2 hop's per-queue delays and operating point.

import { describe, expect, it } from 'vitest';
import type { GroupInfo } from '../scenario/model';
import type { Summary } from '../scenario/types';
import { groupColor } from '../charts/palette';
import { SeriesStore } from '../engine/seriesStore';
import { coupledOperatingPoint, distributionData, fairShareLevels, flowFairShareLevels, queueData } from './chartData';

type GroupSummary = Summary['groups'][number];

function group(index: number, kind: GroupSummary['kind'], flows: number, meanFairShareBps: number): GroupSummary {
  return {
    group: index,
    label: kind,
    kind,
    flows,
    total_goodput_bps: 0,
    mean_goodput_bps: 0,
    mean_fair_share_bps: meanFairShareBps,
    jain: null,
    mean_cov: null,
    sojourn_percentiles_ms: null,
  };
}

function infos(...groups: [GroupInfo['kind'], number][]): GroupInfo[] {
  let next = 0;
  return groups.map(([kind, count]) => {
    const info = { label: kind, kind, count, firstFlow: next };
    next += count;
    return info;
  });
}

describe('fairShareLevels', () => {
  it('gives each flow’s share while the chart draws one line per flow', () => {
    const levels = fairShareLevels(infos(['tcp', 4], ['cbr', 1]), [group(0, 'tcp', 4, 2e6), group(1, 'cbr', 1, 1e6)]);
    expect(levels.map((l) => l.bps)).toEqual([2e6, 1e6]);
    expect(levels[0].label).toBe('tcp per flow');
  });

  it('gives the group’s total once the chart draws group totals', () => {
    const levels = fairShareLevels(infos(['tcp', 100]), [group(0, 'tcp', 100, 0.2e6)]);
    expect(levels).toHaveLength(1);
    expect(levels[0].bps).toBeCloseTo(20e6, 6);
    expect(levels[0].label).toBe('tcp total');
  });

  it('leaves out web traffic and groups without a share', () => {
    const levels = fairShareLevels(infos(['tcp', 2], ['web', 1], ['cbr', 1]), [group(0, 'tcp', 2, 3e6), group(1, 'web', 1, 5e6), group(2, 'cbr', 1, 0)]);
    expect(levels.map((l) => l.label)).toEqual(['tcp per flow']);
  });
});

describe('distributionData', () => {
  it('gives each group with flows its sorted curve, and the equal share of all their goodput', () => {
    const a = Float64Array.from([1e6, 2e6, 3e6]);
    const b = Float64Array.from([0.5e6, 1.5e6]);
    const data = distributionData(infos(['tcp', 3], ['cbr', 0], ['tfrc', 2]), [a, new Float64Array(0), b]);
    expect(data.groups.map((g) => [g.label, g.sortedGoodputsBps])).toEqual([
      ['tcp', a],
      ['tfrc', b],
    ]);
    // Colours follow the group's place in the scenario, as on every other chart.
    expect(data.groups[1].color).toBe(groupColor(2));
    // (1 + 2 + 3 + 0.5 + 1.5) Mb/s over 5 flows.
    expect(data.equalShareBps).toBeCloseTo(1.6e6, 6);
  });

  it('has no equal share before any flow is counted', () => {
    expect(distributionData(infos(['tcp', 2]), []).equalShareBps).toBe(0);
  });
});

describe('flowFairShareLevels', () => {
  it('gives one flow’s share however many flows there are', () => {
    const levels = flowFairShareLevels(infos(['tcp', 300]), [group(0, 'tcp', 300, 0.2e6)]);
    expect(levels.map((l) => [l.label, l.bps])).toEqual([['tcp per flow', 0.2e6]]);
  });
});

describe('DualPI2 data', () => {
  // Three samples, column-major: t_s, queue_packets, queue_delay_ms, the per-queue sojourns and the probabilities.
  const columns = ['t_s', 'queue_packets', 'queue_delay_ms', 'l_sojourn_ms', 'c_sojourn_ms', 'p_prime', 'p_c', 'p_l'];
  const values = [
    [0.1, 0.2, 0.3],
    [5, 6, 7],
    [9, 10, 11],
    [0.2, 0.3, 0.4],
    [14, 15, 16],
    [0.1, 0.2, 0.3],
    [0.01, 0.04, 0.09],
    [0.2, 1, 0.6],
  ];
  const store = new SeriesStore(columns);
  store.append(3, Float64Array.from(values.flat()));

  it('gives the queue chart the L and the C queue’s delays of the visible rows', () => {
    const data = queueData(store, { from: 1, to: 3 }, 'packets', []);
    expect([...data.laneDelays!.lMs]).toEqual([0.3, 0.4]);
    expect([...data.laneDelays!.cMs]).toEqual([15, 16]);
  });

  it('reads the operating point at the last visible sample', () => {
    expect(coupledOperatingPoint(store, { from: 0, to: 2 })).toEqual({ pPrime: 0.2, pC: 0.04, pL: 1 });
    expect(coupledOperatingPoint(store, { from: 2, to: 2 })).toBeUndefined();
  });

  it('leaves both out for a single queue', () => {
    const single = new SeriesStore(['t_s', 'queue_packets', 'queue_delay_ms']);
    single.append(1, Float64Array.from([0.1, 5, 9]));
    expect(queueData(single, { from: 0, to: 1 }, 'packets', []).laneDelays).toBeUndefined();
    expect(coupledOperatingPoint(single, { from: 0, to: 1 })).toBeUndefined();
  });
});
