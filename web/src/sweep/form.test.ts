import { describe, expect, it } from 'vitest';
import { INITIAL_SWEEP_FORM, pickedField, rangeFor, sweepFormReducer, sweepRequest, type SweepFormAction } from './form';
import type { SweepField } from './model';

const maxP: SweepField = { path: 'queue.params.max_p', label: 'max_p', unit: '', scale: 1, integer: false, group: 'RED', current: 0.1, min: 0.001, max: 1 };
const rate: SweepField = {
  path: 'topology.bottleneck.rate_bps',
  label: 'bottleneck rate',
  unit: 'Mb/s',
  scale: 1e6,
  integer: true,
  group: 'topology',
  current: 10e6,
};

const apply = (...actions: SweepFormAction[]) => actions.reduce(sweepFormReducer, INITIAL_SWEEP_FORM);

describe('sweep form', () => {
  it('starts on the first field, from half to double its current value', () => {
    const form = apply();
    expect(pickedField(form, [maxP, rate])).toBe(maxP);
    expect(rangeFor(form, maxP)).toEqual({ from: 0.05, to: 0.2 });
  });

  it('keeps an edited end and the suggested other end', () => {
    const form = apply({ type: 'from', field: maxP, value: 0.02 });
    expect(rangeFor(form, maxP)).toEqual({ from: 0.02, to: 0.2 });
    expect(rangeFor(sweepFormReducer(form, { type: 'to', field: maxP, value: 0.5 }), maxP)).toEqual({ from: 0.02, to: 0.5 });
  });

  it('a newly picked field starts from its own suggestion, in display units', () => {
    const form = apply({ type: 'from', field: maxP, value: 0.02 }, { type: 'pick', path: rate.path });
    expect(pickedField(form, [maxP, rate])).toBe(rate);
    expect(rangeFor(form, rate)).toEqual({ from: 5, to: 20 });
  });

  it('falls back to the first field when the picked one is no longer offered', () => {
    expect(pickedField(apply({ type: 'pick', path: 'queue.params.gone' }), [rate, maxP])).toBe(rate);
  });

  it('a range becomes engine values, each once, with the seed count', () => {
    const request = sweepRequest(apply({ type: 'pick', path: rate.path }, { type: 'count', value: 4 }, { type: 'seeds', value: 2 }), rate);
    expect(request).toEqual({ ok: true, value: { path: rate.path, values: [5e6, 10e6, 15e6, 20e6], seedCount: 2 } });
    // Whole-number fields round, and rounding may merge neighbours.
    const merged = sweepRequest(apply({ type: 'to', field: rate, value: 5.0000004 }, { type: 'count', value: 3 }), rate);
    expect(merged.ok && merged.value.values).toEqual([5e6]);
  });

  it('names the input each problem concerns', () => {
    expect(sweepRequest(apply(), undefined)).toMatchObject({ ok: false, field: 'parameter' });
    expect(sweepRequest(apply({ type: 'from', field: maxP, value: undefined }), maxP)).toMatchObject({ ok: false, field: 'from' });
    expect(sweepRequest(apply({ type: 'count', value: 0 }), maxP)).toMatchObject({ ok: false, field: 'values' });
    expect(sweepRequest(apply({ type: 'seeds', value: 0 }), maxP)).toMatchObject({ ok: false, field: 'seeds' });
    expect(sweepRequest(apply({ type: 'mode', mode: 'list' }, { type: 'list', text: '0.1, x' }), maxP)).toMatchObject({
      ok: false,
      field: 'values',
      message: '`x` is not a number',
    });
  });

  it('a list runs its values as given', () => {
    const form = apply({ type: 'mode', mode: 'list' }, { type: 'list', text: '0.3, 0.1 0.3' }, { type: 'seeds', value: 1 });
    expect(sweepRequest(form, maxP)).toEqual({ ok: true, value: { path: maxP.path, values: [0.3, 0.1], seedCount: 1 } });
  });
});
