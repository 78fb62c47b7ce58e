import { describe, expect, it } from 'vitest';
import type { DecisionRecord, FieldSpec } from '../engine/client';
import { curvePoint, explainDecision } from './decisionText';

const field = (id: string, symbol = id, unit = ''): FieldSpec => ({ id, label: id, symbol, unit });
const RED = [field('avg', 'avg', 'buffer'), field('queued', 'q', 'buffer'), field('count'), field('p_b'), field('p_a'), field('draw', 'u')];
const CODEL = [
  field('sojourn_ms', 'sojourn', 'ms'),
  field('target_ms', 'target', 'ms'),
  field('count'),
  field('dropping', 'dropping', 'on/off'),
  field('due_s', 'drop_next', 's'),
  field('next_drop_s', "drop_next'", 's'),
  field('interval_ms', 'interval', 'ms'),
];
const decision = (verdict: DecisionRecord['verdict'], reason: DecisionRecord['reason'], state: (number | null)[]): DecisionRecord => ({
  t_s: 12.5,
  hop: 0,
  flow: 3,
  seq: 4000,
  size_bytes: 1040,
  verdict,
  reason,
  state,
});

describe('explainDecision', () => {
  it('tells a RED early drop from its average, count, p_a and draw', () => {
    const e = explainDecision(decision('drop', 'early', [9.5, 12, 14, 0.045, 0.0652, 0.031]), RED, 'RED', 'packets');
    expect(e.headline).toBe('RED dropped packet 4000 of flow 3 (1040 bytes) at 12.5000 s on hop 0: early.');
    expect(e.sentences).toEqual([
      'The average queue was 9.5 packets, so p_b = 0.045.',
      'With count = 14 arrivals since the last drop, p_a = 0.0652.',
      'The random draw u = 0.031 fell below p_a: dropped.',
    ]);
    expect(e.numbers.map((n) => n.value)).toEqual(['9.5 packets', '12 packets', '14', '0.045', '0.0652', '0.031']);
  });

  it('says a RED arrival the full buffer refused was accepted by RED first', () => {
    const e = explainDecision(decision('drop', 'overflow', [12, 60, 3, 0.07, 0.02, 0.5]), RED, 'RED', 'packets');
    expect(e.sentences.at(-2)).toBe('The random draw u = 0.5 was not below p_a, so RED accepted it.');
    expect(e.sentences.at(-1)).toBe('But the buffer was full (60 packets queued): dropped as overflow.');
  });

  it('tells a CoDel drop inside its dropping state from the control law', () => {
    const e = explainDecision(decision('mark', 'early', [21.3, 5, 4, 1, 12.45, 12.5, 100]), CODEL, 'CoDel', 'packets');
    expect(e.headline).toContain('CoDel ECN-marked packet 4000');
    expect(e.sentences[1]).toBe('CoDel was in its dropping state and this drop was due at 12.45 s.');
    expect(e.sentences[2]).toContain('next drop at 12.5 s');
  });

  it("tells a COBALT drop by BLUE or by CoDel, and a CAKE queue's kept last packet", () => {
    const COBALT = [...CODEL, field('p_drop'), field('draw', 'u')];
    const CAKE = [...COBALT, field('last', 'last', 'on/off'), field('queue'), field('host_load', 'host_load', 'flows')];
    const blue = explainDecision(decision('drop', 'early', [3, 5, 0, 0, 12.6, 12.6, 100, 0.05, 0.01]), COBALT, 'COBALT', 'packets');
    expect(blue.sentences).toEqual([
      "The packet had waited 3 ms (target 5 ms); BLUE's drop probability was p_drop = 0.05; the draw u = 0.01.",
      'The draw fell below p_drop: BLUE dropped it (BLUE never marks).',
    ]);
    const codel = explainDecision(decision('drop', 'early', [9, 5, 3, 1, 12.45, 12.5, 100, 0, null]), COBALT, 'COBALT', 'packets');
    expect(codel.sentences[0]).toContain('p_drop = 0: no draw.');
    expect(codel.sentences[1]).toBe("CoDel's drop was due at 12.45 s with count = 3: dropped; the next is due at 12.5 s, interval / √(count + 1) later.");
    const kept = explainDecision(decision('pass', 'accepted', [9, 5, 3, 1, 12.45, 12.5, 100, 0, null, 1, 517, 8]), CAKE, 'CAKE', 'packets');
    expect(kept.sentences.slice(1)).toEqual([
      'BLUE or CoDel called for a drop, but it was its queue’s last packet: CAKE never drops that one.',
      'CAKE served flow queue 517, whose busier host had 8 bulk flow(s): each of its turns earns quantum / 8.',
    ]);
  });

  it('tells a DualPI2 decision by the queue the packet left and the coupled probability it met', () => {
    const DUAL = [field('l4s', 'L'), field('sojourn_ms', 'sojourn', 'ms'), field('p_prime', 'p′'), field('p'), field('draw', 'u')];
    const marked = explainDecision(decision('mark', 'early', [1, 0.4, 0.05, 0.1, 0.02]), DUAL, 'DualPI2', 'packets');
    expect(marked.sentences).toEqual([
      'The packet left the L4S (L) queue after 0.4 ms; the base probability was p′ = 0.05.',
      'An L4S packet meets p_L = 0.1: the larger of the step at its own sojourn and the coupled k·p′.',
      'The random draw u = 0.02 fell below it: ECN-marked.',
    ]);
    const classic = explainDecision(decision('pass', 'accepted', [0, 15, 0.05, 0.0025, 0.7]), DUAL, 'DualPI2', 'packets');
    expect(classic.sentences.slice(1)).toEqual(['A classic packet meets p_C = p′² = 0.0025.', 'The random draw u = 0.7 was not below it: passed.']);
    const overload = explainDecision(decision('drop', 'early', [1, 2, 0.75, 0.5625, 0.3]), DUAL, 'DualPI2', 'packets');
    expect(overload.sentences[1]).toBe('The queue was overloaded: an L4S packet meets p_C = p′² = 0.5625 and is dropped, not marked.');
  });

  it('gives only the reason for a decision without state', () => {
    const e = explainDecision(decision('drop', 'overflow', []), [], 'drop-tail', 'packets');
    expect(e.sentences).toEqual(['Reason: the buffer was full.']);
    expect(e.numbers).toEqual([]);
  });
});

describe('curvePoint', () => {
  it('places a RED decision at its average and p_b, and nothing without them', () => {
    expect(curvePoint(decision('drop', 'early', [9.5, 12, 14, 0.045, 0.0652, 0.031]), RED)).toEqual([9.5, 0.045]);
    expect(curvePoint(decision('drop', 'early', [21.3, 5, 4, 1, 12.45, 12.5, 100]), CODEL)).toBeNull();
  });
});
