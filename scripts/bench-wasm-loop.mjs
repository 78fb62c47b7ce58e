// The loop `scripts/bench-wasm.mjs` times, the same in both of its runtimes:
// imported by the script in Node, and loaded by Chromium as the module
// worker the script starts there, as the page runs its engine in a worker.

/** The worker's SNAPSHOT_INTERVAL_MS. */
const SNAPSHOT_INTERVAL_MS = 200;
const SLICE_S = 0.1;

/**
 * Runs `sim` to its end in 0.1 s slices, draining the streamed series after
 * each into a buffer of the worker's `RowBuffers` (which the page hands
 * back once it has stored the rows: here at once), as the worker does: in
 * runs of more than 200 flows (`flowDetail` says "perGroup") its
 * `GroupAggregator` turns the rows into per-group statistics, otherwise
 * they are copied as they are. It takes the decisions
 * every 200 ms of wall time as the worker's snapshots do. The engine's own
 * time is read around the loop only (the module's compiling and the
 * scenario's loading are outside it).
 */
export function runToEnd(sim, { unpackDecisions, RowBuffers, GroupAggregator, flowGroups, flowDetail }, stride) {
  const rowBuffers = new RowBuffers();
  const groups = flowGroups(sim.plan());
  const aggregator = flowDetail(groups) === 'perGroup' ? new GroupAggregator(sim.columns(), groups) : null;
  const start = performance.now();
  let lastTake = start;
  let takingMs = 0;
  let decisions = 0;
  for (let t = SLICE_S; !sim.isFinished(); t += SLICE_S) {
    sim.advanceTo(t);
    const batch = sim.drainView();
    const rows = aggregator ? aggregator.aggregate(batch.rows, batch.data, rowBuffers) : rowBuffers.copy(batch.data);
    rowBuffers.recycle(rows.buffer);
    const taking = performance.now();
    if (taking - lastTake < SNAPSHOT_INTERVAL_MS && !sim.isFinished()) continue;
    decisions += unpackDecisions(sim.takeDecisions(), stride).length;
    lastTake = performance.now();
    takingMs += lastTake - taking;
  }
  const loopMs = performance.now() - start;
  return { loopMs, takingMs, decisions, simulatedS: sim.durationS(), events: sim.events() };
}

/** One line for either runtime: the engine's time around the loop (wall, and its thread's CPU), and the share of it taking decisions. */
export function report(scenario, runtime, result) {
  const wallS = result.loopMs / 1000;
  return (
    `${scenario}: ${result.simulatedS} s simulated in ${wallS.toFixed(3)} s wall and ${result.engineCpuS.toFixed(2)} s of the engine thread's CPU ` +
    `(${runtime}, the loop only), ` +
    `${Math.round(result.simulatedS / wallS)} simulated s per wall s, ${result.events} events; ` +
    `${result.decisions} decisions taken in ${result.takingMs.toFixed(1)} ms (${(result.takingMs / 10 / wallS).toFixed(2)} % of the wall time)`
  );
}

// In Chromium's worker: load the bindings, the engine (compiled as it streams
// in, as the page's `init()` does), the worker's modules (decisions reader,
// row buffers, flow groups and their aggregator) and the scenario from the
// URLs the script serves, say it is ready, and run when told to go
// (the script reads this thread's CPU time in between), posting the result.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  let run;
  self.onmessage = async ({ data }) => {
    try {
      if (data.go) return self.postMessage({ result: run() });
      const { default: init, Simulation, decisionStride } = await import(data.bindings);
      const modules = Object.assign({}, ...(await Promise.all([data.reader, data.rowBuffers, data.flowGroups, data.aggregator].map((url) => import(url)))));
      await init({ module_or_path: data.engine });
      const sim = new Simulation(await (await fetch(data.scenario)).text());
      run = () => runToEnd(sim, modules, decisionStride());
      self.postMessage({ ready: true });
    } catch (error) {
      // The engine refuses a scenario with an object (field and message), not an Error.
      self.postMessage({ error: error instanceof Error ? String(error.stack) : JSON.stringify(error) });
    }
  };
}
