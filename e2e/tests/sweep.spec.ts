import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFile } from 'node:fs/promises';
import { SCREENSHOT_DIR, linkFor, poissonScenario, watchForErrors } from './helpers';

const CLI_HEADER = 'value,seed,aggregate_goodput_bps,utilization,mean_queue_packets,mean_delay_ms,p99_delay_ms,drops,marks,jain_all,jain_tcp';

async function downloadText(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

test('a sweep of RED max_p over 3 values × 2 seeds completes, plots and exports', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario({ name: 'Short RED sweep', duration_s: 6 })));
  await expect(page.getByTestId('experiment-name')).toHaveText('Short RED sweep');

  // Keyboard: the button opens the dialog with the focus inside it.
  await page.getByTestId('open-sweep').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('sweep-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('sweep-param')).toBeFocused();

  await page.getByTestId('sweep-param').selectOption('queue.params.max_p');
  await page.getByTestId('sweep-mode-list').check();
  // A value the engine refuses is named before anything runs.
  await page.getByTestId('sweep-values').fill('0.02, 0.1, 7');
  await page.getByTestId('sweep-seeds').fill('2');
  // By the parameter's visible name, with the field path kept.
  await expect(page.getByTestId('sweep-problem')).toHaveText(/^max drop probability \(max_p\): .+ \[queue\.params\.max_p\]$/);
  await expect(page.getByTestId('sweep-run')).toBeDisabled();
  await page.screenshot({ path: `${SCREENSHOT_DIR}sweep-problem.png` });
  // So is a sweep that is too large.
  await page.getByTestId('sweep-seeds').fill('100');
  await expect(dialog.getByRole('alert').filter({ hasText: '3 values × 100 seeds = 300 runs' })).toBeVisible();

  await page.getByTestId('sweep-values').fill('0.02, 0.1, 0.4');
  await page.getByTestId('sweep-seeds').fill('2');
  await page.getByTestId('sweep-metric').selectOption('queue');
  await expect(page.getByTestId('sweep-run')).toBeEnabled();
  await expect(page.getByTestId('sweep-run')).toHaveText('Run sweep (6 runs)');
  await page.getByTestId('sweep-run').click();

  const progress = page.getByTestId('sweep-progress');
  await expect(progress).toHaveAttribute('data-total', '6');
  await expect(progress).toHaveAttribute('data-done', '6', { timeout: 60_000 });
  expect(await progress.evaluate((element: HTMLProgressElement) => element.value / element.max)).toBe(1);
  await expect(page.getByTestId('sweep-progress-text')).toContainText('6 / 6 runs · done in');

  // Three means, each over two seeds, with its whisker around it; six seed dots.
  const means = page.getByTestId('sweep-mean-point');
  await expect(means).toHaveCount(3);
  expect(await means.evaluateAll((circles) => circles.map((c) => Number(c.getAttribute('data-value'))))).toEqual([0.02, 0.1, 0.4]);
  for (const circle of await means.all()) {
    await expect(circle).toHaveAttribute('data-seeds', '2');
    const [mean, min, max] = await Promise.all(['data-mean', 'data-min', 'data-max'].map(async (name) => Number(await circle.getAttribute(name))));
    expect(min).toBeLessThanOrEqual(mean);
    expect(mean).toBeLessThanOrEqual(max);
    expect(mean).toBeGreaterThan(0);
  }
  await expect(page.getByTestId('sweep-seed-point')).toHaveCount(6);
  // RED with a higher max_p drops earlier: the mean queue is shorter at 0.4 than at 0.02.
  const meanQueue = await means.evaluateAll((circles) => circles.map((c) => Number(c.getAttribute('data-mean'))));
  expect(meanQueue[2]).toBeLessThan(meanQueue[0]);

  await page.screenshot({ path: `${SCREENSHOT_DIR}sweep.png` });

  const csv = await downloadText(page, 'sweep-export-csv');
  expect(csv.name).toBe('aqm-lab-short-red-sweep-sweep-queue-params-max-p.csv');
  const lines = csv.text.trimEnd().split('\n');
  expect(lines[0]).toBe(CLI_HEADER);
  expect(lines).toHaveLength(1 + 6);
  expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['0.02,1', '0.02,2', '0.1,1', '0.1,2', '0.4,1', '0.4,2']);
  // The CSV's queue column is what the chart plots: the mean of the two seeds.
  const queueAt = (row: number) => Number(lines[row].split(',')[4]);
  expect(meanQueue[0]).toBeCloseTo((queueAt(1) + queueAt(2)) / 2, 9);

  const json = await downloadText(page, 'sweep-export-json');
  const points = JSON.parse(json.text) as { value: number; seed: number; summary: { queue: { mean_packets: number } } }[];
  expect(points).toHaveLength(6);
  expect(points[5]).toMatchObject({ value: 0.4, seed: 2 });
  expect(points[5].summary.queue.mean_packets).toBe(queueAt(6));
  await expect(page.getByTestId('sweep-command')).toHaveText(
    'aqm-sim sweep aqm-lab-short-red-sweep-sweep-queue-params-max-p-scenario.json --param queue.params.max_p --values 0.02,0.1,0.4 --seeds 2',
  );

  // The chart saves like every other chart.
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('chart-sweep-svg').click()]);
  expect(svg.suggestedFilename()).toMatch(/-chart\.svg$/);

  // Escape closes the dialog; the live run was never disturbed.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('open-sweep')).toBeFocused();
  expect(errors).toEqual([]);
});

