// The scenario editor's draft beside the running experiment: the running
// document with its live parameter values, the draft as it would run, the
// engine's word on it and its plan, and whether it differs from what runs.

import { useEffect, useMemo, useState } from 'react';
import type { EngineClient } from '../engine/client';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import { bufferUnit, bufferUnitParams, withoutQueue } from '../scenario/model';
import type { CatalogueEntry, FlowKinds, ResolvedPlan, Scenario, ScenarioProblem } from '../scenario/types';

export interface Draft {
  /** The running experiment as a document: the loaded scenario with the live parameter values. */
  current: Scenario;
  /** The draft as it would run (thresholds in another buffer unit go back to defaults). */
  toRun: Scenario;
  problem: ScenarioProblem | undefined;
  /** The engine's plan of the draft, every default applied; undefined while the draft is invalid. */
  plan: ResolvedPlan | undefined;
  /** The engine's flow kinds, each with the group an editor adds (undefined until the engine answers). */
  flowKinds: FlowKinds | undefined;
  /** The draft differs from what runs (the queue aside, which the scheme panel sets live), or nothing runs. */
  dirty: boolean;
}

/**
 * The draft once the run of `next` starts, after the run of `before` (null for the page's first run): the
 * new run's document, but for a run that differs from the one before only in its queue (another scheme, or
 * compare mode on the running experiment). The draft leaves the queue to the scheme panel, so nothing it
 * holds changed, and an edit not yet applied stays as the user left it rather than vanish.
 */
export function draftOnStart(draft: Scenario, before: Scenario | null, next: Scenario): Scenario {
  return before !== null && withoutQueue(before) === withoutQueue(next) ? draft : next;
}

export function useDraft(
  engine: EngineClient,
  draft: Scenario,
  loaded: Scenario | undefined,
  liveParams: Readonly<Record<string, number>>,
  schemeEntry: CatalogueEntry | undefined,
): Draft {
  const [problem, setProblem] = useState<ScenarioProblem | undefined>(undefined);
  const [plan, setPlan] = useState<ResolvedPlan | undefined>(undefined);
  const [flowKinds, setFlowKinds] = useState<FlowKinds | undefined>(undefined);
  const scenario = loaded ?? DEFAULT_SCENARIO;

  const current = useMemo<Scenario>(
    () => ({ ...scenario, queue: { scheme: scenario.queue.scheme, params: { ...scenario.queue.params, ...liveParams } } }),
    [scenario, liveParams],
  );

  const toRun = useMemo<Scenario>(() => {
    const params = { ...current.queue.params };
    if (bufferUnit(draft) !== bufferUnit(scenario)) for (const id of bufferUnitParams(schemeEntry)) delete params[id];
    return { ...draft, queue: { scheme: current.queue.scheme, params } };
  }, [draft, current, scenario, schemeEntry]);

  useEffect(() => {
    let valid = true;
    const json = JSON.stringify(toRun);
    engine.validate(json).then((next) => valid && setProblem(next));
    engine.planScenario(json).then(
      (next) => valid && setPlan(next),
      () => valid && setPlan(undefined),
    );
    return () => {
      valid = false;
    };
  }, [engine, toRun]);

  useEffect(() => {
    let valid = true;
    engine.flowKinds().then(
      (kinds) => valid && setFlowKinds(kinds),
      () => undefined,
    );
    return () => {
      valid = false;
    };
  }, [engine]);

  return { current, toRun, problem, plan, flowKinds, dirty: loaded === undefined || withoutQueue(draft) !== withoutQueue(scenario) };
}
