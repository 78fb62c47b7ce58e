// Every scheme the engine declares, selected once each at desktop size: it
// runs without an error, its sliders are the catalogue's, its explainer's
// formula fits the scheme panel, and no axis label of any chart sits on
// another or is cut off (labels.spec.ts checks every scheme at phone size,
// and every preset).

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LABELS_SPEED, SCREENSHOT_DIR, pauseUnlessFinished, setSpeed, waitForSimTime, walkSchemes, watchForErrors } from './helpers';

/** Simulated time each scheme runs to at full speed without an error. */
const RUN_S = 3;
const PARTS = 2;

/** Opens the scheme's explainer formula if it is closed; says how it overflows the scheme panel, if it does. */
async function formulaOverflow(page: Page, scheme: string): Promise<string | undefined> {
  const formula = page.locator('#explainer-rule .explainer-formula');
  if (!(await formula.isVisible())) await page.getByTestId('explainer-rule-toggle').click();
  await expect(formula.locator('.katex').first()).toBeVisible();
  const { scroll, client } = await formula.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  await formula.screenshot({ path: `${SCREENSHOT_DIR}theory-formula-${scheme}.png` });
  return scroll > client + 1 ? `${scheme}: ${scroll} > ${client}` : undefined;
}

for (let part = 0; part < PARTS; part++) {
  test(`every scheme in the catalogue runs without an error, with its sliders, a formula that fits and clear axis labels (part ${part + 1} of ${PARTS})`, async ({
    page,
  }) => {
    // Half of about 30 schemes, each run to 1 s for its labels and on to 3 s at full speed: room for a busy machine.
    test.setTimeout(180_000);
    const errors = watchForErrors(page);
    const overflowing: string[] = [];
    await walkSchemes(page, 'desktop', { part, parts: PARTS }, async (scheme, params) => {
      // Sliders are generated from the catalogue: one control per parameter the engine declares, in its order.
      const shown = await page.locator('[data-param]').evaluateAll((controls) => controls.map((c) => (c as HTMLElement).dataset.param));
      expect(shown).toEqual(params);
      const overflow = await formulaOverflow(page, scheme);
      if (overflow) overflowing.push(overflow);
      // On at full speed: the scheme runs on without an error.
      await setSpeed(page, 'max');
      await page.getByTestId('play-pause').click();
      await waitForSimTime(page, RUN_S);
      await expect(page.getByTestId('run-error')).toHaveCount(0);
      await page.screenshot({ path: `${SCREENSHOT_DIR}scheme-${scheme}.png` });
      await pauseUnlessFinished(page);
      await setSpeed(page, LABELS_SPEED);
    });
    expect(overflowing).toEqual([]);
    expect(errors).toEqual([]);
  });
}
