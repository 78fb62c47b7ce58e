// The typed client of the engine worker: the only code in the page that
// talks to the worker (and so to wasm). Everything is asynchronous; series
// rows and snapshots arrive through a listener. When the worker crashes, the
// client keeps what it needs to rebuild every run in a new worker: `restart()`.

import type {
  CaptureFiles,
  CatalogueEntry,
  ClaimResult,
  DecisionRecord,
  FieldSpec,
  FlowKinds,
  ResolvedPlan,
  Scenario,
  ScenarioProblem,
  Summary,
  WorkEstimate,
} from './pkg/aqm_core';
import type { BufferUnit, EngineFailure, FlowResults, FromWorker, LiveSummary, LoadedRun, ParamApplied, RunSnapshot, Speed, ToWorker } from './protocol';

export type { BufferUnit, DecisionRecord, FieldSpec, FlowResults, LiveSummary, ParamApplied, RunSnapshot, Speed, WorkEstimate };

const completeSummaries = new WeakMap<RunSnapshot, Summary>();

/**
 * A snapshot's complete summary, per-flow records included (what the summary
 * file and the verdicts need). For a many-flow run it is parsed from text on
 * first use; each snapshot gives the same object every time.
 */
export function completeSummary(snapshot: RunSnapshot): Summary {
  const results = snapshot.flowResults;
  if (results.detail === 'perFlow') return results.summary;
  let summary = completeSummaries.get(snapshot);
  if (!summary) {
    summary = JSON.parse(results.summaryJson) as Summary;
    completeSummaries.set(snapshot, summary);
  }
  return summary;
}

/** A request the engine refused; `problem` says which field and why, when the engine located it. */
export class EngineRefusal extends Error {
  constructor(
    message: string,
    readonly problem?: ScenarioProblem,
  ) {
    super(message);
  }
}

export interface SimulationListener {
  /** New rows, column-major in the order of `SimulationHandle.columns`; `data` goes back to the worker when this returns, so copy what you keep. */
  onRows(rows: number, data: Float64Array): void;
  onSnapshot(snapshot: RunSnapshot): void;
  /** The run went back to t = 0: drop everything received so far. */
  onRestart(): void;
  /** The run died inside the engine; the handle is no longer usable. */
  onError(message: string): void;
}

export interface SimulationHandle {
  readonly columns: readonly string[];
  readonly durationS: number;
  /** The engine's plan of the run, every default applied (parameters at the values the scheme started with). */
  readonly plan: ResolvedPlan;
  /** The scheme state each decision records (the drop-and-mark inspector). */
  readonly decisionFields: readonly FieldSpec[];
  play(): void;
  pause(): void;
  /** Advance by `seconds` of simulated time, then stop. */
  step(seconds: number): void;
  /** Back to t = 0 with the current parameter values, paused. */
  reset(): void;
  setSpeed(speed: Speed): void;
  /** Record decisions for the inspector (on when the run is built), or stop recording them. */
  setRecordDecisions(on: boolean): void;
  /** Change a scheme parameter mid-run; rejects with an `EngineRefusal` whose `problem` names the field. */
  setParam(id: string, value: number): Promise<ParamApplied>;
  dispose(): void;
}

/** The engine worker stopped working; `EngineClient.restart()` starts a new one. */
export interface EngineCrash {
  /** 'worker': the worker itself failed (its script did not load, or an error escaped it). */
  cause: EngineFailure | 'worker';
  message: string;
  /** Restarts before this crash: 0 for the first, more when restarting did not help. */
  restarts: number;
}

interface Pending {
  /** Kept so the request can be sent again to a restarted worker. */
  message: ToWorker;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface RunRecord {
  listener: SimulationListener;
  epoch: number;
  /** What a restart rebuilds the run from: its scenario (the engine's, with live parameter changes folded in), speed and lockstep group. */
  scenarioJson: string;
  speed: Speed;
  lockstepGroup: string | undefined;
  /** Whether it records its decisions (a restart turns recording off again when it was off). */
  recordDecisions: boolean;
  /** The worker has built it (until then its pending load request stands for it). */
  built: boolean;
}

export class EngineClient {
  private worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly runs = new Map<number, RunRecord>();
  private nextRequestId = 1;
  private nextRunId = 1;
  private crashListeners: ((crash: EngineCrash) => void)[] = [];
  /** Set while the worker is dead: requests wait for `restart()`. */
  private crash: EngineCrash | null = null;
  private restarts = 0;

  constructor() {
    this.worker = this.startWorker();
  }

  /** Called when the engine stops working (it could not start, or it panicked); returns an unsubscribe function. */
  onCrash(listener: (crash: EngineCrash) => void): () => void {
    this.crashListeners.push(listener);
    return () => {
      this.crashListeners = this.crashListeners.filter((l) => l !== listener);
    };
  }

