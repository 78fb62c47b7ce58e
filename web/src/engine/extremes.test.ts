// Every parameter of every scheme in the catalogue, moved to either end of
// its range in the middle of a run: the engine either accepts the value or
// refuses it with a message naming the field, and keeps running.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Simulation, catalogue, initSync } from './pkg/aqm_core.js';

const wasmFile = new URL('./pkg/aqm_core_bg.wasm', import.meta.url);

function scenario(scheme: string, buffer: Record<string, number>): string {
  return JSON.stringify({
    version: 1,
    seed: 3,
    duration_s: 3,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 5 }, buffer },
    queue: { scheme },
    flows: [
      { kind: 'tcp', count: 3, start_s: [0, 0.2] },
      { kind: 'poisson', count: 2, rate_bps: 800_000, packet_bytes: 500 },
    ],
  });
}

// The test list comes from the catalogue, so the engine must be up while tests are collected.
if (!existsSync(wasmFile)) throw new Error('build the engine first: `npm run build:wasm` (npm test does it)');
initSync({ module: readFileSync(wasmFile) });

describe.each([
  ['packets', { packets: 60 }],
  ['bytes', { bytes: 60_000 }],
] as const)('every parameter at its extremes, buffer in %s', (unit, buffer) => {
  for (const entry of catalogue(unit)) {
    it(entry.id, () => {
      const sim = new Simulation(scenario(entry.id, buffer));
      try {
        let t = 0.5;
        sim.advanceTo(t);
        for (const spec of entry.params) {
          for (const value of [spec.min, spec.max, spec.default]) {
            try {
              sim.setParam(spec.id, value);
            } catch (error) {
              // Refusals (e.g. max_th at its minimum, below min_th) are typed problems naming the field.
              expect(error).toMatchObject({ path: expect.stringMatching(/^queue\.params\.\w+$/), message: expect.any(String), kind: 'param' });
            }
            t += 0.05;
            sim.advanceTo(t);
          }
        }
        sim.drain();
        expect(sim.nowS()).toBeCloseTo(t, 9);
        expect(sim.summary(0).perf.events).toBeGreaterThan(0);
      } finally {
        sim.free();
      }
    });
  }
});
