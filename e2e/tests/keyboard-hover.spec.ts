import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, poissonScenario, waitForSimTime, watchForErrors } from './helpers';

/** The time in a tooltip's title, "t = 3.21 s". */
function timeIn(text: string): number {
  const match = /t = ([0-9.]+) s/.exec(text);
  expect(match, `a time in "${text}"`).not.toBeNull();
  return Number(match![1]);
}

test('the arrow keys read a chart the way the mouse hover does', async ({ page }) => {
  const errors = watchForErrors(page);
  // Samples every 10 ms (the default), so one step is 0.01 s.
  await page.goto(linkFor(poissonScenario()));
  await waitForSimTime(page, 3);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');

  const chart = page.getByTestId('chart-queue');
  const plot = chart.locator('.chart-body');
  const tooltip = page.getByTestId('chart-queue-tooltip');
  const announcement = page.getByTestId('chart-queue-announcement');
  // In the tab order, like every time-series plot.
  for (const id of ['chart-queue', 'chart-goodput', 'chart-rate'])
    await expect(page.locator(`[data-testid=${id}] .chart-body`)).toHaveAttribute('tabindex', '0');
  await plot.focus();
  await expect(plot).toBeFocused();
  await expect(tooltip).toHaveCount(0);

  // Left from nothing: the newest sample, with the queue and delay values and their units.
  await page.keyboard.press('ArrowLeft');
  await expect(tooltip).toContainText(/queue\s*[0-9]+(\.[0-9])? packets/);
  await expect(tooltip).toContainText(/delay\s*[0-9]+(\.[0-9])? ms/);
  const newest = timeIn(await tooltip.innerText());
  expect(newest).toBeGreaterThan(2.9);
  // Screen readers hear the same values.
  await expect(announcement).toContainText(/^t = [0-9.]+ s: queue [0-9.]+ packets, .*delay [0-9.]+ ms$/);

  await page.keyboard.press('ArrowLeft');
  await expect.poll(async () => timeIn(await tooltip.innerText())).toBeCloseTo(newest - 0.01, 5);
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => timeIn(await tooltip.innerText())).toBeCloseTo(newest, 5);
  // Shift: a twentieth of the visible samples at a time (all of them, 0.01 s to the newest, fit the 30 s window).
  const page20 = Math.round(Math.round(newest / 0.01) / 20);
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(async () => timeIn(await tooltip.innerText())).toBeCloseTo(newest - page20 * 0.01, 5);
  await page.keyboard.press('Home');
  await expect.poll(async () => timeIn(await tooltip.innerText())).toBeLessThan(0.05);
  // The dashed hover line follows the cursor.
  await expect(chart.locator('.hover-line')).toHaveCount(1);
  await page.screenshot({ path: `${SCREENSHOT_DIR}keyboard-hover.png` });
  await page.keyboard.press('End');
  await expect.poll(async () => timeIn(await tooltip.innerText())).toBeCloseTo(newest, 5);

  await page.keyboard.press('Escape');
  await expect(tooltip).toHaveCount(0);
  await expect(chart.locator('.hover-line')).toHaveCount(0);
  expect(errors).toEqual([]);
});
