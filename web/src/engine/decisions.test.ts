// The wasm engine's decision records (the drop-and-mark inspector): what the
// page receives has the scheme's declared fields and agrees with the summary.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { unpackDecisions } from './decisionCodec';
import { Simulation, decisionStride, initSync } from './pkg/aqm_core.js';
import type { DecisionRecord } from './pkg/aqm_core';

const wasmFile = new URL('./pkg/aqm_core_bg.wasm', import.meta.url);

const RED_ECN = JSON.stringify({
  version: 1,
  seed: 2,
  duration_s: 6,
  measure_from_s: 0,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 4e6, delay_ms: 10 }, buffer: { packets: 40 } },
  queue: { scheme: 'red', params: { min_th: 5, max_th: 15, max_p: 0.1, ecn: true } },
  flows: [
    { kind: 'tcp', count: 3, ecn: true },
    { kind: 'tcp', count: 2 },
  ],
});

beforeAll(() => {
  initSync({ module: readFileSync(wasmFile) });
});

describe('decision records', () => {
  it("carry RED's declared state, and every drop and mark the summary counts", () => {
    const sim = new Simulation(RED_ECN);
    const fields = sim.decisionFields().map((f) => f.id);
    expect(fields).toEqual(['avg', 'queued', 'count', 'p_b', 'p_a', 'draw']);
    const all: DecisionRecord[] = [];
    for (let t = 0.5; !sim.isFinished(); t += 0.5) {
      sim.advanceTo(t);
      all.push(...unpackDecisions(sim.takeDecisions(), decisionStride()));
    }
    const summary = sim.summary(0);
    sim.free();
    const count = (verdict: string) => all.filter((d) => d.verdict === verdict).length;
    expect(count('drop')).toBe(summary.drops.total);
    expect(count('mark')).toBe(summary.marks);
    expect(count('mark')).toBeGreaterThan(0);
    for (const d of all.filter((d) => d.reason === 'early')) {
      expect(d.state).toHaveLength(fields.length);
      // An early verdict: the draw fell below p_a.
      expect(d.state[5] as number).toBeLessThan(d.state[4] as number);
    }
    const times = all.map((d) => d.t_s);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keep only the newest 2 000 between two takes', () => {
    const busy = { ...JSON.parse(RED_ECN), duration_s: 30, flows: [{ kind: 'tcp', count: 30 }] };
    const sim = new Simulation(JSON.stringify(busy));
    sim.advanceTo(30);
    const kept = unpackDecisions(sim.takeDecisions(), decisionStride());
    sim.free();
    expect(kept.length).toBe(2000);
    expect(kept[kept.length - 1].t_s).toBeGreaterThan(29);
  });

  it('stop while recording is off, start again when it is on, and a reset keeps the choice', () => {
    const sim = new Simulation(RED_ECN);
    const take = () => unpackDecisions(sim.takeDecisions(), decisionStride());
    sim.advanceTo(2);
    expect(take().length).toBeGreaterThan(0);
    sim.recordDecisions(false);
    sim.advanceTo(4);
    expect(take()).toEqual([]);
    sim.reset();
    sim.advanceTo(2);
    expect(take()).toEqual([]);
    sim.recordDecisions(true);
    sim.advanceTo(4);
    const after = take();
    expect(after.length).toBeGreaterThan(0);
    expect(after[0].t_s).toBeGreaterThanOrEqual(2);
    // A reset with recording on records again from t = 0.
    sim.reset();
    sim.advanceTo(2);
    expect(take().length).toBeGreaterThan(0);
    sim.free();
  });
});
