import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { catalogue, initSync } from '../../web/src/engine/pkg/aqm_core.js';
import { SCREENSHOT_DIR, linkFor, poissonScenario, setSpeed, waitForSimTime, watchForErrors } from './helpers';

/** The engine's own catalogue, read here from the same wasm build the page runs, apart from the page. */
function engineCatalogue(): Map<string, string[]> {
  initSync({ module: readFileSync(new URL('../../web/src/engine/pkg/aqm_core_bg.wasm', import.meta.url)) });
  return new Map(catalogue('packets').map((entry) => [entry.id, entry.params.map((p) => p.id)]));
}

test('every scheme in the catalogue runs without an error', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario()));
  const picker = page.getByTestId('scheme-picker');
  // The picker lists the catalogue once the engine has sent it.
  await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(2);
  const schemes = await picker.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  const declared = engineCatalogue();
  expect(schemes).toEqual([...declared.keys()]);

  for (const scheme of schemes) {
    await test.step(scheme, async () => {
      await picker.selectOption(scheme);
      await expect(picker).toHaveValue(scheme);
      await setSpeed(page, 'max');
      await waitForSimTime(page, 3);
      await expect(page.getByTestId('run-error')).toHaveCount(0);
      // Sliders are generated from the catalogue: one control per parameter the engine declares, in its order.
      const shown = await page.locator('[data-param]').evaluateAll((controls) => controls.map((c) => (c as HTMLElement).dataset.param));
      expect(shown).toEqual(declared.get(scheme));
      await page.screenshot({ path: `${SCREENSHOT_DIR}scheme-${scheme}.png` });
    });
  }
  expect(errors).toEqual([]);
});
