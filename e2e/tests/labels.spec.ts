// No axis label sits on another: every tick label, axis title, threshold
// label and note of every chart, for every scheme at phone and desktop sizes
// and every preset at desktop size, measured with getBoundingClientRect
// (lesson-walk.spec.ts checks every lesson step too, in present mode as well).

import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { catalogue, initSync } from '../../web/src/engine/pkg/aqm_core.js';
import {
  SCREENSHOT_DIR,
  axisLabelReport,
  linkFor,
  pauseUnlessFinished,
  poissonScenario,
  setSpeed,
  showPane,
  simTime,
  waitForSimTime,
  watchForErrors,
} from './helpers';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 720 } } as const;
initSync({ module: readFileSync(new URL('../../web/src/engine/pkg/aqm_core_bg.wasm', import.meta.url)) });

const ALL_CHARTS = '&view=queue,goodput,cwnd,bars,curve,markov,rate,cdf,box,rtt&window=10';
/** Simulated time before measuring: enough for every chart to have data and axes. */
const RUN_S = 1;
/** Fast enough to reach RUN_S at once, slow enough that a 10 s run is still playing when the new run is looked for. */
const SPEED = '5';

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

/** Lets the run reach RUN_S, pauses it so the time axes hold still, and checks the labels. */
async function expectClearLabels(page: Page, what: string, queueChart = 'chart-queue', shortRunS?: number): Promise<void> {
  await expectNewRun(page, shortRunS);
  await waitForSimTime(page, RUN_S);
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
 * The long lists (every scheme, every preset) are checked in parts, every
 * PARTS-th item each, so that the parts run side by side on the workers.
 */
const PARTS = 2;
const PRESET_PARTS = 4;

function partOf<T>(items: T[], part: number, parts: number): T[] {
  return items.filter((_, i) => i % parts === part);
}

for (const [sizeName, viewport] of Object.entries(SIZES)) {
  for (let part = 0; part < PARTS; part++) {
    test(`axis labels never collide, every scheme (${sizeName}, part ${part + 1} of ${PARTS})`, async ({ page }) => {
      test.setTimeout(120_000);
      const errors = watchForErrors(page);
      await page.setViewportSize(viewport);
      await page.goto(linkFor(poissonScenario(), ALL_CHARTS));
      await setSpeed(page, SPEED);
      await showPane(page, 'controls');
      const picker = page.getByTestId('scheme-picker');
      await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(2);
      const schemes = await picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
      // Every scheme the engine declares (the catalogue), none left out.
      expect(schemes).toHaveLength(catalogue('packets').length);
      for (const scheme of partOf(schemes, part, PARTS)) {
        await test.step(scheme, async () => {
          await showPane(page, 'controls');
          await picker.selectOption(scheme);
          await expectClearLabels(page, `${scheme} at ${sizeName} size`);
        });
      }
      expect(errors).toEqual([]);
    });
  }

  test(`axis labels never collide: a buffer in bytes, a full buffer, compare mode (${sizeName})`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    // A buffer in bytes: six-digit queue lengths on the queue axis, beside its title.
    const inBytes = poissonScenario({
      topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 5 }, buffer: { bytes: 150_000 } },
      queue: { scheme: 'red', params: { min_th: 15_000, max_th: 60_000 } },
    });
    await page.goto(linkFor(inBytes, ALL_CHARTS));
    // A chart redraws only while on screen; the new link's run may replace the chart just found.
    await expect(async () => {
      await page.getByTestId('chart-queue').scrollIntoViewIfNeeded({ timeout: 1000 });
      await expect(page.locator('[data-testid=chart-queue] .axis-label', { hasText: 'queue (bytes)' })).toHaveCount(1, { timeout: 1000 });
    }).toPass();
    // Up to speed once the chart is found (at real time the run is sure to be playing still).
    await setSpeed(page, SPEED);
    await expectClearLabels(page, `RED with a buffer in bytes at ${sizeName} size`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}labels-bytes-${sizeName}.png`, fullPage: true });
    // Drop Tail filling its buffer: the buffer's line tops the queue chart, right under the paused run's decision marks.
    const filled = poissonScenario({
      queue: { scheme: 'droptail' },
      flows: [{ kind: 'tcp', label: 'TCP', count: 8 }],
    });
    await page.goto(linkFor(filled, ALL_CHARTS));
    await expectClearLabels(page, `Drop Tail with a full buffer at ${sizeName} size`);
    await expect(page.locator('[data-testid=chart-queue] .decision-mark').first()).toBeAttached();
    // Compare mode's charts (RED against DropTail on shared axes).
    await page.goto(linkFor(poissonScenario(), `${ALL_CHARTS}&compare=droptail`));
    await expect(page.getByTestId('compare-area')).toBeVisible();
    await expectClearLabels(page, `compare mode at ${sizeName} size`, 'compare-queue');
    expect(errors).toEqual([]);
  });
}

/** A preset's simulated length, from its file (the button's test id is `preset-<file name>`). */
function presetDurationS(testId: string): number {
  const file = new URL(`../../scenarios/${testId.replace(/^preset-/, '')}.json`, import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { duration_s: number }).duration_s;
}

for (let part = 0; part < PRESET_PARTS; part++) {
  test(`axis labels never collide, every preset (desktop, part ${part + 1} of ${PRESET_PARTS})`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchForErrors(page);
    await page.setViewportSize(SIZES.desktop);
    await page.goto(linkFor(poissonScenario(), ALL_CHARTS));
    await setSpeed(page, SPEED);
    await page.getByTestId('toggle-gallery').click();
    const presets = await page.locator('[data-testid^=preset-]').evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).dataset.testid!));
    expect(presets.length).toBeGreaterThanOrEqual(20);
    for (const preset of partOf(presets, part, PRESET_PARTS)) {
      await test.step(preset, async () => {
        if (!(await page.getByTestId('gallery').isVisible())) await page.getByTestId('toggle-gallery').click();
        await page.getByTestId(preset).click();
        const durationS = presetDurationS(preset);
        await expectClearLabels(page, preset, 'chart-queue', durationS < 10 ? durationS : undefined);
      });
    }
    expect(errors).toEqual([]);
  });
}
