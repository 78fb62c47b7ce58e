// Compare mode across TCP flavours, and CUBIC's own choices in the editor:
// the BBR-beside-CUBIC preset against the same scenario with every TCP group
// on CUBIC (runs, legends and table named by flavour, the choice carried in
// the link), a flavour the engine refuses for the scenario named with its
// field, and HyStart set in the editor and carried by the share link.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { inflateRawSync } from 'node:zlib';
import { SCREENSHOT_DIR, SIZES, linkFor, openInNewPage, preset, pauseUnlessFinished, setSpeed, showPane, waitForSimTime, watchForErrors } from './helpers';

const PRESET = preset('bbr-vs-cubic-droptail');
const RUN_S = 8;

/** The scenario a share link carries, decoded independently of the app. */
function scenarioOf(link: string): { flows: Record<string, unknown>[] } {
  const encoded = new URLSearchParams(new URL(link).hash.slice(1)).get('s')!;
  return JSON.parse(inflateRawSync(Buffer.from(encoded, 'base64url')).toString('utf8'));
}

/** Scrolls every compare chart into view once, as a reader would: a chart draws only while on screen. */
async function scrollThroughCharts(page: Page): Promise<void> {
  for (const chart of await page.locator('[data-testid=compare-charts] .on-screen').all()) {
    await chart.scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise(requestAnimationFrame));
  }
}

async function copiedLink(page: Page): Promise<string> {
  await page.getByTestId('copy-link').click();
  return page.getByTestId('share-link').inputValue();
}

for (const size of SIZES) {
  test(`the BBR preset compared by TCP flavour: both runs named by their flavours (${size.name})`, async ({ page, context }) => {
    test.setTimeout(150_000);
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto(linkFor({ ...PRESET, measure_from_s: 2 }, '&view=queue,cwnd&window=30'));
    await showPane(page, 'charts');
    // Every flavour is offered (the preset mixes two), CUBIC among them.
    await expect(page.getByTestId('compare-picker').locator('optgroup[label^="TCP flavours"] option')).toHaveText([
      'NewReno',
      'Reno',
      'CUBIC',
      'DCTCP (cannot run here)',
      'Prague (cannot run here)',
      'BBR',
    ]);
    await page.getByTestId('compare-picker').selectOption('cc:cubic');
    await page.getByTestId('compare-start').click();

    const area = page.getByTestId('compare-area');
    await expect(area).toBeVisible();
    await expect(page.getByTestId('compare-divergence')).toContainText(
      'BBR + CUBIC solid, all CUBIC (every TCP group switched to it, on the same Drop Tail queue) dashed',
    );
    await setSpeed(page, 'max');
    await waitForSimTime(page, RUN_S);
    await pauseUnlessFinished(page);

    await expect(page.getByTestId('compare-name-a')).toHaveText('BBR + CUBIC');
    await expect(page.getByTestId('compare-name-b')).toHaveText('all CUBIC');
    await expect(page.locator('[data-testid=compare-queue] path.series')).toHaveCount(2);
    await expect(page.getByTestId('compare-queue')).toContainText('all CUBIC');
    await page.getByTestId('compare-cwnd').scrollIntoViewIfNeeded();
    // A window line per TCP group and run, each legend entry naming its run's flavour.
    await expect(page.locator('[data-testid=compare-cwnd] path.series')).toHaveCount(4);
    for (const label of ['BBR · BBR + CUBIC', 'CUBIC · BBR + CUBIC', 'BBR · all CUBIC', 'CUBIC · all CUBIC']) {
      await expect(page.getByTestId('compare-cwnd')).toContainText(label);
    }
    const box = await area.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 1);
    await scrollThroughCharts(page);
    await area.screenshot({ path: `${SCREENSHOT_DIR}flavour-compare-${size.name}.png` });
    await page.getByTestId('compare-table').screenshot({ path: `${SCREENSHOT_DIR}flavour-table-${size.name}.png` });

    // The link carries the flavour comparison and reopens it.
    const link = await copiedLink(page);
    expect(new URLSearchParams(new URL(link).hash.slice(1)).get('compare_cc')).toBe('cubic');
    const { opened, openedErrors } = await openInNewPage(context, link, { width: size.width, height: size.height });
    await showPane(opened, 'charts');
    await expect(opened.getByTestId('compare-picker')).toHaveValue('cc:cubic');
    await waitForSimTime(opened, 1);
    await expect(opened.getByTestId('compare-divergence')).toContainText('all CUBIC');
    expect([...errors, ...openedErrors]).toEqual([]);
  });
}

