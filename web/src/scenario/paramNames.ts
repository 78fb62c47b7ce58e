// One visible name per scheme parameter, used by its slider, the charts,
// sweeps and error messages: the catalogue's label with the parameter's
// symbol (its id in scenario files) beside it, "max threshold (max_th)".

import type { ParamSpec, ScenarioProblem } from './types';

/** Where a scheme parameter lives in a scenario document. */
export const PARAM_PATH_PREFIX = 'queue.params.';

/**
 * "max threshold (max_th)"; a label that already shows the symbol stays as
 * it is ("queue weight w_q", "K_l (lower threshold)"), and a note in the
 * label's brackets shares them: "min threshold (min_th; 0 = auto)".
 */
export function paramName(spec: Pick<ParamSpec, 'id' | 'label'>): string {
  const { id, label } = spec;
  if (label.toLowerCase().includes(id.toLowerCase())) return label;
  const note = /^(.*\S)\s*\(([^()]*)\)$/.exec(label);
  return note ? `${note[1]} (${id}; ${note[2]})` : `${label} (${id})`;
}

export interface ParamProblem {
  /** The parameter's visible name, or the path when the catalogue does not know it. */
  name: string;
  /** The field path, as in scenario files and the CLI: queue.params.max_th. */
  path: string;
  message: string;
}

/**
 * A problem the engine located (a refused live change, or a sweep's variant)
 * told as the parameter it concerns, which need not be the one just changed;
 * null when its path is not a scheme parameter's.
 */
export function paramProblem(problem: Pick<ScenarioProblem, 'path' | 'message'>, specs: readonly Pick<ParamSpec, 'id' | 'label'>[]): ParamProblem | null {
  if (!problem.path.startsWith(PARAM_PATH_PREFIX)) return null;
  const id = problem.path.slice(PARAM_PATH_PREFIX.length);
  const spec = specs.find((s) => s.id === id);
  return { name: spec ? paramName(spec) : problem.path, path: problem.path, message: problem.message };
}

/** "max threshold (max_th): must exceed min_th (25) [queue.params.max_th]": the visible name first, the field path kept. */
export function describeParamProblem(problem: Pick<ScenarioProblem, 'path' | 'message'>, specs: readonly Pick<ParamSpec, 'id' | 'label'>[]): string {
  const named = paramProblem(problem, specs);
  return named ? `${named.name}: ${named.message} [${named.path}]` : `${problem.path}: ${problem.message}`;
}
