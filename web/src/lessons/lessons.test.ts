// Every bundled lesson file validates, every step's experiment is accepted by
// the engine, and every summary field a lesson names has a value in a real
// run of that step (needs the wasm package: `npm run build:wasm`).

import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, initSync, validate } from '../engine/pkg/aqm_core.js';
import type { Summary } from '../engine/pkg/aqm_core';
import { glossaryEntry } from '../glossary/glossary';
import { parseRichText } from '../glossary/richText';
import { PRESETS } from '../scenario/presets';
import { parseLesson, type Lesson } from './format';
import { LESSONS, LESSON_FILE_PROBLEMS, LESSON_ORDER } from './lessons';
import { stepScenario } from './setup';
import { fillTemplate, formatMeasured, judge, measureValue, templateFields } from './template';

const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
const presetIds = new Set(PRESETS.map((p) => p.id));

beforeAll(() => {
  if (!existsSync(wasmFile)) throw new Error('build the engine first: `npm run build:wasm`');
  initSync({ module: readFileSync(wasmFile) });
});

function run(scenarioJson: string): Summary {
  const sim = new Simulation(scenarioJson);
  try {
    sim.advanceTo(Number.MAX_SAFE_INTEGER);
    sim.drain();
    return sim.summary(0);
  } finally {
    sim.free();
  }
}

function presetScenario(id: string) {
  const preset = PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`no preset ${id}`);
  return preset.scenario;
}

describe('bundled lessons', () => {
  it('all parse, with none left out for problems, each named in the list order', () => {
    expect(LESSON_FILE_PROBLEMS).toEqual([]);
    expect(LESSONS.map((l) => l.id)).toEqual(LESSON_ORDER);
    expect(LESSONS).toHaveLength(10);
  });

  it('link only glossary entries that exist', () => {
    for (const lesson of LESSONS) {
      for (const step of lesson.steps) {
        for (const text of [step.watch, step.predict.question, step.reveal]) {
          for (const part of parseRichText(text)) {
            if (part.kind === 'term') expect(glossaryEntry(part.termId), `${lesson.id}: [[${part.text}|${part.termId}]]`).toBeDefined();
          }
        }
      }
    }
  });

  describe.each(LESSONS.map((lesson) => [lesson.id, lesson] as const))('%s', (_id, lesson: Lesson) => {
    it('runs every step, and every field it names has a value in that run', () => {
      const summaries: Summary[] = [];
      lesson.steps.forEach((step, i) => {
        const json = JSON.stringify(stepScenario(step.setup, presetScenario(step.setup.preset)));
        expect(validate(json), `${lesson.id} step ${i + 1}`).toBeUndefined();
        const summary = run(json);
        const value = measureValue(step.predict.measure, summary);
        expect(value, `${lesson.id} step ${i + 1} measure`).toBeTypeOf('number');
        for (const { step: from, field } of templateFields(step.reveal)) {
          expect(from === null || from <= i, `${lesson.id} step ${i + 1}: {step${from}.${field}}`).toBe(true);
        }
        const filled = fillTemplate(step.reveal, { current: summary, earlier: summaries }, formatMeasured(step.predict.measure, value!));
        expect(filled.missing, `${lesson.id} step ${i + 1} reveal`).toEqual([]);
        // Some answer is right: the choice ranges cover the measured value.
        if (step.predict.kind === 'choice') {
          const right = step.predict.options.map((_, option) => judge(step.predict, { kind: 'choice', option }, value!).right);
          expect(right.filter(Boolean)).toHaveLength(1);
        }
        summaries.push(summary);
      });
    });
  });
});

describe('a lesson file with problems', () => {
  const good = {
    format: 1,
    title: 'T',
    summary: 'S',
    steps: [
      {
        title: 'one',
        setup: { preset: 'bufferbloat' },
        watch: 'w',
        predict: { kind: 'number', question: 'q', measure: { field: 'queue.mean_delay_ms', unit: 'ms' }, tolerance: 0.5 },
        reveal: 'it was {queue.mean_delay_ms:1} ms',
      },
    ],
  };

  it('a good file parses', () => {
    expect(parseLesson(good, 'x', presetIds)).toMatchObject({ ok: true });
  });

  it('names the field that is wrong', () => {
    const bad = structuredClone(good) as Record<string, any>;
    bad.steps[0].setup.preset = 'no-such-preset';
    bad.steps[0].setup.charts = ['queue', 'pie-chart'];
    bad.steps[0].setup.speed = -2;
    bad.steps[0].predict.tolerance = 0;
    bad.steps[0].predict.measure.field = 'Queue Delay';
    bad.steps[0].reveal = 'was {step1.queue.mean_delay_ms} and {queue..x}';
    bad.steps[0].extra = true;
    const result = parseLesson(bad, 'x', presetIds);
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        'steps[0].setup.preset: is not a file in scenarios/, got "no-such-preset"',
        expect.stringMatching(/^steps\[0\]\.setup\.charts\[1\]: must be one of queue, .*got "pie-chart"$/),
        'steps[0].setup.speed: must be > 0 or "max", got -2',
        expect.stringMatching(/^steps\[0\]\.predict\.tolerance: must be > 0/),
        expect.stringMatching(/^steps\[0\]\.predict\.measure\.field: must be a dotted summary field/),
        expect.stringMatching(/^steps\[0\]\.reveal: \{step1\.queue\.mean_delay_ms\} names step 1, but only steps 1 to 0/),
        expect.stringMatching(/^steps\[0\]\.reveal: cannot read the placeholder \{queue\.\.x\}/),
        expect.stringMatching(/^steps\[0\]\.extra: unknown field/),
      ]),
    );
  });

  it('rejects choice ranges with a gap or an overlap', () => {
    const choice = (options: unknown[]) => {
      const file = structuredClone(good) as Record<string, any>;
      file.steps[0].predict = { kind: 'choice', question: 'q', measure: { field: 'utilization', unit: '%' }, options };
      return parseLesson(file, 'x', presetIds);
    };
    expect(
      choice([
        { label: 'low', max: 10 },
        { label: 'high', min: 10 },
      ]).ok,
    ).toBe(true);
    const gap = choice([
      { label: 'low', max: 10 },
      { label: 'high', min: 20 },
    ]);
    expect(gap.ok ? [] : gap.problems).toEqual([expect.stringMatching(/^steps\[0\]\.predict\.options: ranges must cover every value once/)]);
    expect(
      choice([
        { label: 'low', max: 10 },
        { label: 'mid', min: 5 },
      ]).ok,
    ).toBe(false);
    expect(choice([{ label: 'only' }]).ok).toBe(false);
  });
});
