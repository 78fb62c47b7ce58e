// Messages between the engine client (main thread) and the engine worker.
// Only the client and the worker import this file.

import type { FlowDetail } from './flowGroups';
import type { DecisionRecord, DelayDistributions, DropCurve, FieldSpec, ModelPoint, ResolvedPlan, ScenarioProblem, Summary } from './pkg/aqm_core';

/** Simulated seconds per wall second, or as fast as the engine can go. */
export type Speed = number | 'max';

export type BufferUnit = 'packets' | 'bytes';

export type ToWorker =
  | { type: 'catalogue'; requestId: number; bufferUnit: BufferUnit }
  | { type: 'validate'; requestId: number; scenarioJson: string }
  /** The work a live run would take (answers a `WorkEstimate`). */
  | { type: 'estimate'; requestId: number; scenarioJson: string }
  /** The plan a document would run, every default applied (answers a `ResolvedPlan`, or the first problem). */
  | { type: 'planScenario'; requestId: number; scenarioJson: string }
  /** The flow kinds an editor offers, with each kind's new group (answers a `FlowKinds`). */
  | { type: 'flowKinds'; requestId: number }
  /** The scenario a reproduction's main run runs: its file's `queue` and `set` applied to `scenarioJson` (answers a `Scenario`). */
  | { type: 'reproductionScenario'; requestId: number; reproductionJson: string; scenarioJson: string }
  /** The scenario (JSON text) of every run a reproduction needs, in the order `judge` takes their summaries. */
  | { type: 'reproductionRuns'; requestId: number; reproductionJson: string; scenarioJson: string }
  /** Run a scenario to its end without series; answers its summary as JSON text. */
  | { type: 'runToEnd'; requestId: number; scenarioJson: string }
  /** Run a scenario to its end without series; answers its capture (`CaptureFiles`) of hop `hop` from `fromS` to `toS`. */
  | { type: 'capture'; requestId: number; scenarioJson: string; hop: number; fromS: number; toS: number }
  /** Judge a reproduction file's claims on the summaries of its runs (a JSON array, in `reproductionRuns` order). */
  | { type: 'judge'; requestId: number; reproductionJson: string; summariesJson: string }
  /** Runs loaded with the same `lockstepGroup` advance together in simulated time (compare mode). */
  | { type: 'load'; requestId: number; runId: number; scenarioJson: string; speed: Speed; lockstepGroup?: string }
  | { type: 'play'; runId: number }
  | { type: 'pause'; runId: number }
  | { type: 'step'; runId: number; seconds: number }
  | { type: 'reset'; runId: number }
  | { type: 'speed'; runId: number; speed: Speed }
  /** Record the run's decisions for the inspector (the default), or stop: off, the engine gathers no state at all. */
  | { type: 'recordDecisions'; runId: number; on: boolean }
  | { type: 'setParam'; requestId: number; runId: number; id: string; value: number }
  | { type: 'dispose'; runId: number }
  /** A `rows` message's buffer, handed back once its rows are copied into the page's store (see `RowBuffers`). */
  | { type: 'recycle'; buffer: ArrayBuffer }
  /** Make the engine panic (the crash-restart test; the page sends it only when a test installed its hooks). */
  | { type: 'panicForTest' };

/** What `load` answers: the shape of the run's series and the engine's plan (every default applied). */
export interface LoadedRun {
  columns: readonly string[];
  durationS: number;
  plan: ResolvedPlan;
  /** The scheme state each decision records, in `DecisionRecord.state`'s order. */
  decisionFields: FieldSpec[];
}

/** What `setParam` answers: when it took effect, every current value, and the engine's scenario document with the live values folded in. */
export interface ParamApplied {
  atS: number;
  params: Record<string, number>;
  scenarioJson: string;
}

/** A periodic view of a run's state, a few times per second while it plays. */
export interface RunSnapshot {
  nowS: number;
  durationS: number;
  events: number;
  /** Engine events handled per wall-clock second over the last stretch of play. */
  eventsPerSecond: number;
  playing: boolean;
  finished: boolean;
  probe: Record<string, number>;
  params: Record<string, number>;
  dropCurve: DropCurve | undefined;
  /** The summary as the panels show it while the run goes on; the per-flow entries are in `flowResults`. */
  summary: LiveSummary;
  flowResults: FlowResults;
  /** Zheng & Atiquzzaman's (2000) Markov-chain drop probability against offered load (RED and DSRED only). */
  markovModel: ModelPoint[] | undefined;
  /** Size of the engine's WebAssembly memory, in bytes. */
  engineMemoryBytes: number;
  /** Queueing-delay and RTT distributions of the measurement window so far (CDF points per hop and group). */
  delays: DelayDistributions;
  /** The monitored queues' decisions since the last snapshot (the newest 2 000 at most), oldest first. */
  decisions: DecisionRecord[];
}

/** A summary without its per-flow entries: all that the panels show. */
export type LiveSummary = Omit<Summary, 'flows'>;

/** The per-flow results of a snapshot, as the run's flow detail allows. */
export type FlowResults =
  /** The complete summary, per-flow entries included (the same object as `RunSnapshot.summary`). */
  | { detail: Extract<FlowDetail, 'perFlow'>; summary: Summary }
  /**
   * Each group's per-flow goodputs in the measurement window, sorted from
   * lowest to highest (what the charts draw), and the complete summary as
   * JSON text: thousands of flow records cost the page far less as one
   * string, parsed only when a file or verdict needs them.
   */
  | { detail: Extract<FlowDetail, 'perGroup'>; groupGoodputsBps: Float64Array[]; summaryJson: string };

export type FromWorker =
  | { type: 'reply'; requestId: number; ok: true; value: unknown }
  /** `problem`: the engine's typed refusal (field path, message, kind), when it gave one. */
  | { type: 'reply'; requestId: number; ok: false; error: string; problem?: ScenarioProblem }
  /** New series rows, column-major in the order of `LoadedRun.columns`.
   *  `epoch` counts resets, so rows of a run that was reset are recognisable. */
  | { type: 'rows'; runId: number; epoch: number; rows: number; data: Float64Array<ArrayBuffer> }
  | { type: 'snapshot'; runId: number; epoch: number; snapshot: RunSnapshot }
  /** The run failed (an engine panic); it is gone. */
  | { type: 'runError'; runId: number; message: string }
  /** The engine is unusable: it could not start, or it panicked (a trap). Every run is gone; only a new worker helps. */
  | { type: 'fatal'; cause: EngineFailure; message: string };

/** Why an engine worker stopped working: its wasm did not load, or the engine panicked. */
export type EngineFailure = 'start' | 'panic';
