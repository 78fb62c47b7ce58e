// A small pool of sweep workers, apart from the live engine worker: each
// takes the next run of the sweep when it is free, so a sweep uses the spare
// cores while the running experiment keeps its own. Cancelling terminates
// the workers mid-run; fresh ones start with the next request.

import type { WorkEstimate } from '../engine/client';
import type { FigureResult } from '../engine/pkg/aqm_core';
import type { FromSweepWorker, ToSweepWorker } from '../engine/sweepProtocol';
import type { ScenarioProblem } from '../scenario/types';
import { planRuns, type SweepPoint, type SweepRequest, type SweepRun } from './model';

/**
 * Most sweep workers a page starts. Each holds its own engine instance (a few
 * to tens of MiB for a large scenario), so a many-core machine does not get
 * one per core without bound.
 */
export const MAX_POOL_SIZE = 16;

/** Spare cores, leaving one for the page and the live run: at least 1, at most {@link MAX_POOL_SIZE} workers. */
export function defaultPoolSize(hardwareConcurrency: number | undefined = globalThis.navigator?.hardwareConcurrency): number {
  return Math.max(1, Math.min((hardwareConcurrency ?? 2) - 1, MAX_POOL_SIZE));
}

export class SweepCancelled extends Error {
  constructor() {
    super('the sweep was cancelled');
  }
}

interface Pending {
  resolve(message: FromSweepWorker): void;
  reject(error: Error): void;
}

interface Member {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** What the engine says of a sweep before running it. */
export interface SweepCheck {
  /** The first run's problem, naming the field; `undefined` when every run is valid. */
  problem: ScenarioProblem | undefined;
  /** The events of every run together (when all are valid). */
  work: WorkEstimate | undefined;
}

export interface SweepTask {
  /** Resolves when every run has finished; rejects on cancel (SweepCancelled) or when a run fails. */
  finished: Promise<void>;
  cancel(): void;
}

export class SweepPool {
  private members: Member[] = [];
  private nextRequestId = 1;

  constructor(private readonly size = defaultPoolSize()) {}

  /** The engine's first problem with the sweep's runs, naming the field, or (all valid) the events they take together. */
  async check(scenarioJson: string, request: SweepRequest): Promise<SweepCheck> {
    const reply = await this.call(this.member(0), (requestId) => ({ type: 'check', requestId, scenarioJson, ...request }));
    if (reply.type === 'checked') return { problem: reply.problem, work: reply.work };
    throw new Error(reply.type === 'failed' ? reply.message : 'unexpected reply from the sweep worker');
  }

  /** Run every point of the sweep, `onPoint` as each finishes (in whatever order the workers finish them). */
  run(scenarioJson: string, request: SweepRequest, onPoint: (run: SweepRun, point: SweepPoint, wallS: number) => void): SweepTask {
    const queue = planRuns(request);
    const workers = Math.min(this.size, queue.length);
    return this.task(async (stopped) => {
      const work = async (member: Member) => {
        for (let run = queue.shift(); run && !stopped(); run = queue.shift()) {
          const { value, seed } = run;
          const reply = await this.call(member, (requestId) => ({ type: 'run', requestId, scenarioJson, path: request.path, value, seed }));
          if (reply.type === 'failed') throw new Error(`value ${value}, seed ${seed}: ${reply.message}`);
          if (reply.type !== 'point') throw new Error('unexpected reply from the sweep worker');
          if (!stopped()) onPoint(run, { value, seed, summary: reply.summary }, reply.wallS);
        }
      };
      await Promise.all(Array.from({ length: workers }, (_, i) => work(this.member(i))));
    });
  }

  /**
   * Run a reproduction's figure: the engine expands it into runs (keyed x,
   * scheme, seed, as `aqm-sim reproduce --figure` does), the workers run them
   * to their end, `onProgress` after each, and the engine aggregates them.
   */
  runFigure(
    figure: { reproductionJson: string; scenarioJson: string; figureId: string },
    onProgress: (done: number, total: number) => void,
  ): { finished: Promise<FigureResult>; cancel(): void } {
    const expect = <T extends FromSweepWorker['type']>(reply: FromSweepWorker, type: T) => {
      if (reply.type === 'failed') throw new Error(reply.message);
      if (reply.type !== type) throw new Error('unexpected reply from the sweep worker');
      return reply as Extract<FromSweepWorker, { type: T }>;
    };
    return this.task(async (stopped) => {
      const { runs } = expect(await this.call(this.member(0), (requestId) => ({ type: 'figureRuns', requestId, ...figure })), 'figureRuns');
      const summaries: string[] = new Array<string>(runs.length);
      let next = 0;
      let done = 0;
      onProgress(0, runs.length);
      const work = async (member: Member) => {
        for (let k = next++; k < runs.length && !stopped(); k = next++) {
          const reply = await this.call(member, (requestId) => ({ type: 'runToEnd', requestId, scenarioJson: runs[k] }));
          summaries[k] = expect(reply, 'ranToEnd').summaryJson;
          onProgress(++done, runs.length);
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.size, runs.length) }, (_, i) => work(this.member(i))));
      const summariesJson = `[${summaries.join(',')}]`;
      const reply = await this.call(this.member(0), (requestId) => ({ type: 'figureResult', requestId, ...figure, summariesJson }));
      return expect(reply, 'figureResult').result;
    });
  }

  /** `body` as a task: one failure stops every worker rather than leave them running, and so does cancel. */
  private task<T>(body: (stopped: () => boolean) => Promise<T>): { finished: Promise<T>; cancel(): void } {
    let stopped = false;
    const finished = body(() => stopped).catch((error: unknown) => {
      if (!stopped) {
        stopped = true;
        this.terminate(error instanceof Error ? error : new Error(String(error)));
      }
      throw error;
    });
    return {
      finished,
      cancel: () => {
        stopped = true;
        this.terminate(new SweepCancelled());
      },
    };
  }

  /** Stop every worker now, failing whatever they were doing. */
  dispose(): void {
    this.terminate(new SweepCancelled());
  }

  private member(i: number): Member {
    while (this.members.length <= i) this.members.push(this.spawn());
    return this.members[i];
  }

  private spawn(): Member {
    const worker = new Worker(new URL('../engine/sweepWorker.ts', import.meta.url), { type: 'module', name: 'aqm-sweep' });
    const member: Member = { worker, pending: new Map() };
    worker.onmessage = (event: MessageEvent<FromSweepWorker>) => {
      const pending = member.pending.get(event.data.requestId);
      member.pending.delete(event.data.requestId);
      pending?.resolve(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const error = new Error(`a sweep worker failed: ${event.message || 'unknown error'}`);
      worker.terminate();
      this.members = this.members.filter((m) => m !== member);
      for (const pending of member.pending.values()) pending.reject(error);
      member.pending.clear();
    };
    return member;
  }

  private call(member: Member, build: (requestId: number) => ToSweepWorker): Promise<FromSweepWorker> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      member.pending.set(requestId, { resolve, reject });
      member.worker.postMessage(build(requestId));
    });
  }

  private terminate(reason: Error): void {
    for (const member of this.members) {
      member.worker.terminate();
      for (const pending of member.pending.values()) pending.reject(reason);
    }
    this.members = [];
  }
}
