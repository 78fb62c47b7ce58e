// The e2e tests' `test`: each test opens its own page, in one browser profile
// kept by the worker, so the engine's compiled WebAssembly and the page's
// scripts come from the profile's caches from the worker's second test on
// (a fresh context compiles them again: the page's start took 1.5 s there
// against 0.9 s in a kept profile). The page itself is new for every test
// and the app keeps no state outside it (no cookies, storage or IndexedDB),
// so no test sees what an earlier one did. The profile runs without the
// offline service worker: installed once, it would control every later
// test's page and serve the app from its own cache, past a test's
// `page.route`. A test that needs a first visit with the service worker
// (offline.spec) or a context other than the default (a phone's touch
// screen, another viewport) gets a fresh context of its own.

import { test as base, type Browser, type BrowserContext } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface TestOptions {
  /** The test needs a context of its own: a first visit with the service worker, or it changes the whole context (offline). */
  freshContext: boolean;
}

interface WorkerFixtures {
  sharedContext: BrowserContext;
  /** The browser for fresh contexts, started the first time a test of the worker needs one. */
  isolatedBrowser: () => Promise<Browser>;
}

export const test = base.extend<TestOptions, WorkerFixtures>({
  freshContext: [false, { option: true }],

  sharedContext: [
    async ({ playwright, launchOptions }, use, workerInfo) => {
      const { baseURL, viewport } = workerInfo.project.use;
      const profile = await mkdtemp(join(tmpdir(), 'aqm-e2e-'));
      // Set here in full: the options of the test that starts the worker's context would fill in any left out.
      const options = { baseURL, viewport, isMobile: false, hasTouch: false, serviceWorkers: 'block' as const };
      const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, ...options });
      // The profile opens with a blank page; a test's page must be the context's first (failure reports look there).
      await Promise.all(context.pages().map((page) => page.close()));
      await use(context);
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  isolatedBrowser: [
    async ({ playwright, launchOptions }, use) => {
      let browser: Promise<Browser> | undefined;
      await use(() => (browser ??= playwright.chromium.launch(launchOptions)));
      if (browser) await (await browser).close();
    },
    { scope: 'worker' },
  ],

  context: async ({ sharedContext, isolatedBrowser, freshContext, isMobile, hasTouch, viewport }, use, testInfo) => {
    const defaultViewport = testInfo.project.use.viewport;
    const sameViewport = viewport?.width === defaultViewport?.width && viewport?.height === defaultViewport?.height;
    if (freshContext || isMobile || hasTouch || !sameViewport) {
      // The test's options (touch, viewport, service workers) are applied to every context created during it.
      const context = await (await isolatedBrowser()).newContext();
      await use(context);
      await context.close();
      return;
    }
    await sharedContext.clearCookies();
    await sharedContext.clearPermissions();
    await use(sharedContext);
    await Promise.all(sharedContext.pages().map((page) => page.close()));
  },
});

export { expect } from '@playwright/test';
