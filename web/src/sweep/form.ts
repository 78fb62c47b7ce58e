// The sweep dialog's settings as one reducer: which field, how its values
// are given (an evenly spaced range or a list), how many seeds, which metric
// to plot; and the request they describe.

import { MAX_RUNS, checkSize, parseValueList, rangeValues, suggestedRange, toEngineValue, type Parsed, type SweepField, type SweepRequest } from './model';

export type ValueMode = 'range' | 'list';

/** Range ends in display units, for the field at `path`. */
interface Range {
  path: string;
  from: number | undefined;
  to: number | undefined;
}

export interface SweepForm {
  /** The picked field's path; '' or a path no longer offered means the first field. */
  path: string;
  mode: ValueMode;
  /** The range as last edited; a different field starts from its suggested range. */
  range: Range | null;
  count: number | undefined;
  listText: string;
  seedCount: number | undefined;
  metricId: string;
}

export type SweepFormAction =
  | { type: 'pick'; path: string }
  | { type: 'mode'; mode: ValueMode }
  | { type: 'from' | 'to'; field: SweepField; value: number | undefined }
  | { type: 'count'; value: number | undefined }
  | { type: 'list'; text: string }
  | { type: 'seeds'; value: number | undefined }
  | { type: 'metric'; id: string };

export const INITIAL_SWEEP_FORM: SweepForm = { path: '', mode: 'range', range: null, count: 5, listText: '', seedCount: 3, metricId: 'goodput' };

/** The range ends shown for `field`: as edited, or the suggestion around its current value. */
export function rangeFor(form: SweepForm, field: SweepField): { from: number | undefined; to: number | undefined } {
  if (form.range?.path !== field.path) return suggestedRange(field);
  return { from: form.range.from, to: form.range.to };
}

export function sweepFormReducer(form: SweepForm, action: SweepFormAction): SweepForm {
  switch (action.type) {
    case 'pick':
      return { ...form, path: action.path };
    case 'mode':
      return { ...form, mode: action.mode };
    case 'from':
    case 'to':
      return { ...form, range: { ...rangeFor(form, action.field), path: action.field.path, [action.type]: action.value } };
    case 'count':
      return { ...form, count: action.value };
    case 'list':
      return { ...form, listText: action.text };
    case 'seeds':
      return { ...form, seedCount: action.value };
    case 'metric':
      return { ...form, metricId: action.id };
  }
}

/** The picked field among those offered (the first when none is picked). */
export function pickedField(form: SweepForm, fields: readonly SweepField[]): SweepField | undefined {
  return fields.find((f) => f.path === form.path) ?? fields[0];
}

/** The request the form describes, or the first problem with the input it concerns. */
export function sweepRequest(form: SweepForm, field: SweepField | undefined): Parsed<SweepRequest> {
  if (!field) return { ok: false, field: 'parameter', message: 'pick a parameter' };
  // Whole-number fields round each value, which may merge neighbours: each value runs once.
  let values: number[];
  if (form.mode === 'range') {
    const { from, to } = rangeFor(form, field);
    const count = form.count;
    if (from === undefined || !Number.isFinite(from)) return { ok: false, field: 'from', message: 'enter a number' };
    if (to === undefined || !Number.isFinite(to)) return { ok: false, field: 'to', message: 'enter a number' };
    if (count === undefined || !Number.isInteger(count) || count < 1) return { ok: false, field: 'values', message: 'a whole number ≥ 1' };
    if (count > MAX_RUNS) return { ok: false, field: 'values', message: `a sweep may have at most ${MAX_RUNS} runs` };
    values = [...new Set(rangeValues(toEngineValue(field, from), toEngineValue(field, to), count).map((v) => toEngineValue(field, v / field.scale)))];
  } else {
    const parsed = parseValueList(form.listText);
    if (!parsed.ok) return parsed;
    values = [...new Set(parsed.value.map((v) => toEngineValue(field, v)))];
  }
  const size = checkSize(values.length, form.seedCount ?? Number.NaN);
  if (!size.ok) return size;
  return { ok: true, value: { path: field.path, values, seedCount: form.seedCount ?? 1 } };
}
