// The papers' figures: a figure card runs its sweep on the sweep pool with a
// progress bar, then draws each scheme's curve with its shaded 95% band and
// the paper's stated values as diamond marks (the sentence on focus and in
// the caption), with the CLI's numbers, at desktop and then phone width.

import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCREENSHOT_DIR, watchForErrors } from './helpers';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = process.env.AQM_SIM ?? `${ROOT}target/release/aqm-sim`;
// The cheapest figure: 120 runs of 30 s on 1 Mb/s.
const ID = 'afpft-fig5';

/** The caption, one band per scheme (RED, FRED, CSFQ, AFpFT), the paper's four marks (RED at 5 Mb/s, CSFQ at three rates) with their sentence on focus, and the verdict. */
async function expectBandsAndMarks(card: Locator): Promise<void> {
  await expect(card.getByTestId('figure-caption')).toContainText('99.99%');
  await expect(card.getByTestId('figure-band')).toHaveCount(4);
  await expect(card.getByTestId('figure-mark')).toHaveCount(4);
  await expect(card.getByTestId('figure-verdict')).toHaveAttribute('data-verdict', 'reproduced');
  await card.getByTestId('figure-mark').first().focus();
  await expect(card.getByTestId('figure-mark-quote')).toContainText('over 99.99% of link capacity is used by UDP');
}

test("a paper figure renders its bands and the paper's marks with the CLI's numbers, at desktop and then phone width", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByTestId('toggle-reproduce').click();
  const card = page.getByTestId(`figure-${ID}`);
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByTestId('figure-caption')).toContainText('99.99%');
  await card.getByTestId(`figure-run-${ID}`).click();
  await expect(card.getByTestId('figure-svg')).toBeVisible({ timeout: 120_000 });
  await expectBandsAndMarks(card);
  // The CSV is the CLI's.
  const download = page.waitForEvent('download');
  await card.getByTestId('figure-csv-export').click();
  const path = await (await download).path();
  const csv = execFileSync('cat', [path], { encoding: 'utf8' });
  expect(csv.split('\n')[0]).toBe('x,scheme,mean,ci_lo,ci_hi,paper');
  if (existsSync(CLI)) {
    const cli = execFileSync(CLI, ['reproduce', '--figure', ID, '--csv', '--jobs', '2', `${ROOT}reproductions/afpft-3b-tcp-and-cbr.json`], {
      encoding: 'utf8',
    });
    const rows = (text: string) =>
      text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',').map((v, k) => (k === 1 || v === '' ? v : Number(v))));
    const [page_, native] = [rows(csv), rows(cli)];
    expect(page_.length).toBe(native.length);
    page_.forEach((row, r) => row.forEach((v, k) => (typeof v === 'number' ? expect(v).toBeCloseTo(native[r][k] as number, 6) : expect(v).toBe(native[r][k]))));
  }
  await card.screenshot({ path: `${SCREENSHOT_DIR}figure-${ID}-desktop.png` });

  // The finished figure at a phone's width: the sweep's results do not depend on the window, its drawing does.
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await expectBandsAndMarks(card);
  await card.screenshot({ path: `${SCREENSHOT_DIR}figure-${ID}-phone.png` });
  expect(errors).toEqual([]);
});
