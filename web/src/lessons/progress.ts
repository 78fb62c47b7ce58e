// What a visit to a lesson has found out: for each step, the summary of its
// own finished run. A step's answer may only ever come from a run started by
// that step and finished since: the run is known by the load that started it,
// and a summary from any other load (the previous step's run still on
// screen, a run superseded by "Run it again") is refused.

import type { Summary } from '../scenario/types';

/** The finished run that answers a step. */
export interface StepResult {
  /**
   * The page's load that ran it; null when it was computed in the background
   * for a reveal that quotes a step not run in this visit (a later step opened
   * from a link): such a result is quoted, never revealed as the step's answer.
   */
  loadId: number | null;
  summary: Summary;
}

export interface LessonProgress {
  lessonId: string | null;
  /** The step whose run is under way, and the load that is that run. */
  running: { stepIndex: number; loadId: number } | null;
  /** By step index. */
  results: Readonly<Record<number, StepResult>>;
}

export type ProgressEvent =
  /** Another lesson (or none) is open: nothing found so far applies to it. */
  | { type: 'opened'; lessonId: string | null }
  /** The student ran a step: its earlier answer, if any, is withdrawn until this run ends. */
  | { type: 'started'; stepIndex: number; loadId: number }
  /** A load ran to its end; only the step's own run counts. */
  | { type: 'finished'; loadId: number; summary: Summary }
  /** The step stopped being the page's run before it finished (another step opened, another experiment loaded). */
  | { type: 'abandoned'; loadId: number }
  /** A background run of a step's experiment, for reveals that quote it; never replaces a watched run. */
  | { type: 'recomputed'; stepIndex: number; summary: Summary };

export const NO_PROGRESS: LessonProgress = { lessonId: null, running: null, results: {} };

export function progressReducer(state: LessonProgress, event: ProgressEvent): LessonProgress {
  switch (event.type) {
    case 'opened':
      return event.lessonId === state.lessonId ? state : { lessonId: event.lessonId, running: null, results: {} };
    case 'started': {
      const { [event.stepIndex]: _withdrawn, ...results } = state.results;
      return { ...state, running: { stepIndex: event.stepIndex, loadId: event.loadId }, results };
    }
    case 'finished': {
      if (state.running?.loadId !== event.loadId) return state;
      const result: StepResult = { loadId: event.loadId, summary: event.summary };
      return { ...state, running: null, results: { ...state.results, [state.running.stepIndex]: result } };
    }
    case 'abandoned':
      return state.running?.loadId === event.loadId ? { ...state, running: null } : state;
    case 'recomputed':
      if (state.results[event.stepIndex] || state.running?.stepIndex === event.stepIndex) return state;
      return { ...state, results: { ...state.results, [event.stepIndex]: { loadId: null, summary: event.summary } } };
  }
}

/** A snapshot of a run, with the load it belongs to. */
export interface SeenRun {
  loadId: number;
  finished: boolean;
}

/**
 * What the page's state means for the lesson: `currentLoadId` is the load on
 * screen, `seen` the latest snapshot the page holds (it may still be an
 * earlier load's). Only the running step's own load, finished, answers it.
 */
export function observe(progress: LessonProgress, currentLoadId: number | null, seen: SeenRun | null, summary: () => Summary): ProgressEvent | null {
  const running = progress.running;
  if (running === null || currentLoadId === null) return null;
  if (currentLoadId > running.loadId) return { type: 'abandoned', loadId: running.loadId };
  if (seen?.loadId === running.loadId && seen.finished) return { type: 'finished', loadId: running.loadId, summary: summary() };
  return null;
}

/** The step's answer: the summary of its own finished run (never one made out of sight), or undefined. */
export function answerSummary(progress: LessonProgress, stepIndex: number): Summary | undefined {
  const result = progress.results[stepIndex];
  return result && result.loadId !== null ? result.summary : undefined;
}

/** Each step's summary by index, for reveals that quote earlier steps ("–" where there is none). */
export function stepSummaries(progress: LessonProgress, stepCount: number): (Summary | undefined)[] {
  return Array.from({ length: stepCount }, (_, i) => progress.results[i]?.summary);
}
