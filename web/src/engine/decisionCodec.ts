// The drop-and-mark inspector's decisions as the engine hands them over:
// one Float64Array of fixed-width records (the engine's `decisionStride()`
// numbers each), read back into objects here, in the worker.

import type { DecisionRecord } from './pkg/aqm_core';

/** Verdicts and reasons by their index in a packed record. */
export const DECISION_VERDICTS: readonly DecisionRecord['verdict'][] = ['drop', 'mark', 'pass'];
export const DECISION_REASONS: readonly DecisionRecord['reason'][] = ['early', 'forced', 'overflow', 'accepted'];

/**
 * The records of `packed`, `stride` numbers each (t_s, hop, flow, seq, size_bytes, verdict, reason, state length,
 * then the state slots), oldest first; a state value the scheme left undefined (NaN) reads null.
 */
export function unpackDecisions(packed: Float64Array, stride: number): DecisionRecord[] {
  const records: DecisionRecord[] = [];
  for (let at = 0; at + stride <= packed.length; at += stride) {
    const state: (number | null)[] = [];
    for (let i = at + 8, end = at + 8 + packed[at + 7]; i < end; i++) state.push(Number.isNaN(packed[i]) ? null : packed[i]);
    records.push({
      t_s: packed[at],
      hop: packed[at + 1],
      flow: packed[at + 2],
      seq: packed[at + 3],
      size_bytes: packed[at + 4],
      verdict: DECISION_VERDICTS[packed[at + 5]],
      reason: DECISION_REASONS[packed[at + 6]],
      state,
    });
  }
  return records;
}
