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

  it("tells REM's, RQRD's, AFpFT's, DRR's and SFRED's decisions in their own terms", () => {
    const REM = [field('price', 'p'), field('p_mark', '1 − φ^(−p)'), field('queued', 'b', 'buffer'), field('draw', 'u')];
    expect(explainDecision(decision('mark', 'early', [120, 0.113, 24, 0.05]), REM, 'REM', 'packets').sentences).toEqual([
      'The price was p = 120 (the queue held 24 packets), so the marking probability was 1 − φ^(−p) = 0.113.',
      'The random draw u = 0.05 fell below it: ECN-marked.',
    ]);
    const RQRD = ['label', 'alpha', 'p_r', 'avg', 'c_q', 'p_q', 'p_d', 'draw'].map((id) => field(id, id, id === 'avg' ? 'buffer' : ''));
    const rqrd = explainDecision(decision('drop', 'early', [4e6, 1e6, 0.75, 30, 1, 0.866, 0.6495, 0.2]), RQRD, 'RQRD', 'packets');
    expect(rqrd.sentences[1]).toBe('The average queue was Q = 30 packets (c_q = 1: the pessimistic p_high): p_Q = 0.866.');
    expect(rqrd.sentences.slice(2)).toEqual(['So p_d = p_R·p_Q = 0.6495.', 'The random draw u = 0.2 fell below p_d: dropped.']);
    const calm = explainDecision(decision('drop', 'overflow', [1e6, 2e6, 0, 50, 0, 0.5, 0, 1]), RQRD, 'RQRD', 'packets');
    expect(calm.sentences.slice(3)).toEqual(['With p_R = 0 there was nothing to draw: accepted.', 'But the buffer was full: dropped as overflow.']);
    const AFPFT = ['tag', 'v', 'finish', 'flow_count', 'queued', 'highest_left'].map((id) => field(id, id, id === 'queued' ? 'buffer' : ''));
    const tail = explainDecision(decision('drop', 'overflow', [12.8, 4, 13.6, 9, 31, 12]), AFPFT, 'AFpFT', 'packets');
    expect(tail.sentences[0]).toBe(
      'With the arrival the buffer held 31 packets, over its limit: AFpFT drops the packet at the tail, the one with the highest start tag.',
    );
    expect(tail.sentences[2]).toContain('The highest tag left behind is 12 s');
    const DRR = ['flow_queue', 'deficit', 'others_longest', 'queued', 'backlogged'].map((id) =>
      field(id, id, ['flow_queue', 'others_longest', 'queued'].includes(id) ? 'buffer' : ''),
    );
    expect(explainDecision(decision('drop', 'overflow', [12, 300, 5, 31, 9]), DRR, 'DRR', 'packets').sentences).toEqual([
      'The buffer held 31 packets, over its limit: DRR drops the head packet of the longest flow queue.',
      'Its flow had 12 packets queued, the longest other flow 5 packets; its deficit counter was DC_i = 300 bytes (9 flows backlogged).',
    ]);
    const SFRED = ['received', 'dropped', 'fair', 'loss', 'avg', 'count', 'p_a', 'draw'].map((id) => field(id, id, id === 'avg' ? 'buffer' : ''));
    const fast = explainDecision(decision('drop', 'early', [400, 10, 100, 0.02, 9, 3, 0.3, 0.1]), SFRED, 'SFRED', 'packets');
    expect(fast.sentences[0]).toContain('H_ri = 400 packets and H_di = 10 drops counted, against the fair share T_f = 100');
    expect(fast.sentences.slice(1)).toEqual([
      "With count = 3 arrivals since the last drop, the flow's class gave p_a = 0.3.",
      'The random draw u = 0.1 fell below p_a: dropped.',
    ]);
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

  it("places a FRED decision on the scheme's curve at its average, read between the curve's points", () => {
    const FRED = ['avg', 'qlen', 'strikes', 'avgcq', 'min_q', 'count'].map((id) => field(id));
    const curve = {
      x_label: 'average queue',
      x_unit: 'packets',
      points: [
        [0, 0],
        [5, 0],
        [15, 0.1],
        [15, 1],
        [30, 1],
      ] as [number, number][],
      operating_point: [9, 0.04] as [number, number],
    };
    expect(curvePoint(decision('drop', 'early', [10, 4, 0, 2, 2, 7]), FRED, curve)).toEqual([10, 0.05]);
    expect(curvePoint(decision('drop', 'early', [10, 4, 0, 2, 2, 7]), FRED)).toBeNull();
  });
});
