// Numbers from a run's summary in lesson text. A reveal names summary fields
// in braces and gets the run's own values:
//
//   {queue.mean_delay_ms}         the value, to 3 significant digits
//   {utilization*100:1}           scaled (`*` or `/` a number), 1 decimal place
//   {step1.queue.mean_delay_ms}   the same field from an earlier step's run
//   {measured}                    the step's measured quantity, with its unit
//   {a.b vs c.d}                  how a.b compares with c.d, in words computed
//                                 from the two: "about" (within ±10 %) or
//                                 "4.8 times" ("got {…} its fair share")
//
// A predicted answer is judged against the measured quantity (format.ts).

import type { Measure, Prediction } from './format';

const PLACEHOLDER = /\{([^{}]*)\}/g;
const VERSUS = ' vs ';
/** Two values this close (as a ratio) read as "about" the same. */
const ABOUT_WITHIN = 0.1;
const FIELD = /^(?:step(\d+)\.)?([a-z_][a-z0-9_]*(?:\.(?:[a-z_][a-z0-9_]*|\d+))*)(?:([*/])([0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?))?(?::([0-6]))?$/;

interface Placeholder {
  /** Step number from 1 when the field is another step's, else null. */
  step: number | null;
  field: string;
  factor: number;
  digits: number | null;
}

function parsePlaceholder(body: string): Placeholder | null {
  const m = FIELD.exec(body.trim());
  if (!m) return null;
  const amount = m[4] === undefined ? 1 : Number(m[4]);
  return {
    step: m[1] === undefined ? null : Number(m[1]),
    field: m[2],
    factor: m[3] === '/' ? 1 / amount : amount,
    digits: m[5] === undefined ? null : Number(m[5]),
  };
}

/** The placeholders of a body: one, or the two sides of a comparison (`a vs b`, read plain). */
function parseBody(body: string): Placeholder[] | null {
  const sides = body.split(VERSUS).map(parsePlaceholder);
  if (sides.length > 2 || sides.some((p) => p === null)) return null;
  if (sides.length === 2 && sides.some((p) => p!.factor !== 1 || p!.digits !== null)) return null;
  return sides as Placeholder[];
}

/** Syntax problems of a template used in step `stepIndex` (from 0): unreadable placeholders and references to later steps. */
export function templateProblems(template: string, stepIndex: number): string[] {
  const problems: string[] = [];
  for (const [, body] of template.matchAll(PLACEHOLDER)) {
    if (body === 'measured') continue;
    const placeholders = parseBody(body);
    if (!placeholders) {
      problems.push(`cannot read the placeholder {${body}} (write {field}, {field*100:1}, {step1.field} or {field vs other_field})`);
      continue;
    }
    for (const placeholder of placeholders) {
      if (placeholder.step !== null && !(placeholder.step >= 1 && placeholder.step <= stepIndex)) {
        problems.push(`{${body}} names step ${placeholder.step}, but only steps 1 to ${stepIndex} have run before this one`);
      }
    }
  }
  return problems;
}

/** Every summary field a template names, with the step it is read from (null: this step). */
export function templateFields(template: string): { step: number | null; field: string }[] {
  return [...template.matchAll(PLACEHOLDER)].flatMap(([, body]) => {
    const placeholders = body === 'measured' ? null : parseBody(body);
    return placeholders ? placeholders.map(({ step, field }) => ({ step, field })) : [];
  });
}

/** How `value` compares with `reference`, in words: "about", or "4.8 times". */
export function comparedWords(value: number, reference: number): string {
  const ratio = value / reference;
  if (Math.abs(ratio - 1) <= ABOUT_WITHIN) return 'about';
  return `${ratio.toLocaleString('en', { maximumSignificantDigits: 2 })} times`;
}

/** The number at a dotted path (`groups.1.total_goodput_bps`), or undefined if there is none. */
export function readField(summary: unknown, path: string): number | undefined {
  let value: unknown = summary;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function formatNumber(value: number, digits: number | null): string {
  if (digits !== null) return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return Number.isInteger(value) ? value.toLocaleString('en') : value.toLocaleString('en', { maximumSignificantDigits: 3 });
}

/** The step's measured quantity on a summary, or undefined if a field is missing (or the divisor is 0). */
export function measureValue(measure: Measure, summary: unknown): number | undefined {
  const value = readField(summary, measure.field);
  if (value === undefined) return undefined;
  const divisor = measure.divide_by === undefined ? 1 : readField(summary, measure.divide_by);
  if (divisor === undefined || divisor === 0) return undefined;
  return (value / divisor) * (measure.scale ?? 1);
}

export function formatMeasured(measure: Measure, value: number): string {
  const number = formatNumber(value, measure.digits ?? 1);
  return measure.unit === '%' || measure.unit === '×' ? `${number}${measure.unit === '%' ? ' %' : '×'}` : `${number} ${measure.unit}`.trim();
}

export interface Runs {
  /** This step's summary. */
  current: unknown;
  /** Summaries of the lesson's steps that have run, by step index from 0. */
  earlier: readonly unknown[];
}

/** The template with its placeholders filled; a field without a value reads "–" and is listed in `missing`. */
export function fillTemplate(template: string, runs: Runs, measured: string): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (whole, body: string) => {
    if (body === 'measured') return measured;
    const placeholders = parseBody(body);
    if (!placeholders) return whole;
    const values = placeholders.map((p) => readField(p.step === null ? runs.current : runs.earlier[p.step - 1], p.field));
    if (values.some((v) => v === undefined) || (values.length === 2 && values[1] === 0)) {
      missing.push(body);
      return '–';
    }
    if (values.length === 2) return comparedWords(values[0]!, values[1]!);
    return formatNumber(values[0]! * placeholders[0].factor, placeholders[0].digits);
  });
  return { text, missing };
}

/** A student's prediction: the index of the option picked, or the number given. */
export type Answer = { kind: 'choice'; option: number } | { kind: 'number'; value: number };

export interface Verdict {
  right: boolean;
  /** "You predicted “below 10 ms”: it was 694.5 ms." */
  sentence: string;
}

/** Compare an answer with the measured value. */
export function judge(prediction: Prediction, answer: Answer, value: number): Verdict {
  const measured = formatMeasured(prediction.measure, value);
  if (prediction.kind === 'choice' && answer.kind === 'choice') {
    const picked = prediction.options[answer.option];
    const rightIndex = prediction.options.findIndex((o) => (o.min === undefined || value >= o.min) && (o.max === undefined || value < o.max));
    const right = rightIndex === answer.option;
    const correction = right || rightIndex < 0 ? '' : ` The right answer was “${prediction.options[rightIndex].label}”.`;
    return { right, sentence: `You predicted “${picked?.label ?? '?'}”: it was ${measured}.${correction}` };
  }
  if (prediction.kind === 'number' && answer.kind === 'number') {
    const right = Math.abs(answer.value - value) <= prediction.tolerance * Math.abs(value);
    const guessed = formatMeasured(prediction.measure, answer.value);
    const closeness = right ? `within ${Math.round(prediction.tolerance * 100)} %` : `more than ${Math.round(prediction.tolerance * 100)} % off`;
    return { right, sentence: `You predicted ${guessed}: it was ${measured} (${closeness}).` };
  }
  return { right: false, sentence: `it was ${measured}.` };
}
