import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initSync, planScenario, reproductionScenario } from '../engine/pkg/aqm_core.js';
import type { Scenario } from '../scenario/types';
import { describeTolerance, formatInterval, formatNumber } from './ReproductionResults';
import { REPRODUCTIONS, compareRuns, describeMetric, type ReproductionFile } from './reproductions';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);

/** What the engine resolves a reproduction to, or what it threw. */
function resolved(json: string, named: Scenario): Scenario | unknown {
  try {
    return reproductionScenario(json, JSON.stringify(named));
  } catch (error) {
    return error;
  }
}

describe.runIf(existsSync(wasmFile))('reproductions resolved by the engine', () => {
  beforeAll(() => initSync({ module: readFileSync(wasmFile) }));

  it('every file resolves to a runnable scenario whose compare schemes differ from its own', () => {
    expect(REPRODUCTIONS.length).toBeGreaterThanOrEqual(15);
    for (const r of REPRODUCTIONS) {
      const scenario = resolved(r.json, r.named) as Scenario;
      expect(planScenario(JSON.stringify(scenario)).groups.length, r.id).toBeGreaterThan(0);
      for (const c of compareRuns(r.file)) expect(c.scheme, r.id).not.toBe(scenario.queue.scheme);
    }
  });

  it('a queue in the file replaces the named scenario’s queue, `set` sets fields by path, and a path that leads nowhere is refused with its field', () => {
    const named = { version: 1, duration_s: 10, queue: { scheme: 'red' }, flows: [{ kind: 'tcp' }] } as unknown as Scenario;
    // A file of the repository's, its claims and sources kept, with the queue and `set` of each case.
    const bareFig9 = REPRODUCTIONS.find((r) => r.id === 'bare-fig9')!;
    const file = (changes: Partial<ReproductionFile>) => JSON.stringify({ ...bareFig9.file, ...changes });
    expect(resolved(file({ queue: { scheme: 'afpft' }, set: undefined }), named)).toMatchObject({ duration_s: 10, queue: { scheme: 'afpft' } });
    expect(resolved(file({ set: undefined }), named)).toMatchObject({ queue: { scheme: 'red' } });
    const set = { duration_s: 100, 'flows[0].count': 5, 'queue.params.wait': 0 };
    expect(resolved(file({ queue: { scheme: 'afpft' }, set }), named)).toMatchObject({
      duration_s: 100,
      flows: [{ kind: 'tcp', count: 5 }],
      queue: { scheme: 'afpft', params: { wait: 0 } },
    });
    expect(resolved(file({ set: { 'flows[3].count': 5 } }), named)).toEqual({
      path: 'set.flows[3].count',
      message: 'no such element in the scenario',
      kind: 'reproduction',
    });
    expect(named.duration_s).toBe(10);
  });
});

describe('reproductions', () => {
  it('one compare run or a list of them', () => {
    const file = { paper: 'P', experiment: 'E', scenario: 'x', claims: [] } as ReproductionFile;
    expect(compareRuns(file)).toEqual([]);
    expect(compareRuns({ ...file, compare: { scheme: 'red' } })).toEqual([{ scheme: 'red' }]);
    expect(compareRuns({ ...file, compare: [{ scheme: 'red' }, { scheme: 'fred' }] }).map((c) => c.scheme)).toEqual(['red', 'fred']);
  });

  it('metrics read as words with the scheme they are measured under, a count over the window as a rate', () => {
    const schemes = ['dsred', 'red'];
    expect(describeMetric('compare:drops.total / compare:window_s', schemes)).toBe('drops per second under red');
    expect(describeMetric('queue.mean_packets', schemes)).toBe('mean queue (packets) under dsred');
    expect(describeMetric('groups[0].mean_goodput_bps / groups[0].mean_fair_share_bps', schemes)).toBe(
      'group 1: mean goodput (b/s) over group 1: mean fair share (b/s), under dsred',
    );
    expect(describeMetric('queue.mean_bytes / compare:queue.mean_bytes', schemes)).toBe('mean queue (bytes) under dsred over mean queue (bytes) under red');
    expect(describeMetric('compare:flows[31].goodput_bps', schemes)).toBe('flow 32: goodput (b/s) under red');
  });

  it('numbers, intervals and tolerances read as the CLI prints them', () => {
    expect(formatNumber(0.0924812)).toBe('0.09248');
    expect(formatNumber(135618.37)).toBe('135618');
    expect(formatNumber(2.6)).toBe('2.6');
    expect(formatNumber(15.000000000000002)).toBe('15');
    expect(formatInterval(5.1032, [5.03, 5.1766])).toBe('5.103 [5.03, 5.177]');
    expect(formatInterval(null, null)).toBe('n/a');
    expect(describeTolerance({ relative: 0.15 }, null, ['red'])).toBe('within ±15% across the interval');
    expect(describeTolerance({ less_than: 'compare:drops.total / compare:window_s' }, 15.5, ['dsred', 'red'])).toBe(
      'must be below drops per second under red (mean 15.5)',
    );
    expect(describeTolerance({ greater_than: 0.1 }, null, ['red'])).toBe('must be above 0.1');
  });
});
