import type { ScenarioProblem } from '../scenario/types';

/** The engine's message if it concerns the field at `path` (or a part of it, like `start_s[1]`). */
export function problemAt(problem: ScenarioProblem | undefined, path: string): string | undefined {
  if (!problem) return undefined;
  const p = problem.path;
  return p === path || p.startsWith(`${path}[`) || p.startsWith(`${path}.`) ? problem.message : undefined;
}
