import type { Download, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFile } from 'node:fs/promises';
import { SCREENSHOT_DIR, waitForSimTime, watchForErrors } from './helpers';

async function download(page: Page, click: () => Promise<void>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await download.path();
  return { download, text: await readFile(path, 'utf8') };
}

async function exportItem(page: Page, testId: string): Promise<{ download: Download; text: string }> {
  await page.getByTestId('export-toggle').click();
  return download(page, () => page.getByTestId(testId).click());
}

async function rowsHeld(page: Page): Promise<number> {
  return Number(await page.getByTestId('charts').getAttribute('data-rows'));
}

test('the time series, the scenario and a chart export as files', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await waitForSimTime(page, 3);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  // The last batch may still be on its way from the worker: wait until the count holds still.
  let held = -1;
  await expect
    .poll(async () => {
      const previous = held;
      held = await rowsHeld(page);
      return held > 0 && held === previous;
    })
    .toBe(true);

  const csv = await exportItem(page, 'export-timeseries');
  expect(csv.download.suggestedFilename()).toMatch(/^aqm-lab-.*-timeseries\.csv$/);
  const lines = csv.text.trimEnd().split('\n');
  const header = lines[0].split(',');
  expect(header[0]).toBe('t_s');
  expect(header).toEqual(expect.arrayContaining(['t_s', 'queue_packets', 'goodput_bps.0']));
  for (const id of header) expect(id).toMatch(/^[a-z_]+(\.[0-9a-z_]+)?$/);
  expect(lines.length - 1).toBe(held);
  expect(await rowsHeld(page)).toBe(held);
  // Every row has every column; time runs forward and ends where the run was paused.
  expect(lines.every((line) => line.split(',').length === header.length)).toBe(true);
  const lastTime = Number(lines[lines.length - 1].split(',')[0]);
  expect(lastTime).toBeGreaterThanOrEqual(3);
  expect(Number(lines[1].split(',')[0])).toBeLessThan(lastTime);
  // The menu closes and gives the focus back to its button.
  await expect(page.getByTestId('export-timeseries')).toHaveCount(0);
  await expect(page.getByTestId('export-toggle')).toBeFocused();

  const scenario = await exportItem(page, 'export-scenario');
  expect(scenario.download.suggestedFilename()).toMatch(/-scenario\.json$/);
  const doc = JSON.parse(scenario.text) as { version: number; name: string; queue: { scheme: string; params: Record<string, number> } };
  expect(doc.version).toBe(1);
  expect(doc.name).toBe(await page.getByTestId('experiment-name').innerText());
  // The scheme's parameters are written out with their current values.
  expect(Object.keys(doc.queue.params).length).toBeGreaterThan(0);

  const summary = await exportItem(page, 'export-summary');
  expect(summary.download.suggestedFilename()).toMatch(/-summary\.json$/);
  const numbers = JSON.parse(summary.text) as Record<string, unknown>;
  expect(numbers).toHaveProperty('aggregate_goodput_bps');
  expect(numbers).toHaveProperty('queue.mean_packets');

  // Keyboard: open the menu, Escape closes it.
  await page.getByTestId('export-toggle').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-timeseries')).toBeFocused();
  await page.screenshot({ path: `${SCREENSHOT_DIR}export-menu.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-timeseries')).toHaveCount(0);
  await expect(page.getByTestId('export-toggle')).toBeFocused();

  const svg = await download(page, () => page.getByTestId('chart-queue-svg').click());
  expect(svg.download.suggestedFilename()).toBe('aqm-lab-queue-length-chart.svg');
  expect(svg.text).toContain('<svg');
  expect(svg.text).toContain('Queue length');
  expect(svg.text).toMatch(/<path[^>]* d="M[0-9.,-]+L[0-9.,-]+L/);
  // Styled inline: no class names left to depend on a stylesheet.
  expect(svg.text).not.toContain('class=');

  const png = await download(page, () => page.getByTestId('chart-queue-png').click());
  expect(png.download.suggestedFilename()).toBe('aqm-lab-queue-length-chart.png');
  const bytes = await readFile(await png.download.path());
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect(bytes.length).toBeGreaterThan(5000);
  expect(errors).toEqual([]);
});
