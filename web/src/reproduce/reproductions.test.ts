import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { describeTolerance, formatNumber } from './ReproductionResults';
import { REPRODUCTIONS, resolveScenario, type ReproductionFile } from './reproductions';

describe('reproductions', () => {
  it('every file resolves to a runnable scenario with a compare scheme other than its own', () => {
    expect(REPRODUCTIONS.length).toBeGreaterThanOrEqual(15);
    for (const r of REPRODUCTIONS) {
      expect(r.scenario.flows.length, r.id).toBeGreaterThan(0);
      if (r.file.compare) expect(r.file.compare.scheme, r.id).not.toBe(r.scenario.queue.scheme);
    }
  });

  it('a queue in the file replaces the scenario file’s queue, and an unknown path is an error', () => {
    const base = { version: 1, duration_s: 10, queue: { scheme: 'red' }, flows: [{ kind: 'tcp' }] } as unknown as Scenario;
    const file = { paper: 'P', experiment: 'E', scenario: 'scenarios/x.json', queue: { scheme: 'afpft' }, claims: [] } as ReproductionFile;
    expect(resolveScenario(file, { 'scenarios/x.json': base }).queue).toEqual({ scheme: 'afpft' });
    expect(resolveScenario({ ...file, queue: undefined }, { 'scenarios/x.json': base }).queue).toEqual({ scheme: 'red' });
    expect(() => resolveScenario(file, {})).toThrow('scenarios/x.json');
  });

  it('numbers and tolerances read as the CLI prints them', () => {
    expect(formatNumber(0.0924812)).toBe('0.09248');
    expect(formatNumber(135618.37)).toBe('135618');
    expect(formatNumber(2.6)).toBe('2.6');
    expect(formatNumber(15.000000000000002)).toBe('15');
    expect(describeTolerance({ relative: 0.15 }, null)).toBe('within ±15%');
    expect(describeTolerance({ less_than: 'compare:drops.total' }, 1290)).toBe('must be < 1290 (compare:drops.total)');
    expect(describeTolerance({ greater_than: 0.1 }, null)).toBe('must be > 0.1');
  });
});
