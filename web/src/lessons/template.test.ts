import { describe, expect, it } from 'vitest';
import type { Prediction } from './format';
import { fillTemplate, judge, measureValue, readField, templateProblems } from './template';

const summary = {
  utilization: 0.9683,
  aggregate_goodput_bps: 9_300_000,
  drops: { total: 413 },
  queue: { mean_delay_ms: 9.912, mean_packets: 11.7 },
  groups: [{ total_goodput_bps: 300_000 }, { total_goodput_bps: 700_000 }],
};

describe('lesson templates', () => {
  it('fill fields, scaled and rounded, from this run and earlier ones', () => {
    const earlier = [{ queue: { mean_delay_ms: 694.47 } }];
    const { text, missing } = fillTemplate(
      'busy {utilization*100:1} %, wait {queue.mean_delay_ms:1} ms (was {step1.queue.mean_delay_ms:0}), {drops.total} drops, {aggregate_goodput_bps/1e6:2} Mb/s, {measured}',
      { current: summary, earlier },
      '12 %',
    );
    expect(text).toBe('busy 96.8 %, wait 9.9 ms (was 694), 413 drops, 9.30 Mb/s, 12 %');
    expect(missing).toEqual([]);
  });

  it('show a dash for a field the run does not have, and say which', () => {
    expect(fillTemplate('{web.mean_fct_ms} and {groups.3.total_goodput_bps}', { current: summary, earlier: [] }, '')).toEqual({
      text: '– and –',
      missing: ['web.mean_fct_ms', 'groups.3.total_goodput_bps'],
    });
  });

  it('compare two fields in words computed from them', () => {
    const earlier = [{ groups: [{ total_goodput_bps: 140_000 }] }];
    const filled = fillTemplate(
      'got {groups.1.total_goodput_bps vs groups.0.total_goodput_bps} as much; {groups.0.total_goodput_bps vs step1.groups.0.total_goodput_bps} before; {drops.total vs drops.total}',
      { current: summary, earlier },
      '',
    );
    expect(filled).toEqual({ text: 'got 2.3 times as much; 2.1 times before; about', missing: [] });
    // Within ±10 % reads "about"; a zero reference has no ratio.
    expect(fillTemplate('{queue.mean_packets vs queue.mean_delay_ms}', { current: summary, earlier: [] }, '').text).toBe('1.2 times');
    expect(fillTemplate('{a vs b}', { current: { a: 1.09, b: 1 }, earlier: [] }, '').text).toBe('about');
    expect(fillTemplate('{a vs b}', { current: { a: 1, b: 0 }, earlier: [] }, '')).toEqual({ text: '–', missing: ['a vs b'] });
    expect(templateProblems('{a*2 vs b}', 0)).toHaveLength(1);
    expect(templateProblems('{step2.a vs b}', 1)).toHaveLength(1);
  });

  it('read array items by index', () => {
    expect(readField(summary, 'groups.1.total_goodput_bps')).toBe(700_000);
    expect(readField(summary, 'groups')).toBeUndefined();
  });

  it('find step references to steps that have not run', () => {
    expect(templateProblems('{step2.utilization}', 1)).toHaveLength(1);
    expect(templateProblems('{step1.utilization}', 1)).toEqual([]);
    expect(templateProblems('{measured} {utilization*100:1}', 0)).toEqual([]);
  });
});

describe('judging a prediction against the run', () => {
  const share: Prediction = {
    kind: 'choice',
    question: 'share?',
    measure: { field: 'groups.1.total_goodput_bps', divide_by: 'aggregate_goodput_bps', scale: 100, unit: '%', digits: 0 },
    options: [
      { label: 'under 10 %', max: 10 },
      { label: '10 % or more', min: 10 },
    ],
  };

  it('measures a ratio of two fields', () => {
    expect(measureValue(share.measure, summary)).toBeCloseTo((700_000 / 9_300_000) * 100, 9);
    expect(measureValue({ field: 'utilization', divide_by: 'drops.none', unit: '' }, summary)).toBeUndefined();
  });

  it('a choice is right when the value falls in its range, and the sentence uses the run’s number', () => {
    expect(judge(share, { kind: 'choice', option: 0 }, 7.5)).toEqual({ right: true, sentence: 'You predicted “under 10 %”: it was 8 %.' });
    expect(judge(share, { kind: 'choice', option: 0 }, 10)).toEqual({
      right: false,
      sentence: 'You predicted “under 10 %”: it was 10 %. The right answer was “10 % or more”.',
    });
  });

  it('a number is right within its tolerance of the measured value', () => {
    const delay: Prediction = { kind: 'number', question: 'delay?', measure: { field: 'queue.mean_delay_ms', unit: 'ms', digits: 1 }, tolerance: 0.5 };
    expect(judge(delay, { kind: 'number', value: 20 }, 14)).toEqual({ right: true, sentence: 'You predicted 20.0 ms: it was 14.0 ms (within 50 %).' });
    expect(judge(delay, { kind: 'number', value: 50 }, 14).right).toBe(false);
  });
});
