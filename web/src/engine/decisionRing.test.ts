import { describe, expect, it } from 'vitest';
import { DecisionRing } from './decisionRing';
import type { DecisionRecord } from './pkg/aqm_core';

const record = (seq: number): DecisionRecord => ({ t_s: seq / 10, hop: 0, flow: 1, seq, size_bytes: 1000, verdict: 'drop', reason: 'early', state: [] });

describe('DecisionRing', () => {
  it('keeps every record, oldest first, until it is full', () => {
    const ring = new DecisionRing(4);
    ring.push([record(1), record(2)]);
    ring.push([record(3)]);
    expect(ring.items().map((d) => d.seq)).toEqual([1, 2, 3]);
  });

  it('keeps only the newest capacity records, across pushes of any size', () => {
    const ring = new DecisionRing(3);
    ring.push([record(1), record(2)]);
    ring.push([record(3), record(4)]);
    expect(ring.items().map((d) => d.seq)).toEqual([2, 3, 4]);
    ring.push([5, 6, 7, 8, 9].map(record));
    expect(ring.items().map((d) => d.seq)).toEqual([7, 8, 9]);
    expect(ring.size).toBe(3);
  });

  it('counts changes and forgets everything on clear', () => {
    const ring = new DecisionRing(3);
    ring.push([]);
    expect(ring.revision).toBe(0);
    ring.push([record(1)]);
    ring.clear();
    expect(ring.items()).toEqual([]);
    expect(ring.revision).toBe(2);
  });
});
