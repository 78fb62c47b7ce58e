// Same scenario and seed must give identical results in the browser engine
// (wasm) and the native CLI. Needs the wasm package and the native CLI built
// (`npm test` builds both first).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, initSync, validate } from './pkg/aqm_core.js';
import type { Summary } from './pkg/aqm_core';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
// npm test points AQM_SIM at the CLI its engine tests just built.
const nativeCli = process.env.AQM_SIM ?? `${repoRoot}target/release/aqm-sim`;
const wasmFile = new URL('./pkg/aqm_core_bg.wasm', import.meta.url);

/** A short scenario that exercises random streams (Poisson, RED's coin, start times) and libm. */
function comparisonScenario(): string {
  const preset = JSON.parse(readFileSync(`${repoRoot}scenarios/red-vs-droptail-cbr.json`, 'utf8'));
  preset.duration_s = 8;
  preset.measure_from_s = 2;
  preset.flows.push({ kind: 'poisson', label: 'Poisson', count: 3, rate_bps: 300000, packet_bytes: 500, start_s: [0, 1] });
  return JSON.stringify(preset);
}

/** A preset from scenarios/ with some top-level keys replaced (cut short, mostly). */
function preset(id: string, changes: Record<string, unknown>): string {
  const document = JSON.parse(readFileSync(`${repoRoot}scenarios/${id}.json`, 'utf8'));
  return JSON.stringify({ ...document, ...changes });
}

/** One scenario through the native CLI and through the wasm engine in 37-ms slices. */
function bothEngines(scenarioJson: string): { native: Summary; wasm: Summary } {
  return { native: runNative(scenarioJson), wasm: runWasm(scenarioJson, 0.037) };
}

/** Everything except wall-clock timings, which differ between any two runs. */
function deterministicPart(summary: Summary): unknown {
  const { wall_s: _wall, events_per_s: _eps, packets_per_s: _pps, ...perf } = summary.perf;
  return { ...summary, perf };
}

function runWasm(scenarioJson: string, sliceS: number): Summary {
  const sim = new Simulation(scenarioJson);
  try {
    for (let t = sliceS; !sim.isFinished(); t += sliceS) {
      sim.advanceTo(t);
      sim.drain();
    }
    return sim.summary(0);
  } finally {
    sim.free();
  }
}

beforeAll(() => {
  if (!existsSync(wasmFile) || !existsSync(nativeCli)) {
    throw new Error('build the engine first: `npm run build:wasm` and `cargo build --release --bin aqm-sim` (npm test does both)');
  }
  initSync({ module: readFileSync(wasmFile) });
});

