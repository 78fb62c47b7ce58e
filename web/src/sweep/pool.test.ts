// The sweep pool with its workers replaced by in-process ones that run the
// same engine calls as `engine/sweepWorker.ts` and answer after scrambled
// delays, so the runs finish in a different order for each pool size.

import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { figureResult, figureRuns, initSync, runToEnd, sweepCheck, sweepPoint, sweepWork } from '../engine/pkg/aqm_core.js';
import { isProblem, messageOf } from '../engine/refusal';
import type { FromSweepWorker, ToSweepWorker } from '../engine/sweepProtocol';
import type { Scenario } from '../scenario/types';
import { planRuns, sweepToCsv, type SweepPoint, type SweepRequest } from './model';
import { MAX_POOL_SIZE, SweepPool } from './pool';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const wasmFile = new URL('../engine/pkg/aqm_core_bg.wasm', import.meta.url);
const ready = existsSync(wasmFile);

/** A sweep worker in this thread: the engine calls of `sweepWorker.ts`, each reply after a delay set by `delayMs`. */
class InProcessWorker {
  static started = 0;
  static delayMs: (requestId: number) => number = () => 0;
  onmessage: ((event: MessageEvent<FromSweepWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;

  constructor() {
    InProcessWorker.started += 1;
  }

  postMessage(message: ToSweepWorker): void {
    const reply = InProcessWorker.answer(message);
    setTimeout(() => this.onmessage?.({ data: reply } as MessageEvent<FromSweepWorker>), InProcessWorker.delayMs(message.requestId));
  }

  private static answer(message: ToSweepWorker): FromSweepWorker {
    const { requestId } = message;
    try {
      if (message.type === 'check') {
        const { scenarioJson, path, values, seedCount } = message;
        return {
          type: 'checked',
          requestId,
          problem: sweepCheck(scenarioJson, path, values, seedCount),
          work: sweepWork(scenarioJson, path, values, seedCount),
        };
      }
      if (message.type === 'figureRuns')
        return { type: 'figureRuns', requestId, runs: figureRuns(message.reproductionJson, message.scenarioJson, message.figureId) };
      if (message.type === 'runToEnd') return { type: 'ranToEnd', requestId, summaryJson: runToEnd(message.scenarioJson) };
      if (message.type === 'figureResult') {
        return { type: 'figureResult', requestId, result: figureResult(message.reproductionJson, message.figureId, message.summariesJson) };
      }
      return { type: 'point', requestId, summary: sweepPoint(message.scenarioJson, message.path, message.value, message.seed), wallS: 0 };
    } catch (error) {
      return { type: 'failed', requestId, message: messageOf(error), problem: isProblem(error) ? error : undefined };
    }
  }

  terminate(): void {}
}

/** Run a whole sweep on a pool of `size` workers and keep its points in the CLI's row order, as the sweep panel does; also the order they finished in. */
async function sweepWith(size: number, scenarioJson: string, request: SweepRequest): Promise<{ points: SweepPoint[]; finished: number[] }> {
  const points: (SweepPoint | undefined)[] = new Array(planRuns(request).length).fill(undefined);
  const finished: number[] = [];
  const pool = new SweepPool(size);
  await pool.run(scenarioJson, request, (run, point) => {
    points[run.index] = point;
    finished.push(run.index);
  }).finished;
  pool.dispose();
  expect(points.every((p) => p !== undefined)).toBe(true);
  return { points: points as SweepPoint[], finished };
}

describe('the sweep pool', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.runIf(ready)('gives identical results whatever the number of workers, however the runs interleave', async () => {
    initSync({ module: readFileSync(wasmFile) });
    vi.stubGlobal('Worker', InProcessWorker);
    // Later requests answer sooner, so with several workers the runs finish out of order.
    InProcessWorker.delayMs = (requestId) => (7 * requestId) % 5;
    const preset: Scenario = JSON.parse(readFileSync(`${repoRoot}scenarios/red-vs-droptail-cbr.json`, 'utf8'));
    const scenarioJson = JSON.stringify({ ...preset, duration_s: 6, measure_from_s: 2 });
    const request: SweepRequest = { path: 'queue.params.max_p', values: [0.02, 0.1, 0.35], seedCount: 3 };

    const one = await sweepWith(1, scenarioJson, request);
    expect(one.finished).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (const size of [2, 3, 5, MAX_POOL_SIZE]) {
      InProcessWorker.started = 0;
      const many = await sweepWith(size, scenarioJson, request);
      // No more workers than runs.
      expect(InProcessWorker.started).toBe(Math.min(size, 9));
      expect(many.points).toEqual(one.points);
      expect(sweepToCsv(many.points)).toBe(sweepToCsv(one.points));
    }
    // The interleaving really differs from one worker's order: with every other reply held back
    // far longer than a run takes to compute, a later run finishes before an earlier one.
    InProcessWorker.started = 0;
    InProcessWorker.delayMs = (requestId) => (requestId % 2 === 0 ? 400 : 0);
    expect((await sweepWith(3, scenarioJson, request)).finished).not.toEqual(one.finished);
    // Seeds and values change the result, so equal points are not trivially equal.
    expect(one.points[0].summary).not.toEqual(one.points[1].summary);
    expect(one.points[0].summary).not.toEqual(one.points[3].summary);
  });

  it.runIf(ready)("runs a paper's figure in run order whatever the number of workers, with its progress", async () => {
    initSync({ module: readFileSync(wasmFile) });
    vi.stubGlobal('Worker', InProcessWorker);
    InProcessWorker.delayMs = (requestId) => (7 * requestId) % 5;
    const preset: Scenario = JSON.parse(readFileSync(`${repoRoot}scenarios/red-vs-droptail-cbr.json`, 'utf8'));
    const scenario = { ...preset, duration_s: 6, measure_from_s: 2 };
    const reproduction = {
      paper: 'P',
      experiment: 'E',
      scenario,
      queue_source: 'defaults',
      claims: [
        {
          id: 'c',
          figure: 'Fig. 1',
          claim: 'c',
          metric: 'utilization',
          paper_value: 1,
          paper_source: '§1',
          tolerance: { less_than: 2 },
          expected: 'reproduced',
        },
      ],
      figures: [
        {
          id: 'p-fig1',
          title: 'T',
          source: '§1',
          x: { path: 'queue.params.max_p', values: [0.02, 0.35], label: 'max_p' },
          y: { metric: 'queue.mean_packets', label: 'mean queue' },
          series: [{ label: 'RED', scheme: 'red', source: 'defaults' }],
          marks: [{ series: 'RED', x: 0.35, y: 100, quote: 'q', tolerance: 'below' }],
          marks_note: 'none',
          expected: 'reproduced',
        },
      ],
    };
    const figure = { reproductionJson: JSON.stringify(reproduction), scenarioJson: JSON.stringify(scenario), figureId: 'p-fig1' };
    const runWith = async (size: number) => {
      const progress: number[] = [];
      const result = await new SweepPool(size).runFigure(figure, (done) => progress.push(done)).finished;
      return { result, progress };
    };
    const one = await runWith(1);
    // Two x values, one scheme, five seeds (the default): ten runs, counted as each ends.
    expect(one.progress).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(one.result.points.map((p) => [p.x, p.series, p.seeds, p.paper ?? null])).toEqual([
      [0.02, 'RED', 5, null],
      [0.35, 'RED', 5, 100],
    ]);
    const [low, high] = one.result.points;
    // max_p reaches the runs: the two points are not the same runs twice.
    expect(high.mean).not.toBe(low.mean);
    expect(low.ci_lo ?? 0).toBeLessThan(low.mean ?? 0);
    // The mark is judged on the interval: at max_p 0.35 RED's mean queue stays below 100 packets.
    expect([one.result.mark_verdicts, one.result.verdict]).toEqual([['reproduced'], 'reproduced']);
    expect((await runWith(3)).result).toEqual(one.result);
  });
});
