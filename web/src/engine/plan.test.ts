// The engine's resolved plan and its scenario document, read through the
// real wasm build as the worker reads them: the plan applies the defaults a
// document leaves out, the document carries the live parameter changes, and
// both agree with what the engine then runs.

import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, catalogue, initSync, planScenario } from './pkg/aqm_core.js';
import type { Scenario } from './pkg/aqm_core';

const wasmFile = new URL('./pkg/aqm_core_bg.wasm', import.meta.url);

/** Leaves out the sample interval, the measurement start and the TCP group's count and label. */
const DOCUMENT = JSON.stringify({
  version: 1,
  seed: 5,
  duration_s: 3,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 5 }, buffer: { packets: 40 } },
  queue: { scheme: 'red', params: { min_th: 5, max_th: 20 } },
  flows: [{ kind: 'tcp' }, { kind: 'poisson', label: 'noise', count: 2, rate_bps: 300_000, packet_bytes: 500 }],
});

/** The summary without its perf block (wall time). */
function results(sim: Simulation): unknown {
  sim.advanceTo(sim.durationS());
  const { perf: _perf, ...rest } = sim.summary(0);
  return rest;
}

beforeAll(() => {
  if (!existsSync(wasmFile)) throw new Error('build the engine first: `npm run build:wasm` (npm test does it)');
  initSync({ module: readFileSync(wasmFile) });
});

describe('the engine owns the experiment', () => {
  it('plans a document without running it, as the run it builds plans itself', () => {
    const sim = new Simulation(DOCUMENT);
    try {
      expect(planScenario(DOCUMENT)).toEqual(sim.plan());
    } finally {
      sim.free();
    }
    // Prague paces unless the document says otherwise: the page shows what the engine runs.
    const prague = JSON.parse(DOCUMENT) as Scenario;
    prague.flows = [{ kind: 'tcp', cc: 'prague', ecn: 'ect1' }];
    expect(planScenario(JSON.stringify(prague)).groups[0].pacing).toBe(true);
    // The seed and a group's start, which the editor's placeholders show when the document leaves them out.
    const { seed: _seed, ...unseeded } = JSON.parse(DOCUMENT) as Scenario;
    unseeded.flows = [
      { kind: 'tcp', start_s: [1, 2] },
      { kind: 'poisson', rate_bps: 300_000 },
    ];
    const unseededPlan = planScenario(JSON.stringify(unseeded));
    expect(unseededPlan.seed).toBe(1);
    expect(unseededPlan.groups.map((group) => group.start_s)).toEqual([[1, 2], 0]);
    const broken = { ...JSON.parse(DOCUMENT), duration_s: -1 };
    expect(() => planScenario(JSON.stringify(broken))).toThrow(expect.objectContaining({ path: 'duration_s', kind: 'scenario' }));
  });

  it('the resolved plan applies every default the document leaves out', () => {
    const sim = new Simulation(DOCUMENT);
    try {
      const plan = sim.plan();
      expect(plan.sample_interval_ms).toBe(10);
      expect(plan.measure_from_s).toBe(0);
      expect(plan.seed).toBe(5);
      expect(plan.duration_s).toBe(sim.durationS());
      expect(plan.groups).toEqual([
        { label: 'tcp', kind: 'tcp', count: 1, first_flow: 0, start_s: 0, access_jitter_ms: 0, sack: false, pacing: false, one_host: false, cc: 'newreno' },
        { label: 'noise', kind: 'poisson', count: 2, first_flow: 1, start_s: 0, access_jitter_ms: 0, sack: false, pacing: false, one_host: false },
      ]);
      // Every parameter of the scheme, at the value the engine runs: the document's or the catalogue's default.
      const red = catalogue('packets').find((entry) => entry.id === 'red');
      expect(Object.keys(plan.params).sort()).toEqual(red?.params.map((p) => p.id).sort());
      expect(plan.params).toEqual(sim.params());
      expect(plan.params.min_th).toBe(5);
      expect(plan.params.max_p).toBe(red?.params.find((p) => p.id === 'max_p')?.default);
      // One series row per sample interval.
      sim.advanceTo(1);
      expect(sim.drain().rows).toBe(1 / (plan.sample_interval_ms / 1000));
    } finally {
      sim.free();
    }
  });

  it('names the flavour each TCP group runs, and CUBIC its slow-start exit and look-ahead RTT', () => {
    const document = JSON.parse(DOCUMENT) as Scenario;
    document.flows = [
      { kind: 'tcp', cc: 'cubic' },
      { kind: 'tcp', cc: 'cubic', hystart: 'hystart++', cubic_rtt: 'srtt' },
      { kind: 'tcp', cc: 'bbr' },
    ];
    const groups = planScenario(JSON.stringify(document)).groups;
    expect(groups.map(({ cc, hystart, cubic_rtt }) => ({ cc, hystart, cubic_rtt }))).toEqual([
      { cc: 'cubic', hystart: 'linux', cubic_rtt: 'min' },
      { cc: 'cubic', hystart: 'hystart++', cubic_rtt: 'srtt' },
      { cc: 'bbr', hystart: undefined, cubic_rtt: undefined },
    ]);
  });

  it('scenario() folds in live changes, and builds what reset() replays', () => {
    const sim = new Simulation(DOCUMENT);
    try {
      sim.advanceTo(1.2);
      sim.setParam('max_p', 0.3);
      const document: Scenario = sim.scenario();
      expect(document.queue.params).toEqual({ min_th: 5, max_th: 20, max_p: 0.3 });
      expect(document.flows.map((group) => group.kind)).toEqual(['tcp', 'poisson']);
      const rebuilt = new Simulation(JSON.stringify(document));
      try {
        expect(rebuilt.plan()).toEqual(sim.plan());
        sim.reset();
        expect(sim.nowS()).toBe(0);
        expect(sim.plan().params.max_p).toBe(0.3);
        expect(results(sim)).toEqual(results(rebuilt));
      } finally {
        rebuilt.free();
      }
    } finally {
      sim.free();
    }
  });
});
