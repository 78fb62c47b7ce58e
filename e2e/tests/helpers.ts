// Shared steps of the end-to-end tests.

import { expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));
const MEASUREMENT_DIR = fileURLToPath(new URL('../test-results/measurements/', import.meta.url));

/** Keep a probe's numbers as `test-results/measurements/<name>.json` (measurements, not pass/fail). */
export function saveMeasurement(name: string, data: unknown): string {
  mkdirSync(MEASUREMENT_DIR, { recursive: true });
  const path = `${MEASUREMENT_DIR}${name}.json`;
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
  return path;
}

/** The performance target's load: 20 TCP flows through RED on a 10 Mb/s bottleneck, long enough not to finish during a probe at full speed. */
export function twentyFlowScenario(): Record<string, unknown> {
  return {
    version: 1,
    name: '20 TCP flows on 10 Mb/s (performance probe)',
    seed: 1,
    duration_s: 36_000,
    measure_from_s: 5,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 10 }, buffer: { packets: 200 } },
    queue: { scheme: 'red', params: { min_th: 30, max_th: 90 } },
    flows: [{ kind: 'tcp', count: 20, segment_bytes: 1000, access_delay_ms: [1, 40], start_s: [0, 2] }],
  };
}

/** Every chart, 30 s window: what the performance probes draw. */
export const ALL_CHARTS_VIEW = '&view=queue,goodput,bars,curve,rate&window=30';

/** A share link for `scenario`, encoded independently of the app (standard raw deflate + base64url). */
export function linkFor(scenario: unknown, view = ''): string {
  const encoded = deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url');
  return `/#s=${encoded}${view}`;
}

/** A small dumbbell scenario with unresponsive traffic: a queue forms whatever the transport code can do. */
export function poissonScenario(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 1,
    name: 'Poisson load at 97% through RED',
    seed: 7,
    duration_s: 120,
    measure_from_s: 2,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 5 }, buffer: { packets: 100 } },
    queue: { scheme: 'red', params: { min_th: 5, max_th: 30, max_p: 0.05, w_q: 0.02 } },
    flows: [{ kind: 'poisson', label: 'Poisson', count: 2, rate_bps: 4_740_000, packet_bytes: 1000 }],
    ...overrides,
  };
}

/** Fail the test on any uncaught page error or console error. */
export function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return errors;
}

export async function simTime(page: Page): Promise<number> {
  return Number(await page.getByTestId('sim-time').getAttribute('data-seconds'));
}

export async function waitForSimTime(page: Page, atLeastS: number): Promise<void> {
  await expect.poll(() => simTime(page), { message: `simulated time reaches ${atLeastS} s`, timeout: 60_000 }).toBeGreaterThanOrEqual(atLeastS);
}

export async function setSpeed(page: Page, speed: string): Promise<void> {
  await page.getByTestId('speed').selectOption(speed);
}

export async function pointsOf(locator: Locator): Promise<number> {
  return Number(await locator.first().getAttribute('data-points'));
}

export async function waitUntilFinished(page: Page): Promise<void> {
  await expect(page.getByTestId('play-pause')).toHaveText('Finished', { timeout: 80_000 });
}

export async function probeValue(page: Page, id: string): Promise<number> {
  return Number(await page.getByTestId(`probe-${id}`).getAttribute('data-value'));
}

/**
 * How many pixel columns (CSS pixels) of a chart's data canvas hold a
 * mostly opaque pixel of `color` (#rrggbb): how much of a line was drawn.
 */
export async function inkColumns(page: Page, chartTestId: string, color: string): Promise<number> {
  return page.locator(`[data-testid=${chartTestId}] canvas.series-canvas`).evaluate((canvas: HTMLCanvasElement, hex) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const context = canvas.getContext('2d');
    if (!context) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let columns = 0;
    for (let x = 0; x < canvas.width; x++) {
      for (let y = 0; y < canvas.height; y++) {
        const k = 4 * (y * canvas.width + x);
        if (data[k + 3] > 160 && Math.abs(data[k] - r) + Math.abs(data[k + 1] - g) + Math.abs(data[k + 2] - b) < 60) {
          columns += 1;
          break;
        }
      }
    }
    return Math.round(columns / (canvas.width / canvas.clientWidth));
  }, color);
}
