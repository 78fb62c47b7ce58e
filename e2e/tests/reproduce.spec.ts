// "Reproduce the papers": open a comparison reproduction; the page runs all
// its seeds and ablations at full speed with a progress bar and sets the
// paper's value beside the lab's mean and interval, with the same verdicts
// as `aqm-sim reproduce`.

import { expect, test } from './fixtures';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCREENSHOT_DIR, linkFor, poissonScenario, watchForErrors } from './helpers';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// npm test points AQM_SIM at the CLI its engine tests just built.
const CLI = process.env.AQM_SIM ?? `${ROOT}target/release/aqm-sim`;
const ID = 'dsred-table1';

interface PinnedClaim {
  id: string;
  expected: 'reproduced' | 'diverges' | 'inconclusive';
}

interface CliRow {
  verdict: string;
  /** Absent without a built CLI. */
  mean?: number | null;
}

/** What `aqm-sim reproduce --json` gives this file's claims, or, without a built CLI, the verdicts the file pins (the cargo tests hold the CLI to those). */
function cliRows(): Map<string, CliRow> {
  const path = `${ROOT}reproductions/${ID}.json`;
  const file = JSON.parse(readFileSync(path, 'utf8')) as { claims: PinnedClaim[] };
  if (!existsSync(CLI)) return new Map(file.claims.map((c) => [c.id, { verdict: c.expected }]));
  const rows = JSON.parse(execFileSync(CLI, ['reproduce', '--json', '--jobs', '2', path], { encoding: 'utf8', maxBuffer: 1 << 24 })) as {
    id: string;
    verdict: string;
    mean: number | null;
  }[];
  return new Map(rows.map((r) => [r.id, { verdict: r.verdict, mean: r.mean }]));
}

test('a reproduction opens in compare mode and shows paper against measured with the CLI verdicts', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-reproduce').click();
  const gallery = page.getByTestId('reproduce-gallery');
  await expect(gallery).toBeVisible();
  const choices = gallery.locator('[data-testid^=reproduction-]');
  expect(await choices.count()).toBeGreaterThanOrEqual(15);
  await expect(gallery).toContainText('Zheng & Atiquzzaman 2000');

  await page.getByTestId(`reproduction-${ID}`).click();
  await expect(gallery).toBeHidden();
  // A comparison opens compare mode: DSRED beside RED.
  await expect(page.getByTestId('compare-leave')).toBeVisible();
  // The verdicts' runs go at full speed with a progress bar; the live run too.
  await expect(page.getByTestId('reproduce-progress')).toBeVisible();
  await expect(page.getByTestId('speed')).toHaveValue('max');

  const table = page.getByTestId('reproduce-table');
  await expect(table).toBeVisible({ timeout: 180_000 });
  const expected = cliRows();
  expect(expected.size).toBeGreaterThan(0);
  for (const [id, cli] of expected) {
    const row = page.getByTestId(`claim-${id}`);
    await expect(row.getByTestId('paper-value')).not.toBeEmpty();
    await expect(row.getByTestId('measured')).not.toHaveText(/^n\/a/);
    // Metrics read in words, not as summary paths.
    await expect(row.getByTestId('metric-words')).not.toContainText('compare:');
    await expect(row.getByTestId('verdict')).toHaveText(cli.verdict);
    // The engine is deterministic across native and wasm builds: the page measures what the CLI measures.
    if (typeof cli.mean === 'number') {
      const shown = Number(await row.getByTestId('measured').getAttribute('data-value'));
      expect(shown).toBeCloseTo(cli.mean, 6);
    }
  }
  await expect(table.locator('tbody tr')).toHaveCount(expected.size);
  // A claim that diverges shows what changes the result.
  await expect(page.getByTestId('claim-dsred-fewer-drops-than-red').getByTestId('ablation-red-wait-off')).toBeVisible();
  await expect(page.getByTestId('claim-dsred-fewer-drops-than-red').getByTestId('metric-words')).toContainText('drops per second under dsred');
  await table.scrollIntoViewIfNeeded();
  await page.getByTestId('reproduce-results').screenshot({ path: `${SCREENSHOT_DIR}reproduce-results.png` });
  expect(errors).toEqual([]);
});

test("a reproduction's link reopens it with the paper's values; a changed experiment keeps them off", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-reproduce').click();
  await page.getByTestId(`reproduction-${ID}`).click();
  await expect(page.getByTestId('reproduce-waiting')).toBeVisible();
  // The address follows the experiment, and names the reproduction on screen.
  await expect(page).toHaveURL(new RegExp(`#s=.*repro=${ID}`));
  const link = page.url();

  await page.goto('about:blank');
  await page.goto(link);
  await expect(page.getByTestId('reproduce-waiting')).toBeVisible();
  await expect(page.getByTestId('compare-leave')).toBeVisible();

  // Another experiment is not the reproduction: the address drops it.
  await page.getByTestId('toggle-gallery').click();
  await page.locator('[data-testid^=preset-]').first().click();
  await expect(page.getByTestId('reproduce-waiting')).toHaveCount(0);
  await expect(page).not.toHaveURL(/repro=/);

  // A link naming an unknown reproduction, or another experiment, says so and shows no paper values.
  await page.goto('about:blank');
  await page.goto(link.replace(/repro=[^&]*/, 'repro=no-such-reproduction'));
  await expect(page.getByTestId('link-notice')).toContainText('“no-such-reproduction”, which is not one of the reproductions here');
  await expect(page.getByTestId('reproduce-waiting')).toHaveCount(0);
  await page.goto('about:blank');
  await page.goto(`${linkFor(poissonScenario())}&repro=${ID}`);
  await expect(page.getByTestId('link-notice')).toContainText(`is not the one of the reproduction “${ID}”`);
  await expect(page.getByTestId('reproduce-waiting')).toHaveCount(0);
  expect(errors).toEqual([]);
});
