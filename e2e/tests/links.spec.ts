import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, poissonScenario, waitForSimTime } from './helpers';

test('a garbage link explains itself and opens the default experiment', async ({ page }) => {
  await page.goto('/#s=this-is-not-a-scenario!!');
  await expect(page.getByTestId('link-notice')).toContainText('This link could not be opened');
  await expect(page.getByTestId('experiment-name')).not.toBeEmpty();
  await waitForSimTime(page, 1);
  await page.screenshot({ path: `${SCREENSHOT_DIR}garbage-link.png` });
});

test('a link whose scenario the engine rejects names the field', async ({ page }) => {
  const bad = poissonScenario();
  (bad.flows as Record<string, unknown>[])[0].rate_bps = -5;
  await page.goto(linkFor(bad));
  await expect(page.getByTestId('link-notice')).toContainText('flows[0].rate_bps: must be > 0');
  await waitForSimTime(page, 1);
});

test('a truncated link is explained', async ({ page }) => {
  const link = linkFor(poissonScenario());
  await page.goto(link.slice(0, Math.floor(link.length * 0.6)));
  await expect(page.getByTestId('link-notice')).toBeVisible();
});

test('markup in a scenario name is shown as text, never run', async ({ page }) => {
  const name = '<img src=x onerror="window.__injected = true"><script>window.__injected = true</script>';
  await page.goto(linkFor(poissonScenario({ name })));
  await expect(page.getByTestId('experiment-name')).toHaveText(name);
  await waitForSimTime(page, 0.5);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  await expect(page.locator('img[src=x]')).toHaveCount(0);
});

test('inline validation names the field and blocks applying', async ({ page }) => {
  await page.goto(linkFor(poissonScenario()));
  await page.getByTestId('flow-0-rate_bps').fill('-2');
  await expect(page.getByTestId('scenario-problem')).toContainText('flows[0].rate_bps: must be > 0');
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await page.getByTestId('flow-0-count').fill('0');
  await expect(page.getByTestId('scenario-problem')).toContainText('flows[0].count');
  await page.screenshot({ path: `${SCREENSHOT_DIR}validation.png` });
});
