// The typed client of the engine worker: the only code in the page that
// talks to the worker (and so to wasm). Everything is asynchronous; series
// rows and snapshots arrive through a listener.

import type { CatalogueEntry, ClaimResult, ScenarioProblem, WorkEstimate } from './pkg/aqm_core';
import type { BufferUnit, FromWorker, LoadedRun, ParamApplied, RunSnapshot, Speed, ToWorker } from './protocol';

export type { BufferUnit, ParamApplied, RunSnapshot, Speed, WorkEstimate };

export interface SimulationListener {
  /** New rows, column-major in the order of `SimulationHandle.columns`. */
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
  /** Parameter values the scheme started with (defaults filled in). */
  readonly initialParams: Readonly<Record<string, number>>;
  play(): void;
  pause(): void;
  /** Advance by `seconds` of simulated time, then stop. */
  step(seconds: number): void;
  /** Back to t = 0 with the current parameter values, paused. */
  reset(): void;
  setSpeed(speed: Speed): void;
  /** Change a scheme parameter mid-run; rejects with the engine's message (naming the field). */
  setParam(id: string, value: number): Promise<ParamApplied>;
  dispose(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface RunRecord {
  listener: SimulationListener;
  epoch: number;
}

export class EngineClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly runs = new Map<number, RunRecord>();
  private nextRequestId = 1;
  private nextRunId = 1;
  private fatalListeners: ((message: string) => void)[] = [];

  constructor() {
    this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'aqm-engine' });
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.receive(event.data);
    this.worker.onerror = (event) => this.fatal(`The simulator worker failed to start: ${event.message || 'unknown error'}`);
  }

  /** Called when the engine cannot run at all (e.g. WebAssembly unavailable); returns an unsubscribe function. */
  onFatal(listener: (message: string) => void): () => void {
    this.fatalListeners.push(listener);
    return () => {
      this.fatalListeners = this.fatalListeners.filter((l) => l !== listener);
    };
  }

  catalogue(bufferUnit: BufferUnit): Promise<CatalogueEntry[]> {
    return this.request<CatalogueEntry[]>((requestId) => ({ type: 'catalogue', requestId, bufferUnit }));
  }

  /** `undefined` when the scenario is valid, else the first problem with its field path. */
  validate(scenarioJson: string): Promise<ScenarioProblem | undefined> {
    return this.request<ScenarioProblem | undefined>((requestId) => ({ type: 'validate', requestId, scenarioJson }));
  }

  /** The events a live run of the scenario would take, with the limit to compare; rejects with the engine's validation message. */
  estimateWork(scenarioJson: string): Promise<WorkEstimate> {
    return this.request<WorkEstimate>((requestId) => ({ type: 'estimate', requestId, scenarioJson }));
  }

  /** The verdict on every claim of a reproduction file, by the engine's own verdict function (as `aqm-sim reproduce`). */
  judge(reproductionJson: string, summaryJson: string, compareSummaryJson?: string): Promise<ClaimResult[]> {
    return this.request<ClaimResult[]>((requestId) => ({ type: 'judge', requestId, reproductionJson, summaryJson, compareSummaryJson }));
  }

  /**
   * Build a simulation in the worker; it starts paused. Rejects with the engine's validation message.
   * Runs created with the same `lockstepGroup` advance together in simulated time.
   */
  async createSimulation(scenarioJson: string, listener: SimulationListener, speed: Speed, lockstepGroup?: string): Promise<SimulationHandle> {
    const runId = this.nextRunId++;
    this.runs.set(runId, { listener, epoch: 0 });
    let loaded: LoadedRun;
    try {
      loaded = await this.request((requestId) => ({ type: 'load', requestId, runId, scenarioJson, speed, lockstepGroup }));
    } catch (error) {
      this.runs.delete(runId);
      throw error;
    }
    const send = (message: ToWorker) => this.worker.postMessage(message);
    return {
      columns: loaded.columns,
      durationS: loaded.durationS,
      initialParams: loaded.params,
      play: () => send({ type: 'play', runId }),
      pause: () => send({ type: 'pause', runId }),
      step: (seconds) => send({ type: 'step', runId, seconds }),
      reset: () => send({ type: 'reset', runId }),
      setSpeed: (next) => send({ type: 'speed', runId, speed: next }),
      setParam: (id, value) => this.request<ParamApplied>((requestId) => ({ type: 'setParam', requestId, runId, id, value })),
      dispose: () => {
        this.runs.delete(runId);
        send({ type: 'dispose', runId });
      },
    };
  }

  private request<T>(build: (requestId: number) => ToWorker): Promise<T> {
    const requestId = this.nextRequestId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage(build(requestId));
    });
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'reply': {
        const pending = this.pending.get(message.requestId);
        if (!pending) return;
        this.pending.delete(message.requestId);
        if (message.ok) pending.resolve(message.value);
        else pending.reject(new Error(message.error));
        return;
      }
      case 'rows': {
        const run = this.currentRun(message.runId, message.epoch);
        run?.listener.onRows(message.rows, message.data);
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
        this.fatal(message.message);
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

  private fatal(message: string): void {
    for (const listener of this.fatalListeners) listener(message);
  }
}
