import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForSimTime, watchForErrors } from './helpers';

// A first visit installs the service worker, and the test takes the whole context offline.
test.use({ freshContext: true });

/** Resolve once a service worker controls the page (the first visit installs it, then claims the page). */
async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (navigator.serviceWorker.controller) return;
    await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  });
}

/** KaTeX font faces the page has tried to load, by status. */
async function katexFontStatus(page: Page): Promise<{ loaded: number; failed: number }> {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const faces = [...document.fonts].filter((face) => face.family.replace(/"/g, '').startsWith('KaTeX'));
    return { loaded: faces.filter((f) => f.status === 'loaded').length, failed: faces.filter((f) => f.status === 'error').length };
  });
}

test('after one visit the page reloads and runs with the network off', async ({ page, context }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await waitForServiceWorker(page);

  await context.setOffline(true);
  // The network is really gone: a request past the service worker fails.
  expect(
    await page.evaluate(() =>
      fetch('/no-such-file-' + Date.now(), { cache: 'no-store' }).then(
        () => 'reached',
        () => 'failed',
      ),
    ),
  ).toBe('failed');
  await page.reload();

  // The engine (worker + wasm) runs from the cache.
  await expect(page.getByTestId('experiment-name')).not.toBeEmpty();
  await waitForSimTime(page, 1);

  // Formulas typeset with their own fonts.
  await page.getByTestId('explainer-rule-toggle').click();
  await expect(page.locator('.explainer-formula .katex').first()).toBeVisible();
  await expect.poll(() => katexFontStatus(page)).toEqual({ loaded: expect.any(Number), failed: 0 });
  expect((await katexFontStatus(page)).loaded).toBeGreaterThan(0);

  // Presets (bundled) load and run.
  await page.getByTestId('toggle-gallery').click();
  await page.getByTestId('preset-codel-bufferbloat').click();
  await expect(page.getByTestId('experiment-name')).toHaveText(/CoDel/i);
  await waitForSimTime(page, 1);

  // Lessons (bundled) open.
  await page.getByTestId('open-lessons').click();
  await expect(page.locator('[data-testid^=lesson-pick-]').first()).toBeVisible();

  await context.setOffline(false);
  expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
});
