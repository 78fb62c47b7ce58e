// How far to advance a simulation in one slice of wall time. Pure functions,
// so the policy is testable without a worker or wasm.

import type { Speed } from './protocol';

/** Wall time one scheduler turn may spend simulating, so the worker stays responsive. */
export const SLICE_BUDGET_MS = 8;
/** Wall time a single advance_to call aims for; several fit in one turn. */
const STEP_TARGET_MS = 2;
/** After a stall (tab hidden, GC) real-time play resumes instead of racing to catch up. */
const MAX_LAG_WALL_S = 0.25;
const MIN_STEP_S = 1e-5;
const MAX_STEP_S = 5;

/**
 * Simulated time is an integer number of nanoseconds, so a target given in
 * float seconds may land up to half a nanosecond short of itself.
 */
const TIME_TOLERANCE_S = 1e-9;

/** Has a run at `nowS` reached `targetS`? */
export function reached(nowS: number, targetS: number): boolean {
  return nowS >= targetS - TIME_TOLERANCE_S;
}

/**
 * Learns how many simulated seconds the engine covers per wall millisecond
 * and sizes the next advance_to call to take about STEP_TARGET_MS.
 */
export class StepSizer {
  private simSecondsPerWallMs = 1e-4;

  next(): number {
    return clamp(this.simSecondsPerWallMs * STEP_TARGET_MS, MIN_STEP_S, MAX_STEP_S);
  }

  /** Record that `simulatedS` took `wallMs`; very short timings say little, so they only grow the estimate. */
  observe(simulatedS: number, wallMs: number): void {
    if (simulatedS <= 0) return;
    if (wallMs < 0.05) {
      this.simSecondsPerWallMs *= 2;
      return;
    }
    const rate = simulatedS / wallMs;
    // Smooth, but adapt quickly when load changes (flows starting, a slider move).
    this.simSecondsPerWallMs = 0.5 * this.simSecondsPerWallMs + 0.5 * rate;
  }

  /** Simulated seconds the engine is expected to cover in `wallMs`. */
  reach(wallMs: number): number {
    return this.simSecondsPerWallMs * wallMs;
  }
}

/**
 * The one target of a group of runs kept in lockstep (compare mode): the
 * nearest of the members' own targets (a paused member's is where it
 * stands), and no further than `strideS` past the slowest member, the
 * simulated time that one is expected to cover in a turn. Every member
 * advances to it, so at the end of a turn they stand at the same time unless
 * the slowest fell short.
 */
export function lockstepTarget(ownTargetsS: readonly number[], nowsS: readonly number[], strideS: number): number {
  return Math.min(...ownTargetsS, Math.min(...nowsS) + Math.max(0, strideS));
}

/**
 * The simulated time a run should reach, given where it is, where the clock
 * says it should be, and how much wall time passed since the last turn.
 */
export function playTarget(speed: Speed, nowS: number, previousTargetS: number, wallElapsedS: number, durationS: number): number {
  if (speed === 'max') return durationS;
  const advanced = previousTargetS + speed * wallElapsedS;
  const capped = Math.min(advanced, nowS + speed * MAX_LAG_WALL_S);
  return Math.min(Math.max(capped, nowS), durationS);
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
