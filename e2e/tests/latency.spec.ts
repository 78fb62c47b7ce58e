// The latency charts: the "latency under load" preset's ping RTT over time,
// the delay CDF and the box plot, alone and in compare mode, at desktop and
// phone sizes.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, SIZES, preset, linkFor, openPreset, pointsOf, runAtFullSpeed, setSpeed, showPane, waitForSimTime, watchForErrors } from './helpers';

const PRESET = preset('latency-under-load');
/** Past the 5 s warm-up, long enough for Drop Tail's buffer to fill. */
const RUN_S = 12;

async function medianOf(page: Page, label: string): Promise<number> {
  return Number(await page.locator(`[data-testid=delay-box][data-label="${label}"]`).getAttribute('data-median-ms'));
}

/** The chart lies inside the page's width: nothing clipped at the right edge. */
async function fitsWidth(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, testId).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 1);
}

for (const size of SIZES) {
  test(`the latency-under-load preset draws the ping RTT, the delay CDF and the box plot (${size.name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await runAtFullSpeed(page, linkFor(PRESET, '&view=rtt,cdf,box&window=30'), RUN_S);
    await showPane(page, 'charts');

    const rtt = page.locator('[data-testid=chart-rtt] .rtt-line');
    await expect(rtt).toHaveCount(1);
    expect(await pointsOf(rtt)).toBeGreaterThan(10);

    // A queueing-delay curve for each group and an RTT curve for the ping and the TCP group.
    const cdf = page.locator('[data-testid=chart-cdf] .cdf-line');
    await expect(cdf).toHaveCount(4);
    for (const line of await cdf.all()) expect(Number(await line.getAttribute('data-points'))).toBeGreaterThan(2);

    // Drop Tail's 500 packets: the ping's median RTT is far above its 50 ms base.
    await expect.poll(() => medianOf(page, 'ping · RTT'), { timeout: 30_000 }).toBeGreaterThan(200);
    for (const id of ['chart-rtt', 'chart-cdf', 'chart-delay-box']) {
      await page.getByTestId(id).scrollIntoViewIfNeeded();
      await fitsWidth(page, id);
      await page.getByTestId(id).screenshot({ path: `${SCREENSHOT_DIR}latency-${id}-${size.name}.png` });
    }
    expect(errors).toEqual([]);
  });
}

test('the preset is in the gallery and opens with its latency charts', async ({ page }) => {
  const errors = watchForErrors(page);
  await openPreset(page, 'latency-under-load');
  await expect(page.getByTestId('experiment-name')).toHaveText(String(PRESET.name));
  // A preset with a ping turns its RTT and the delay CDF on.
  await expect(page.getByTestId('show-rtt')).toBeChecked();
  await expect(page.getByTestId('show-cdf')).toBeChecked();
  await setSpeed(page, 'max');
  await waitForSimTime(page, 2);
  // A chart below the fold draws only once it scrolls into view.
  await page.getByTestId('chart-rtt').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-testid=chart-rtt] .rtt-line').first()).toBeAttached();
  expect(await pointsOf(page.locator('[data-testid=chart-rtt] .rtt-line'))).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('compare mode draws the delay CDFs of both runs', async ({ page }) => {
  const errors = watchForErrors(page);
  await runAtFullSpeed(page, linkFor(PRESET, '&window=30&compare=fq_codel'), RUN_S);
  const lines = page.locator('[data-testid=compare-cdf] .cdf-line');
  // Per run: the queueing delay and the ping's RTT.
  await expect(lines).toHaveCount(4);
  const series = await Promise.all((await lines.all()).map((line) => line.getAttribute('data-series')));
  expect(series).toEqual(['Drop Tail · queueing delay', 'Drop Tail · ping RTT', 'FQ-CoDel · queueing delay', 'FQ-CoDel · ping RTT']);
  for (const line of await lines.all()) expect(Number(await line.getAttribute('data-points'))).toBeGreaterThan(2);
  await page.getByTestId('compare-cdf').scrollIntoViewIfNeeded();
  await page.getByTestId('compare-cdf').screenshot({ path: `${SCREENSHOT_DIR}latency-compare-cdf.png` });
  expect(errors).toEqual([]);
});
