import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initSync, planScenario, sweepCheck, sweepPoint } from '../engine/pkg/aqm_core.js';
import type { CatalogueEntry, Scenario, Summary } from '../scenario/types';
import {
  MAX_RUNS,
  SWEEP_CSV_HEADER,
  aggregate,
  checkSize,
  cliCommand,
  parseValueList,
  planRuns,
  rangeValues,
  suggestedRange,
  sweepMetrics,
  sweepToCsv,
  sweepableFields,
  toEngineValue,
  type SweepPoint,
  type SweepRequest,
} from './model';
import { defaultPoolSize } from './pool';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A summary with the fields the metrics read; the rest is irrelevant here. */
function summaryWith(goodputBps: number, jain: number | null, flows: [sent: number, dropped: number][] = []): Summary {
  return {
    aggregate_goodput_bps: goodputBps,
    utilization: 0.5,
    queue: { mean_packets: 1, mean_bytes: 1000, mean_delay_ms: 2, p99_delay_ms: 3 },
    drops: { total: 4, by_reason: { early: 4, forced: 0, overflow: 0 } },
    marks: 0,
    fairness: { jain_all: jain, jain_tcp: null, share_deviation: null, fairness_f: null, mean_cov_tcp: null },
    flows: flows.map(([sent, dropped], id) => ({ id, group: 0, sent_packets: sent, dropped_packets: dropped })),
    groups: [],
  } as unknown as Summary;
}

const scenario: Scenario = JSON.parse(readFileSync(`${repoRoot}scenarios/red-vs-droptail-cbr.json`, 'utf8'));

describe('values', () => {
  it('spaces a range evenly and includes both ends, like --range FROM:TO:N', () => {
    expect(rangeValues(0.02, 0.3, 8)).toHaveLength(8);
    expect(rangeValues(0.02, 0.3, 8)[0]).toBe(0.02);
    expect(rangeValues(0.02, 0.3, 8)[7]).toBeCloseTo(0.3, 15);
    expect(rangeValues(10, 40, 4)).toEqual([10, 20, 30, 40]);
    expect(rangeValues(5, 9, 1)).toEqual([5]);
    expect(rangeValues(40, 10, 3)).toEqual([40, 25, 10]);
  });

  it('reads a list of numbers and names the field of a bad one', () => {
    expect(parseValueList('0.05, 0.1,0.2 0.4')).toEqual({ ok: true, value: [0.05, 0.1, 0.2, 0.4] });
    expect(parseValueList('0.1, x')).toEqual({ ok: false, field: 'values', message: '`x` is not a number' });
    expect(parseValueList('  ')).toMatchObject({ ok: false, field: 'values' });
    expect(parseValueList('1, Infinity')).toMatchObject({ ok: false });
  });

  it('plans each value under seeds 1…N, value-major, as the CLI orders its rows', () => {
    const runs = planRuns({ path: 'queue.params.max_p', values: [0.1, 0.2], seedCount: 3 });
    expect(runs.map((r) => [r.index, r.value, r.seed])).toEqual([
      [0, 0.1, 1],
      [1, 0.1, 2],
      [2, 0.1, 3],
      [3, 0.2, 1],
      [4, 0.2, 2],
      [5, 0.2, 3],
    ]);
  });

  it('bounds the size of a sweep and names the field to change', () => {
    expect(checkSize(20, 10)).toEqual({ ok: true, value: MAX_RUNS });
    expect(checkSize(21, 10)).toEqual({ ok: false, field: 'seeds', message: `21 values × 10 seeds = 210 runs; a sweep may have at most ${MAX_RUNS}` });
    expect(checkSize(201, 1)).toMatchObject({ ok: false, field: 'values' });
    expect(checkSize(3, 0)).toMatchObject({ ok: false, field: 'seeds' });
    expect(checkSize(3, 1.5)).toMatchObject({ ok: false, field: 'seeds' });
  });

  it('uses the spare cores, leaving one for the page', () => {
    expect([1, 2, 3, 4, 8, 17, 64].map(defaultPoolSize)).toEqual([1, 1, 2, 3, 7, 16, 16]);
    expect(defaultPoolSize(undefined)).toBe(1);
  });
});

