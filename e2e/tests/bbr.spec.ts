// BBR on the page: the flavour list explains it, and compare mode runs the
// BBR-beside-CUBIC preset under Drop Tail and FQ-CoDel side by side, at
// desktop and phone sizes.

import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, SIZES, preset, linkFor, pauseUnlessFinished, setSpeed, showPane, waitForSimTime, watchForErrors } from './helpers';

const PRESET = preset('bbr-vs-cubic-droptail');
/** Long enough for CUBIC to fill much of the 500-packet buffer. */
const RUN_S = 12;

for (const size of SIZES) {
  test(`BBR beside CUBIC: explained in the flavour list, compared under Drop Tail and FQ-CoDel (${size.name})`, async ({ page }) => {
    test.setTimeout(120_000);
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(linkFor({ ...PRESET, measure_from_s: 2 }, '&view=queue,cwnd&window=30&compare=fq_codel'));

    await showPane(page, 'controls');
    await expect(page.getByTestId('flow-0-cc')).toHaveValue('bbr');
    await expect(page.getByTestId('flow-1-cc')).toHaveValue('cubic');
    await expect(page.getByTestId('flow-0-tcp-about')).toContainText('BBR v1 (Cardwell et al. 2016)');

    await showPane(page, 'charts');
    await expect(page.getByTestId('compare-area')).toBeVisible();
    await setSpeed(page, 'max');
    await waitForSimTime(page, RUN_S);
    await pauseUnlessFinished(page);

    await expect(page.getByTestId('compare-name-a')).toHaveText('Drop Tail');
    await expect(page.getByTestId('compare-name-b')).toHaveText('FQ-CoDel');
    // CUBIC fills the shared Drop Tail buffer; FQ-CoDel keeps each flow's queue its own.
    await expect(page.getByTestId('compare-mean-delay-b')).toHaveAttribute('data-better', 'true');
    await expect(page.locator('[data-testid=compare-queue] path.series')).toHaveCount(2);
    await page.getByTestId('compare-cwnd').scrollIntoViewIfNeeded();
    // A window line per TCP group (BBR, CUBIC) and run.
    await expect(page.locator('[data-testid=compare-cwnd] path.series')).toHaveCount(4);
    const box = await page.getByTestId('compare-area').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 1);
    await page.getByTestId('compare-area').screenshot({ path: `${SCREENSHOT_DIR}bbr-compare-${size.name}.png` });
    expect(errors).toEqual([]);
  });
}
