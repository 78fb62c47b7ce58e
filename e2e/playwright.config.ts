import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

// E2E_PORT lets several checkouts run their e2e tests side by side.
const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // Every test opens its own page and depends on no other test, so the tests
  // of one file are spread over the workers too: a file of long tests is not
  // left running on one worker while the others wait.
  fullyParallel: true,
  // One worker per core (E2E_WORKERS overrides): the tests keep the engine busy,
  // so more workers than cores only slow each test.
  workers: Number(process.env.E2E_WORKERS ?? availableParallelism()),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: './test-results/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    viewport: { width: 1280, height: 720 },
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // A failed test keeps its trace (actions, DOM snapshots) and a screenshot. The trace's
    // screencast is left out: it encodes every frame the page paints, and the page animates.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  webServer: {
    // A production build, served as a static host would (scripts build it first).
    command: `npm run preview -w web -- --port ${port} --strictPort`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
