// The runs that check a lesson's answer does not hold by luck, and the rule
// for a number prediction's tolerance (seeds.test.ts runs them).

import type { ResolvedPlan, Scenario } from '../scenario/types';
import type { LessonStep } from './format';

/** Seeds every step is run on. */
export const CHECK_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** Access jitter added to every flow group in the timing check, in ms. */
export const CHECK_JITTER_MS = 1;
/** A tolerance may always be this wide, however small the spread. */
export const MIN_TOLERANCE = 0.1;
/** …and otherwise at most this many times the largest relative distance of a run from the middle one. */
export const TOLERANCE_PER_SPREAD = 3;

export interface Variant {
  name: string;
  scenario: Scenario;
}

/**
 * The step's experiment on each check seed and, unless the step is about
 * timing, with at least 1 ms of access jitter on every flow group (each
 * group's jitter read from `plan`, the engine's plan of `scenario`).
 */
export function seedVariants(scenario: Scenario, plan: ResolvedPlan, step: LessonStep): Variant[] {
  const seeds = CHECK_SEEDS.map((seed) => ({ name: `seed ${seed}`, scenario: { ...scenario, seed } }));
  if (step.timing_decides) return seeds;
  const jittered = {
    ...scenario,
    flows: scenario.flows.map((group, i) => ({ ...group, access_jitter_ms: Math.max(plan.groups[i].access_jitter_ms, CHECK_JITTER_MS) })),
  };
  return [...seeds, { name: `${CHECK_JITTER_MS} ms jitter`, scenario: jittered }];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Why `tolerance` does not suit a number prediction measured as `values`
 * over the check runs, or null: the middle value must be judged right
 * against every run, and the tolerance be no wider than the spread justifies.
 */
export function toleranceProblem(values: readonly number[], tolerance: number): string | null {
  const middle = median(values);
  const spread = Math.max(...values.map((v) => Math.abs(middle - v) / Math.abs(v)));
  if (spread > tolerance) return `the runs spread ${(spread * 100).toFixed(0)} % from their middle value, more than the tolerance of ${tolerance * 100} %`;
  const widest = Math.max(MIN_TOLERANCE, TOLERANCE_PER_SPREAD * spread);
  if (tolerance > widest + 1e-9)
    return `the runs spread only ${(spread * 100).toFixed(0)} %: a tolerance of ${tolerance * 100} % is wider than ${(widest * 100).toFixed(0)} %`;
  return null;
}
