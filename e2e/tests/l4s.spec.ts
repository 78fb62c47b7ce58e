// DualPI2 on the page: the queue chart draws the L and the C queue's delays,
// the curve chart both coupled probabilities with the current operating
// point, at desktop and phone sizes; compare mode runs the L4S preset beside
// a single-queue scheme.

import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, SIZES, preset, axisLabelReport, linkFor, pointsOf, runAtFullSpeed, showPane, watchForErrors } from './helpers';

const PRESET = preset('dualpi2-prague-cubic');
/** Long enough for the C queue to pass DualPI2's 15 ms target, so p′ is above 0. */
const RUN_S = 10;

for (const size of SIZES) {
  test(`the DualPI2 preset draws both queues' delays and both probabilities (${size.name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await runAtFullSpeed(page, linkFor(PRESET, '&view=queue,curve&window=30'), RUN_S);
    await showPane(page, 'charts');

    const queue = page.getByTestId('chart-queue');
    await queue.scrollIntoViewIfNeeded();
    for (const id of ['queue-delay-l-line', 'queue-delay-c-line']) expect(await pointsOf(queue.getByTestId(id)), id).toBeGreaterThan(10);
    await expect(queue.locator('.legend')).toContainText('L4S queue delay');
    await expect(queue.locator('.legend')).toContainText('classic queue delay');

    const curve = page.getByTestId('chart-curve');
    await curve.scrollIntoViewIfNeeded();
    for (const id of ['curve-line-c', 'curve-line-l']) expect(Number(await curve.getByTestId(id).getAttribute('data-points')), id).toBeGreaterThan(100);
    const pC = Number(await curve.getByTestId('operating-point-c').getAttribute('data-p'));
    const pL = Number(await curve.getByTestId('operating-point-l').getAttribute('data-p'));
    // The PI controller has raised p′: classic packets see p′², L4S ones at least 2·p′, which is larger below p′ = 2.
    expect(pC).toBeGreaterThan(0);
    expect(pL).toBeGreaterThan(pC);

    const labels = await axisLabelReport(page);
    expect(labels.problems).toEqual([]);
    for (const id of ['chart-queue', 'chart-curve']) {
      await page.getByTestId(id).scrollIntoViewIfNeeded();
      const box = await page.getByTestId(id).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 1);
      await page.getByTestId(id).screenshot({ path: `${SCREENSHOT_DIR}l4s-${id}-${size.name}.png` });
    }
    expect(errors).toEqual([]);
  });
}

test('compare mode runs the DualPI2 preset beside single-queue PIE', async ({ page }) => {
  const errors = watchForErrors(page);
  await runAtFullSpeed(page, linkFor(PRESET, '&view=queue,goodput&window=30&compare=pie'), RUN_S);
  await expect(page.getByTestId('compare-area')).toBeVisible();
  for (const id of ['compare-queue', 'compare-goodput']) {
    const lines = page.locator(`[data-testid=${id}] [data-points]`);
    expect(await lines.count(), id).toBeGreaterThanOrEqual(2);
    for (const line of await lines.all()) expect(await pointsOf(line), id).toBeGreaterThan(10);
  }
  await page.getByTestId('compare-area').screenshot({ path: `${SCREENSHOT_DIR}l4s-compare.png` });
  expect(errors).toEqual([]);
});
