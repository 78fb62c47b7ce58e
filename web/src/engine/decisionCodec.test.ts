import { describe, expect, it } from 'vitest';
import { unpackDecisions } from './decisionCodec';

/** Any width will do: the engine says which (`decisionStride()`). */
const STRIDE = 8 + 4;

/** One packed record as core/src/wasm.rs writes it. */
function packed(head: number[], state: number[]): number[] {
  return [...head, state.length, ...state, ...Array<number>(STRIDE - 8 - state.length).fill(Number.NaN)];
}

describe('unpackDecisions', () => {
  it('reads fixed-width records back, a NaN state value as null and no state as an empty list', () => {
    const array = Float64Array.from([...packed([1.5, 0, 3, 4000, 1040, 1, 0], [9.5, Number.NaN, 0.25]), ...packed([2.25, 1, 7, 12, 64, 0, 2], [])]);
    expect(unpackDecisions(array, STRIDE)).toEqual([
      { t_s: 1.5, hop: 0, flow: 3, seq: 4000, size_bytes: 1040, verdict: 'mark', reason: 'early', state: [9.5, null, 0.25] },
      { t_s: 2.25, hop: 1, flow: 7, seq: 12, size_bytes: 64, verdict: 'drop', reason: 'overflow', state: [] },
    ]);
    expect(unpackDecisions(new Float64Array(0), STRIDE)).toEqual([]);
  });
});
