// The engine worker: owns the wasm engine and every running simulation, and
// paces them itself so the page never waits on the engine. Simulations
// advance in slices bounded by wall time; new series rows go to the page as
// transferable typed arrays, and a snapshot (probe, drop curve, summary)
// follows a few times per second. A run with more flows than the page shows
// one by one sends per-group statistics instead of per-flow series, and its
// per-flow records as text (see FlowDetail).

import init, {
  Simulation,
  captureToEnd,
  catalogue,
  decisionStride,
  estimateWork,
  flowKinds,
  planScenario,
  judgeReproduction,
  onEnginePanic,
  panicForTest,
  reproductionRuns,
  reproductionScenario,
  runToEnd,
  validate,
} from './pkg/aqm_core.js';
import type { Summary } from './pkg/aqm_core';
import { unpackDecisions } from './decisionCodec';
import { flowDetail, flowGroups, type FlowDetail } from './flowGroups';
import { GroupAggregator, sortedGroupGoodputs } from './groupAggregates';
import { SLICE_BUDGET_MS, StepSizer, lockstepTarget, playTarget, reached } from './pacing';
import { isProblem, messageOf } from './refusal';
import { RowBuffers } from './rowBuffers';
import type { FlowResults, FromWorker, LiveSummary, LoadedRun, ParamApplied, RunSnapshot, Speed, ToWorker } from './protocol';

/** Points of the Markov model's curve per snapshot (a few hundred states each: cheap). */
const MODEL_POINTS = 121;
/** Wall time between snapshots while a run plays, at least. */
const SNAPSHOT_INTERVAL_MS = 200;
/** Snapshots may take at most this share of the worker's time: a large run (thousands of
 *  flows, whose summary takes tens of milliseconds) sends them less often. */
const SNAPSHOT_TIME_SHARE = 0.1;
/** Wall time between re-estimates of the events-per-second figure. */
const RATE_INTERVAL_MS = 500;
/** When real-time play has caught up with the clock, wait about a frame. */
const IDLE_DELAY_MS = 15;

interface Run {
  runId: number;
  /** Counts resets: the page drops rows and snapshots of an earlier epoch. */
  epoch: number;
  /** Runs of one group advance together in simulated time. */
  lockstepGroup: string | undefined;
  sim: Simulation;
  detail: FlowDetail;
  groupCount: number;
  /** Per-group statistics in place of the per-flow columns (`perGroup` runs only). */
  aggregator: GroupAggregator | null;
  playing: boolean;
  speed: Speed;
  /** Simulated time the real-time clock says the run should have reached. */
  clockTargetS: number;
  lastTurnMs: number;
  /** A pending step: advance to this simulated time, then stop. */
  stepTargetS: number | null;
  sizer: StepSizer;
  /** Wall seconds spent inside the engine, for the summary's perf block. */
  engineWallS: number;
  rateMarkMs: number;
  rateMarkEvents: number;
  eventsPerSecond: number;
  lastSnapshotMs: number;
  /** Wall time the last snapshot took to make. */
  snapshotCostMs: number;
  /** The Markov model depends only on the parameters and the loads asked for: kept until either changes. */
  markov: { loadsTop: number; params: string; model: ReturnType<Simulation['markovModel']> } | null;
}