describe('fields', () => {
  const red: CatalogueEntry = {
    id: 'red',
    name: 'RED',
    paper: '',
    summary: '',
    probes: [],
    buffer_params: ['min_th', 'max_th'],
    params: [
      { id: 'max_p', label: 'maximum drop probability', kind: 'number', unit: '', min: 0.001, max: 1, step: 0.001, default: 0.1, doc: '' },
      { id: 'gentle', label: 'gentle', kind: 'switch', unit: 'on/off', min: 0, max: 1, step: 1, default: 0, doc: '' },
    ],
  };

  it('offers the scheme parameters, the link and each group, by the paths the CLI takes', () => {
    const fields = sweepableFields(scenario, red, null);
    const paths = fields.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['queue.params.max_p', 'topology.bottleneck.rate_bps', 'topology.buffer.packets', 'flows[0].count']));
    expect(paths).toContain('flows[1].rate_bps');
    // A group's size is the engine's plan's, not a default of the page's.
    initSync({ module: readFileSync(new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url)) });
    const plan = planScenario(JSON.stringify(scenario));
    const sizes = sweepableFields(scenario, red, plan).filter((f) => f.path.endsWith('.count'));
    expect(sizes.map((f) => f.current)).toEqual(plan.groups.map((g) => g.count));
    expect(fields.find((f) => f.path === 'flows[0].count')?.current).toBeUndefined();
    const maxP = fields.find((f) => f.path === 'queue.params.max_p');
    expect(maxP?.current).toBe(scenario.queue.params?.max_p ?? 0.1);
    // A switch takes whole values only, so any range rounds to off and on.
    const gentle = fields.find((f) => f.path === 'queue.params.gentle');
    expect(gentle && [0.2, 0.7].map((v) => toEngineValue(gentle, v))).toEqual([0, 1]);
  });

  it('converts display units to the engine’s, whole where the engine wants whole numbers', () => {
    const rate = sweepableFields(scenario, red, null).find((f) => f.path === 'topology.bottleneck.rate_bps');
    expect(rate && toEngineValue(rate, 1.1)).toBe(1_100_000);
    const maxP = sweepableFields(scenario, red, null).find((f) => f.path === 'queue.params.max_p');
    expect(maxP && toEngineValue(maxP, 0.15)).toBe(0.15);
  });

  it('suggests half to double the current value, inside the catalogue bounds', () => {
    const field = { path: 'queue.params.max_p', label: '', unit: '', scale: 1, integer: false, group: '', current: 0.6, min: 0.001, max: 1 };
    expect(suggestedRange(field)).toEqual({ from: 0.3, to: 1 });
    expect(suggestedRange({ ...field, path: 'flows[0].count', integer: true, current: 1, min: undefined, max: undefined })).toEqual({ from: 1, to: 2 });
    expect(suggestedRange({ ...field, path: 'queue.params.gentle', unit: 'on/off', integer: true, isSwitch: true, current: 1, min: 0, max: 1 })).toEqual({
      from: 0,
      to: 1,
    });
  });
});

describe('aggregation over seeds', () => {
  const points: SweepPoint[] = [
    { value: 0.2, seed: 2, summary: summaryWith(3e6, 0.9) },
    { value: 0.1, seed: 1, summary: summaryWith(1e6, 0.5) },
    { value: 0.1, seed: 2, summary: summaryWith(3e6, null) },
    { value: 0.2, seed: 1, summary: summaryWith(5e6, 0.7) },
    { value: 0.1, seed: 3, summary: summaryWith(2e6, 0.8) },
  ];
  const metric = (id: string) => {
    const found = sweepMetrics(scenario).find((m) => m.id === id);
    if (!found) throw new Error(id);
    return found;
  };

  it('gives mean, min, max and sample sd per value, in value order, seeds in seed order', () => {
    const goodput = aggregate(points, metric('goodput'));
    expect(goodput.map((a) => a.value)).toEqual([0.1, 0.2]);
    expect(goodput[0]).toMatchObject({ mean: 2, min: 1, max: 3 });
    expect(goodput[0].sd).toBeCloseTo(1, 12);
    expect(goodput[0].bySeed).toEqual([
      { seed: 1, y: 1 },
      { seed: 2, y: 3 },
      { seed: 3, y: 2 },
    ]);
    expect(goodput[1]).toMatchObject({ mean: 4, min: 3, max: 5 });
    expect(goodput[1].sd).toBeCloseTo(Math.SQRT2, 12);
  });

  it('leaves out runs without a value (Jain’s index when nothing got through)', () => {
    const jain = aggregate(points, metric('jain_all'));
    expect(jain[0].bySeed.map((s) => s.seed)).toEqual([1, 3]);
    expect(jain[0].mean).toBeCloseTo(0.65, 12);
    expect(aggregate([points[1]], metric('jain_all'))[0].sd).toBe(0);
  });

  it('computes the loss rate over every flow’s packets', () => {
    expect(
      metric('loss').read(
        summaryWith(0, null, [
          [100, 1],
          [300, 7],
        ]),
      ),
    ).toBe(2);
    expect(metric('loss').read(summaryWith(0, null, []))).toBeNull();
  });
});

