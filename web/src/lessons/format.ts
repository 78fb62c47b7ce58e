// The lesson file format (lessons/*.json; docs/lessons.md): a lesson is a
// few steps; each step sets up an experiment from a preset, says what to
// watch, asks for a prediction (a choice or a number, never free text) and
// reveals the answer from the run's own summary.
//
// Files come from teachers, so `parseLesson` checks every field and names the
// bad one (`steps[1].predict.options[0].max: must be a number, got "ten"`).

import type { Speed } from '../engine/client';
import { CHART_IDS, type ChartId } from '../scenario/view';
import { templateProblems } from './template';

export const LESSON_FORMAT = 1;

/** A number read from the run's summary: `field`, divided by `divide_by` if given, times `scale`. */
export interface Measure {
  /** Dotted path into the summary, array items by index: `queue.mean_delay_ms`, `groups.1.total_goodput_bps`. */
  field: string;
  divide_by?: string;
  /** Multiplies the value (100 for a percentage, 1e-6 for b/s in Mb/s); 1 if absent. */
  scale?: number;
  /** Shown after the number: "ms", "%", "packets", "×". */
  unit: string;
  /** Decimal places shown (default 1). */
  digits?: number;
}

/** One answer to pick. It is right when the measured value falls in [min, max) (an absent bound is open). */
export interface ChoiceOption {
  label: string;
  min?: number;
  max?: number;
}

export interface ChoicePrediction {
  kind: 'choice';
  question: string;
  measure: Measure;
  options: ChoiceOption[];
}

export interface NumberPrediction {
  kind: 'number';
  question: string;
  measure: Measure;
  /** A guess within this fraction of the measured value counts as right (0.5 = within ±50%). */
  tolerance: number;
}

export type Prediction = ChoicePrediction | NumberPrediction;

/** How a step sets up its experiment: a preset, optionally changed. */
export interface StepSetup {
  /** A preset: the name of a file in scenarios/ without `.json`. */
  preset: string;
  /** Run this scheme instead of the preset's (with its default parameters, then `params`). */
  scheme?: string;
  /** Scheme parameters set on top. */
  params?: Record<string, number>;
  /** Merged into the preset's scenario: objects key by key, anything else (arrays too) replaced. */
  changes?: Record<string, unknown>;
  /** Charts to show (default: all). */
  charts?: ChartId[];
  /** Chart time window in simulated seconds (0 = the whole run; default 0). */
  window_s?: number;
  /** Playback speed (default 10): a number (× real time) or "max". */
  speed?: Speed;
}

export interface LessonStep {
  title: string;
  setup: StepSetup;
  /** What to look at while it runs. */
  watch: string;
  predict: Prediction;
  /** Shown after the run; `{field}` placeholders are filled from its summary (see template.ts). */
  reveal: string;
  /**
   * The step's outcome is decided by packet timing (phase effects), and the
   * step says so: the seed check runs it without the jitter that would break
   * that timing. A later step should show the same flows with jitter.
   */
  timing_decides?: boolean;
}

export interface Lesson {
  /** The file name without `.json`; links name lessons by it. */
  id: string;
  title: string;
  /** One sentence for the lesson list. */
  summary: string;
  steps: LessonStep[];
}

export type ParsedLesson = { ok: true; lesson: Lesson } | { ok: false; problems: string[] };

type Json = Record<string, unknown>;

/** Collects problems as it reads; every reader returns a usable value so reading goes on. */
class Reader {
  problems: string[] = [];

  fail(path: string, message: string, value?: unknown): void {
    this.problems.push(`${path}: ${message}${value === undefined ? '' : `, got ${JSON.stringify(value)}`}`);
  }

  object(value: unknown, path: string): Json {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Json;
    this.fail(path, 'must be an object', value);
    return {};
  }

  known(object: Json, path: string, keys: readonly string[]): void {
    for (const key of Object.keys(object)) if (!keys.includes(key)) this.fail(`${path}.${key}`, `unknown field (known: ${keys.join(', ')})`);
  }

  text(value: unknown, path: string): string {
    if (typeof value === 'string' && value.trim() !== '') return value;
    this.fail(path, 'must be non-empty text', value);
    return '';
  }

  number(value: unknown, path: string): number {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    this.fail(path, 'must be a number', value);
    return 0;
  }

  optionalNumber(value: unknown, path: string): number | undefined {
    return value === undefined ? undefined : this.number(value, path);
  }

  list(value: unknown, path: string, atLeast: number): unknown[] {
    if (Array.isArray(value) && value.length >= atLeast) return value;
    this.fail(path, `must be a list of at least ${atLeast}`, value);
    return [];
  }

  fieldPath(value: unknown, path: string): string {
    const text = this.text(value, path);
    if (text && !/^[a-z_][a-z0-9_]*(\.([a-z_][a-z0-9_]*|\d+))*$/.test(text))
      this.fail(path, 'must be a dotted summary field such as queue.mean_delay_ms', text);
    return text;
  }
}

function readMeasure(r: Reader, value: unknown, path: string): Measure {
  const o = r.object(value, path);
  r.known(o, path, ['field', 'divide_by', 'scale', 'unit', 'digits']);
  const measure: Measure = { field: r.fieldPath(o.field, `${path}.field`), unit: typeof o.unit === 'string' ? o.unit : r.text(o.unit, `${path}.unit`) };
  if (o.divide_by !== undefined) measure.divide_by = r.fieldPath(o.divide_by, `${path}.divide_by`);
  if (o.scale !== undefined) measure.scale = r.number(o.scale, `${path}.scale`);
  if (o.digits !== undefined) {
    const digits = r.number(o.digits, `${path}.digits`);
    if (!Number.isInteger(digits) || digits < 0 || digits > 6) r.fail(`${path}.digits`, 'must be a whole number from 0 to 6', digits);
    measure.digits = digits;
  }
  return measure;
}