  /**
   * After a crash: start a new worker and rebuild every run in it from t = 0
   * (same scenario, live parameter values, speed and lockstep group), playing;
   * each run's listener hears `onRestart`. Requests still waiting for an
   * answer are sent again. Does nothing while the engine works.
   */
  restart(): void {
    if (!this.crash) return;
    this.crash = null;
    this.restarts += 1;
    this.worker = this.startWorker();
    for (const [runId, run] of this.runs) {
      if (!run.built) continue;
      run.epoch = 0;
      run.listener.onRestart();
      // The run loaded before, so the new worker accepts it again; its reply has no one waiting.
      const requestId = this.nextRequestId++;
      this.worker.postMessage({
        type: 'load',
        requestId,
        runId,
        scenarioJson: run.scenarioJson,
        speed: run.speed,
        lockstepGroup: run.lockstepGroup,
      } satisfies ToWorker);
      if (!run.recordDecisions) this.worker.postMessage({ type: 'recordDecisions', runId, on: false } satisfies ToWorker);
      this.worker.postMessage({ type: 'play', runId } satisfies ToWorker);
    }
    for (const pending of this.pending.values()) this.worker.postMessage(pending.message);
  }

  /** Make the engine panic as a bug in it would (for the end-to-end test of `restart`). */
  panicForTest(): void {
    this.send({ type: 'panicForTest' });
  }

  catalogue(bufferUnit: BufferUnit): Promise<CatalogueEntry[]> {
    return this.request<CatalogueEntry[]>((requestId) => ({ type: 'catalogue', requestId, bufferUnit }));
  }

  /** `undefined` when the scenario is valid, else the first problem with its field path. */
  validate(scenarioJson: string): Promise<ScenarioProblem | undefined> {
    return this.request<ScenarioProblem | undefined>((requestId) => ({ type: 'validate', requestId, scenarioJson }));
  }

  /** The plan the scenario would run, every default applied, as a run's `plan` gives it; rejects with the scenario's first problem. */
  planScenario(scenarioJson: string): Promise<ResolvedPlan> {
    return this.request<ResolvedPlan>((requestId) => ({ type: 'planScenario', requestId, scenarioJson }));
  }

  /** The flow kinds an editor offers: each kind's new group (the engine's defaults written out) and the keys a group keeps when its kind changes. */
  flowKinds(): Promise<FlowKinds> {
    return this.request<FlowKinds>((requestId) => ({ type: 'flowKinds', requestId }));
  }

  /** The scenario a reproduction's main run runs: the file's `queue` and `set` applied by the engine to `scenarioJson` (the file it names); rejects with a `ScenarioProblem` of kind `reproduction` naming a `set` path that leads nowhere. */
  reproductionScenario(reproductionJson: string, scenarioJson: string): Promise<Scenario> {
    return this.request<Scenario>((requestId) => ({ type: 'reproductionScenario', requestId, reproductionJson, scenarioJson }));
  }

  /** The events a live run of the scenario would take, with the limit to compare; rejects with the engine's validation message. */
  estimateWork(scenarioJson: string): Promise<WorkEstimate> {
    return this.request<WorkEstimate>((requestId) => ({ type: 'estimate', requestId, scenarioJson }));
  }

  /** The scenario of every run a reproduction needs (each seed of its main, compare and ablation runs), in the order `judge` takes their summaries. */
  reproductionRuns(reproductionJson: string, scenarioJson: string): Promise<string[]> {
    return this.request<string[]>((requestId) => ({ type: 'reproductionRuns', requestId, reproductionJson, scenarioJson }));
  }

  /** Run a scenario to its end at full speed, without series; resolves to its summary as JSON text. */
  runToEnd(scenarioJson: string): Promise<string> {
    return this.request<string>((requestId) => ({ type: 'runToEnd', requestId, scenarioJson }));
  }

  /** Run a scenario to its end without series and capture hop `hop` from `fromS` to `toS` (as `aqm-sim run --pcap`); rejects with a `ScenarioProblem` of kind `capture` naming `hop`, `from` or `to`. */
  capture(scenarioJson: string, hop: number, fromS: number, toS: number): Promise<CaptureFiles> {
    return this.request<CaptureFiles>((requestId) => ({ type: 'capture', requestId, scenarioJson, hop, fromS, toS }));
  }

  /** The verdict on every claim of a reproduction file, by the engine's own verdict function (as `aqm-sim reproduce`), from the summaries of its runs. */
  judge(reproductionJson: string, summariesJson: readonly string[]): Promise<ClaimResult[]> {
    const summaries = `[${summariesJson.join(',')}]`;
    return this.request<ClaimResult[]>((requestId) => ({ type: 'judge', requestId, reproductionJson, summariesJson: summaries }));
  }

