// The WebAssembly engine's speed, as the page runs it: one scenario to the
// end in 0.1 s slices, draining the streamed series after each, in Node.
//
//   node scripts/bench-wasm.mjs [SCENARIO.json] [ENGINE.wasm]
//
// Defaults: the 10-flow ns-3 RED dumbbell and the engine the page loads
// (web/src/engine/pkg, built by `npm run build:wasm`). Prints simulated
// seconds per wall second; time two builds of the .wasm against each other
// as whole processes to compare them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = fileURLToPath(new URL('..', import.meta.url));
const scenarioPath = process.argv[2] ?? `${root}scenarios/ns3-red-dumbbell.json`;
const wasmPath = process.argv[3] ?? `${root}web/src/engine/pkg/aqm_core_bg.wasm`;
const { Simulation, initSync } = await import(`${root}web/src/engine/pkg/aqm_core.js`);

initSync({ module: readFileSync(wasmPath) });
const sim = new Simulation(readFileSync(scenarioPath, 'utf8'));
const sliceS = 0.1;
const start = performance.now();
for (let t = sliceS; !sim.isFinished(); t += sliceS) {
  sim.advanceTo(t);
  sim.drain();
}
const wallS = (performance.now() - start) / 1000;
const simulatedS = sim.durationS();
console.log(
  `${scenarioPath}: ${simulatedS} s simulated in ${wallS.toFixed(3)} s wall, ` +
    `${Math.round(simulatedS / wallS)} simulated s per wall s, ${sim.events()} events`,
);
sim.free();
