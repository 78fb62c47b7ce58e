// Every refusal the engine throws across the wasm boundary is one typed
// shape, `{ path, message, kind }`, whichever call refused: read through the
// real wasm build as the workers call it.

import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Simulation, catalogue, estimateWork, figureRuns, initSync, reproductionRuns, runToEnd, sweepPoint, sweepWork } from './pkg/aqm_core.js';
import { isProblem, messageOf } from './refusal';

const wasmFile = new URL('./pkg/aqm_core_bg.wasm', import.meta.url);

const BAD_DURATION = JSON.stringify({
  version: 1,
  duration_s: -1,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 2_000_000, delay_ms: 5 }, buffer: { packets: 40 } },
  queue: { scheme: 'red' },
  flows: [{ kind: 'tcp' }],
});

/** What `call` threw. */
function thrown(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('the call did not throw');
}

describe.runIf(existsSync(wasmFile))('refusals across the wasm boundary', () => {
  beforeAll(() => initSync({ module: readFileSync(wasmFile) }));

  it('a scenario refused by any call names its field, with kind scenario', () => {
    const scenarioProblem = { path: 'duration_s', message: expect.any(String), kind: 'scenario' };
    expect(thrown(() => new Simulation(BAD_DURATION))).toEqual(scenarioProblem);
    expect(thrown(() => estimateWork(BAD_DURATION))).toEqual(scenarioProblem);
    expect(thrown(() => runToEnd(BAD_DURATION))).toEqual(scenarioProblem);
    expect(thrown(() => sweepWork(BAD_DURATION, 'seed', new Float64Array([1]), 1))).toEqual(scenarioProblem);
    expect(thrown(() => sweepPoint(BAD_DURATION, 'seed', 1, 1))).toEqual(scenarioProblem);
  });

  it('a reproduction file or figure refused names its field, with kind reproduction', () => {
    const notAFile = thrown(() => reproductionRuns('{"version": 1}', BAD_DURATION));
    expect(notAFile).toMatchObject({ kind: 'reproduction', message: expect.any(String) });
    expect(thrown(() => figureRuns('[]', '{}', 'fig-1'))).toMatchObject({ kind: 'reproduction' });
  });

  it('a buffer unit the catalogue does not know names the argument', () => {
    expect(thrown(() => catalogue('litres'))).toEqual({ path: 'buffer_unit', message: 'must be "packets" or "bytes", got "litres"', kind: 'engine' });
  });

  it('the workers show a refusal as its field and message, and a refusal without a field as its message alone', () => {
    const refusal = thrown(() => estimateWork(BAD_DURATION));
    expect(isProblem(refusal)).toBe(true);
    expect(messageOf(refusal)).toMatch(/^duration_s: /);
    expect(messageOf({ path: '', message: 'no figure', kind: 'reproduction' })).toBe('no figure');
    expect(messageOf(new Error('engine fault'))).toBe('engine fault');
  });
});
