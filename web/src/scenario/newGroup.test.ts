// A group the editor adds, or switches to another kind, carries the engine's
// defaults written out and nothing else of its own: planned by the real wasm
// build, leaving out any value it writes changes nothing in a run (or is
// refused as a value the engine needs). A starting value that drifted from the engine's
// default would change the plan, and fail here.

import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { flowKinds, initSync, planScenario, runToEnd } from '../engine/pkg/aqm_core.js';
import { newGroup, withKey, withKind } from './model';
import type { FlowGroup, FlowKinds, ResolvedPlan, Scenario } from './types';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);

const SCENARIO: Scenario = {
  version: 1,
  seed: 1,
  duration_s: 3,
  sample_interval_ms: 10,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 10 }, buffer: { packets: 50 } },
  queue: { scheme: 'droptail', params: {} },
  flows: [],
};

/** The engine's plan of a one-group scenario, or what it refused. */
function planned(group: FlowGroup): ResolvedPlan | unknown {
  try {
    return planScenario(JSON.stringify({ ...SCENARIO, flows: [group] }));
  } catch (refusal) {
    return refusal;
  }
}

/**
 * The summary of a short run of a one-group scenario without its wall-clock `perf` block (it depends on every
 * number of the group, which the resolved plan does not all show), or what the engine refused.
 */
function ran(group: FlowGroup): unknown {
  try {
    const { perf: _perf, ...summary } = JSON.parse(runToEnd(JSON.stringify({ ...SCENARIO, flows: [group] }))) as Record<string, unknown>;
    return summary;
  } catch (refusal) {
    return refusal;
  }
}

describe.runIf(existsSync(wasmFile))('a new flow group', () => {
  let kinds: FlowKinds;
  beforeAll(() => {
    initSync({ module: readFileSync(wasmFile) });
    kinds = flowKinds();
  });

  it('offers every kind the engine runs, each new group valid', () => {
    expect(kinds.kinds.map((k) => k.kind)).toEqual(['tcp', 'cbr', 'poisson', 'vbr', 'onoff', 'web', 'tfrc', 'ping']);
    for (const { kind } of kinds.kinds) expect(planned(newGroup(kinds, kind)), kind).toMatchObject({ groups: [{ kind, count: 1 }] });
  });

  it('writes only what the engine takes when the value is left out, or a value it needs', () => {
    for (const { kind } of kinds.kinds) {
      const group = newGroup(kinds, kind);
      for (const key of Object.keys(group) as (keyof FlowGroup)[]) {
        if (key === 'kind') continue;
        const without = withKey(group, key, undefined);
        const refusal = planned(without) as { path?: string; message?: string };
        if (refusal.path !== undefined) expect(refusal, `${kind}.${key}`).toMatchObject({ path: `flows[0].${key}`, message: 'is required' });
        else expect(ran(without), `${kind}.${key}`).toEqual(ran(group));
      }
    }
    // The check sees a starting value that is not the engine's default (a VBR group's burst spread of 2 against 5).
    const vbr = newGroup(kinds, 'vbr');
    expect(ran({ ...vbr, burst_gsd: 2 })).not.toEqual(ran(withKey(vbr, 'burst_gsd', undefined)));
  });

  it('a group switched to another kind keeps what every kind takes and starts the rest as a new group of that kind', () => {
    const own: FlowGroup = {
      kind: 'tcp',
      count: 4,
      label: 'bulk',
      access_delay_ms: [2, 30],
      start_s: 1,
      reverse: true,
      cc: 'cubic',
      hystart: 'ns3',
      rwnd_packets: 64,
    };
    for (const { kind } of kinds.kinds) {
      const switched = withKind(kinds, own, kind);
      expect(switched, kind).toEqual({ ...newGroup(kinds, kind), count: 4, label: 'bulk', access_delay_ms: [2, 30], start_s: 1, reverse: true });
      expect(planned(switched), kind).toMatchObject({ groups: [{ kind, count: 4, label: 'bulk' }] });
    }
  });
});
