// Where a CoDel or PIE decision sits in its scheme's rule. Neither has a
// static drop-probability curve: CoDel spaces its drops by a control law,
// PIE drops with a probability its controller integrates over time. The
// inspector draws each against what the engine runs (core/src/queue/codel.rs,
// pie.rs), placed from the state recorded with the decision.

import type { DecisionRecord, FieldSpec } from '../engine/client';

/** A CoDel drop or mark on its control law: drop_next′ − drop_next = interval / √count (RFC 8289 §5). */
export interface CodelLawPoint {
  /** Drops in this dropping state, this one included. */
  count: number;
  /** The time to the next drop the law scheduled from this one, from the recorded times (ms). */
  gapMs: number;
  intervalMs: number;
  sojournMs: number;
  targetMs: number;
}

/** A PIE arrival in PIE's state: the probability and queue delay it met (RFC 8033 §4.1). */
export interface PieStatePoint {
  qdelayMs: number;
  p: number;
  targetMs: number;
  burstAllowanceMs: number;
}

function valueOf(d: DecisionRecord, fields: readonly FieldSpec[], id: string): number | undefined {
  const i = fields.findIndex((f) => f.id === id);
  const v = i < 0 ? undefined : d.state[i];
  return v === null || v === undefined || Number.isNaN(v) ? undefined : v;
}

/** Whether decisions recording `fields` are CoDel's (and FQ-CoDel's per flow queue). */
export function recordsCodelLaw(fields: readonly FieldSpec[]): boolean {
  return ['count', 'next_drop_s', 'interval_ms', 'sojourn_ms'].every((id) => fields.some((f) => f.id === id)) && !fields.some((f) => f.id === 'p_drop');
}

/** Whether decisions recording `fields` are PIE's (and FQ-PIE's per flow queue). */
export function recordsPieState(fields: readonly FieldSpec[]): boolean {
  return ['p', 'qdelay_ms', 'accu_prob'].every((id) => fields.some((f) => f.id === id));
}

/**
 * A CoDel drop or mark on the control law. The law counts from when the
 * drop was due (`due_s`) inside the dropping state, and from the drop
 * itself (`t_s`) when it starts one; a pass schedules nothing (null).
 */
export function codelLawPoint(d: DecisionRecord, fields: readonly FieldSpec[]): CodelLawPoint | null {
  if (d.verdict === 'pass' || !recordsCodelLaw(fields)) return null;
  const get = (id: string) => valueOf(d, fields, id);
  const [count, next, due, intervalMs, sojournMs, targetMs] = ['count', 'next_drop_s', 'due_s', 'interval_ms', 'sojourn_ms', 'target_ms'].map(get);
  if (count === undefined || next === undefined || intervalMs === undefined || sojournMs === undefined || targetMs === undefined) return null;
  const from = get('dropping') === 1 ? due : d.t_s;
  if (from === undefined) return null;
  return { count, gapMs: (next - from) * 1000, intervalMs, sojournMs, targetMs };
}

/** A PIE decision's probability and queue delay, as recorded (null without PIE's state). */
export function pieStatePoint(d: DecisionRecord, fields: readonly FieldSpec[]): PieStatePoint | null {
  if (!recordsPieState(fields)) return null;
  const get = (id: string) => valueOf(d, fields, id);
  const [p, qdelayMs, targetMs, burstAllowanceMs] = ['p', 'qdelay_ms', 'target_ms', 'burst_allowance_ms'].map(get);
  if (p === undefined || qdelayMs === undefined || targetMs === undefined) return null;
  return { p, qdelayMs, targetMs, burstAllowanceMs: burstAllowanceMs ?? 0 };
}

/** PIE never drops early while the queue delay is below half the target and p below this (RFC 8033 §4.1). */
export const PIE_QUIET_P = 0.2;

/** Whether PIE's rule lets an arrival at (`qdelayMs`, `p`) through whatever the draw: the quiet corner of the chart. */
export function pieQuiet(qdelayMs: number, p: number, targetMs: number): boolean {
  return qdelayMs < targetMs / 2 && p < PIE_QUIET_P;
}
