import { test } from '@playwright/test';
import { linkFor, setSpeed, simTime, waitForSimTime } from '../tests/helpers';
import { saveMeasurement } from './probe';

// A measurement, not a pass/fail threshold: does the page's memory stay
// bounded over a long, large run? 1 000 TCP flows and a ping on a 100 Mb/s
// link for one simulated hour at full speed, every chart shown: the series,
// the delay histograms (sojourn per hop and group, RTT per TCP and ping
// group) and the inspector's ring of decisions, which the page records
// unless switched off. Every 10 s of wall time it
// reads the main thread's JS heap after a garbage collection and the array
// buffers outside it, where the page keeps its series (Chromium's DevTools
// protocol), and the engine's WebAssembly memory (which only grows).
const HOUR_S = 3600;
/** The frame-rate probes' charts and the delay CDF and box plot, so snapshots carry the delay distributions. */
const MEMORY_VIEW = '&view=queue,goodput,bars,curve,rate,cdf,box&window=30';
const SAMPLE_EVERY_MS = 10_000;
/** Stop early past this much wall time and report how far the run got. */
const WALL_LIMIT_MS = 20 * 60_000;

function thousandFlowHour(): Record<string, unknown> {
  return {
    version: 1,
    name: '1 000 TCP flows and a ping on 100 Mb/s for an hour (memory probe)',
    seed: 1,
    duration_s: HOUR_S,
    measure_from_s: 10,
    sample_interval_ms: 100,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 100_000_000, delay_ms: 10 }, buffer: { packets: 2000 } },
    queue: { scheme: 'red' },
    flows: [
      { kind: 'tcp', count: 1000, segment_bytes: 1000, access_delay_ms: [1, 50], start_s: [0, 10] },
      { kind: 'ping', interval_ms: 100 },
    ],
  };
}

interface Sample {
  wallS: number;
  simS: number;
  jsHeapMiB: number;
  arrayBuffersMiB: number;
  engineMemoryMiB: number;
}

type Measured = 'jsHeapMiB' | 'arrayBuffersMiB' | 'engineMemoryMiB';

test('memory over one simulated hour of 1 000 flows at 100 Mb/s', async ({ page }, testInfo) => {
  test.setTimeout(WALL_LIMIT_MS + 120_000);
  const cdp = await page.context().newCDPSession(page);
  await page.goto(linkFor(thousandFlowHour(), MEMORY_VIEW));
  await waitForSimTime(page, 0.1);
  await setSpeed(page, 'max');
  const started = Date.now();
  const samples: Sample[] = [];
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  for (;;) {
    await page.waitForTimeout(SAMPLE_EVERY_MS);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize, backingStorageSize } = await cdp.send('Runtime.getHeapUsage');
    const engineBytes = Number(await page.getByTestId('event-rate').getAttribute('data-engine-memory-bytes'));
    const simS = await simTime(page);
    samples.push({
      wallS: Math.round((Date.now() - started) / 1000),
      simS: Math.round(simS),
      jsHeapMiB: mib(usedSize),
      arrayBuffersMiB: mib(backingStorageSize),
      engineMemoryMiB: mib(engineBytes),
    });
    if (simS >= HOUR_S || Date.now() - started > WALL_LIMIT_MS) break;
  }
  const half = samples.slice(Math.floor(samples.length / 2));
  const max = (key: Measured, of: Sample[]) => Math.max(...of.map((s) => s[key]));
  const halves = (key: Measured) => ({ firstHalfMax: max(key, samples.slice(0, half.length)), secondHalfMax: max(key, half) });
  const measurement = {
    scenario: '1 000 TCP flows and a ping, 100 Mb/s, RED, 100 ms samples, every chart, decisions recorded, 30 s window, speed max',
    simulatedS: samples[samples.length - 1].simS,
    wallS: samples[samples.length - 1].wallS,
    jsHeapMiB: halves('jsHeapMiB'),
    arrayBuffersMiB: halves('arrayBuffersMiB'),
    engineMemoryMiB: halves('engineMemoryMiB'),
    samples,
  };
  const path = saveMeasurement('memory', measurement);
  const report = `${measurement.simulatedS} s simulated in ${measurement.wallS} s: JS heap max ${measurement.jsHeapMiB.firstHalfMax} → ${measurement.jsHeapMiB.secondHalfMax} MiB (first → second half), array buffers ${measurement.arrayBuffersMiB.firstHalfMax} → ${measurement.arrayBuffersMiB.secondHalfMax} MiB, engine memory ${measurement.engineMemoryMiB.firstHalfMax} → ${measurement.engineMemoryMiB.secondHalfMax} MiB → ${path}`;
  console.log(report);
  testInfo.annotations.push({ type: 'measurement', description: report });
});
