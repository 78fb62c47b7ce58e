import { test, type Browser, type Page } from '@playwright/test';
import { linkFor, setSpeed, waitForSimTime } from '../tests/helpers';
import { ALL_CHARTS_VIEW, MANY_FLOW_COUNTS, flowCountName, manyFlowScenario, ns3DumbbellScenario, saveMeasurement, twentyFlowScenario } from './probe';

const PROBE_MS = 5000;

// A measurement, not a pass/fail threshold: how smoothly the page draws while
// the engine runs a scenario at full speed. Every requestAnimationFrame
// callback is one frame the page produced; the gaps between their
// timestamps are the frame times.
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * CPU time (not wall time: other programs on a busy machine do not count)
 * that the page's threads spend while `during` runs, from Chromium's
 * top-level task trace.
 */
async function threadCpuMs(browser: Browser, page: Page, during: () => Promise<void>): Promise<Record<string, number>> {
  await browser.startTracing(page, { categories: ['toplevel'] });
  await during();
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
  const threadNames = new Map(traceEvents.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '']));
  const cpu = new Map<string, number>();
  for (const e of traceEvents) {
    if (e.ph !== 'X' || (e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask')) continue;
    const key = `${e.pid}:${e.tid}`;
    cpu.set(key, (cpu.get(key) ?? 0) + (e.tdur ?? 0) / 1000);
  }
  // Per thread name, the busiest such thread (the page's own renderer, not an idle one).
  const busiest: Record<string, number> = {};
  for (const [key, ms] of cpu) {
    const name = threadNames.get(key) ?? key;
    busiest[name] = Math.max(busiest[name] ?? 0, ms);
  }
  return busiest;
}

interface FrameRateCase {
  /** Names the measurement file: `measure-results/measurements/<name>.json`. */
  name: string;
  description: string;
  scenario: Record<string, unknown>;
  /** Simulated time to reach before switching to full speed (the page has loaded and drawn). */
  warmUpS: number;
  /** At full speed before measuring, so the flows start and the charts fill: a wall time to wait, or a simulated time to reach. */
  settle: { wallMs: number } | { simulatedS: number };
}

/** The simulated time and the engine's event count of the snapshot the page shows (both from the same snapshot). */
async function engineProgress(page: Page): Promise<{ simulatedS: number; events: number }> {
  return page.evaluate(() => ({
    simulatedS: Number(document.querySelector('[data-testid=sim-time]')?.getAttribute('data-seconds')),
    events: Number(document.querySelector('[data-testid=event-rate]')?.getAttribute('data-events')),
  }));
}

async function measureFrameRate(page: Page, browser: Browser, probe: FrameRateCase): Promise<string> {
  await page.goto(linkFor(probe.scenario, ALL_CHARTS_VIEW));
  await waitForSimTime(page, probe.warmUpS);
  await setSpeed(page, 'max');
  if ('wallMs' in probe.settle) await page.waitForTimeout(probe.settle.wallMs);
  else await waitForSimTime(page, probe.settle.simulatedS);
  const start = await engineProgress(page);
  let stamps: number[] = [];
  const cpu = await threadCpuMs(browser, page, async () => {
    stamps = await page.evaluate(
      (durationMs) =>
        new Promise<number[]>((resolve) => {
          const times: number[] = [];
          const tick = (now: number) => {
            times.push(now);
            if (now - times[0] < durationMs) requestAnimationFrame(tick);
            else resolve(times);
          };
          requestAnimationFrame(tick);
        }),
      PROBE_MS,
    );
  });
  const end = await engineProgress(page);
  const simulatedS = end.simulatedS - start.simulatedS;
  const events = end.events - start.events;
  const eventRate = await page.getByTestId('event-rate').innerText();
  const frameMs = stamps.slice(1).map((t, i) => t - stamps[i]);
  const sorted = [...frameMs].sort((a, b) => a - b);
  const spanS = (stamps[stamps.length - 1] - stamps[0]) / 1000;
  const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x: number) => Math.round(x * 10) / 10;
  const measurement = {
    scenario: probe.description,
    viewport: page.viewportSize(),
    fps: round(frameMs.length / spanS),
    frames: frameMs.length,
    medianFrameMs: round(quantile(0.5)),
    p95FrameMs: round(quantile(0.95)),
    longestFramesMs: sorted.slice(-5).reverse().map(round),
    framesOver20Ms: frameMs.filter((ms) => ms > 20).length,
    /** CPU time per frame of the page's main thread and the engine worker. */
    mainThreadCpuMsPerFrame: round((cpu.CrRendererMain ?? 0) / frameMs.length),
    workerCpuMsPerFrame: round((cpu['DedicatedWorker thread'] ?? 0) / frameMs.length),
    realTimeFactor: round(simulatedS / spanS),
    /** Engine events per wall second and per simulated second over the probe, from the snapshots shown at its start and end. */
    eventsPerSecond: Math.round(events / spanS),
    eventsPerSimulatedSecond: Math.round(events / simulatedS),
    /** The rate the page shows at the end: the worker's count over its last half second or so before the newest snapshot. */
    engine: eventRate,
  };
  const path = saveMeasurement(probe.name, measurement);
  return `fps ${measurement.fps} (median frame ${measurement.medianFrameMs} ms, p95 ${measurement.p95FrameMs} ms, longest ${measurement.longestFramesMs.join(
    '/',
  )} ms, ${measurement.framesOver20Ms} of ${measurement.frames} frames over 20 ms; main thread ${measurement.mainThreadCpuMsPerFrame} ms CPU per frame); engine at ${measurement.realTimeFactor}× real time, ${measurement.eventsPerSecond} events/s over the probe (${measurement.eventsPerSimulatedSecond} per simulated second; the page shows ${eventRate}) → ${path}`;
}

const CASES: FrameRateCase[] = [
  {
    name: 'frame-rate',
    description: '20 TCP flows, 10 Mb/s, RED, every chart, 30 s window, speed max',
    scenario: twentyFlowScenario(),
    warmUpS: 0.5,
    // Let the flows start and the series store fill the window first.
    settle: { wallMs: 1000 },
  },
  {
    name: 'frame-rate-ns3-dumbbell',
    description: 'the ns-3 RED dumbbell (10 TCP flows, 10 Mb/s), every chart, 30 s window, speed max',
    scenario: ns3DumbbellScenario(),
    warmUpS: 0.5,
    settle: { wallMs: 1000 },
  },
  ...MANY_FLOW_COUNTS.map((flows) => ({
    name: `frame-rate-${flows}-flows`,
    description: `${flowCountName(flows)} TCP flows in two groups, 1 Gb/s, RED, every chart, 30 s window, speed max`,
    scenario: manyFlowScenario(flows),
    warmUpS: 0.2,
    // Every flow has started and the measurement window has begun, so every chart draws.
    settle: { simulatedS: 6 },
  })),
];

for (const probe of CASES) {
  test(`frame rate at full speed: ${probe.description}`, async ({ page, browser }, testInfo) => {
    const report = await measureFrameRate(page, browser, probe);
    console.log(report);
    testInfo.annotations.push({ type: 'measurement', description: report });
  });
}