function readPrediction(r: Reader, value: unknown, path: string): Prediction {
  const o = r.object(value, path);
  const question = r.text(o.question, `${path}.question`);
  const measure = readMeasure(r, o.measure, `${path}.measure`);
  if (o.kind === 'number') {
    r.known(o, path, ['kind', 'question', 'measure', 'tolerance']);
    const tolerance = r.number(o.tolerance, `${path}.tolerance`);
    if (!(tolerance > 0)) r.fail(`${path}.tolerance`, 'must be > 0 (a fraction: 0.5 means within ±50%)', tolerance);
    return { kind: 'number', question, measure, tolerance };
  }
  if (o.kind !== 'choice') r.fail(`${path}.kind`, 'must be "choice" or "number"', o.kind);
  r.known(o, path, ['kind', 'question', 'measure', 'options']);
  const options = r.list(o.options, `${path}.options`, 2).map((item, i) => {
    const at = `${path}.options[${i}]`;
    const option = r.object(item, at);
    r.known(option, at, ['label', 'min', 'max']);
    const min = r.optionalNumber(option.min, `${at}.min`);
    const max = r.optionalNumber(option.max, `${at}.max`);
    if (min !== undefined && max !== undefined && !(min < max)) r.fail(at, `min (${min}) must be below max (${max})`);
    return { label: r.text(option.label, `${at}.label`), ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
  });
  // Every value must have exactly one right answer: sorted by min, each range starts where the last ended.
  const sorted = [...options].sort((a, b) => (a.min ?? -Infinity) - (b.min ?? -Infinity));
  const covers = sorted.every((option, i) => option.min === (i === 0 ? undefined : sorted[i - 1].max) && (i < sorted.length - 1 || option.max === undefined));
  if (options.length > 0 && !covers) {
    r.fail(`${path}.options`, 'ranges must cover every value once: sorted by min, each starts at the previous max, the first has no min and the last no max');
  }
  return { kind: 'choice', question, measure, options };
}

function readSetup(r: Reader, value: unknown, path: string, presetIds: ReadonlySet<string>): StepSetup {
  const o = r.object(value, path);
  r.known(o, path, ['preset', 'scheme', 'params', 'changes', 'charts', 'window_s', 'speed']);
  const setup: StepSetup = { preset: r.text(o.preset, `${path}.preset`) };
  if (setup.preset && !presetIds.has(setup.preset)) r.fail(`${path}.preset`, 'is not a file in scenarios/', setup.preset);
  if (o.scheme !== undefined) setup.scheme = r.text(o.scheme, `${path}.scheme`);
  if (o.params !== undefined) {
    const params = r.object(o.params, `${path}.params`);
    setup.params = Object.fromEntries(Object.entries(params).map(([id, v]) => [id, r.number(v, `${path}.params.${id}`)]));
  }
  if (o.changes !== undefined) setup.changes = r.object(o.changes, `${path}.changes`);
  if (o.charts !== undefined) {
    setup.charts = r.list(o.charts, `${path}.charts`, 1).map((id, i) => {
      if (!(CHART_IDS as readonly unknown[]).includes(id)) r.fail(`${path}.charts[${i}]`, `must be one of ${CHART_IDS.join(', ')}`, id);
      return id as ChartId;
    });
  }
  if (o.window_s !== undefined) {
    setup.window_s = r.number(o.window_s, `${path}.window_s`);
    if (setup.window_s < 0) r.fail(`${path}.window_s`, 'must be ≥ 0', setup.window_s);
  }
  if (o.speed !== undefined) {
    if (o.speed === 'max') setup.speed = 'max';
    else {
      setup.speed = r.number(o.speed, `${path}.speed`);
      if (!(setup.speed > 0)) r.fail(`${path}.speed`, 'must be > 0 or "max"', o.speed);
    }
  }
  return setup;
}

/** Check a lesson file's contents; `id` is its file name, `presetIds` the files in scenarios/. */
export function parseLesson(value: unknown, id: string, presetIds: ReadonlySet<string>): ParsedLesson {
  const r = new Reader();
  const o = r.object(value, 'lesson');
  r.known(o, 'lesson', ['format', 'title', 'summary', 'steps']);
  if (o.format !== LESSON_FORMAT) r.fail('format', `must be ${LESSON_FORMAT}`, o.format);
  const title = r.text(o.title, 'title');
  const summary = r.text(o.summary, 'summary');
  const steps = r.list(o.steps, 'steps', 1).map((item, i): LessonStep => {
    const path = `steps[${i}]`;
    const s = r.object(item, path);
    r.known(s, path, ['title', 'setup', 'watch', 'predict', 'reveal', 'timing_decides']);
    const reveal = r.text(s.reveal, `${path}.reveal`);
    for (const problem of templateProblems(reveal, i)) r.fail(`${path}.reveal`, problem);
    if (s.timing_decides !== undefined && typeof s.timing_decides !== 'boolean') r.fail(`${path}.timing_decides`, 'must be true or false', s.timing_decides);
    return {
      title: r.text(s.title, `${path}.title`),
      setup: readSetup(r, s.setup, `${path}.setup`, presetIds),
      watch: r.text(s.watch, `${path}.watch`),
      predict: readPrediction(r, s.predict, `${path}.predict`),
      reveal,
      ...(s.timing_decides === true ? { timing_decides: true } : {}),
    };
  });
  return r.problems.length > 0 ? { ok: false, problems: r.problems } : { ok: true, lesson: { id, title, summary, steps } };
}
