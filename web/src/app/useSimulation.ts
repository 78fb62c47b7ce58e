// The page's view of one running simulation: creates it in the worker when
// the loaded scenario changes, keeps its series and latest snapshot, and
// offers the transport and live-parameter actions.

import { useCallback, useEffect, useRef, useState } from 'react';
import type { EngineClient, FieldSpec, ParamApplied, RunSnapshot, SimulationHandle, Speed } from '../engine/client';
import { DecisionRing } from '../engine/decisionRing';
import { SeriesStore } from '../engine/seriesStore';
import type { ParamChange } from '../charts/timeAxis';
import type { ResolvedPlan } from '../scenario/types';

/** Changes of one parameter this close together (wall time) are one gesture: one change line. */
const CHANGE_COALESCE_MS = 1500;

export interface SimulationView {
  store: SeriesStore | null;
  /** The engine's plan of the run (groups, counts, labels, sample interval: every default applied); null until it is built. */
  plan: ResolvedPlan | null;
  /** The latest snapshot of the run loaded as `loadId`, since it last went back to t = 0; never one of an earlier load or reset. */
  snapshot: RunSnapshot | null;
  /** Current scheme parameter values, the engine's word: the page's one copy of them (sliders, marks and the share link read it). */
  params: Record<string, number>;
  /** Live parameter changes, drawn as labelled lines on the time axes. */
  paramChanges: ParamChange[];
  /** Why the run could not start or stopped. */
  error: string | null;
  /** The run's newest decisions (the drop-and-mark inspector) and the state they record. */
  decisions: RunDecisions | null;
  /** Whether runs record their decisions (the inspector's switch; on unless the user turned it off). */
  recordingDecisions: boolean;
  setRecordingDecisions(on: boolean): void;
  play(): void;
  pause(): void;
  step(seconds: number): void;
  reset(): void;
  setParam(id: string, value: number): Promise<ParamApplied>;
}

export interface RunDecisions {
  ring: DecisionRing;
  fields: readonly FieldSpec[];
}

interface ChangeGesture {
  id: string;
  atMs: number;
}

/** A snapshot and the load it came from. */
interface KeyedSnapshot {
  loadId: number;
  snapshot: RunSnapshot | null;
}

/**
 * `scenarioJson` and `loadId` identify what to run: a new `loadId` restarts
 * even the same document (Apply, picking a preset again). A run starts
 * playing as soon as it is built, unless `autoplay` is false (read when a run
 * is built). Runs built with the same `lockstepGroup` advance together in
 * simulated time (read when a run is built: changing it alone restarts
 * nothing). `onBuilt` hears each load once the engine has built it.
 */
