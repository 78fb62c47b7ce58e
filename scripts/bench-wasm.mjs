// The WebAssembly engine's speed, as the page runs it: one scenario to the
// end in 0.1 s slices, draining the streamed series after each, and taking
// the drop-and-mark inspector's decisions every 200 ms of wall time as the
// worker's snapshots do (the loop is scripts/bench-wasm-loop.mjs). Also
// prints the share of the time spent handing the decisions to JavaScript
// and reading them back.
//
//   node scripts/bench-wasm.mjs [--chromium] [SCENARIO.json] [ENGINE.wasm]
//
// Defaults: the 10-flow ns-3 RED dumbbell and the engine the page loads
// (web/src/engine/pkg, built by `npm run build:wasm`). Runs in Node, or
// with --chromium in a module worker of headless Chromium (the page's
// runtime, launched as the end-to-end tests launch it: e2e/chromium.mjs;
// CHROMIUM_ARGS adds flags, e.g. --js-flags=--no-liftoff), the files served
// from a local HTTP server. Prints the engine's time around the loop and
// simulated seconds per wall second, and the CPU time of the whole process
// with its children (Chromium's). Time two builds of the .wasm against each
// other as whole processes to compare them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromiumArgs, chromiumPath } from '../e2e/chromium.mjs';
import { report, runToEnd } from './bench-wasm-loop.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const inChromium = process.argv.includes('--chromium');
const cacheDir = `${root}node_modules/.cache/bench-wasm`;
const [scenarioPath = `${root}scenarios/ns3-red-dumbbell.json`, wasmPath = `${root}web/src/engine/pkg/aqm_core_bg.wasm`] = process.argv
  .slice(2)
  .filter((arg) => arg !== '--chromium');
const bindingsPath = `${root}web/src/engine/pkg/aqm_core.js`;
const readerPath = await compiled('decisionCodec');
const rowBuffersPath = await compiled('rowBuffers');
const flowGroupsPath = await compiled('flowGroups');
const aggregatorPath = await compiled('groupAggregates');

const result = inChromium ? await runInChromium() : await runInNode();
console.log(report(scenarioPath, inChromium ? 'Chromium' : 'Node', result));
const own = process.cpuUsage();
const cpuS = (own.user + own.system) / 1e6 + (result.chromiumCpuS ?? 0);
console.log(`CPU ${cpuS.toFixed(3)} s in all` + (inChromium ? ` (Chromium's processes ${result.chromiumCpuS.toFixed(3)} s, read as it closes)` : ''));

async function runInNode() {
  const { Simulation, initSync, decisionStride } = await import(bindingsPath);
  const modules = Object.assign({}, ...(await Promise.all([readerPath, rowBuffersPath, flowGroupsPath, aggregatorPath].map((path) => import(path)))));
  initSync({ module: readFileSync(wasmPath) });
  const sim = new Simulation(readFileSync(scenarioPath, 'utf8'));
  const before = threadCpuSeconds(process.pid, process.pid);
  const result = runToEnd(sim, modules, decisionStride());
  const engineCpuS = threadCpuSeconds(process.pid, process.pid) - before;
  sim.free();
  return { ...result, engineCpuS };
}

