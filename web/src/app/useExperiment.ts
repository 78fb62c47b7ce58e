// The experiment on screen: what is loaded (through the run lifecycle of
// runLifecycle.ts), the experiment a link opens, the schemes' catalogue,
// and the notices that explain a link the page could not follow.

import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { BufferUnit, EngineClient } from '../engine/client';
import { decodeFragment } from '../scenario/codec';
import { DEFAULT_SCENARIO } from '../scenario/defaults';
import { bufferUnit as bufferUnitOf } from '../scenario/model';
import type { CatalogueEntry, Scenario, ScenarioProblem } from '../scenario/types';
import type { ViewState } from '../scenario/view';
import { OPENING, lifecycleReducer, loadedRun, type Lifecycle, type LoadRequest, type LoadedRun } from './runLifecycle';

export interface LoadOptions {
  /** The text to run, if not the scenario's own JSON (a link's text, kept bit for bit). */
  json?: string;
  view?: ViewState;
  /** False: build it at t = 0 and leave it paused. */
  autoplay?: boolean;
}

export interface Experiment {
  lifecycle: Lifecycle;
  loaded: LoadedRun | null;
  catalogues: Partial<Record<BufferUnit, CatalogueEntry[]>>;
  notice: string | null;
  setNotice: (notice: string | null) => void;
  fatal: string | null;
  /**
   * Start a scenario, asking first when the engine estimates it as long; only the latest request counts.
   * Resolves to the id of the load it started, or null when it started nothing (superseded, or waiting for Run anyway).
   */
  load: (scenario: Scenario, options?: LoadOptions) => Promise<number | null>;
  /** Run anyway: the heavy run waiting in `lifecycle`. */
  confirm: () => void;
  /** Do not run it; returns its scenario when nothing ran before it (an opened link), else null. */
  cancel: () => Scenario | null;
  /** Tell the lifecycle what became of a run. */
  report: (event: { type: 'built' | 'finished' | 'crashed' | 'restarted'; loadId: number }) => void;
}

function describeProblem(problem: ScenarioProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
}

/**
 * `onStart` hears each run as it starts, in the same turn (to set its view);
 * `onLinkOpened` hears the experiment a link opened and may answer a notice
 * about it; `skipLink` says a link is followed elsewhere (a lesson stages its
 * own step).
 */
export function useExperiment(
  engine: EngineClient,
  onStart: (run: LoadedRun) => void,
  onLinkOpened: (scenario: Scenario, loadId: number | null) => Promise<string | null>,
  skipLink: (hash: string) => boolean,
): Experiment {
  const [lifecycle, dispatch] = useReducer(lifecycleReducer, OPENING);
  const [catalogues, setCatalogues] = useState<Partial<Record<BufferUnit, CatalogueEntry[]>>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  const attempts = useRef(0);
  const loadIds = useRef(0);
  const onStartRef = useRef(onStart);
  onStartRef.current = onStart;
  const loaded = loadedRun(lifecycle);

  const begin = useCallback((request: LoadRequest, event: (loadId: number) => Parameters<typeof dispatch>[0]): number => {
    const loadId = ++loadIds.current;
    dispatch(event(loadId));
    onStartRef.current({ ...request, loadId });
    return loadId;
  }, []);

  const load = useCallback(
    (scenario: Scenario, options: LoadOptions = {}): Promise<number | null> => {
      const attempt = ++attempts.current;
      const request: LoadRequest = { scenario, json: options.json ?? JSON.stringify(scenario), view: options.view, autoplay: options.autoplay ?? true };
      dispatch({ type: 'requested', attempt, request });
      const settle = (estimate: Awaited<ReturnType<EngineClient['estimateWork']>> | null): number | null => {
        if (attempt !== attempts.current) return null;
        if (estimate !== null && estimate.events > estimate.limit) {
          dispatch({ type: 'estimated', attempt, estimate, loadId: 0 });
          return null;
        }
        return begin(request, (loadId) => ({ type: 'estimated', attempt, estimate, loadId }));
      };
      // An invalid scenario starts as any other, and the run reports the engine's message.
      return engine.estimateWork(request.json).then(settle, () => settle(null));
    },
    [engine, begin],
  );

  const confirm = useCallback(() => {
    if (lifecycle.phase === 'confirming') begin(lifecycle.request, (loadId) => ({ type: 'confirmed', loadId }));
  }, [lifecycle, begin]);

  const cancel = useCallback((): Scenario | null => {
    dispatch({ type: 'cancelled' });
    return lifecycle.phase === 'confirming' && lifecycle.before === null ? lifecycle.request.scenario : null;
  }, [lifecycle]);

  const onLinkOpenedRef = useRef(onLinkOpened);
  onLinkOpenedRef.current = onLinkOpened;
  const skipLinkRef = useRef(skipLink);
  skipLinkRef.current = skipLink;

  // Open the experiment in the link, now and whenever another link is pasted.
  useEffect(() => {
    let latest = 0;
    const open = async () => {
      const attempt = ++latest;
      const hash = window.location.hash;
      // The editor closes at once: the draft on screen is about to be replaced by this link's run.
      dispatch({ type: 'opening' });
      if (skipLinkRef.current(hash)) return dispatch({ type: 'unopened' });
      const decoded = decodeFragment(hash);
      const refuse = (why: string, view: ViewState) => {
        setNotice(`${why} Showing the default experiment instead.`);
        void load(DEFAULT_SCENARIO, { view });
      };
      if (decoded.kind === 'none') {
        void load(DEFAULT_SCENARIO);
        return;
      }
      if (decoded.kind === 'invalid') return refuse(`This link could not be opened: ${decoded.reason}.`, decoded.view);
      const linkProblem = await engine.validate(decoded.scenarioJson);
      if (attempt !== latest) return;
      if (linkProblem) return refuse(`The experiment in this link was not accepted (${describeProblem(linkProblem)}).`, decoded.view);
      setNotice(null);
      const scenario = JSON.parse(decoded.scenarioJson) as Scenario;
      // The view starts with the run it belongs to: its compare partner is checked against that run's scheme, not the one still running.
      const loadId = await load(scenario, { json: decoded.scenarioJson, view: decoded.view });
      const linkNotice = await onLinkOpenedRef.current(scenario, loadId);
      if (linkNotice) setNotice(linkNotice);
    };
    void open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [engine, load]);

  const bufferUnit = bufferUnitOf(loaded?.scenario ?? DEFAULT_SCENARIO);
  useEffect(() => {
    if (catalogues[bufferUnit]) return;
    engine.catalogue(bufferUnit).then(
      (entries) => setCatalogues((known) => ({ ...known, [bufferUnit]: entries })),
      (reason: unknown) => setFatal(`The scheme catalogue could not be loaded: ${String(reason)}`),
    );
  }, [engine, bufferUnit, catalogues]);

  const name = loaded?.scenario.name;
  useEffect(() => {
    document.title = name ? `${name} · AQM Lab` : 'AQM Lab';
  }, [name]);

  return { lifecycle, loaded, catalogues, notice, setNotice, fatal, load, confirm, cancel, report: dispatch };
}
