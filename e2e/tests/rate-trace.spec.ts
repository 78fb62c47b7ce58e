// A link whose rate changes: the trace presets draw the link's capacity on
// the goodput chart (on its Mb/s axis) and on the queue chart (scaled), at
// desktop and phone sizes.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, inkColumns, openPreset, pointsOf, setSpeed, showPane, waitUntilFinished, watchForErrors } from './helpers';

/** Opens the trace preset `id` on the charts, runs it to its end at full speed, and checks the capacity drawn on both charts. */
async function runWithCapacityLines(page: Page, id: string): Promise<void> {
  await openPreset(page, id);
  await showPane(page, 'charts');
  await setSpeed(page, 'max');
  await waitUntilFinished(page);
  // A chart draws only while it is on screen.
  await page.getByTestId('chart-queue').scrollIntoViewIfNeeded();
  await expect.poll(() => pointsOf(page.getByTestId('queue-capacity-line'))).toBeGreaterThan(20);
  await page.getByTestId('chart-goodput').scrollIntoViewIfNeeded();
  await expect.poll(() => pointsOf(page.getByTestId('capacity-line'))).toBeGreaterThan(5);
  await expect(page.getByTestId('chart-goodput')).toContainText('link capacity (trace)');
  // The dashed black line is on the canvas, not only in its record.
  await expect.poll(() => inkColumns(page, 'chart-goodput', '#000000')).toBeGreaterThan(20);
}

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 720 }, touch: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, touch: true },
]) {
  test.describe(`${size.name} ${size.viewport.width}×${size.viewport.height}`, () => {
    test.use({ viewport: size.viewport, hasTouch: size.touch, isMobile: size.touch });
    // Runs a 60 s preset to its end at full speed.
    test.setTimeout(180_000);

    test('the link-that-halves preset draws the capacity stepping down', async ({ page }) => {
      const errors = watchForErrors(page);
      await runWithCapacityLines(page, 'bufferbloat-link-halves');
      // The queue chart gives the capacity in Mb/s: its peak in view in the legend, its value at the end (10 Mb/s) beside the line.
      const queue = page.getByTestId('chart-queue');
      await queue.scrollIntoViewIfNeeded();
      const label = queue.getByTestId('queue-capacity-label');
      await expect(label).toHaveAttribute('data-now-bps', '10000000');
      await expect(label).toHaveText('capacity 10 Mb/s');
      await expect(queue).toContainText(/link capacity \(own scale: its peak in view, (20|10) Mb\/s, at 90 % height\)/);
      await queue.screenshot({ path: `${SCREENSHOT_DIR}rate-trace-halves-queue-${size.name}.png` });
      await page.getByTestId('chart-goodput').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOT_DIR}rate-trace-halves-${size.name}.png`, fullPage: size.touch });
      expect(errors).toEqual([]);
    });

    test('the cellular preset draws a capacity that wanders', async ({ page }) => {
      const errors = watchForErrors(page);
      await runWithCapacityLines(page, 'codel-cellular');
      await page.getByTestId('chart-queue').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOT_DIR}rate-trace-cellular-${size.name}.png` });
      expect(errors).toEqual([]);
    });
  });
}
