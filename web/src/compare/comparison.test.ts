import { describe, expect, it } from 'vitest';
import type { Summary } from '../scenario/types';
import { DIVERGENCE_COLUMNS, compareSummaries, divergence, winnerOf, type SeriesColumns } from './comparison';

function store(columns: Record<string, number[]>): SeriesColumns {
  const rows = columns.t_s.length;
  return {
    rows,
    column: (name) => Float64Array.from(columns[name] ?? new Array<number>(rows).fill(0)),
  };
}

describe('divergence', () => {
  const t = [0.01, 0.02, 0.03, 0.04];

  it('finds the first sample where the queues differ', () => {
    const a = store({ t_s: t, queue_packets: [1, 2, 3, 4] });
    const b = store({ t_s: t, queue_packets: [1, 2, 2, 4] });
    expect(divergence(a, b)).toEqual({ kind: 'diverged', atS: 0.03 });
  });

  it('notices a drop even when the queue lengths still agree', () => {
    for (const column of DIVERGENCE_COLUMNS.filter((c) => c !== 'queue_packets')) {
      const a = store({ t_s: t, [column]: [0, 0, 0, 0] });
      const b = store({ t_s: t, [column]: [0, 1, 0, 0] });
      expect(divergence(a, b)).toEqual({ kind: 'diverged', atS: 0.02 });
    }
  });

  it('reports identical runs up to the last sample both hold', () => {
    const a = store({ t_s: t, queue_packets: [1, 2, 3, 4] });
    const b = store({ t_s: t.slice(0, 3), queue_packets: [1, 2, 3] });
    expect(divergence(a, b)).toEqual({ kind: 'identical', throughS: 0.03 });
  });

  it('does not guess when there is nothing to compare or the starts differ', () => {
    expect(divergence(store({ t_s: [] }), store({ t_s: t }))).toEqual({ kind: 'unknown' });
    expect(divergence(store({ t_s: [5, 6] }), store({ t_s: [6, 7] }))).toEqual({ kind: 'unknown' });
  });
});

describe('winnerOf', () => {
  it("calls the better value by the metric's direction", () => {
    expect(winnerOf(10, 20, 'lower')).toBe('a');
    expect(winnerOf(10, 20, 'higher')).toBe('b');
    // Closer to a target of 5: 6 beats 2.
    expect(winnerOf(6, 2, 'closer', 5)).toBe('a');
    expect(winnerOf(2, 6, 'closer', 5)).toBe('b');
  });

  it('calls no winner within 1 % or without both values', () => {
    expect(winnerOf(100, 100.9, 'higher')).toBeNull();
    expect(winnerOf(100, 101.5, 'higher')).toBe('b');
    expect(winnerOf(null, 3, 'lower')).toBeNull();
    expect(winnerOf(1, 3, null)).toBeNull();
    expect(winnerOf(0, 0, 'lower')).toBeNull();
  });
});

function summary(overrides: {
  goodput: number;
  groups: [number, number];
  jain: number | null;
  delay: number;
  p99: number;
  drops: number;
  marks: number;
}): Summary {
  const group = (g: number, label: string, flows: number, total: number, fairEach: number) => ({
    group: g,
    label,
    kind: g === 0 ? 'tcp' : 'cbr',
    flows,
    total_goodput_bps: total,
    mean_goodput_bps: total / flows,
    mean_fair_share_bps: fairEach,
    jain: null,
    // Only TCP and ping groups report an RTT.
    ...(g === 0 ? { rtt_percentiles_ms: { p50: 20 + overrides.delay, p90: 22 + overrides.delay, p99: 25 + overrides.delay, p999: 30 + overrides.delay } } : {}),
  });
  return {
    aggregate_goodput_bps: overrides.goodput,
    hops: [{ hop: 0, sojourn_percentiles_ms: { p50: overrides.delay, p90: overrides.p99 * 0.9, p99: overrides.p99, p999: overrides.p99 * 1.1 } }],
    groups: [group(0, 'TCP', 4, overrides.groups[0], 2e6), group(1, 'CBR', 1, overrides.groups[1], 2e6)],
    fairness: { jain_all: overrides.jain, jain_tcp: null, share_deviation: null, fairness_f: null, mean_cov_tcp: null },
    queue: { mean_packets: 0, mean_bytes: 0, mean_delay_ms: overrides.delay, p99_delay_ms: overrides.p99 },
    drops: { total: overrides.drops, by_reason: { early: 0, forced: 0, overflow: overrides.drops } },
    marks: overrides.marks,
  } as unknown as Summary;
}

describe('compareSummaries', () => {
  // A: the CBR takes the link (Drop Tail-like); B: the CBR is held near its fair share.
  const a = summary({ goodput: 9.8e6, groups: [1.8e6, 8e6], jain: 0.4, delay: 80, p99: 95, drops: 500, marks: 0 });
  const b = summary({ goodput: 9.5e6, groups: [7.6e6, 1.9e6], jain: 0.97, delay: 8, p99: 20, drops: 700, marks: 12 });
  const rows = compareSummaries(a, b);
  const byId = Object.fromEntries(rows.map((r) => [r.id, r]));

  it('has one row per key number and per flow group, in Mb/s and ms', () => {
    const percentiles = ['sojourn-p50', 'sojourn-p90', 'sojourn-p999', 'rtt-0-p50', 'rtt-0-p90', 'rtt-0-p99', 'rtt-0-p999'];
    expect(rows.map((r) => r.id)).toEqual(['goodput', 'group-0', 'group-1', 'jain', 'mean-delay', 'p99-delay', ...percentiles, 'drops', 'marks']);
    expect(byId['sojourn-p999']).toMatchObject({ label: '99.9th percentile sojourn time at the bottleneck', a: 95 * 1.1, b: 20 * 1.1, unit: 'ms' });
    expect(byId['rtt-0-p50']).toMatchObject({ label: 'Median RTT of TCP', a: 100, b: 28 });
    expect(byId.goodput).toMatchObject({ a: 9.8, b: 9.5, unit: 'Mb/s' });
    expect(byId['group-0'].label).toBe('Goodput of TCP (4 flows)');
    expect(byId['group-1'].label).toBe('Goodput of CBR (1 flow)');
  });

  it('highlights the better value of each ranked row', () => {
    expect(byId.goodput.winner).toBe('a');
    // Fair shares: TCP 4 × 2 = 8 Mb/s, CBR 2 Mb/s; B is closer for both groups.
    expect(byId['group-0'].winner).toBe('b');
    expect(byId['group-1'].winner).toBe('b');
    expect(byId['group-0'].reason).toContain('8 Mb/s');
    expect(byId.jain.winner).toBe('b');
    expect(byId['mean-delay'].winner).toBe('b');
    expect(byId['p99-delay'].winner).toBe('b');
    expect(byId['sojourn-p50'].winner).toBe('b');
    expect(byId['rtt-0-p999'].winner).toBe('b');
    expect(byId.drops.winner).toBe('a');
    expect(byId.marks.winner).toBeNull();
  });

  it('leaves an undefined index unranked', () => {
    const starved = compareSummaries(summary({ goodput: 0, groups: [0, 0], jain: null, delay: 0, p99: 0, drops: 0, marks: 0 }), b);
    expect(starved.find((r) => r.id === 'jain')).toMatchObject({ a: null, winner: null });
  });
});
