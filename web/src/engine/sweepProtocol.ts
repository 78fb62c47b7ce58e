// Messages between the sweep pool (main thread) and a sweep worker. Only
// web/src/sweep/pool.ts and sweepWorker.ts import this file.

import type { FigureResult, ScenarioProblem, Summary, WorkEstimate } from './pkg/aqm_core';

export type ToSweepWorker =
  /** Check every run of a sweep without running any. */
  | { type: 'check'; requestId: number; scenarioJson: string; path: string; values: number[]; seedCount: number }
  /** Run one point to the scenario's end. */
  | { type: 'run'; requestId: number; scenarioJson: string; path: string; value: number; seed: number }
  /** The scenarios of every run of a paper's figure (the engine's `figureRuns`). */
  | { type: 'figureRuns'; requestId: number; reproductionJson: string; scenarioJson: string; figureId: string }
  /** Run one whole scenario to its end (a figure's run). */
  | { type: 'runToEnd'; requestId: number; scenarioJson: string }
  /** A figure's points from its runs' summaries (the engine's `figureResult`). */
  | { type: 'figureResult'; requestId: number; reproductionJson: string; figureId: string; summariesJson: string };

export type FromSweepWorker =
  /** `work`: the events of every run together, when all are valid. */
  | { type: 'checked'; requestId: number; problem: ScenarioProblem | undefined; work: WorkEstimate | undefined }
  | { type: 'point'; requestId: number; summary: Summary; wallS: number }
  | { type: 'figureRuns'; requestId: number; runs: string[] }
  | { type: 'ranToEnd'; requestId: number; summaryJson: string }
  | { type: 'figureResult'; requestId: number; result: FigureResult }
  /** The engine refused or failed the request; the message names the field where it can. */
  | { type: 'failed'; requestId: number; message: string; problem?: ScenarioProblem };
