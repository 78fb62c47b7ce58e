// No axis label sits on another: every tick label, axis title, threshold
// label and note of every chart, for every scheme at phone size (schemes.spec.ts
// checks them at desktop size, with its other checks of every scheme) and
// every preset at desktop size, measured with getBoundingClientRect
// (lesson-walk.spec.ts checks every lesson step too, in present mode as well).

import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import {
  ALL_CHARTS,
  LABELS_SPEED,
  SCREENSHOT_DIR,
  expectClearLabels,
  linkFor,
  partOf,
  poissonScenario,
  setSpeed,
  walkSchemes,
  watchForErrors,
} from './helpers';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 720 } } as const;
const PARTS = 2;
const PRESET_PARTS = 4;

for (let part = 0; part < PARTS; part++) {
  test(`axis labels never collide, every scheme (phone, part ${part + 1} of ${PARTS})`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchForErrors(page);
    await page.setViewportSize(SIZES.phone);
    await walkSchemes(page, 'phone', { part, parts: PARTS });
    expect(errors).toEqual([]);
  });
}

for (const [sizeName, viewport] of Object.entries(SIZES)) {
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
    await setSpeed(page, LABELS_SPEED);
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
    await setSpeed(page, LABELS_SPEED);
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
