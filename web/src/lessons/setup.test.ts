import { describe, expect, it } from 'vitest';
import type { Scenario } from '../scenario/types';
import { mergeChanges, stepScenario } from './setup';

const preset = {
  version: 1,
  name: 'preset',
  seed: 1,
  duration_s: 60,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 20 }, buffer: { packets: 25 } },
  queue: { scheme: 'red', params: { min_th: 5, max_th: 15 } },
  flows: [{ kind: 'tcp', count: 4 }],
} as unknown as Scenario;

describe('a lesson step’s scenario', () => {
  it('merges objects key by key and replaces arrays whole', () => {
    expect(mergeChanges({ a: { b: 1, c: 2 }, list: [1, 2] }, { a: { c: 3 }, list: [9] })).toEqual({ a: { b: 1, c: 3 }, list: [9] });
  });

  it('keeps the preset’s parameters unless the step picks another scheme', () => {
    expect(stepScenario({ preset: 'x', params: { max_p: 0.5 } }, preset).queue).toEqual({ scheme: 'red', params: { min_th: 5, max_th: 15, max_p: 0.5 } });
    expect(stepScenario({ preset: 'x', scheme: 'codel' }, preset).queue).toEqual({ scheme: 'codel', params: {} });
  });

  it('changes only what it names, and leaves the preset itself alone', () => {
    const next = stepScenario({ preset: 'x', changes: { topology: { buffer: { packets: 50 } } } }, preset);
    expect(next.topology).toEqual({ kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 20 }, buffer: { packets: 50 } });
    expect(preset.topology.buffer).toEqual({ packets: 25 });
  });
});
