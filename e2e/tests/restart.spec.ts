import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, clockShown, inkColumns, linkFor, pointsOf, poissonScenario, recordClock, simTime, waitForSimTime, watchForErrors } from './helpers';

// The page offers its test hooks only when a test created this object before the page loaded.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __aqmTestHooks: object }).__aqmTestHooks = {};
  });
});

async function panicEngine(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __aqmTestHooks: { panicEngine(): void } }).__aqmTestHooks.panicEngine());
}

test('an engine panic shows what happened, and Restart runs the same experiment again from t = 0', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario(), '&window=30'));
  await expect(page.getByTestId('experiment-name')).toHaveText('Poisson load at 97% through RED');
  await waitForSimTime(page, 3);
  // A live parameter change belongs to the experiment the restart rebuilds (and to the address, which follows it).
  const opened = page.url();
  await page.getByTestId('param-max_th-value').fill('20');
  await page.getByTestId('param-max_th-value').press('Enter');
  await expect(page.getByTestId('chart-queue')).toContainText('max threshold (max_th) = 20');
  await expect.poll(() => page.url(), { message: 'the address takes the changed experiment' }).not.toBe(opened);
  const link = page.url();

  await panicEngine(page);
  const banner = page.getByTestId('engine-crash');
  // The banner names the panic and where in the engine it happened.
  await expect(banner).toContainText('The simulator crashed: injected by a test hook (at core/src/wasm_panic.rs:');
  const crashedAt = await simTime(page);
  await recordClock(page);
  await page.screenshot({ path: `${SCREENSHOT_DIR}engine-crash-banner.png` });
  // The page kept the experiment and its link.
  expect(page.url()).toBe(link);
  await expect(page.getByTestId('experiment-name')).toHaveText('Poisson load at 97% through RED');
  // Nothing ran meanwhile: the clock showed no new time.
  expect(await clockShown(page)).toEqual([]);
  expect(await simTime(page)).toBe(crashedAt);

  await page.getByTestId('restart-engine').click();
  await expect(banner).toBeHidden();
  // From t = 0 again, then on past where the crash stopped it.
  await expect.poll(() => simTime(page), { message: 'the restarted run starts from t = 0' }).toBeLessThan(crashedAt);
  await waitForSimTime(page, crashedAt + 1);
  await expect.poll(() => pointsOf(page.getByTestId('queue-line'))).toBeGreaterThan(50);
  await expect.poll(() => inkColumns(page, 'chart-queue', '#0072B2')).toBeGreaterThan(30);
  await expect(page.getByTestId('play-pause')).toHaveText('Pause');
  // The engine's own report of the rebuilt run (every snapshot) still has the changed value.
  await expect(page.getByTestId('param-max_th-value')).toHaveValue('20');
  await expect(page.getByTestId('chart-queue')).toContainText('max threshold (max_th) = 20');
  expect(page.url()).toBe(link);

  // A second crash after the restart says it happened again.
  await panicEngine(page);
  await expect(banner).toContainText('The simulator crashed again (after 1 restart): injected by a test hook');
  await page.getByTestId('restart-engine').click();
  await expect(banner).toBeHidden();
  await waitForSimTime(page, 1);
  expect(errors).toEqual([]);
});

test('Restart rebuilds both runs of compare mode in lockstep', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario(), '&view=queue&window=30&compare=droptail'));
  await expect(page.getByTestId('compare-area')).toBeVisible();
  // By now the address holds the running experiment's own link (it follows the experiment).
  await waitForSimTime(page, 2);
  const link = page.url();

  await panicEngine(page);
  await expect(page.getByTestId('engine-crash')).toContainText('The simulator crashed: injected by a test hook');
  await page.getByTestId('restart-engine').click();
  await expect(page.getByTestId('engine-crash')).toBeHidden();

  await expect(page.getByTestId('compare-area')).toBeVisible();
  await expect.poll(() => simTime(page), { message: 'the restarted runs start from t = 0' }).toBeLessThan(2);
  await waitForSimTime(page, 3);
  // Both runs hold rows again, and paused together they stand within one lockstep stride (0.5 s: 50 samples of 10 ms).
  await page.getByTestId('play-pause').click();
  const charts = page.getByTestId('compare-charts');
  const rows = async () => [Number(await charts.getAttribute('data-rows-a')), Number(await charts.getAttribute('data-rows-b'))];
  await expect.poll(async () => Math.min(...(await rows()))).toBeGreaterThan(200);
  await expect
    .poll(async () => {
      const [a, b] = await rows();
      return Math.abs(a - b);
    })
    .toBeLessThanOrEqual(50);
  expect(page.url()).toBe(link);
  expect(errors).toEqual([]);
});

test.describe('without the service worker', () => {
  // The offline service worker would serve the engine from its cache, past the route that makes it fail to load.
  test.use({ serviceWorkers: 'block' });

  test('an engine that cannot load says so, again after a failed restart, and starts once it can load', async ({ page }) => {
    await page.route('**/*.wasm', (route) => route.abort());
    await page.goto('/');
    const banner = page.getByTestId('engine-crash');
    await expect(banner).toContainText('The simulator could not start: ');

    await page.getByTestId('restart-engine').click();
    await expect(banner).toContainText('The simulator could not start again (after 1 restart): ');
    await page.screenshot({ path: `${SCREENSHOT_DIR}engine-start-failure-banner.png` });

    await page.unroute('**/*.wasm');
    await page.getByTestId('restart-engine').click();
    await expect(banner).toBeHidden();
    await waitForSimTime(page, 2);
    await expect.poll(() => pointsOf(page.getByTestId('queue-line'))).toBeGreaterThan(50);
  });
});
