// A sweep worker: runs single points of a parameter sweep, each to the end
// of its scenario as fast as the engine goes, with the same engine call the
// CLI's `aqm-sim sweep` makes. Separate from the live engine worker, so a
// sweep never holds up the running experiment's turns.

import init, { figureResult, figureRuns, runToEnd, sweepCheck, sweepPoint, sweepWork } from './pkg/aqm_core.js';
import { isProblem, messageOf } from './refusal';
import type { FromSweepWorker, ToSweepWorker } from './sweepProtocol';

/** The parts of the worker's global scope used here (the DOM and WebWorker typings cannot both be loaded). */
interface WorkerScope {
  postMessage(message: FromSweepWorker): void;
  onmessage: ((event: MessageEvent<ToSweepWorker>) => void) | null;
}
const scope = self as unknown as WorkerScope;
const engineReady = init();

scope.onmessage = async (event: MessageEvent<ToSweepWorker>) => {
  const message = event.data;
  try {
    await engineReady;
    if (message.type === 'check') {
      const problem = sweepCheck(message.scenarioJson, message.path, message.values, message.seedCount);
      const work = problem ? undefined : sweepWork(message.scenarioJson, message.path, message.values, message.seedCount);
      scope.postMessage({ type: 'checked', requestId: message.requestId, problem, work });
    } else if (message.type === 'figureRuns') {
      const runs = figureRuns(message.reproductionJson, message.scenarioJson, message.figureId);
      scope.postMessage({ type: 'figureRuns', requestId: message.requestId, runs });
    } else if (message.type === 'runToEnd') {
      scope.postMessage({ type: 'ranToEnd', requestId: message.requestId, summaryJson: runToEnd(message.scenarioJson) });
    } else if (message.type === 'figureResult') {
      const result = figureResult(message.reproductionJson, message.figureId, message.summariesJson);
      scope.postMessage({ type: 'figureResult', requestId: message.requestId, result });
    } else {
      const started = performance.now();
      const summary = sweepPoint(message.scenarioJson, message.path, message.value, message.seed);
      scope.postMessage({ type: 'point', requestId: message.requestId, summary, wallS: (performance.now() - started) / 1000 });
    }
  } catch (error) {
    scope.postMessage({ type: 'failed', requestId: message.requestId, message: messageOf(error), problem: isProblem(error) ? error : undefined });
  }
};
