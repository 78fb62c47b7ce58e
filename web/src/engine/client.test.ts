// The engine client's crash restart, against a stand-in worker that records
// what the client sends it: which runs and requests a restart rebuilds, and how.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineClient, type EngineCrash, type SimulationListener } from './client';
import type { FromWorker, ToWorker } from './protocol';

class FakeWorker {
  static started: FakeWorker[] = [];
  readonly posted: ToWorker[] = [];
  terminated = false;
  onmessage: ((event: { data: FromWorker }) => void) | null = null;
  onerror: ((event: { message: string }) => void) | null = null;
  onmessageerror: (() => void) | null = null;

  constructor() {
    FakeWorker.started.push(this);
  }

  /** Records even after `terminate`, so a message sent to a dead worker shows. */
  postMessage(message: ToWorker): void {
    this.posted.push(message);
  }

  terminate(): void {
    this.terminated = true;
  }

  send(data: FromWorker): void {
    this.onmessage?.({ data });
  }

  /** Answer the last request of `type` successfully. */
  answer(type: ToWorker['type'], value: unknown): void {
    const request = [...this.posted].reverse().find((m) => m.type === type);
    if (!request || !('requestId' in request)) throw new Error(`no ${type} request`);
    this.send({ type: 'reply', requestId: request.requestId, ok: true, value });
  }
}

const SCENARIO = JSON.stringify({ version: 1, name: 'test', queue: { scheme: 'red', params: { min_th: 5 } } });
const LOADED = {
  columns: ['t_s'],
  durationS: 10,
  plan: { duration_s: 10, measure_from_s: 0, sample_interval_ms: 10, hops: 1, scheme: 'red', params: { min_th: 5, max_th: 15 }, groups: [] },
};

function listener(): SimulationListener & { restarts: number } {
  const record = {
    restarts: 0,
    onRows: () => {},
    onSnapshot: () => {},
    onRestart: () => (record.restarts += 1),
    onError: () => {},
  };
  return record;
}

function current(): FakeWorker {
  return FakeWorker.started[FakeWorker.started.length - 1];
}

async function builtRun(client: EngineClient, run = listener(), lockstepGroup?: string) {
  const created = client.createSimulation(SCENARIO, run, 1, lockstepGroup);
  current().answer('load', LOADED);
  return { handle: await created, run };
}

function panic(worker: FakeWorker): void {
  worker.send({ type: 'fatal', cause: 'panic', message: 'index out of bounds (at core/src/x.rs:1:1)' });
}

beforeEach(() => {
  FakeWorker.started = [];
  vi.stubGlobal('Worker', FakeWorker);
});
afterEach(() => vi.unstubAllGlobals());