export function useSimulation(
  engine: EngineClient,
  scenarioJson: string | null,
  loadId: number,
  speed: Speed,
  lockstepGroup?: string,
  autoplay = true,
  onBuilt?: (loadId: number) => void,
): SimulationView {
  const [store, setStore] = useState<SeriesStore | null>(null);
  const [plan, setPlan] = useState<ResolvedPlan | null>(null);
  // Keyed by load: in the render where a new load arrives, the previous run's snapshot is still in state.
  const [keyedSnapshot, setKeyedSnapshot] = useState<KeyedSnapshot>({ loadId, snapshot: null });
  const snapshot = keyedSnapshot.loadId === loadId ? keyedSnapshot.snapshot : null;
  const [params, setParams] = useState<Record<string, number>>({});
  const [paramChanges, setParamChanges] = useState<ParamChange[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [decisions, setDecisions] = useState<RunDecisions | null>(null);
  const [recordingDecisions, setRecording] = useState(true);
  const recordingRef = useRef(recordingDecisions);
  recordingRef.current = recordingDecisions;
  const handleRef = useRef<SimulationHandle | null>(null);
  const lastGesture = useRef<ChangeGesture | null>(null);
  const speedRef = useRef(speed);
  speedRef.current = speed;
  const lockstepRef = useRef(lockstepGroup);
  lockstepRef.current = lockstepGroup;
  const autoplayRef = useRef(autoplay);
  autoplayRef.current = autoplay;
  const onBuiltRef = useRef(onBuilt);
  onBuiltRef.current = onBuilt;

  useEffect(() => {
    if (scenarioJson === null) return;
    let disposed = false;
    const runStore: { current: SeriesStore | null } = { current: null };
    // Every snapshot's decisions go in, even those of a snapshot never shown.
    const ring = new DecisionRing();
    // Snapshots are shown in the next animation frame, together with the rows
    // that arrived meanwhile: one render of the page per frame, not one more
    // for every snapshot.
    let pendingSnapshot: RunSnapshot | null = null;
    let snapshotFrame = 0;
    const showSnapshot = () => {
      snapshotFrame = 0;
      const next = pendingSnapshot;
      if (disposed || !next) return;
      setKeyedSnapshot({ loadId, snapshot: next });
      // Most snapshots bring the same values: keep the object, so nothing that depends on it redoes its work.
      setParams((current) => (sameValues(current, next.params) ? current : next.params));
    };
    setError(null);
    setKeyedSnapshot({ loadId, snapshot: null });
    setParamChanges([]);
    lastGesture.current = null;
    engine
      .createSimulation(
        scenarioJson,
        {
          onRows: (rows, data) => runStore.current?.append(rows, data),
          onSnapshot: (next) => {
            ring.push(next.decisions);
            pendingSnapshot = next;
            snapshotFrame ||= requestAnimationFrame(showSnapshot);
          },
          onRestart: () => {
            // Back at t = 0: the finished run's snapshot must not stand for the new one.
            pendingSnapshot = null;
            setKeyedSnapshot({ loadId, snapshot: null });
            runStore.current?.clear();
            ring.clear();
            setParamChanges([]);
            lastGesture.current = null;
          },
          onError: (message) => setError(message),
        },
        speedRef.current,
        lockstepRef.current,
      )
      .then((handle) => {
        if (disposed) {
          handle.dispose();
          return;
        }
        handleRef.current = handle;
        runStore.current = new SeriesStore(handle.columns);
        setStore(runStore.current);
        setPlan(handle.plan);
        setParams(handle.plan.params);
        setDecisions({ ring, fields: handle.decisionFields });
        // Sent before play: a run built while recording is off records nothing.
        if (!recordingRef.current) handle.setRecordDecisions(false);
        // In the same turn as its values: the render that shows its controls also knows the run is built.
        onBuiltRef.current?.(loadId);
        // The speed may have changed while the worker was building the run.
        handle.setSpeed(speedRef.current);
        if (autoplayRef.current) handle.play();
      })
      .catch((reason: unknown) => {
        if (!disposed) setError(reason instanceof Error ? reason.message : String(reason));
      });
    return () => {
      disposed = true;
      cancelAnimationFrame(snapshotFrame);
      handleRef.current?.dispose();
      handleRef.current = null;
      setStore(null);
      setPlan(null);
      // The next run's values come from the engine once it is built.
      setParams({});
      setDecisions(null);
    };
  }, [engine, scenarioJson, loadId]);

  useEffect(() => handleRef.current?.setSpeed(speed), [speed]);

  const ring = decisions?.ring;
  const setRecordingDecisions = useCallback(
    (on: boolean) => {
      setRecording(on);
      handleRef.current?.setRecordDecisions(on);
      // Off, the marks of decisions made before would stand for a run that no longer records them.
      if (!on) ring?.clear();
    },
    [ring],
  );

  const setParam = useCallback(async (id: string, value: number) => {
    const handle = handleRef.current;
    if (!handle) throw new Error('the simulation is still starting');
    // A drag is one change: timed from the user's moves, not the engine's answers, which a busy machine spaces out.
    const madeAtMs = performance.now();
    const gesture = lastGesture.current;
    const continuing = gesture !== null && gesture.id === id && madeAtMs - gesture.atMs < CHANGE_COALESCE_MS;
    lastGesture.current = { id, atMs: madeAtMs };
    const applied = await handle.setParam(id, value);
    setParams(applied.params);
    const label = `${id} = ${formatParam(value)}`;
    // Keep where the drag started, show where it ended.
    setParamChanges((previous) =>
      continuing && previous.length > 0
        ? [...previous.slice(0, -1), { ...previous[previous.length - 1], label }]
        : [...previous, { timeS: applied.atS, label }],
    );
    return applied;
  }, []);

  return {
    store,
    plan,
    snapshot,
    params,
    paramChanges,
    error,
    decisions,
    recordingDecisions,
    setRecordingDecisions,
    play: useCallback(() => handleRef.current?.play(), []),
    pause: useCallback(() => handleRef.current?.pause(), []),
    step: useCallback((seconds: number) => handleRef.current?.step(seconds), []),
    reset: useCallback(() => handleRef.current?.reset(), []),
    setParam,
  };
}

function sameValues(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}

function formatParam(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}