  /**
   * Build a simulation in the worker; it starts paused. Rejects with the engine's validation message.
   * Runs created with the same `lockstepGroup` advance together in simulated time.
   */
  async createSimulation(scenarioJson: string, listener: SimulationListener, speed: Speed, lockstepGroup?: string): Promise<SimulationHandle> {
    const runId = this.nextRunId++;
    const run: RunRecord = { listener, epoch: 0, scenarioJson, speed, lockstepGroup, recordDecisions: true, built: false };
    this.runs.set(runId, run);
    let loaded: LoadedRun;
    try {
      loaded = await this.request((requestId) => ({ type: 'load', requestId, runId, scenarioJson, speed, lockstepGroup }));
    } catch (error) {
      this.runs.delete(runId);
      throw error;
    }
    run.built = true;
    return {
      columns: loaded.columns,
      durationS: loaded.durationS,
      plan: loaded.plan,
      decisionFields: loaded.decisionFields,
      play: () => this.send({ type: 'play', runId }),
      pause: () => this.send({ type: 'pause', runId }),
      step: (seconds) => this.send({ type: 'step', runId, seconds }),
      reset: () => this.send({ type: 'reset', runId }),
      setSpeed: (next) => {
        run.speed = next;
        this.send({ type: 'speed', runId, speed: next });
      },
      setRecordDecisions: (on) => {
        run.recordDecisions = on;
        this.send({ type: 'recordDecisions', runId, on });
      },
      setParam: async (id, value) => {
        const applied = await this.request<ParamApplied>((requestId) => ({ type: 'setParam', requestId, runId, id, value }));
        run.scenarioJson = applied.scenarioJson;
        return applied;
      },
      dispose: () => {
        this.runs.delete(runId);
        this.send({ type: 'dispose', runId });
      },
    };
  }

  /** Transport commands to a dead worker are dropped: a restart rebuilds each run playing. */
  private send(message: ToWorker): void {
    if (!this.crash) this.worker.postMessage(message);
  }

  private request<T>(build: (requestId: number) => ToWorker): Promise<T> {
    const requestId = this.nextRequestId++;
    const message = build(requestId);
    return new Promise<T>((resolve, reject) => {
      this.pending.set(requestId, { message, resolve: resolve as (value: unknown) => void, reject });
      // While the worker is dead, the request waits for a restart to send it.
      this.send(message);
    });
  }

  private startWorker(): Worker {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'aqm-engine' });
    worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    worker.onerror = (event) => this.crashed('worker', event.message || 'its script did not load');
    worker.onmessageerror = () => this.crashed('worker', 'a message from it could not be read');
    return worker;
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'reply': {
        const pending = this.pending.get(message.requestId);
        if (!pending) return;
        this.pending.delete(message.requestId);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new EngineRefusal(message.error, message.problem));
        return;
      }
      case 'rows': {
        const run = this.currentRun(message.runId, message.epoch);
        run?.listener.onRows(message.rows, message.data);
        // The listener has copied the rows: the worker fills the buffer again.
        if (!this.crash) this.worker.postMessage({ type: 'recycle', buffer: message.data.buffer } satisfies ToWorker, [message.data.buffer]);
        return;
      }
      case 'snapshot': {
        const run = this.currentRun(message.runId, message.epoch);
        run?.listener.onSnapshot(message.snapshot);
        return;
      }
      case 'runError': {
        const run = this.runs.get(message.runId);
        this.runs.delete(message.runId);
        run?.listener.onError(message.message);
        return;
      }
      case 'fatal':
        this.crashed(message.cause, message.message);
        return;
    }
  }

  /** The run's record if the message belongs to its current epoch; a newer epoch means it was reset. */
  private currentRun(runId: number, epoch: number): RunRecord | undefined {
    const run = this.runs.get(runId);
    if (!run || epoch < run.epoch) return undefined;
    if (epoch > run.epoch) {
      run.epoch = epoch;
      run.listener.onRestart();
    }
    return run;
  }

  /**
   * The worker is unusable: stop it for good. Runs and waiting requests are
   * kept for `restart()`, except parameter changes, which are refused (one
   * may have caused the crash; a restart must not repeat it unasked).
   */
  private crashed(cause: EngineCrash['cause'], message: string): void {
    if (this.crash) return;
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.onmessageerror = null;
    this.worker.terminate();
    this.crash = { cause, message, restarts: this.restarts };
    for (const [requestId, pending] of this.pending) {
      if (pending.message.type !== 'setParam') continue;
      this.pending.delete(requestId);
      pending.reject(new Error('the simulator crashed before the change was applied'));
    }
    for (const listener of this.crashListeners) listener(this.crash);
  }
}
