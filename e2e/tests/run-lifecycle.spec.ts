import { expect, test } from '@playwright/test';
import { linkFor, watchForErrors } from './helpers';

/** Ten 1 Gb/s CBR sources under RED; at 1000 s about 5·10⁹ engine events, over the work limit, at 2 s well within it. */
const scenario = (durationS: number) => ({
  version: 1,
  name: 'Ten 1 Gb/s sources under RED',
  duration_s: durationS,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e9, delay_ms: 5 }, buffer: { packets: 100 }, access: { rate_bps: 1e9, delay_ms: 1 } },
  queue: { scheme: 'red' },
  flows: [{ kind: 'cbr', count: 10, rate_bps: 1e9 }],
});

test('while a new run is on its way the parameter controls take no change, and then belong to the new run', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(scenario(2)));
  // The controls sit in one fieldset: disabling it disables every one of them.
  const control = page.getByTestId('param-max_p-value');
  await expect(control).toBeEnabled();

  // A run over the work limit is applied: while the page asks, the controls on screen are the replaced run's and take nothing.
  await page.getByTestId('duration').fill('1000');
  await page.getByTestId('apply-scenario').click();
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'confirming');
  await expect(page.getByTestId('scheme-params')).toHaveAttribute('disabled');
  await expect(control).toBeDisabled();
  // Cancel: the run on screen stays, and its controls answer again.
  await page.getByTestId('work-cancel').click();
  await expect(control).toBeEnabled();

  // Run anyway: once the engine has built the new run, a change goes to it.
  await page.getByTestId('apply-scenario').click();
  await page.getByTestId('work-run-anyway').click();
  await control.fill('0.3');
  await control.press('Enter');
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'running');
  await expect(control).toHaveValue('0.3');
  await expect(page.getByTestId('param-max_p-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});