describe('files', () => {
  it('writes the CLI’s columns, an empty cell for a missing index', () => {
    const text = sweepToCsv([{ value: 0.1, seed: 1, summary: summaryWith(1.5e6, null) }]);
    expect(text).toBe(`${SWEEP_CSV_HEADER}\n0.1,1,1500000,0.5,1,2,3,4,0,,\n`);
  });

  it('writes the command that runs the same sweep', () => {
    const request: SweepRequest = { path: 'queue.params.max_p', values: [0.05, 1e-7, 2], seedCount: 2 };
    expect(cliCommand('s.json', request)).toBe('aqm-sim sweep s.json --param queue.params.max_p --values 0.05,0.0000001,2 --seeds 2');
  });
});

describe('the same sweep in the browser engine and `aqm-sim sweep`', () => {
  // npm test points AQM_SIM at the CLI its engine tests just built.
  const nativeCli = process.env.AQM_SIM ?? `${repoRoot}target/release/aqm-sim`;
  const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
  const ready = existsSync(nativeCli) && existsSync(wasmFile);
  const short: Scenario = { ...scenario, duration_s: 8, measure_from_s: 2 };
  const scenarioJson = JSON.stringify(short);

  function sweepInWasm(request: SweepRequest): SweepPoint[] {
    initSync({ module: readFileSync(wasmFile) });
    return planRuns(request).map(({ value, seed }) => ({ value, seed, summary: sweepPoint(scenarioJson, request.path, value, seed) }));
  }

  it.runIf(ready)('gives byte-identical CSV for a list of values', () => {
    const request: SweepRequest = { path: 'queue.params.max_p', values: [0.02, 0.1, 0.35], seedCount: 2 };
    const points = sweepInWasm(request);
    const native = execFileSync(nativeCli, ['sweep', '-', '--param', request.path, '--values', '0.02,0.1,0.35', '--seeds', '2'], {
      input: scenarioJson,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    expect(native.split('\n')).toHaveLength(1 + 6 + 1);
    expect(sweepToCsv(points)).toBe(native);
    // Seeds and values both change the result: the runs are really different.
    expect(points[0].summary).not.toEqual(points[1].summary);
    expect(points[0].summary.drops.total).not.toBe(points[4].summary.drops.total);
  });

  it.runIf(ready)('gives the same values and full summaries for a range, as --json prints them', () => {
    const request: SweepRequest = { path: 'topology.buffer.packets', values: rangeValues(10, 60, 3), seedCount: 1 };
    const points = sweepInWasm(request);
    const native = execFileSync(nativeCli, ['sweep', '-', '--param', request.path, '--range', '10:60:3', '--json'], {
      input: scenarioJson,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    expect(points).toEqual(JSON.parse(native));
  });

  it.runIf(ready)('refuses a bad value before running, naming the field as the CLI does', () => {
    initSync({ module: readFileSync(wasmFile) });
    expect(sweepCheck(scenarioJson, 'queue.params.max_p', [0.1, 0.2], 2)).toBeUndefined();
    expect(sweepCheck(scenarioJson, 'queue.params.max_p', [0.1, 7], 2)).toMatchObject({ path: 'queue.params.max_p' });
    expect(sweepCheck(scenarioJson, 'flows[9].count', [1], 1)).toEqual({ path: 'flows[9].count', message: 'no such field in the scenario', kind: 'scenario' });
    expect(() => sweepPoint(scenarioJson, 'queue.params.max_p', 7, 1)).toThrow(expect.objectContaining({ path: 'queue.params.max_p', kind: 'scenario' }));
  });
});