test('a running sweep can be cancelled', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario({ name: 'Long RED sweep', duration_s: 300 })));
  await page.getByTestId('open-sweep').click();
  await page.getByTestId('sweep-param').selectOption('topology.bottleneck.rate_bps');
  await page.getByTestId('sweep-count').fill('4');
  await page.getByTestId('sweep-seeds').fill('3');
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-progress')).toHaveAttribute('data-total', '12');
  await expect(page.getByTestId('sweep-cancel')).toBeEnabled();
  await page.getByTestId('sweep-cancel').click();
  await expect(page.getByTestId('sweep-progress-text')).toContainText('cancelled');
  await expect(page.getByTestId('sweep-progress')).not.toHaveAttribute('data-done', '12');
  // The form is usable again.
  await expect(page.getByTestId('sweep-run')).toBeEnabled();
  expect(errors).toEqual([]);
});

test('a sweep whose runs together exceed the work limit says so before it starts, as the command line would', async ({ page }) => {
  const errors = watchForErrors(page);
  // One run is about 0.46·10⁹ events: under the limit alone, over it nine times.
  await page.goto(linkFor(poissonScenario({ name: 'Long RED sweep', duration_s: 100_000 })));
  await expect(page.getByTestId('experiment-name')).toHaveText('Long RED sweep');
  await expect(page.getByTestId('work-warning')).toHaveCount(0);
  await page.getByTestId('open-sweep').click();
  await page.getByTestId('sweep-param').selectOption('queue.params.max_p');
  await page.getByTestId('sweep-mode-list').check();
  await page.getByTestId('sweep-values').fill('0.02, 0.1, 0.4');
  await page.getByTestId('sweep-seeds').fill('3');
  const warning = page.getByTestId('sweep-work-warning');
  await expect(warning).toContainText(/about 4\.\dB engine events in all, beyond the 2B that aqm-sim sweep runs without --force/);
  await expect(page.getByTestId('sweep-run')).toHaveText('Run sweep anyway (9 runs)');
  await expect(page.getByTestId('sweep-run')).toBeEnabled();
  await page.screenshot({ path: `${SCREENSHOT_DIR}sweep-work-warning.png` });
  // A third of the runs fits.
  await page.getByTestId('sweep-seeds').fill('1');
  await expect(page.getByTestId('sweep-run')).toHaveText('Run sweep (3 runs)');
  await expect(warning).toHaveCount(0);
  expect(errors).toEqual([]);
});
