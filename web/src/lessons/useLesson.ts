// The open lesson step's experiment and answers. Opening a step stages its
// experiment at t = 0, paused, with the step's charts, so the picture the
// student predicts about is the step's own. "Run the experiment" starts a
// new load, and only that load's finished run answers the step
// (progress.ts). A reveal that quotes a step not run in this visit (a later
// step opened from a link) gets that step's numbers from a run made out of
// sight.

import { useCallback, useEffect, useReducer } from 'react';
import type { RunSnapshot, Speed } from '../engine/client';
import { completeSummary } from '../engine/client';
import type { LessonPlace } from '../scenario/pageOptions';
import { PRESETS } from '../scenario/presets';
import type { Scenario, Summary } from '../scenario/types';
import { DEFAULT_VIEW, type ViewState } from '../scenario/view';
import type { Lesson, LessonStep } from './format';
import { LESSONS } from './lessons';
import { NO_PROGRESS, answerSummary, observe, progressReducer, type LessonProgress } from './progress';
import { DEFAULT_LESSON_SPEED, stepScenario } from './setup';
import { templateFields } from './template';

/** How the page is to load a step's experiment. */
export interface StepLoad {
  scenario: Scenario;
  /** Set with the load, so nothing sees the experiment with another view. */
  view?: ViewState;
  speed?: Speed;
  /** False: built at t = 0 and left paused. */
  autoplay: boolean;
}

/** What the lesson needs of the page. */
export interface LessonHost {
  /** The page's current load, and its run as far as it has got (a snapshot of that load only). */
  loadId: number | null;
  snapshot: RunSnapshot | null;
  error: string | null;
  /** The experiment on screen, with its live parameter values. */
  scenario: Scenario;
  /** Load an experiment; resolves to the load's id, or null when it started nothing (superseded, or waiting for the student's word on a long run). */
  load(request: StepLoad): Promise<number | null>;
  /** Run a scenario to its end out of sight. */
  summarise(scenarioJson: string): Promise<Summary>;
}

/** The step's own run as the panel shows it. */
export interface StepRun {
  nowS: number;
  durationS: number;
  error: string | null;
}

export interface LessonState {
  progress: LessonProgress;
  /** The step's run while it goes on (null when none of this step is under way). */
  running: StepRun | null;
  /** Start the step's run: the experiment on screen, live values included, from t = 0. */
  run(): void;
}

/** A step's experiment as its lesson file sets it up, or null if its preset is missing. */
export function stepExperiment(step: LessonStep): Scenario | null {
  const preset = PRESETS.find((p) => p.id === step.setup.preset);
  return preset ? stepScenario(step.setup, preset.scenario) : null;
}

/** The view a step asks for: its charts, in its order, and its time window. */
export function stepView(step: LessonStep): ViewState {
  return { charts: step.setup.charts ?? DEFAULT_VIEW.charts, windowS: step.setup.window_s ?? 0, compare: null };
}

/** Steps (from 0) whose runs a step's reveal quotes. */
export function quotedSteps(step: LessonStep): number[] {
  return [...new Set(templateFields(step.reveal).flatMap(({ step: quoted }) => (quoted === null ? [] : [quoted - 1])))];
}

export function useLesson(lesson: Lesson | null, stepIndex: number, host: LessonHost): LessonState {
  const [progress, dispatch] = useReducer(progressReducer, NO_PROGRESS);
  const { load, summarise, loadId, snapshot } = host;
  const lessonId = lesson?.id ?? null;
  const step = lesson?.steps[stepIndex];

  useEffect(() => dispatch({ type: 'opened', lessonId }), [lessonId]);

  // Stage the step: its experiment at t = 0, paused, with its charts and speed.
  useEffect(() => {
    const scenario = step && stepExperiment(step);
    if (!step || !scenario) return;
    void load({ scenario, view: stepView(step), speed: step.setup.speed ?? DEFAULT_LESSON_SPEED, autoplay: false });
  }, [step, load]);

  // Earlier steps the reveal quotes but this visit has not run: run them out of sight.
  const missing = step ? quotedSteps(step).filter((quoted) => !progress.results[quoted]) : [];
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!lesson || missingKey === '') return;
    let current = true;
    for (const quoted of missingKey.split(',').map(Number)) {
      const scenario = stepExperiment(lesson.steps[quoted]);
      if (!scenario) continue;
      summarise(JSON.stringify(scenario)).then(
        (summary) => current && dispatch({ type: 'recomputed', stepIndex: quoted, summary }),
        // A step that cannot run shows its own error when opened; its quotes stay "–".
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [lesson, missingKey, summarise]);

  // The step's run ended (its own summary answers it), or another load replaced it before it did.
  const seen = snapshot && loadId !== null ? { loadId, finished: snapshot.finished } : null;
  const event = observe(progress, loadId, seen, () => completeSummary(snapshot as RunSnapshot));
  // Keyed on what happened, not on the event object, which each render makes anew.
  const eventKey = event && 'loadId' in event ? `${event.type}:${event.loadId}` : null;
  useEffect(() => {
    if (event) dispatch(event);
  }, [eventKey]);

  const scenario = host.scenario;
  const run = useCallback(() => {
    void load({ scenario, autoplay: true }).then((started) => started !== null && dispatch({ type: 'started', stepIndex, loadId: started }));
  }, [load, scenario, stepIndex]);

  const running =
    progress.running !== null && progress.running.stepIndex === stepIndex && progress.running.loadId === loadId
      ? { nowS: snapshot?.nowS ?? 0, durationS: snapshot?.durationS ?? scenario.duration_s, error: host.error }
      : null;
  return { progress, running, run };
}

export interface LessonPage extends LessonState {
  lesson: Lesson | null;
  stepIndex: number;
  /** A lesson the address names that is not one of the lessons here. */
  unknownId: string | null;
  /** The step's own run has answered it. */
  answered: boolean;
}

/** The lesson the address names (`place`), at its step, with its experiment and answers. */
export function useLessonPage(place: LessonPlace | null, host: LessonHost): LessonPage {
  const lesson = place ? (LESSONS.find((l) => l.id === place.lessonId) ?? null) : null;
  const stepIndex = lesson && place ? Math.min(place.stepIndex, lesson.steps.length - 1) : 0;
  const state = useLesson(lesson, stepIndex, host);
  return {
    ...state,
    lesson,
    stepIndex,
    unknownId: place && !lesson ? place.lessonId : null,
    answered: answerSummary(state.progress, stepIndex) !== undefined,
  };
}