/** The same loop in a module worker of headless Chromium, which gets its files from a server here. */
async function runInChromium() {
  const files = {
    loop: ['text/javascript', fileURLToPath(new URL('bench-wasm-loop.mjs', import.meta.url))],
    bindings: ['text/javascript', bindingsPath],
    reader: ['text/javascript', readerPath],
    rowBuffers: ['text/javascript', rowBuffersPath],
    flowGroups: ['text/javascript', flowGroupsPath],
    aggregator: ['text/javascript', aggregatorPath],
    engine: ['application/wasm', wasmPath],
    scenario: ['application/json', scenarioPath],
  };
  const server = createServer((request, response) => {
    if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>bench-wasm</title>');
    // The modules the worker's modules import are in the same cache, by their file names.
    const file = files[request.url.slice(1)] ?? (/^\/[\w-]+\.mjs$/.test(request.url) ? ['text/javascript', `${cacheDir}${request.url}`] : undefined);
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file[0] }).end(readFileSync(file[1]));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, ...(process.env.CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? [])],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    // The worker's thread, found once it is ready: its CPU time before the loop and after.
    let workerThread;
    let before;
    await page.exposeFunction('loopStarts', () => {
      workerThread = chromiumThreads().find((thread) => thread.name === 'DedicatedWorker');
      if (!workerThread) throw new Error("no thread named DedicatedWorker among Chromium's: cannot time the worker");
      before = threadCpuSeconds(workerThread.pid, workerThread.tid);
    });
    const reply = await page.evaluate(
      (urls) =>
        new Promise((resolve) => {
          const worker = new Worker(urls.loop, { type: 'module' });
          worker.onmessage = async ({ data }) => {
            if (!data.ready) return resolve(data);
            try {
              await window.loopStarts();
            } catch (error) {
              return resolve({ error: String(error) });
            }
            worker.postMessage({ go: true });
          };
          worker.onerror = (event) => resolve({ error: event.message ?? 'the worker failed to start' });
          worker.postMessage(urls);
        }),
      Object.fromEntries(Object.keys(files).map((name) => [name, `${origin}/${name}`])),
    );
    if (reply.error) throw new Error(reply.error);
    const engineCpuS = threadCpuSeconds(workerThread.pid, workerThread.tid) - before;
    return { ...reply.result, engineCpuS, chromiumCpuS: descendantsCpuSeconds() };
  } finally {
    await browser.close();
    server.close();
  }
}

/** The fields of a /proc stat line after the command name (state, ppid, …), or null once the process has ended. */
function statFields(path) {
  try {
    return readFileSync(path, 'utf8').split(') ').at(-1).split(' ');
  } catch {
    return null;
  }
}

/** The CPU time (user + system, fields 14 and 15) of one thread, in 1/100 s steps. */
function threadCpuSeconds(pid, tid) {
  const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** This process's descendants (Chromium's processes): pid, and the CPU time of each with its finished children's (fields 14–17). */
function descendants() {
  const stats = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const fields = statFields(`/proc/${pid}/stat`);
    if (fields) stats.push({ pid: Number(pid), parent: Number(fields[1]), cpuS: fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0) / 100 });
  }
  const family = new Map([[process.pid, null]]);
  for (let grew = true; grew;) {
    grew = false;
    for (const stat of stats) {
      if (family.has(stat.pid) || !family.has(stat.parent)) continue;
      family.set(stat.pid, stat);
      grew = true;
    }
  }
  return [...family.values()].filter(Boolean);
}

/** The threads of Chromium's processes, with their names (a process that ends meanwhile has none). */
function chromiumThreads() {
  return descendants().flatMap(({ pid }) => {
    try {
      return readdirSync(`/proc/${pid}/task`).map((tid) => ({ pid, tid, name: readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() }));
    } catch {
      return [];
    }
  });
}

/**
 * The CPU time of Chromium's processes, with their own finished children's.
 * Read before Chromium closes: its zygote's children (the renderers, where
 * the worker runs) are not waited for by the browser process, so their time
 * never reaches this process's children's time, nor the time of a tool
 * timing this process.
 */
function descendantsCpuSeconds() {
  return descendants().reduce((sum, { cpuS }) => sum + cpuS, 0);
}

/**
 * One of the worker's modules (web/src/engine/NAME.ts: the decisions reader,
 * the row buffers, the flow groups and their aggregator), compiled from its
 * TypeScript once per version of the source and kept under
 * node_modules/.cache: loading the TypeScript compiler costs more CPU than a
 * short run of the engine. The engine modules it imports are compiled in turn
 * and imported by their compiled file names (type-only imports vanish in
 * compiling), so its version covers theirs.
 */
async function compiled(name) {
  let source = readFileSync(`${root}web/src/engine/${name}.ts`, 'utf8');
  for (const [, dependency] of source.matchAll(/^import (?!type )[^;]*from '\.\/(\w+)';$/gm)) {
    const path = await compiled(dependency);
    source = source.replaceAll(`'./${dependency}'`, `'./${path.split('/').at(-1)}'`);
  }
  const path = `${cacheDir}/${name}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.mjs`;
  if (!existsSync(path)) {
    const { default: ts } = await import('typescript');
    const options = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 };
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(path, ts.transpileModule(source, { compilerOptions: options }).outputText);
  }
  return path;
}
