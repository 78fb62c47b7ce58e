import { describe, expect, it } from 'vitest';
import { hostShares, isolatesHosts } from './hosts';
import type { Scenario, Summary } from './types';

type Group = Summary['groups'][number];

function group(index: number, kind: string, goodputs: number[]): Group {
  const total = goodputs.reduce((a, b) => a + b, 0);
  const squares = goodputs.reduce((a, b) => a + b * b, 0);
  return {
    group: index,
    label: `group ${index}`,
    kind,
    flows: goodputs.length,
    total_goodput_bps: total,
    mean_goodput_bps: total / goodputs.length,
    mean_fair_share_bps: 0,
    jain: squares > 0 ? (total * total) / (goodputs.length * squares) : null,
    mean_cov: null,
    sojourn_percentiles_ms: null,
  };
}

function scenario(scheme: string, oneHost: boolean[], params?: Record<string, number | boolean>): Scenario {
  return {
    version: 1,
    duration_s: 10,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e7, delay_ms: 10 }, buffer: { packets: 100 } },
    queue: { scheme, params },
    flows: oneHost.map((one) => ({ kind: 'tcp', count: 1, one_host: one || undefined })),
  } as Scenario;
}

/** Jain's index written out over the goodputs themselves. */
function jain(xs: number[]): number {
  const sum = xs.reduce((a, b) => a + b, 0);
  return (sum * sum) / (xs.length * xs.reduce((a, b) => a + b * b, 0));
}

describe('hosts', () => {
  it('CAKE isolates hosts unless host isolation is switched off; other schemes do not', () => {
    expect(isolatesHosts(scenario('cake', [false]))).toBe(true);
    expect(isolatesHosts(scenario('cake', [false], { host_isolation: false }))).toBe(false);
    expect(isolatesHosts(scenario('cake', [false], { host_isolation: 0 }))).toBe(false);
    expect(isolatesHosts(scenario('fq_codel', [true]))).toBe(false);
  });

  it('a one-host group is one host, and equal hosts score 1 where the per-flow index reads unfair', () => {
    // Host A: one flow at 5 Mb/s; host B: eight flows at 0.625 Mb/s each.
    const b = Array(8).fill(0.625e6);
    const shares = hostShares(scenario('cake', [false, true]), { groups: [group(0, 'tcp', [5e6]), group(1, 'tcp', b)] });
    expect(shares.hosts).toBe(2);
    expect(shares.equalShareBps).toBeCloseTo(5e6);
    expect(shares.rows.map((r) => [r.hosts, r.goodputPerHostBps])).toEqual([
      [1, 5e6],
      [1, 5e6],
    ]);
    expect(shares.jain).toBeCloseTo(1, 12);
    expect(jain([5e6, ...b])).toBeCloseTo(100 / 253.125, 12);
  });

  it('per-flow groups count a host per flow and give the index over every host exactly', () => {
    // Three hosts of one group at 1, 2 and 3 Mb/s beside a one-host group at 4 Mb/s.
    const shares = hostShares(scenario('cake', [false, true]), { groups: [group(0, 'tcp', [1e6, 2e6, 3e6]), group(1, 'cbr', [3e6, 1e6])] });
    expect(shares.hosts).toBe(4);
    expect(shares.equalShareBps).toBeCloseTo(2.5e6);
    expect(shares.jain).toBeCloseTo(jain([1e6, 2e6, 3e6, 4e6]), 12);
  });

  it('web and ping groups are left out, and no goodput gives no index', () => {
    const shares = hostShares(scenario('cake', [false, false]), { groups: [group(0, 'web', [1e6]), group(1, 'tcp', [0])] });
    expect(shares.hosts).toBe(1);
    expect(shares.jain).toBeNull();
  });
});
