import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, waitForSimTime, watchForErrors } from './helpers';

test('a TCP group chooses CUBIC and SACK, each explained, and runs with them', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-gallery').click();
  await page.getByTestId('preset-ns3-dumbbell-cubic-sack').click();
  await expect(page.getByTestId('experiment-name')).toHaveText('ns-3 dumbbell: 10 CUBIC flows with SACK, RED');
  const cc = page.getByTestId('flow-0-cc');
  const sack = page.getByTestId('flow-0-sack');
  const about = page.getByTestId('flow-0-tcp-about');
  await expect(cc).toHaveValue('cubic');
  await expect(sack).toBeChecked();
  await expect(about).toContainText('cubic curve');
  await expect(about).toContainText('SACK');
  await waitForSimTime(page, 2);
  await page.getByTestId('flow-group-0').screenshot({ path: `${SCREENSHOT_DIR}tcp-options.png` });

  // Back to the 1990s TCP: the explanation follows the choice, and the run restarts with it.
  await cc.selectOption('newreno');
  await sack.uncheck();
  await expect(about).toContainText('NewReno halves its window');
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await expect(cc).toHaveValue('newreno');
  await expect(sack).not.toBeChecked();
  await waitForSimTime(page, 1);
  expect(errors).toEqual([]);
});

test('a DCTCP group shows its ECN codepoint and pacing, and runs paced with ECT(1)', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-gallery').click();
  await page.getByTestId('preset-dctcp-datacenter').click();
  await expect(page.getByTestId('experiment-name')).toHaveText('DCTCP in a datacenter-like dumbbell');
  const ecn = page.getByTestId('flow-0-ecn');
  const pacing = page.getByTestId('flow-0-pacing');
  await expect(page.getByTestId('flow-0-cc')).toHaveValue('dctcp');
  await expect(ecn).toHaveValue('ect0');
  await expect(pacing).not.toBeChecked();
  await expect(page.getByTestId('flow-0-tcp-about')).toContainText('DCTCP');
  await waitForSimTime(page, 0.2);
  await page.getByTestId('flow-group-0').screenshot({ path: `${SCREENSHOT_DIR}tcp-options-dctcp.png` });

  await ecn.selectOption('ect1');
  await pacing.check();
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await expect(ecn).toHaveValue('ect1');
  await expect(pacing).toBeChecked();
  await waitForSimTime(page, 0.2);
  expect(errors).toEqual([]);
});
