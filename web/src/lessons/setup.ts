// A lesson step's experiment: its preset, with the step's changes, scheme and
// parameters applied.

import type { Scenario } from '../scenario/types';
import type { StepSetup } from './format';

/** Lesson steps play at 10× unless they say otherwise: a minute of simulated time in six seconds. */
export const DEFAULT_LESSON_SPEED = 10;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `changes` merged into `base`: objects key by key, anything else (arrays too) replaced. */
export function mergeChanges(base: unknown, changes: unknown): unknown {
  if (!isObject(base) || !isObject(changes)) return changes;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(changes)) merged[key] = key in base ? mergeChanges(base[key], value) : value;
  return merged;
}

/** The scenario a step runs (still to be validated by the engine, like any document). */
export function stepScenario(setup: StepSetup, preset: Scenario): Scenario {
  const changed = (setup.changes ? mergeChanges(preset, setup.changes) : preset) as Scenario;
  const queue = setup.scheme ? { scheme: setup.scheme } : changed.queue;
  return { ...changed, queue: { scheme: queue.scheme, params: { ...queue.params, ...setup.params } } };
}