test('a flavour the engine refuses for the scenario is offered, marked and explained naming the field', async ({ page }) => {
  const errors = watchForErrors(page);
  const ecn = { ...PRESET, flows: [{ kind: 'tcp', label: 'CUBIC', cc: 'cubic', ecn: 'ect0', count: 2 }], queue: { scheme: 'codel' } };
  // A link asking for it is refused in the engine's words.
  await page.goto(linkFor(ecn, '&compare_cc=bbr'));
  await expect(page.getByTestId('link-notice')).toContainText('BBR cannot run this scenario: flows[0].ecn');
  await expect(page.getByTestId('compare-area')).toHaveCount(0);
  await page.getByTestId('compare-picker').selectOption('cc:bbr');
  await expect(page.getByTestId('compare-picker').locator('option[value="cc:bbr"]')).toHaveText('BBR (cannot run here)');
  await expect(page.getByTestId('compare-refusal')).toContainText('flows[0].ecn');
  await expect(page.getByTestId('compare-start')).toBeDisabled();
  await page.getByTestId('compare-picker').selectOption('cc:newreno');
  await expect(page.getByTestId('compare-refusal')).toHaveCount(0);
  await page.getByTestId('compare-start').click();
  await expect(page.getByTestId('compare-name-b').or(page.getByTestId('compare-divergence'))).toContainText('NewReno');
  await page.screenshot({ path: `${SCREENSHOT_DIR}flavour-refused.png` });

  // A value that is no flavour name is refused naming the link's field. Opened
  // afresh: a link differing only in its hash could race the page rewriting its own.
  await page.goto('about:blank');
  await page.goto(linkFor(ecn, `&compare_cc=${encodeURIComponent('<b>x</b>')}`));
  await expect(page.getByTestId('link-notice')).toContainText('compare_cc');
  expect(errors).toEqual([]);
});

for (const size of SIZES) {
  test(`HyStart set in the editor is run and carried by the share link (${size.name})`, async ({ page, context }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/');
    await showPane(page, 'controls');
    await expect(page.getByTestId('flow-0-hystart')).toHaveCount(0);
    await page.getByTestId('flow-0-cc').selectOption('cubic');
    // The engine's plan fills in what CUBIC runs when the document says nothing.
    await expect(page.getByTestId('flow-0-hystart')).toHaveValue('linux');
    await expect(page.getByTestId('flow-0-cubic_rtt')).toHaveValue('min');
    await page.getByTestId('flow-0-hystart').selectOption('hystart++');
    await expect(page.getByTestId('flow-0-cubic-about')).toContainText('RFC 9406');
    await page.getByTestId('flow-group-0').screenshot({ path: `${SCREENSHOT_DIR}flavour-cubic-editor-${size.name}.png` });
    await page.getByTestId('apply-scenario').click();
    await expect(page.getByTestId('apply-scenario')).toBeDisabled();

    const link = await copiedLink(page);
    expect(scenarioOf(link).flows[0]).toMatchObject({ cc: 'cubic', hystart: 'hystart++' });
    expect(scenarioOf(link).flows[0]).not.toHaveProperty('cubic_rtt');
    const { opened, openedErrors } = await openInNewPage(context, link, { width: size.width, height: size.height });
    await showPane(opened, 'controls');
    await expect(opened.getByTestId('flow-0-hystart')).toHaveValue('hystart++');
    // Leaving CUBIC takes its choices with it (the engine refuses them for any other flavour).
    await opened.getByTestId('flow-0-cc').selectOption('newreno');
    await expect(opened.getByTestId('flow-0-hystart')).toHaveCount(0);
    await expect(opened.getByTestId('apply-scenario')).toBeEnabled();
    expect([...errors, ...openedErrors]).toEqual([]);
  });
}