describe('EngineClient crash restart', () => {
  it('reports a panic with its message, stops the dead worker and counts restarts', () => {
    const client = new EngineClient();
    const crashes: EngineCrash[] = [];
    client.onCrash((crash) => crashes.push(crash));
    const first = current();
    panic(first);
    expect(crashes).toEqual([{ cause: 'panic', message: 'index out of bounds (at core/src/x.rs:1:1)', restarts: 0 }]);
    expect(first.terminated).toBe(true);

    client.restart();
    expect(FakeWorker.started).toHaveLength(2);
    current().onerror?.({ message: '' });
    expect(crashes[1]).toEqual({ cause: 'worker', message: 'its script did not load', restarts: 1 });
  });

  it('restart does nothing while the engine works', () => {
    const client = new EngineClient();
    client.restart();
    expect(FakeWorker.started).toHaveLength(1);
  });

  it('rebuilds every built run from the engine’s document with its live parameters, its speed and lockstep group, then plays it from t = 0', async () => {
    const client = new EngineClient();
    const { handle, run } = await builtRun(client, listener(), 'compare-1');
    const changed = handle.setParam('max_th', 20);
    // The worker answers with the engine's scenario(): the document with the change folded in.
    const folded = JSON.stringify({ ...JSON.parse(SCENARIO), queue: { scheme: 'red', params: { min_th: 5, max_th: 20 } } });
    current().answer('setParam', { atS: 1, params: { min_th: 5, max_th: 20 }, scenarioJson: folded });
    await changed;
    handle.setSpeed('max');
    panic(current());

    client.restart();
    expect(run.restarts).toBe(1);
    const [load, play] = current().posted;
    expect(load).toMatchObject({ type: 'load', speed: 'max', lockstepGroup: 'compare-1' });
    if (load.type !== 'load') throw new Error('expected a load');
    expect(load.scenarioJson).toBe(folded);
    expect(play).toEqual({ type: 'play', runId: load.runId });
    // The rebuilt run is the same handle: its commands reach the new worker.
    handle.pause();
    expect(current().posted.at(-1)).toEqual({ type: 'pause', runId: load.runId });
  });

  it('rebuilds a run without parameter changes from the exact text it was loaded with', async () => {
    const client = new EngineClient();
    await builtRun(client);
    panic(current());
    client.restart();
    expect(current().posted[0]).toMatchObject({ type: 'load', scenarioJson: SCENARIO });
  });

  it('drops disposed runs and loads a run whose load was still waiting only once', async () => {
    const client = new EngineClient();
    const { handle } = await builtRun(client);
    handle.dispose();
    const waiting = client.createSimulation(SCENARIO, listener(), 1);
    panic(current());
    client.restart();
    expect(current().posted.map((m) => m.type)).toEqual(['load']);
    current().answer('load', LOADED);
    await expect(waiting).resolves.toMatchObject({ durationS: 10 });
  });

  it('sends waiting requests again after a restart, but refuses a waiting parameter change', async () => {
    const client = new EngineClient();
    const { handle } = await builtRun(client);
    const catalogue = client.catalogue('packets');
    const change = handle.setParam('max_th', 1e9);
    panic(current());
    await expect(change).rejects.toThrow('the simulator crashed before the change was applied');

    // A request made while the worker is dead waits too; transport commands are dropped.
    const problem = client.validate('{}');
    handle.play();
    expect(FakeWorker.started[0].posted.filter((m) => m.type === 'validate' || m.type === 'play')).toEqual([]);

    client.restart();
    expect(current().posted.map((m) => m.type)).toEqual(['load', 'play', 'catalogue', 'validate']);
    current().answer('catalogue', []);
    current().answer('validate', undefined);
    await expect(catalogue).resolves.toEqual([]);
    await expect(problem).resolves.toBeUndefined();
  });
});

describe('EngineClient rows', () => {
  it('hands each batch’s buffer back to the worker once the listener has had the rows', async () => {
    const client = new EngineClient();
    const seen: { values: number[]; recycledBefore: boolean }[] = [];
    const run = {
      ...listener(),
      onRows: (_rows: number, data: Float64Array) => seen.push({ values: Array.from(data), recycledBefore: recycled().length > 0 }),
    };
    await builtRun(client, run);
    const load = current().posted.find((m) => m.type === 'load');
    if (load?.type !== 'load') throw new Error('no load');
    const data = Float64Array.from([0.1, 0.2]);
    current().send({ type: 'rows', runId: load.runId, epoch: 0, rows: 2, data });
    expect(seen).toEqual([{ values: [0.1, 0.2], recycledBefore: false }]);
    expect(recycled()).toEqual([data.buffer]);
  });

  it('hands back, unread, the buffer of a batch from a run no longer there', async () => {
    const client = new EngineClient();
    const rows: number[] = [];
    await builtRun(client, { ...listener(), onRows: (n) => rows.push(n) });
    const load = current().posted.find((m) => m.type === 'load');
    if (load?.type !== 'load') throw new Error('no load');
    const data = Float64Array.from([1]);
    current().send({ type: 'rows', runId: load.runId + 1, epoch: 0, rows: 1, data });
    expect(rows).toEqual([]);
    expect(recycled()).toEqual([data.buffer]);
  });
});

function recycled(): ArrayBuffer[] {
  return current().posted.flatMap((m) => (m.type === 'recycle' ? [m.buffer] : []));
}
