import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// `npm run measure`: the performance probes. They report numbers (frame rate,
// slider latency) instead of passing or failing, so they live apart from the
// end-to-end tests and keep their own results folder.
export default defineConfig({
  ...base,
  testDir: './measure',
  outputDir: './measure-results/output',
  reporter: [['list'], ['json', { outputFile: './measure-results/results.json' }]],
  // Trace recording (screencast frames, DOM snapshots) would be measured with the page.
  use: { ...base.use, trace: 'off' },
  // One probe at a time: two pages running engines at once would share the cores and measure each other.
  fullyParallel: false,
  workers: 1,
});
