// What the sweep dialog keeps about a sweep it started.

import type { Scenario } from '../scenario/types';
import type { SweepField, SweepPoint, SweepRequest } from './model';

export type SweepStatus =
  { kind: 'idle' } | { kind: 'running' } | { kind: 'finished'; wallS: number } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/** A sweep started from the panel: what ran, and the points so far in the CLI's row order. */
export interface SweepResult {
  request: SweepRequest;
  field: SweepField;
  scenario: Scenario;
  points: (SweepPoint | undefined)[];
  done: number;
}

export function unitSuffix(unit: string): string {
  return unit ? ` (${unit})` : '';
}
