// Messages between the sweep pool (main thread) and a sweep worker. Only
// web/src/sweep/pool.ts and sweepWorker.ts import this file.

import type { ScenarioProblem, Summary, WorkEstimate } from './pkg/aqm_core';

export type ToSweepWorker =
  /** Check every run of a sweep without running any. */
  | { type: 'check'; requestId: number; scenarioJson: string; path: string; values: number[]; seedCount: number }
  /** Run one point to the scenario's end. */
  | { type: 'run'; requestId: number; scenarioJson: string; path: string; value: number; seed: number };

export type FromSweepWorker =
  /** `work`: the events of every run together, when all are valid. */
  | { type: 'checked'; requestId: number; problem: ScenarioProblem | undefined; work: WorkEstimate | undefined }
  | { type: 'point'; requestId: number; summary: Summary; wallS: number }
  /** The engine refused or failed the request; the message names the field where it can. */
  | { type: 'failed'; requestId: number; message: string };
