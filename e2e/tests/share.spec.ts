import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, openInNewPage, setSpeed, waitUntilFinished, watchForErrors } from './helpers';

const SUMMARY_FIELDS = ['goodput', 'utilization', 'queue', 'delay', 'p99', 'drops', 'marks', 'jain'];

async function summaryNumbers(page: Page): Promise<Record<string, string>> {
  const numbers: Record<string, string> = {};
  for (const field of SUMMARY_FIELDS) numbers[field] = await page.getByTestId(`summary-${field}`).innerText();
  return numbers;
}

test('a copied link reproduces the experiment exactly', async ({ page, context }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  // Build a scenario in the editor: a shorter run, another seed, a faster link.
  await page.getByTestId('duration').fill('12');
  await page.getByTestId('measure-from').fill('3');
  await page.getByTestId('seed').fill('42');
  await page.getByTestId('bottleneck-rate').fill('8');
  await page.getByTestId('flow-1-rate_bps').fill('3.9');
  await page.getByTestId('scenario-name').fill('Shared <b>experiment</b>');
  // The TCP group sends right to left: its ACKs cross the queue under test.
  await page.getByTestId('flow-0-direction').selectOption('reverse');
  await expect(page.getByTestId('apply-scenario')).toBeEnabled();
  await page.getByTestId('apply-scenario').click();
  // And a live parameter change at once, which the link carries as the starting value: while the
  // edited experiment is on its way the controls on screen belong to the run it replaces and take
  // nothing, so the change waits for the new run's controls and goes to it.
  await page.getByTestId('param-max_p-value').fill('0.25');
  await page.getByTestId('param-max_p-value').press('Enter');
  await expect(page.getByTestId('param-max_p-value')).toHaveValue('0.25');
  await setSpeed(page, 'max');
  await page.getByTestId('reset').click();
  await page.getByTestId('play-pause').click();
  await waitUntilFinished(page);
  const original = await summaryNumbers(page);
  expect(parseFloat(original.utilization)).toBeGreaterThan(0);
  // The group table splits the aggregate goodput between the two groups.
  const groupGoodputs = await page.locator('[data-testid^=summary-group-] td:nth-child(3)').allInnerTexts();
  expect(groupGoodputs).toHaveLength(2);
  const groupTotal = groupGoodputs.reduce((sum, text) => sum + parseFloat(text), 0);
  expect(groupTotal).toBeCloseTo(parseFloat(original.goodput), 2);

  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toMatch(/#s=[A-Za-z0-9_-]+&view=/);

  const { opened, openedErrors } = await openInNewPage(context, link);
  await expect(opened.getByTestId('experiment-name')).toHaveText('Shared <b>experiment</b>');
  await expect(opened.getByTestId('param-max_p-value')).toHaveValue('0.25');
  await expect(opened.getByTestId('flow-0-direction')).toHaveValue('reverse');
  await setSpeed(opened, 'max');
  await waitUntilFinished(opened);
  expect(await summaryNumbers(opened)).toEqual(original);
  await opened.screenshot({ path: `${SCREENSHOT_DIR}shared-link.png` });
  expect([...errors, ...openedErrors]).toEqual([]);
});
