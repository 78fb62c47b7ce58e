import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, openPreset, waitForSimTime, watchForErrors } from './helpers';

/** Opens the preset `id` and checks its name; gives the first flow group's control named `control`. */
async function presetFlowGroup(page: Page, id: string, name: string): Promise<(control: string) => Locator> {
  await openPreset(page, id);
  await expect(page.getByTestId('experiment-name')).toHaveText(name);
  return (control) => page.getByTestId(`flow-0-${control}`);
}

test('a TCP group chooses CUBIC and SACK, each explained, and runs with them', async ({ page }) => {
  const errors = watchForErrors(page);
  const control = await presetFlowGroup(page, 'ns3-dumbbell-cubic-sack', 'ns-3 dumbbell: 10 CUBIC flows with SACK, RED');
  const [cc, sack, about] = ['cc', 'sack', 'tcp-about'].map(control);
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
  const control = await presetFlowGroup(page, 'dctcp-datacenter', 'DCTCP in a datacenter-like dumbbell');
  const [ecn, pacing] = ['ecn', 'pacing'].map(control);
  await expect(control('cc')).toHaveValue('dctcp');
  await expect(ecn).toHaveValue('ect0');
  await expect(pacing).not.toBeChecked();
  await expect(control('tcp-about')).toContainText('DCTCP');
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
