// A lesson's right answer must not hold by luck: every step is run on seeds
// 1–8 and, unless the step itself is about timing, with 1 ms of access
// jitter on every flow group, and the answer marked right must stay right
// in every run. A number prediction's tolerance must cover the spread of
// those runs and be no wider than that spread justifies (needs the wasm
// package: `npm run build:wasm`).

import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, initSync, planScenario } from '../engine/pkg/aqm_core.js';
import type { Scenario, Summary } from '../scenario/types';
import type { LessonStep } from './format';
import { LESSONS } from './lessons';
import { seedVariants, toleranceProblem } from './seeds';
import { measureValue } from './template';
import { stepExperiment } from './useLesson';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);

beforeAll(() => {
  if (!existsSync(wasmFile)) throw new Error('build the engine first: `npm run build:wasm`');
  initSync({ module: readFileSync(wasmFile) });
});

function run(scenario: Scenario): Summary {
  const sim = new Simulation(JSON.stringify(scenario));
  try {
    sim.advanceTo(sim.durationS());
    return sim.summary(0);
  } finally {
    sim.free();
  }
}

/** The option a value falls in (choice), or the value itself (number). */
function rightAnswer(step: LessonStep, value: number): string {
  const predict = step.predict;
  if (predict.kind === 'number') return String(value);
  const option = predict.options.find((o) => (o.min === undefined || value >= o.min) && (o.max === undefined || value < o.max));
  return option?.label ?? '(no option)';
}

const steps = LESSONS.flatMap((lesson) => lesson.steps.map((step, i) => [`${lesson.id} step ${i + 1}`, step] as const));

describe('every lesson answer holds on seeds 1–8 and under 1 ms of access jitter', () => {
  it.each(steps)(
    '%s',
    (_name, step) => {
      const scenario = stepExperiment(step);
      expect(scenario).not.toBeNull();
      const measured = seedVariants(scenario!, planScenario(JSON.stringify(scenario)), step).map(({ name, scenario: variant }) => ({
        name,
        value: measureValue(step.predict.measure, run(variant)),
      }));
      const table = measured.map(({ name, value }) => `${name}: ${value}`).join(', ');
      for (const { value } of measured) expect(value, table).toBeTypeOf('number');
      const values = measured.map(({ value }) => value!);
      if (step.predict.kind === 'choice') {
        const answers = new Set(values.map((value) => rightAnswer(step, value)));
        expect([...answers], table).toHaveLength(1);
      } else {
        expect(toleranceProblem(values, step.predict.tolerance), table).toBeNull();
      }
      // Nine whole runs: a step on a fast link (the L4S lesson's 40 Mb/s) needs seconds.
    },
    60_000,
  );
});
