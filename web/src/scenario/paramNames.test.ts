import { describe, expect, it } from 'vitest';
import { describeParamProblem, paramName, paramProblem } from './paramNames';

const RED = [
  { id: 'min_th', label: 'min threshold' },
  { id: 'max_th', label: 'max threshold' },
  { id: 'max_p', label: 'max_p' },
  { id: 'w_q', label: 'queue weight w_q' },
];

describe('parameter names', () => {
  it('put the symbol beside the label', () => {
    expect(paramName({ id: 'max_th', label: 'max threshold' })).toBe('max threshold (max_th)');
    expect(paramName({ id: 'alpha', label: 'α' })).toBe('α (alpha)');
  });

  it('do not repeat a symbol the label already shows', () => {
    expect(paramName({ id: 'w_q', label: 'queue weight w_q' })).toBe('queue weight w_q');
    expect(paramName({ id: 'max_p', label: 'max_p' })).toBe('max_p');
    expect(paramName({ id: 'k_l', label: 'K_l (lower threshold)' })).toBe('K_l (lower threshold)');
  });

  it('share the brackets with a note in the label', () => {
    expect(paramName({ id: 'min_th', label: 'min threshold (0 = auto)' })).toBe('min threshold (min_th; 0 = auto)');
  });

  it('errors name the parameter the engine names, by its visible name, and keep the field path', () => {
    // Changing min_th can be refused for max_th's sake: the message is about max_th.
    expect(describeParamProblem({ path: 'queue.params.max_th', message: 'must exceed min_th (25)' }, RED)).toBe(
      'max threshold (max_th): must exceed min_th (25) [queue.params.max_th]',
    );
    expect(paramProblem({ path: 'queue.params.nope', message: '`red` has no parameter' }, RED)).toEqual({
      name: 'queue.params.nope',
      path: 'queue.params.nope',
      message: '`red` has no parameter',
    });
  });

  it('leave problems of other fields as the engine put them', () => {
    expect(describeParamProblem({ path: 'flows[1].rate_bps', message: 'must be > 0, got -5' }, RED)).toBe('flows[1].rate_bps: must be > 0, got -5');
    expect(paramProblem({ path: 'flows[1].rate_bps', message: 'must be > 0, got -5' }, RED)).toBeNull();
  });
});
