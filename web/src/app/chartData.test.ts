// The fair-share levels drawn over goodput: on the scale of the lines the chart draws.

import { describe, expect, it } from 'vitest';
import type { GroupInfo } from '../scenario/model';
import type { Summary } from '../scenario/types';
import { fairShareLevels } from './chartData';

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
