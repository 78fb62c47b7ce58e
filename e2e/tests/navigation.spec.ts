// The page by keyboard and by address, at phone and desktop sizes: skip
// links to the transport and the charts, the address bar that follows the
// running experiment, Copy link (also when the clipboard is refused), and
// one visible name per parameter.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { inflateRawSync } from 'node:zlib';
import { SCREENSHOT_DIR, linkFor, poissonScenario, showPane, waitForSimTime, watchForErrors } from './helpers';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 720 } } as const;

/** The scenario and view a page address carries. */
function experimentIn(address: string): { scenario: { queue: { params: Record<string, number> } }; view: URLSearchParams } {
  const params = new URLSearchParams(new URL(address).hash.slice(1));
  const encoded = params.get('s');
  expect(encoded, `a scenario in ${address}`).not.toBeNull();
  return { scenario: JSON.parse(inflateRawSync(Buffer.from(encoded!, 'base64url')).toString('utf8')), view: params };
}

/** Scrolled to: within the viewport's height; `across` also within its width. */
async function expectInViewport(page: Page, testId: string, across = true): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, `${testId} has a box`).not.toBeNull();
  // A pixel of slack: scrolling to an element may leave it a fraction of a pixel past the edge.
  expect(box!.y).toBeGreaterThanOrEqual(-1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 1);
  if (across) expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 1);
}

for (const [sizeName, viewport] of Object.entries(SIZES)) {
  test.describe(`${sizeName} size`, () => {
    test.use({ viewport });

    test('skip links reach the transport and the charts in a few Tabs', async ({ page }) => {
      const errors = watchForErrors(page);
      await page.goto(linkFor(poissonScenario()));
      await waitForSimTime(page, 0.5);
      const address = page.url();

      // First Tab: the skip link, shown where it can be read.
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('skip-to-transport')).toBeFocused();
      await expectInViewport(page, 'skip-to-transport');
      await page.screenshot({ path: `${SCREENSHOT_DIR}skip-link-${sizeName}.png` });
      await page.keyboard.press('Enter');
      await expect(page.locator('#transport')).toBeFocused();
      // Second Tab: Play/Pause, which Enter works.
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('play-pause')).toBeFocused();
      // Across only on the desktop: the page's two columns do not fit a phone's width (the responsive layout is separate work).
      await expectInViewport(page, 'play-pause', sizeName === 'desktop');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('play-pause')).toHaveText('Play');

      // The second Tab stop of the page leads into the charts.
      await page.getByTestId('skip-to-transport').focus();
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('skip-to-charts')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.locator('#charts')).toBeFocused();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('#charts') !== null)).toBe(true);

      // Skipping is not navigating: the experiment in the address stays.
      expect(experimentIn(page.url()).scenario).toEqual(experimentIn(address).scenario);
      expect(errors).toEqual([]);
    });

    test('the address bar follows the experiment, and Copy link copies that address', async ({ page, context }) => {
      const errors = watchForErrors(page);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto(linkFor(poissonScenario()));
      await waitForSimTime(page, 0.5);

      // A live change reaches the address without adding history entries.
      const historyLength = await page.evaluate(() => history.length);
      await showPane(page, 'controls');
      await page.getByTestId('param-max_p-value').fill('0.2');
      await page.getByTestId('param-max_p-value').press('Enter');
      await expect.poll(() => experimentIn(page.url()).scenario.queue.params.max_p).toBe(0.2);
      // So does the view.
      await showPane(page, 'charts');
      await page.getByTestId('show-bars').uncheck();
      await expect.poll(() => experimentIn(page.url()).view.get('view')).not.toContain('bars');
      expect(await page.evaluate(() => history.length)).toBe(historyLength);

      await page.getByTestId('copy-link').click();
      await expect(page.getByTestId('share-status')).toHaveText('Link copied (the same as the address bar)');
      const link = await page.getByTestId('share-link').inputValue();
      expect(link).toBe(page.url());
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      // Reloading the address reopens what was on screen.
      await page.reload();
      await showPane(page, 'controls');
      await expect(page.getByTestId('param-max_p-value')).toHaveValue('0.2');
      await showPane(page, 'charts');
      await expect(page.getByTestId('show-bars')).not.toBeChecked();

      // A refused clipboard is reported as refused; the box still holds the link.
      await page.evaluate(() =>
        Object.defineProperty(navigator.clipboard, 'writeText', {
          value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
        }),
      );
      await page.getByTestId('copy-link').click();
      await expect(page.getByTestId('share-status')).toHaveText('The browser refused the clipboard: copy the link from the box or the address bar');
      await expect(page.getByTestId('share-link')).toHaveValue(page.url());
      await expect(page.getByTestId('share-link')).toBeVisible();
      expect(errors).toEqual([]);
    });

    test('a parameter has one visible name, with its symbol, in the slider, the chart and its errors', async ({ page }) => {
      const errors = watchForErrors(page);
      await page.goto(linkFor(poissonScenario()));
      await waitForSimTime(page, 0.5);
      await expect(page.locator('[data-testid=chart-queue] .threshold-label', { hasText: 'max threshold (max_th)' })).toHaveCount(1);
      await showPane(page, 'controls');
      await expect(page.locator('[data-param=max_th] .param-label')).toHaveText('max threshold (max_th) · packets');
      await expect(page.getByRole('textbox', { name: 'max threshold (max_th) value' })).toHaveValue('30');
      // Lowering min_th's partner below it is refused for max_th's sake, by name and by path.
      const minTh = page.getByTestId('param-min_th-value');
      await minTh.fill('40');
      await minTh.press('Enter');
      await expect(page.getByTestId('param-min_th-error')).toHaveText(
        'max threshold (max_th): must be at least min_th (40): equal thresholds make a step marker [queue.params.max_th]',
      );
      // Text that is not a number never reaches the engine.
      await minTh.fill('lots');
      await minTh.press('Enter');
      await expect(page.getByTestId('param-min_th-error')).toHaveText(/^min threshold \(min_th\): enter a number between .* \[queue\.params\.min_th\]$/);
      await page.locator('[data-param=min_th]').screenshot({ path: `${SCREENSHOT_DIR}param-error-${sizeName}.png` });
      expect(errors).toEqual([]);
    });
  });
}
