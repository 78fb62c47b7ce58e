// Where the inspector places CoDel and PIE decisions, checked against what
// the wasm engine recorded: each CoDel drop sits on its control law, and the
// corner the PIE chart shades as "no early drop" holds none of PIE's drops;
// DualPI2's sit on its coupled curves.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { unpackDecisions } from '../engine/decisionCodec';
import { Simulation, decisionStride, initSync } from '../engine/pkg/aqm_core.js';
import type { DecisionRecord, FieldSpec } from '../engine/pkg/aqm_core';
import { curvePoint, explainDecision } from './decisionText';
import { codelLawPoint, pieQuiet, pieStatePoint, recordsCodelLaw, recordsPieState } from './schemeLaws';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);

function scenario(queue: Record<string, unknown>, ecn = false): string {
  return JSON.stringify({
    version: 1,
    seed: 3,
    duration_s: 12,
    measure_from_s: 0,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 4e6, delay_ms: 10 }, buffer: { packets: 200 } },
    queue,
    flows: [{ kind: 'tcp', count: 6, ecn, start_s: [0, 1], access_delay_ms: [1, 30] }],
  });
}

/** A whole run's decisions, taken after every half second as the page takes them. */
function decisionsOf(text: string): { decisions: DecisionRecord[]; fields: FieldSpec[] } {
  const sim = new Simulation(text);
  const fields = sim.decisionFields();
  const decisions: DecisionRecord[] = [];
  for (let t = 0.5; !sim.isFinished(); t += 0.5) {
    sim.advanceTo(t);
    decisions.push(...unpackDecisions(sim.takeDecisions(), decisionStride()));
  }
  sim.free();
  return { decisions, fields };
}

beforeAll(() => {
  initSync({ module: readFileSync(wasmFile) });
});

describe("CoDel's control law", () => {
  it.each([
    ['CoDel', { scheme: 'codel', params: { interval: 100 } }, false],
    ['CoDel with ECN, interval 60 ms', { scheme: 'codel', params: { interval: 60, ecn: true } }, true],
    ['FQ-CoDel', { scheme: 'fq_codel' }, false],
  ])('%s: every drop and mark sits on interval / √count, from its recorded times', (_name, queue, ecn) => {
    const { decisions, fields } = decisionsOf(scenario(queue, ecn));
    expect(recordsCodelLaw(fields)).toBe(true);
    const placed = decisions.flatMap((d) => {
      const point = codelLawPoint(d, fields);
      return point ? [{ d, point }] : [];
    });
    const early = decisions.filter((d) => d.reason === 'early');
    // Every early drop or mark is placed; overflow drops record no state.
    expect(placed.length).toBe(early.length);
    expect(placed.some(({ point }) => point.count >= 3)).toBe(true);
    if (ecn) expect(placed.some(({ d }) => d.verdict === 'mark')).toBe(true);
    for (const { point } of placed) {
      // The engine rounds the spacing to the nanosecond: 1e-6 ms, plus the seconds' float error.
      expect(Math.abs(point.gapMs - point.intervalMs / Math.sqrt(point.count))).toBeLessThan(1e-5);
      // A drop only once the packet waited longer than target.
      expect(point.sojournMs).toBeGreaterThanOrEqual(point.targetMs);
    }
    expect(decisions.filter((d) => d.verdict === 'pass').every((d) => codelLawPoint(d, fields) === null)).toBe(true);
  });
});

describe("PIE's probability and queue delay", () => {
  it.each([
    ['PIE', { scheme: 'pie' }],
    ['PIE without derandomisation, target 5 ms', { scheme: 'pie', params: { target: 5, derandomize: false } }],
    ['FQ-PIE', { scheme: 'fq_pie' }],
  ])('%s: no early drop in the quiet corner or while the burst allowance lasts; each placed at its recorded p and delay', (_name, queue) => {
    const { decisions, fields } = decisionsOf(scenario(queue));
    expect(recordsPieState(fields)).toBe(true);
    expect(recordsCodelLaw(fields)).toBe(false);
    const points = decisions.map((d) => ({ d, point: pieStatePoint(d, fields) }));
    const early = points.filter(({ d }) => d.reason === 'early');
    expect(early.length).toBeGreaterThan(5);
    for (const { d, point } of early) {
      expect(point).not.toBeNull();
      if (!point) continue;
      expect(pieQuiet(point.qdelayMs, point.p, point.targetMs)).toBe(false);
      expect(point.burstAllowanceMs).toBe(0);
      const p = d.state[fields.findIndex((f) => f.id === 'p')];
      const delay = d.state[fields.findIndex((f) => f.id === 'qdelay_ms')];
      expect([point.p, point.qdelayMs]).toEqual([p, delay]);
    }
    // The corner is not empty: PIE lets arrivals through there.
    expect(points.some(({ d, point }) => d.verdict === 'pass' && point && pieQuiet(point.qdelayMs, point.p, point.targetMs))).toBe(true);
  });

  it("explains a pass by the rule that let it through, and a drop by PIE's draw", () => {
    const { decisions, fields } = decisionsOf(scenario({ scheme: 'pie' }));
    const words = (d: DecisionRecord) => explainDecision(d, fields, 'PIE', 'packets').sentences.join(' ');
    const drop = decisions.find((d) => d.reason === 'early' && d.verdict === 'drop');
    expect(drop && words(drop)).toMatch(/fell below p|8\.5 or more/);
    const quiet = decisions.find((d) => {
      const point = pieStatePoint(d, fields);
      return d.verdict === 'pass' && point && point.burstAllowanceMs === 0 && pieQuiet(point.qdelayMs, point.p, point.targetMs);
    });
    expect(quiet && words(quiet)).toMatch(/below half the target/);
  });
});

describe("DualPI2's coupled probabilities", () => {
  it('a classic decision sits on p′², an L4S one at or above min(k·p′, 1), each at its recorded p′ and p', () => {
    const text = JSON.stringify({
      ...JSON.parse(scenario({ scheme: 'dualpi2', params: { k: 2 } })),
      flows: [
        { kind: 'tcp', count: 2, cc: 'prague', ecn: 'ect1', sack: true },
        { kind: 'tcp', count: 2, cc: 'cubic', sack: true },
      ],
    });
    const { decisions, fields } = decisionsOf(text);
    const at = (id: string) => fields.findIndex((f) => f.id === id);
    const placed = decisions.filter((d) => d.state.length > 0);
    expect(placed.some((d) => d.state[at('l4s')] === 1 && d.verdict === 'mark')).toBe(true);
    expect(placed.some((d) => d.state[at('l4s')] === 0 && d.verdict === 'drop')).toBe(true);
    for (const d of placed) {
      const [pPrime, p] = [d.state[at('p_prime')] as number, d.state[at('p')] as number];
      expect(curvePoint(d, fields)).toEqual([pPrime, p]);
      if (d.state[at('l4s')] === 0) expect(p).toBeCloseTo(pPrime * pPrime, 12);
      else expect(p).toBeGreaterThanOrEqual(Math.min(2 * pPrime, 1) - 1e-12);
    }
  });
});
