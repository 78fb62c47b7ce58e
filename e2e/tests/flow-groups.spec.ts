import { expect, test } from './fixtures';
import { showPane, watchForErrors } from './helpers';

test('a flow group added in the editor, and switched to another kind, starts from the engine’s values and runs', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await expect(page.locator('.app')).toHaveAttribute('data-phase', /running|finished/);
  await showPane(page, 'controls');
  const groups = await page.locator('[data-testid^=flow-group-]').count();
  await page.getByTestId('add-flow-group').click();
  const at = (key: string) => page.getByTestId(`flow-${groups}-${key}`);
  // The engine's new TCP group: one NewReno flow of 1000-byte segments.
  await expect(at('kind')).toHaveValue('tcp');
  await expect(at('count')).toHaveValue('1');
  await expect(at('cc')).toHaveValue('newreno');
  await expect(at('segment_bytes')).toHaveValue('1000');
  // Another kind keeps the count and starts the kind's own values at the engine's defaults (a VBR burst spread of 5).
  await at('count').fill('3');
  await at('kind').selectOption('vbr');
  await expect(at('count')).toHaveValue('3');
  await expect(at('rate_bps')).toHaveValue('1');
  await expect(at('burst_gsd')).toHaveValue('5');
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await expect(page.locator('.app')).toHaveAttribute('data-phase', /running|finished/);
  await expect(at('kind')).toHaveValue('vbr');
  expect(errors).toEqual([]);
});