/** The parts of the worker's global scope used here (the DOM and WebWorker typings cannot both be loaded). */
interface WorkerScope {
  postMessage(message: FromWorker, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;
const runs = new Map<number, Run>();
const rowBuffers = new RowBuffers();
/** The message of the engine's last panic: a trap itself says only "unreachable". */
let panicMessage: string | null = null;
/** Set once the engine trapped: a trapped instance must not be called again, so the worker goes quiet. */
let crashed = false;
/** The engine's linear memory, read into snapshots (it only grows: a bounded run keeps it flat). */
let engineMemory: WebAssembly.Memory | null = null;
const engineReady = init().then((exports) => {
  engineMemory = exports.memory;
  onEnginePanic((message: string) => (panicMessage = message));
});
let turnScheduled = false;
// A MessageChannel schedules the next turn without setTimeout's minimum delay.
const turnChannel = new MessageChannel();
turnChannel.port1.onmessage = () => guarded(turn);

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

function reply(requestId: number, value: unknown): void {
  post({ type: 'reply', requestId, ok: true, value });
}

function replyError(requestId: number, error: unknown): void {
  post({ type: 'reply', requestId, ok: false, error: messageOf(error), problem: isProblem(error) ? error : undefined });
}

scope.onmessage = async (event: MessageEvent<ToWorker>) => {
  try {
    await engineReady;
  } catch (error) {
    post({ type: 'fatal', cause: 'start', message: messageOf(error) });
    return;
  }
  if (crashed) return;
  const message = event.data;
  try {
    handle(message);
  } catch (error) {
    // Bad input is answered by replies: only an engine trap or an engine error about one run gets here.
    if (!isTrap(error) && 'runId' in message && runs.has(message.runId)) fail(runs.get(message.runId)!, Number.NaN, error);
    else crash(error);
  }
};

/** Reply with what `compute` returns, or with its error; an engine trap crashes the worker instead. */
function answer(requestId: number, compute: () => unknown): void {
  try {
    reply(requestId, compute());
  } catch (error) {
    rethrowTrap(error);
    replyError(requestId, error);
  }
}

function handle(message: ToWorker): void {
  switch (message.type) {
    case 'catalogue':
      answer(message.requestId, () => catalogue(message.bufferUnit));
      return;
    case 'validate':
      reply(message.requestId, validate(message.scenarioJson));
      return;
    case 'estimate':
      answer(message.requestId, () => estimateWork(message.scenarioJson));
      return;
    case 'planScenario':
      answer(message.requestId, () => planScenario(message.scenarioJson));
      return;
    case 'flowKinds':
      answer(message.requestId, () => flowKinds());
      return;
    case 'reproductionScenario':
      answer(message.requestId, () => reproductionScenario(message.reproductionJson, message.scenarioJson));
      return;
    case 'reproductionRuns':
      answer(message.requestId, () => reproductionRuns(message.reproductionJson, message.scenarioJson));
      return;
    case 'runToEnd':
      answer(message.requestId, () => runToEnd(message.scenarioJson));
      return;
    case 'capture':
      answer(message.requestId, () => captureToEnd(message.scenarioJson, message.hop, message.fromS, message.toS));
      return;
    case 'judge':
      answer(message.requestId, () => judgeReproduction(message.reproductionJson, message.summariesJson));
      return;
    case 'load':
      load(message.requestId, message.runId, message.scenarioJson, message.speed, message.lockstepGroup);
      return;
    case 'dispose':
      runs.get(message.runId)?.sim.free();
      runs.delete(message.runId);
      return;
    case 'setParam':
      setParam(message.requestId, message.runId, message.id, message.value);
      return;
    case 'panicForTest':
      panicForTest();
      return;
    case 'recycle':
      rowBuffers.recycle(message.buffer);
      return;
  }
  const run = runs.get(message.runId);
  if (!run) return;
  switch (message.type) {
    case 'play':
      if (run.sim.isFinished()) break;
      run.playing = true;
      run.stepTargetS = null;
      run.clockTargetS = run.sim.nowS();
      run.lastTurnMs = performance.now();
      markRate(run);
      break;
    case 'pause':
      run.playing = false;
      run.stepTargetS = null;
      break;
    case 'step':
      run.playing = false;
      run.stepTargetS = Math.min(run.sim.nowS() + Math.max(0, message.seconds), run.sim.durationS());
      break;
    case 'reset':
      reset(run);
      break;
    case 'speed':
      run.speed = message.speed;
      run.clockTargetS = run.sim.nowS();
      break;
    case 'recordDecisions':
      run.sim.recordDecisions(message.on);
      break;
  }
  sendSnapshot(run);
  scheduleTurn();
}

function load(requestId: number, runId: number, scenarioJson: string, speed: Speed, lockstepGroup: string | undefined): void {
  let sim: Simulation;
  try {
    sim = new Simulation(scenarioJson);
  } catch (error) {
    rethrowTrap(error);
    replyError(requestId, error);
    return;
  }
  const previous = runs.get(runId);
  previous?.sim.free();
  const now = performance.now();
  const plan = sim.plan();
  const groups = flowGroups(plan);
  const detail = flowDetail(groups);
  const run: Run = {
    runId,
    epoch: previous ? previous.epoch + 1 : 0,
    lockstepGroup,
    sim,
    detail,
    groupCount: groups.length,
    aggregator: detail === 'perGroup' ? new GroupAggregator(sim.columns(), groups) : null,
    playing: false,
    speed,
    clockTargetS: 0,
    lastTurnMs: now,
    stepTargetS: null,
    sizer: new StepSizer(),
    engineWallS: 0,
    rateMarkMs: now,
    rateMarkEvents: 0,
    eventsPerSecond: 0,
    lastSnapshotMs: 0,
    snapshotCostMs: 0,
    markov: null,
  };
  runs.set(runId, run);
  const loaded: LoadedRun = {
    columns: run.aggregator?.columns ?? sim.columns(),
    durationS: sim.durationS(),
    plan,
    decisionFields: sim.decisionFields(),
  };
  reply(requestId, loaded);
  sendSnapshot(run);
}

function reset(run: Run): void {
  run.sim.reset();
  run.epoch += 1;
  run.playing = false;
  run.stepTargetS = null;
  run.clockTargetS = 0;
  run.engineWallS = 0;
  run.eventsPerSecond = 0;
  run.sizer = new StepSizer();
  markRate(run);
}

function setParam(requestId: number, runId: number, id: string, value: number): void {
  const run = runs.get(runId);
  if (!run) {
    replyError(requestId, 'no simulation is loaded');
    return;
  }
  try {
    run.sim.setParam(id, value);
  } catch (error) {
    rethrowTrap(error);
    replyError(requestId, error);
    return;
  }
  const applied: ParamApplied = { atS: run.sim.nowS(), params: run.sim.params(), scenarioJson: JSON.stringify(run.sim.scenario()) };
  reply(requestId, applied);
  sendSnapshot(run);
}

function markRate(run: Run): void {
  run.rateMarkMs = performance.now();
  run.rateMarkEvents = run.sim.events();
}

function needsWork(run: Run): boolean {
  return (run.playing || run.stepTargetS !== null) && !run.sim.isFinished();
}

function scheduleTurn(delayMs = 0): void {
  if (turnScheduled) return;
  turnScheduled = true;
  if (delayMs > 0) setTimeout(() => guarded(turn), delayMs);
  else turnChannel.port2.postMessage(null);
}

/** One scheduler turn: advance every active run within the wall budget, then publish. */
function turn(): void {
  turnScheduled = false;
  const active = [...runs.values()].filter(needsWork);
  const sharePerRunMs = SLICE_BUDGET_MS / Math.max(1, active.length);
  const turnStart = performance.now();
  const ownTargets = new Map(active.map((run) => [run, targetOf(run, turnStart)]));
  const groupTargets = new Map<string, number>();
  let behind = false;
  // Runs held back for a partner that is not moving (paused) need no racing turns.
  const waiting = new Set<Run>();
  for (const run of active) {
    const fromS = run.sim.nowS();
    const ownTarget = ownTargets.get(run)!;
    const target = run.lockstepGroup === undefined ? ownTarget : groupTarget(run.lockstepGroup, ownTargets, groupTargets, sharePerRunMs);
    if (target < ownTarget && reached(fromS, target)) waiting.add(run);
    try {
      advance(run, target, performance.now() + sharePerRunMs);
    } catch (error) {
      rethrowTrap(error);
      fail(run, fromS, error);
      continue;
    }
    const now = run.sim.nowS();
    if (run.stepTargetS !== null && reached(now, run.stepTargetS)) run.stepTargetS = null;
    if (run.sim.isFinished()) run.playing = false;
    // Behind its own clock, unless held back for a partner that is behind (then the partner races).
    if (!reached(now, ownTarget) && !waiting.has(run)) behind = true;
  }
  const wallNow = performance.now();
  for (const run of active) {
    if (!runs.has(run.runId)) continue;
    const justStopped = !needsWork(run);
    const snapshotIntervalMs = Math.max(SNAPSHOT_INTERVAL_MS, run.snapshotCostMs / SNAPSHOT_TIME_SHARE);
    if (justStopped || wallNow - run.lastSnapshotMs >= snapshotIntervalMs) sendSnapshot(run);
    else publishRows(run);
  }
  const remaining = [...runs.values()].filter(needsWork);
  if (remaining.length === 0) return;
  const racing = behind || remaining.some((r) => !waiting.has(r) && (r.speed === 'max' || r.stepTargetS !== null));
  scheduleTurn(racing ? 0 : IDLE_DELAY_MS);
}

/** The target every run of a lockstep group advances to in this turn (computed once per group and turn). */
function groupTarget(group: string, ownTargets: Map<Run, number>, groupTargets: Map<string, number>, shareMs: number): number {
  const known = groupTargets.get(group);
  if (known !== undefined) return known;
  const members = [...runs.values()].filter((r) => r.lockstepGroup === group);
  const target = lockstepTarget(
    // A member that is not running this turn (paused) stays where it is.
    members.map((r) => ownTargets.get(r) ?? r.sim.nowS()),
    members.map((r) => r.sim.nowS()),
    Math.min(...members.map((r) => r.sizer.reach(shareMs))),
  );
  groupTargets.set(group, target);
  return target;
}

function targetOf(run: Run, wallNowMs: number): number {
  if (run.stepTargetS !== null) return run.stepTargetS;
  const elapsedS = (wallNowMs - run.lastTurnMs) / 1000;
  run.lastTurnMs = wallNowMs;
  run.clockTargetS = playTarget(run.speed, run.sim.nowS(), run.clockTargetS, elapsedS, run.sim.durationS());
  return run.clockTargetS;
}

/** Advance toward `targetS` in steps sized to the engine's recent speed, until the wall deadline. */
function advance(run: Run, targetS: number, deadlineMs: number): void {
  let wallMs = performance.now();
  while (!reached(run.sim.nowS(), targetS) && wallMs < deadlineMs) {
    const fromS = run.sim.nowS();
    run.sim.advanceTo(Math.min(targetS, fromS + run.sizer.next()));
    const after = performance.now();
    run.sizer.observe(run.sim.nowS() - fromS, after - wallMs);
    run.engineWallS += (after - wallMs) / 1000;
    wallMs = after;
  }
  if (wallMs - run.rateMarkMs >= RATE_INTERVAL_MS) {
    run.eventsPerSecond = ((run.sim.events() - run.rateMarkEvents) * 1000) / (wallMs - run.rateMarkMs);
    markRate(run);
  }
}

function publishRows(run: Run): void {
  // A view into the engine's memory, read at once into a buffer the page hands back: as the groups' statistics, or copied.
  const batch = run.sim.drainView();
  if (batch.rows === 0) return;
  const data = run.aggregator ? run.aggregator.aggregate(batch.rows, batch.data, rowBuffers) : rowBuffers.copy(batch.data);
  post({ type: 'rows', runId: run.runId, epoch: run.epoch, rows: batch.rows, data }, [data.buffer]);
}

/** How far the Markov model's offered loads λ/μ go: twice the link rate, or a
 *  quarter beyond the busiest hop's measured load when that is higher. */
function modelLoadsTop(summary: Summary): number {
  return Math.max(2, 1.25 * Math.max(0, ...summary.hops.map((h) => h.offered_load)));
}

/** The Markov model's curve, recomputed only when the parameters or the loads' range change. */
function markovModelOf(run: Run, summary: Summary): ReturnType<Simulation['markovModel']> {
  const loadsTop = modelLoadsTop(summary);
  const params = JSON.stringify(run.sim.params());
  if (run.markov?.loadsTop !== loadsTop || run.markov.params !== params) {
    const loads = Float64Array.from({ length: MODEL_POINTS }, (_, i) => (loadsTop * i) / (MODEL_POINTS - 1));
    run.markov = { loadsTop, params, model: run.sim.markovModel(loads) };
  }
  return run.markov.model;
}

function sendSnapshot(run: Run): void {
  publishRows(run);
  const startMs = performance.now();
  const sim = run.sim;
  const summary = sim.summary(run.engineWallS);
  const flowResults = flowResultsOf(run, summary);
  const snapshot: RunSnapshot = {
    nowS: sim.nowS(),
    durationS: sim.durationS(),
    events: sim.events(),
    eventsPerSecond: run.eventsPerSecond,
    playing: needsWork(run),
    finished: sim.isFinished(),
    probe: sim.probe(),
    params: sim.params(),
    dropCurve: sim.dropCurve(),
    summary: flowResults.detail === 'perFlow' ? summary : withoutFlows(summary),
    flowResults,
    markovModel: markovModelOf(run, summary),
    engineMemoryBytes: engineMemory?.buffer.byteLength ?? 0,
    delays: sim.delayDistributions(),
    decisions: unpackDecisions(sim.takeDecisions(), decisionStride()),
  };
  run.lastSnapshotMs = performance.now();
  run.snapshotCostMs = run.lastSnapshotMs - startMs;
  const transfer = flowResults.detail === 'perGroup' ? flowResults.groupGoodputsBps.map((values) => values.buffer) : [];
  post({ type: 'snapshot', runId: run.runId, epoch: run.epoch, snapshot }, transfer);
}

function flowResultsOf(run: Run, summary: Summary): FlowResults {
  if (run.detail === 'perFlow') return { detail: 'perFlow', summary };
  return { detail: 'perGroup', groupGoodputsBps: sortedGroupGoodputs(summary.flows, run.groupCount), summaryJson: JSON.stringify(summary) };
}

function withoutFlows(summary: Summary): LiveSummary {
  const { flows: _flows, ...live } = summary;
  return live;
}

/** A trap inside the engine leaves its state undefined: drop the run and say so. */
function fail(run: Run, lastGoodS: number, error: unknown): void {
  runs.delete(run.runId);
  post({
    type: 'runError',
    runId: run.runId,
    message: `The engine stopped with an internal error${Number.isFinite(lastGoodS) ? ` after t = ${lastGoodS.toFixed(3)} s` : ''} (${messageOf(error)}). Load the scenario again to continue.`,
  });
}

function isTrap(error: unknown): boolean {
  return error instanceof WebAssembly.RuntimeError;
}

/** In a handler of bad input or of one run's failure: a trap is neither, it crashes the worker. */
function rethrowTrap(error: unknown): void {
  if (isTrap(error)) throw error;
}

/** Run `work`, turning an engine trap inside it into a crash report. */
function guarded(work: () => void): void {
  if (crashed) return;
  try {
    work();
  } catch (error) {
    if (!isTrap(error)) throw error;
    crash(error);
  }
}

/** The engine trapped, so its memory may be inconsistent: touch no simulation again and tell the page. */
function crash(error: unknown): void {
  crashed = true;
  runs.clear();
  post({ type: 'fatal', cause: 'panic', message: panicMessage ?? String(error) });
}
