// The WebAssembly engine's speed, as the page runs it: one scenario to the
// end in 0.1 s slices, draining the streamed series after each, and taking
// the drop-and-mark inspector's decisions every 200 ms of wall time as the
// worker's snapshots do, in Node. Also prints the share of the wall time
// spent handing the decisions to JavaScript and reading them back.
//
//   node scripts/bench-wasm.mjs [SCENARIO.json] [ENGINE.wasm]
//
// Defaults: the 10-flow ns-3 RED dumbbell and the engine the page loads
// (web/src/engine/pkg, built by `npm run build:wasm`). Prints simulated
// seconds per wall second; time two builds of the .wasm against each other
// as whole processes to compare them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = fileURLToPath(new URL('..', import.meta.url));
const scenarioPath = process.argv[2] ?? `${root}scenarios/ns3-red-dumbbell.json`;
const wasmPath = process.argv[3] ?? `${root}web/src/engine/pkg/aqm_core_bg.wasm`;
const { Simulation, initSync, decisionStride } = await import(`${root}web/src/engine/pkg/aqm_core.js`);
const { unpackDecisions } = await import(await decisionReader());

initSync({ module: readFileSync(wasmPath) });
const sim = new Simulation(readFileSync(scenarioPath, 'utf8'));
const sliceS = 0.1;
const start = performance.now();
/** The worker's SNAPSHOT_INTERVAL_MS. */
const SNAPSHOT_INTERVAL_MS = 200;
let lastTake = start;
let takingMs = 0;
let decisions = 0;
for (let t = sliceS; !sim.isFinished(); t += sliceS) {
  sim.advanceTo(t);
  sim.drain();
  const taking = performance.now();
  if (taking - lastTake < SNAPSHOT_INTERVAL_MS && !sim.isFinished()) continue;
  decisions += unpackDecisions(sim.takeDecisions(), decisionStride()).length;
  lastTake = performance.now();
  takingMs += lastTake - taking;
}
const wallS = (performance.now() - start) / 1000;
const simulatedS = sim.durationS();
console.log(
  `${scenarioPath}: ${simulatedS} s simulated in ${wallS.toFixed(3)} s wall, ` +
    `${Math.round(simulatedS / wallS)} simulated s per wall s, ${sim.events()} events; ` +
    `${decisions} decisions taken in ${takingMs.toFixed(1)} ms (${(takingMs / 10 / wallS).toFixed(2)} % of the wall time)`,
);
sim.free();

/**
 * The worker's reader of the packed decisions, compiled from its TypeScript
 * once per version of the source and kept under node_modules/.cache: loading
 * the TypeScript compiler costs more CPU than a short run of the engine.
 */
async function decisionReader() {
  const source = readFileSync(`${root}web/src/engine/decisionCodec.ts`, 'utf8');
  const dir = `${root}node_modules/.cache/bench-wasm`;
  const compiled = `${dir}/decisionCodec-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`;
  try {
    readFileSync(compiled);
  } catch {
    const { default: ts } = await import('typescript');
    const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    mkdirSync(dir, { recursive: true });
    writeFileSync(compiled, ts.transpileModule(source, { compilerOptions: options }).outputText);
  }
  return compiled;
}
