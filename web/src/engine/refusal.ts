// What the engine throws, read the same way by both workers: a refusal is a
// typed `ScenarioProblem`; anything else is an engine fault (an `Error`).

import type { ScenarioProblem } from './pkg/aqm_core';

export function isProblem(error: unknown): error is ScenarioProblem {
  return typeof error === 'object' && error !== null && 'path' in error && 'message' in error && 'kind' in error;
}

/** One line for the page: the field first, where the refusal names one. */
export function messageOf(error: unknown): string {
  if (isProblem(error)) return error.path ? `${error.path}: ${error.message}` : error.message;
  return error instanceof Error ? error.message : String(error);
}
