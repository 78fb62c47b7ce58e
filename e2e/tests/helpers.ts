// Shared steps of the end-to-end tests.

import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { catalogue, initSync } from '../../web/src/engine/pkg/aqm_core.js';

export const SCREENSHOT_DIR = fileURLToPath(new URL('../test-results/screenshots/', import.meta.url));

/** The window sizes a page test runs at: a desktop's and a phone's. */
export const SIZES = [
  { name: 'desktop', width: 1280, height: 720 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** The preset `scenarios/<name>.json`, as its file reads. */
export function preset(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../scenarios/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

/** A share link for `scenario`, encoded independently of the app (standard raw deflate + base64url). */
export function linkFor(scenario: unknown, view = ''): string {
  const encoded = deflateRawSync(Buffer.from(JSON.stringify(scenario))).toString('base64url');
  return `/#s=${encoded}${view}`;
}

/** A bottleneck's rate (b/s) and delay (ms) and its buffer (packets). */
export interface Dumbbell {
  rate_bps: number;
  delay_ms: number;
  packets: number;
}

/** A scenario of `queue` on the dumbbell `link`; `rest` holds the other fields (name, seed, timing, flows). */
export function dumbbell(link: Dumbbell, queue: Record<string, unknown>, rest: Record<string, unknown>): Record<string, unknown> {
  const topology = { kind: 'dumbbell', bottleneck: { rate_bps: link.rate_bps, delay_ms: link.delay_ms }, buffer: { packets: link.packets } };
  return { version: 1, topology, queue, ...rest };
}

/** A scenario of RED with `red`'s parameters on the dumbbell `link`; `rest` holds the other fields (name, seed, timing, flows). */
export function redDumbbell(link: Dumbbell, red: Record<string, number>, rest: Record<string, unknown>): Record<string, unknown> {
  return dumbbell(link, { scheme: 'red', params: red }, rest);
}

/** A small dumbbell scenario with unresponsive traffic: a queue forms whatever the transport code can do. */
export function poissonScenario(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const flows = [{ kind: 'poisson', label: 'Poisson', count: 2, rate_bps: 4_740_000, packet_bytes: 1000 }];
  const rest = { name: 'Poisson load at 97% through RED', seed: 7, duration_s: 120, measure_from_s: 2, flows };
  return { ...redDumbbell({ rate_bps: 10_000_000, delay_ms: 5, packets: 100 }, { min_th: 5, max_th: 30, max_p: 0.05, w_q: 0.02 }, rest), ...overrides };
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

/**
 * From now on, records in the page each time the clock shows a new simulated
 * time, and whether the Step button had been pressed by then: stillness is
 * checked over what the test does next, with no fixed wait.
 */
export async function recordClock(page: Page): Promise<void> {
  await page.evaluate(() => {
    const shown: { seconds: number; stepped: boolean }[] = [];
    let stepped = false;
    document.addEventListener('click', (event) => (stepped ||= (event.target as Element).closest('[data-testid=step]') !== null), { capture: true });
    new MutationObserver(() => {
      shown.push({ seconds: Number(document.querySelector('[data-testid=sim-time]')?.getAttribute('data-seconds')), stepped });
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-seconds'] });
    (window as unknown as { clockShown: typeof shown }).clockShown = shown;
  });
}

/** What the clock showed since `recordClock`. */
export async function clockShown(page: Page): Promise<{ seconds: number; stepped: boolean }[]> {
  return page.evaluate(() => (window as unknown as { clockShown: { seconds: number; stepped: boolean }[] }).clockShown);
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

/**
 * Pauses a playing run as soon as the clock shows `atLeastS`, from within the
 * page: a short run at speed may otherwise end between the test seeing the
 * time and its click landing on a busy machine.
 */
export async function pauseAtSimTime(page: Page, atLeastS: number): Promise<void> {
  await page.evaluate(
    (at) =>
      new Promise<void>((resolve) => {
        const pauseIfThere = () => {
          const seconds = Number(document.querySelector('[data-testid=sim-time]')?.getAttribute('data-seconds'));
          const button = document.querySelector<HTMLButtonElement>('[data-testid=play-pause]');
          if (!(seconds >= at) || button?.textContent !== 'Pause') return false;
          button.click();
          return true;
        };
        if (pauseIfThere()) return resolve();
        const observer = new MutationObserver(() => {
          if (!pauseIfThere()) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-seconds'] });
      }),
    atLeastS,
  );
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
}

/** Pauses a playing run where it stands; a run that has already finished (a fast one may, at full speed) stays finished. */
export async function pauseUnlessFinished(page: Page): Promise<void> {
  // In one step in the page: between a check and a click the run may finish and disable the button.
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid=play-pause]');
    if (button?.textContent === 'Pause') button.click();
  });
  await expect(page.getByTestId('play-pause')).toHaveText(/Play|Finished/);
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

/** On a narrow screen the page shows one pane at a time: bring `pane` forward (a wide screen shows every pane, and this does nothing). */
export async function showPane(page: Page, pane: 'charts' | 'controls' | 'lesson'): Promise<void> {
  const tab = page.getByTestId(`pane-${pane}`);
  if (await tab.isVisible()) await tab.click();
}

export interface LabelReport {
  /** Labels measured per chart. */
  counts: Record<string, number>;
  problems: string[];
}

/** Scrolls each chart into view (a chart off screen keeps what it last drew) and measures its axis labels. */
export async function axisLabelReport(page: Page): Promise<LabelReport> {
  return page.evaluate(async () => {
    // Two frames let a chart scrolled into view redraw; bounded, since a frame that never comes (a stalled
    // renderer) would hang the check, and the labels' boxes are laid out without one.
    const frame = () =>
      new Promise((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(resolve));
        setTimeout(resolve, 1000);
      });
    const report: LabelReport = { counts: {}, problems: [] };
    for (const figure of document.querySelectorAll<HTMLElement>('figure.chart')) {
      const chart = figure.dataset.testid ?? '?';
      figure.scrollIntoView({ block: 'center' });
      await frame();
      const svg = figure.querySelector('.chart-body > svg');
      if (!svg) continue;
      const bounds = svg.getBoundingClientRect();
      // Axis labels, threshold labels, labels of marked points and the small print inside plots (a theory curve's assumptions).
      const labels = [...svg.querySelectorAll<SVGTextElement>('.axis text, .chart-note, .threshold-label, .annotation-label')]
        .map((text) => ({ text: text.textContent?.trim() ?? '', box: text.getBoundingClientRect() }))
        .filter((label) => label.text && label.box.width > 0);
      report.counts[chart] = labels.length;
      // The inspector's marks above a paused run's plot: no label may sit under one (they may touch each other).
      const marks = [...svg.querySelectorAll<SVGPathElement>('.decision-mark')].map((mark) => mark.getBoundingClientRect());
      // Half a pixel of slack: glyph boxes of neighbouring labels may touch.
      const slack = 0.5;
      for (const [i, a] of labels.entries()) {
        const { box } = a;
        if (box.left < bounds.left - slack || box.right > bounds.right + slack || box.top < bounds.top - slack || box.bottom > bounds.bottom + slack)
          report.problems.push(`${chart}: "${a.text}" is cut off by the chart's edge`);
        const underMark = marks.some(
          (m) => box.left < m.right - slack && m.left < box.right - slack && box.top < m.bottom - slack && m.top < box.bottom - slack,
        );
        if (underMark) report.problems.push(`${chart}: "${a.text}" is under a decision mark`);
        for (const b of labels.slice(i + 1)) {
          const other = b.box;
          const overlap = box.left < other.right - slack && other.left < box.right - slack && box.top < other.bottom - slack && other.top < box.bottom - slack;
          if (overlap) report.problems.push(`${chart}: "${a.text}" overlaps "${b.text}"`);
        }
      }
    }
    window.scrollTo(0, 0);
    return report;
  });
}

/** Every chart's SVG laid out at its frame's width (after a resize the frames measure themselves again before they redraw). */
export async function expectChartsLaidOut(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('figure.chart .chart-body')]
          .filter((body) => body.clientWidth > 0)
          .every((body) => Math.abs(Number(body.querySelector(':scope > svg')?.getAttribute('width') ?? -9) - body.clientWidth) <= 1),
      ),
    )
    .toBe(true);
}

/** Opens the page and loads the preset `scenarios/<id>.json` from the gallery. */
export async function openPreset(page: Page, id: string): Promise<void> {
  await page.goto('/');
  await showPane(page, 'controls');
  await page.getByTestId('toggle-gallery').click();
  await page.getByTestId(`preset-${id}`).click();
}

/** Opens `link` and runs it at full speed, to `untilS` simulated seconds or, without it, to its end. */
export async function runAtFullSpeed(page: Page, link: string, untilS?: number): Promise<void> {
  await page.goto(link);
  await setSpeed(page, 'max');
  if (untilS === undefined) await waitUntilFinished(page);
  else await waitForSimTime(page, untilS);
}

/** Opens `link` in a second page of the same browser, as a reader of a shared link would, watching it for errors. */
export async function openInNewPage(
  context: BrowserContext,
  link: string,
  viewport?: { width: number; height: number },
): Promise<{ opened: Page; openedErrors: string[] }> {
  const opened = await context.newPage();
  const openedErrors = watchForErrors(opened);
  if (viewport) await opened.setViewportSize(viewport);
  await opened.goto(link);
  return { opened, openedErrors };
}

/** The engine's own catalogue (scheme id → its parameters' ids), read here from the same wasm build the page runs, apart from the page. */
export function engineCatalogue(): Map<string, string[]> {
  initSync({ module: readFileSync(new URL('../../web/src/engine/pkg/aqm_core_bg.wasm', import.meta.url)) });
  return new Map(catalogue('packets').map((entry) => [entry.id, entry.params.map((p) => p.id)]));
}

/** The scheme picker's schemes, in its order, once the engine has sent its catalogue. */
async function pickerSchemes(page: Page): Promise<string[]> {
  const picker = page.getByTestId('scheme-picker');
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(2);
  return picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

/** The long lists (every scheme, every preset) are checked in parts, every `parts`-th item each, so that the parts run side by side on the workers. */
export function partOf<T>(items: T[], part: number, parts: number): T[] {
  return items.filter((_, i) => i % parts === part);
}

/** Every chart, a 10 s window: the view the axis-label checks open. */
export const ALL_CHARTS = '&view=queue,goodput,cwnd,bars,curve,markov,rate,cdf,box,rtt&window=10';
/** Simulated time before the labels are measured: enough for every chart to have data and axes. */
const LABELS_AT_S = 1;
/** The speed of the runs whose labels are checked: fast enough to reach LABELS_AT_S at once, slow enough that a 10 s run is still playing when the new run is looked for. */
export const LABELS_SPEED = '5';

/**
 * Waits for the new run: the previous one was left paused (or finished), so
 * a run that plays is the new one. A run as short as `shortRunS` may finish
 * before it is seen playing; then it is the one finished at its own end.
 */
async function expectNewRun(page: Page, shortRunS?: number): Promise<void> {
  const playPause = page.getByTestId('play-pause');
  if (shortRunS === undefined) {
    await expect(playPause).toHaveText('Pause');
    return;
  }
  const ofRun = `/ ${shortRunS.toFixed(0)} s`;
  await expect
    .poll(async () => {
      const state = await playPause.textContent();
      const of = await page.locator('.clock-of').textContent();
      return state === 'Pause' || (state === 'Finished' && of?.trim() === ofRun && (await simTime(page)) >= shortRunS);
    })
    .toBe(true);
}

/** Lets the new run reach LABELS_AT_S, pauses it so the time axes hold still, and checks that no axis label collides or is cut off. */
export async function expectClearLabels(page: Page, what: string, queueChart = 'chart-queue', shortRunS?: number): Promise<void> {
  await expectNewRun(page, shortRunS);
  await waitForSimTime(page, LABELS_AT_S);
  await pauseUnlessFinished(page);
  await showPane(page, 'charts');
  // A chart mounted while its pane was hidden draws its SVG only once it has measured its width.
  await expect(page.locator(`[data-testid=${queueChart}] .chart-body > svg`)).toHaveCount(1);
  const report = await axisLabelReport(page);
  // The check saw the charts (a chart with nothing to draw, like the drop curve of DropTail, has no axes).
  expect(Object.keys(report.counts).length, `${what}: charts measured`).toBeGreaterThanOrEqual(4);
  expect(report.counts[queueChart], `${what}: labels of the queue chart`).toBeGreaterThan(8);
  expect(report.problems, what).toEqual([]);
}

/**
 * Opens a Poisson load through RED with every chart and selects every
 * `parts`-th scheme of the picker from the `part`-th on, checking each new
 * run's axis labels and then `alsoCheck` (given the parameters the engine
 * declares for the scheme). The picker lists every scheme the engine
 * declares, none left out.
 */
export async function walkSchemes(
  page: Page,
  sizeName: string,
  { part, parts }: { part: number; parts: number },
  alsoCheck?: (scheme: string, params: string[]) => Promise<void>,
): Promise<void> {
  await page.goto(linkFor(poissonScenario(), ALL_CHARTS));
  await setSpeed(page, LABELS_SPEED);
  await showPane(page, 'controls');
  const picker = page.getByTestId('scheme-picker');
  const schemes = await pickerSchemes(page);
  const declared = engineCatalogue();
  expect(schemes).toEqual([...declared.keys()]);
  for (const scheme of partOf(schemes, part, parts)) {
    await test.step(scheme, async () => {
      // The run before was left paused: selecting the scheme starts a new one.
      await showPane(page, 'controls');
      await picker.selectOption(scheme);
      await expect(picker).toHaveValue(scheme);
      await expectClearLabels(page, `${scheme} at ${sizeName} size`);
      await alsoCheck?.(scheme, declared.get(scheme)!);
    });
  }
}