/** The native CLI's summary. With a time-series file it samples like the browser does, so even the event counts agree. */
function runNative(scenarioJson: string): Summary {
  const scratch = mkdtempSync(join(tmpdir(), 'aqm-determinism-'));
  try {
    const output = execFileSync(nativeCli, ['run', '-', '--timeseries', join(scratch, 'series.csv')], { input: scenarioJson, encoding: 'utf8' });
    return JSON.parse(output) as Summary;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('wasm engine', () => {
  it('matches the native CLI summary for the same scenario and seed', () => {
    const scenarioJson = comparisonScenario();
    const { native, wasm } = bothEngines(scenarioJson);
    expect(wasm.perf.packets).toBeGreaterThan(3_000);
    expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
  });

  it('matches the native CLI for CUBIC with SACK (cube roots through libm)', () => {
    const { native, wasm } = bothEngines(preset('ns3-dumbbell-cubic-sack', { duration_s: 8, measure_from_s: 2 }));
    expect(wasm.drops.total).toBeGreaterThan(0);
    expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
  });

  it('matches the native CLI for paced DCTCP over a step marker (accurate ECN counts, integer pacing gaps)', () => {
    const preset = JSON.parse(readFileSync(`${repoRoot}scenarios/dctcp-datacenter.json`, 'utf8'));
    preset.duration_s = 0.4;
    preset.measure_from_s = 0.1;
    preset.flows[0].pacing = true;
    const scenarioJson = JSON.stringify(preset);
    const { native, wasm } = bothEngines(scenarioJson);
    expect(wasm.marks).toBeGreaterThan(0);
    expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
  });

  it('matches the native CLI on the latency-under-load preset (ping echoes, delay percentiles)', () => {
    const { native, wasm } = bothEngines(preset('latency-under-load', { duration_s: 10, measure_from_s: 3 }));
    expect(wasm.groups[0].rtt_percentiles_ms?.p50).toBeGreaterThan(100);
    expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
  });

  it('hands the page delay CDFs that reach one and agree with the summary', () => {
    const preset = JSON.parse(readFileSync(`${repoRoot}scenarios/latency-under-load.json`, 'utf8'));
    // Slow start to the first loss (no HyStart): the uploads' overshoot fills Drop Tail's buffer, and some pings are dropped.
    preset.flows[1].hystart = 'off';
    const sim = new Simulation(JSON.stringify({ ...preset, duration_s: 6, measure_from_s: 1 }));
    try {
      sim.advanceTo(6);
      const delays = sim.delayDistributions();
      const summary = sim.summary(0);
      expect(delays.groups.map((g) => [g.kind, g.rtt !== undefined])).toEqual([
        ['ping', true],
        ['tcp', true],
      ]);
      const ping = delays.groups[0].rtt!;
      expect(ping.fraction.at(-1)).toBe(1);
      // Every request sent in the window comes back, but those Drop Tail dropped (and a few in flight at its ends).
      const flow = summary.flows[0];
      expect(Math.abs(ping.samples + flow.dropped_packets - flow.sent_packets)).toBeLessThanOrEqual(5);
      expect(flow.dropped_packets).toBeGreaterThan(0);
      // The CDF's bucket edge at the median holds the summary's p50 (the bucket's middle).
      const median = ping.ms[ping.fraction.findIndex((f) => f >= 0.5)];
      const p50 = summary.groups[0].rtt_percentiles_ms!.p50;
      expect(p50).toBeLessThanOrEqual(median);
      expect(p50).toBeGreaterThan(median * (1 - 1 / 64));
    } finally {
      sim.free();
    }
  });

  // 12 s: past Prague's 500 rounds (about 7.5 s at 15 ms), so RTT independence runs too.
  it.each(['dualpi2-prague-cubic', 'dualpi2-rfc9332-params', 'pie-prague-cubic', 'fq-codel-prague-cubic'])(
    'matches the native CLI for TCP Prague beside CUBIC (%s)',
    (id) => {
      const { native, wasm } = bothEngines(preset(id, { duration_s: 12, measure_from_s: 2 }));
      expect(wasm.marks + wasm.drops.total).toBeGreaterThan(0);
      expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
    },
    30_000,
  );

  // 15 s: BBR through Startup, Drain and several ProbeBW gain cycles (and its random first phase).
  // Two runs of a second or two each: past vitest's 5 s default on a busy machine.
  it.each(['bbr-vs-cubic-droptail', 'bbr-vs-cubic-fq-codel'])(
    'matches the native CLI for BBR beside CUBIC (%s)',
    (id) => {
      const { native, wasm } = bothEngines(preset(id, { duration_s: 15, measure_from_s: 3 }));
      expect(wasm.flows[0].goodput_bps).toBeGreaterThan(0);
      expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
    },
    30_000,
  );

  // CAKE reads the flows' host addresses (one_host) and, shaped, asks for wake-ups.
  it.each([
    ['cake-host-fairness', {}],
    ['cake-cbr-isolation', { rate_bps: 5_000_000 }],
  ])('matches the native CLI under CAKE (%s, params %o)', (id, params) => {
    const preset = JSON.parse(readFileSync(`${repoRoot}scenarios/${id}.json`, 'utf8'));
    preset.duration_s = 10;
    preset.measure_from_s = 2;
    preset.queue.params = params;
    const scenarioJson = JSON.stringify(preset);
    const { native, wasm } = bothEngines(scenarioJson);
    expect(wasm.perf.packets).toBeGreaterThan(10_000);
    expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
  });

  // Cut short, past the step at 30 s: a run costs a second or two.
  it.each([
    ['codel-cellular', 20],
    ['bufferbloat-link-halves', 35],
  ])(
    'matches the native CLI on the rate-trace preset %s (a random walk drawn through libm, a step)',
    (id, durationS) => {
      const { native, wasm } = bothEngines(preset(id, { duration_s: durationS }));
      expect(wasm.perf.packets).toBeGreaterThan(10_000);
      expect(deterministicPart(wasm)).toEqual(deterministicPart(native));
    },
    30_000,
  );

  it('gives the same result whatever the slice size', () => {
    const scenarioJson = comparisonScenario();
    expect(deterministicPart(runWasm(scenarioJson, 0.001))).toEqual(deterministicPart(runWasm(scenarioJson, 8)));
  });

  it('hands out through a view into its memory the same rows a drain copies', () => {
    const copied = new Simulation(comparisonScenario());
    const viewed = new Simulation(comparisonScenario());
    let rows = 0;
    for (let t = 0.1; !copied.isFinished(); t += 0.1) {
      copied.advanceTo(t);
      viewed.advanceTo(t);
      const copy = copied.drain();
      const view = viewed.drainView();
      expect(view.rows).toBe(copy.rows);
      expect(view.columns).toEqual(copy.columns);
      expect(Array.from(view.data)).toEqual(Array.from(copy.data));
      rows += view.rows;
    }
    expect(rows).toBeGreaterThan(0);
    copied.free();
    viewed.free();
  });

  it('reports scenario problems with their field path', () => {
    const bad = JSON.parse(comparisonScenario());
    bad.flows[1].rate_bps = -5;
    expect(validate(JSON.stringify(bad))).toEqual({ path: 'flows[1].rate_bps', message: 'must be > 0, got -5', kind: 'scenario' });
    expect(() => new Simulation(JSON.stringify(bad))).toThrow(
      expect.objectContaining({ path: 'flows[1].rate_bps', message: 'must be > 0, got -5', kind: 'scenario' }),
    );
    expect(validate(comparisonScenario())).toBeUndefined();
  });

  it('refuses a bad live parameter change and keeps running', () => {
    const sim = new Simulation(comparisonScenario());
    sim.advanceTo(1);
    // A refusal is a typed problem, {path, message, kind}: nothing reads a message apart to find the field.
    const refusal = (id: string, value: number): unknown => {
      try {
        sim.setParam(id, value);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    };
    expect(refusal('max_th', 10)).toEqual({
      path: 'queue.params.max_th',
      message: 'must be at least min_th (25): equal thresholds make a step marker',
      kind: 'param',
    });
    expect(refusal('max_p', 7)).toMatchObject({ path: 'queue.params.max_p', message: expect.stringMatching(/^7 is outside/), kind: 'param' });
    sim.setParam('max_p', 0.5);
    expect(sim.params().max_p).toBe(0.5);
    sim.advanceTo(2);
    expect(sim.nowS()).toBe(2);
    const batch = sim.drain();
    expect(batch.rows).toBe(200);
    expect(batch.data.length).toBe(batch.rows * batch.columns.length);
    sim.free();
  });
});
