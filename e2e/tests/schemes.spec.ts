import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, linkFor, poissonScenario, setSpeed, waitForSimTime, watchForErrors } from './helpers';

test('every scheme in the catalogue runs without an error', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario()));
  const picker = page.getByTestId('scheme-picker');
  // The picker lists the catalogue once the engine has sent it.
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(2);
  const schemes = await picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  expect(schemes).toContain('droptail');
  expect(schemes).toContain('red');

  for (const scheme of schemes) {
    await test.step(scheme, async () => {
      await picker.selectOption(scheme);
      await expect(picker).toHaveValue(scheme);
      await setSpeed(page, 'max');
      await waitForSimTime(page, 3);
      await expect(page.getByTestId('run-error')).toHaveCount(0);
      // Sliders are generated from the catalogue: one control per parameter.
      const paramCount = await page.locator('[data-param]').count();
      const declared = await page.evaluate(() => document.querySelectorAll('[data-testid=scheme-params] > .param').length);
      expect(paramCount).toBe(declared);
      await page.screenshot({ path: `${SCREENSHOT_DIR}scheme-${scheme}.png` });
    });
  }
  expect(errors).toEqual([]);
});
