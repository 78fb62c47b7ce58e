// Present mode (projector) and embed mode (iframe on a slide or course page).

import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, poissonScenario, waitForSimTime, watchForErrors } from './helpers';

async function rootFontPx(page: import('@playwright/test').Page): Promise<number> {
  return page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
}

test('present mode: larger type and thicker lines, toggled and carried in the link', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/');
  await waitForSimTime(page, 1);
  const normalPx = await rootFontPx(page);
  const normalLegendPx = await page
    .locator('.legend')
    .first()
    .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  const tickHeight = () =>
    page
      .locator('[data-testid=chart-queue] .axis text')
      .first()
      .evaluate((e) => e.getBoundingClientRect().height);
  const normalTickPx = await tickHeight();

  await page.getByTestId('toggle-present').click();
  await expect(page.getByTestId('toggle-present')).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/present=1/);
  expect((await rootFontPx(page)) / normalPx).toBeGreaterThanOrEqual(1.4);
  const presentLegendPx = await page
    .locator('.legend')
    .first()
    .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(presentLegendPx / normalLegendPx).toBeGreaterThanOrEqual(1.4);
  // Chart text grows with the page's: tick labels at least 1.4 × as tall on screen.
  await expect.poll(async () => (await tickHeight()) / normalTickPx).toBeGreaterThanOrEqual(1.4);
  // Chart lines are drawn twice as thick: 1.4 × on top of the chart's own 1.44 × scale.
  expect(
    await page
      .locator('canvas.series-canvas')
      .first()
      .evaluate((c) => getComputedStyle(c).getPropertyValue('--line-scale').trim()),
  ).toBe('1.4');
  await waitForSimTime(page, 3);
  await page.screenshot({ path: `${SCREENSHOT_DIR}present-1920x1080.png` });

  // The link carries it: a reload (or a copied link) opens in present mode.
  await page.reload();
  await expect(page.getByTestId('toggle-present')).toHaveAttribute('aria-pressed', 'true');
  expect(await rootFontPx(page)).toBeGreaterThanOrEqual(1.4 * normalPx);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/#s=.*present=1/);

  // And toggles off again.
  await page.getByTestId('toggle-present').click();
  expect(await rootFontPx(page)).toBe(normalPx);
  await expect(page).not.toHaveURL(/present=1/);
  expect(errors).toEqual([]);
});

test('embed mode: charts and transport only, and it runs inside an iframe', async ({ page, baseURL }) => {
  const errors = watchForErrors(page);
  const link = `${linkFor(poissonScenario({ name: 'Embedded RED' }))}&view=queue,curve&embed=1`;
  await page.setViewportSize({ width: 900, height: 600 });
  await page.goto(link);
  await expect(page.getByTestId('embed')).toBeVisible();
  await waitForSimTime(page, 1);
  await expect(page.getByTestId('chart-queue')).toBeVisible();
  await expect(page.getByTestId('play-pause')).toBeVisible();
  // No header, controls or summary.
  await expect(page.getByTestId('scheme-picker')).toHaveCount(0);
  await expect(page.getByTestId('copy-link')).toHaveCount(0);
  await expect(page.getByTestId('summary')).toHaveCount(0);
  // "Open in AQM Lab" opens the same experiment on the full page.
  const full = await page.getByTestId('open-full').getAttribute('href');
  expect(full).toContain('#s=');
  expect(full).not.toContain('embed=1');
  await page.screenshot({ path: `${SCREENSHOT_DIR}embed-900x600.png` });

  // The documented snippet: an iframe on someone else's page.
  await page.setContent(
    `<h1>Week 3: RED</h1><iframe src="${new URL(link, baseURL).toString()}" width="800" height="500" style="border:0" title="AQM Lab"></iframe>`,
  );
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('chart-queue')).toBeVisible();
  await expect.poll(async () => Number(await frame.getByTestId('sim-time').getAttribute('data-seconds')), { timeout: 60_000 }).toBeGreaterThan(1);
  await frame.getByTestId('play-pause').click();
  await expect(frame.getByTestId('play-pause')).toHaveText('Play');
  await page.screenshot({ path: `${SCREENSHOT_DIR}embed-iframe.png` });
  expect(errors).toEqual([]);
});

test('copy embed code: an iframe of the experiment on screen, in embed mode', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(`${linkFor(poissonScenario({ name: 'Embedded RED' }))}&view=queue,curve`);
  await waitForSimTime(page, 0.5);
  await page.getByTestId('copy-link').click();
  await page.getByTestId('copy-embed').click();
  const code = await page.getByTestId('embed-code').inputValue();
  expect(code).toMatch(/^<iframe src="http[^"]*#s=[^"]*&amp;view=queue(,|%2C)curve[^"]*&amp;embed=1" [^>]*title="AQM Lab: Embedded RED"><\/iframe>$/);
  await expect(page.getByTestId('share-status')).toHaveText(/Embed code copied|copy the code from the box/);

  // Pasted into a course page, it shows the experiment's charts and transport.
  await page.setContent(`<h1>Week 3: RED</h1>${code}`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByTestId('embed')).toBeVisible();
  await expect(frame.getByTestId('chart-queue')).toBeVisible();
  await expect(frame.getByTestId('experiment-name')).toHaveText('Embedded RED');
  expect(errors).toEqual([]);
});

test.describe('glossary', () => {
  for (const size of [
    { name: 'desktop', width: 1280, height: 720 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`${size.name}: a jargon term opens its meaning`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto('/');
      // Past the measurement window the summary shows its terms.
      await page.getByTestId('speed').selectOption('max');
      await expect(page.getByTestId('summary-p99')).toBeVisible({ timeout: 60_000 });
      await page.locator('[data-testid=summary] [data-term=p99]').click();
      const glossary = page.getByTestId('glossary');
      await expect(glossary).toBeVisible();
      await expect(page.getByTestId('glossary-p99')).toBeInViewport();
      await expect(page.getByTestId('glossary-p99')).toHaveClass(/current/);
      await expect(page.getByTestId('glossary-p99')).toContainText('99 %');
      await page.screenshot({ path: `${SCREENSHOT_DIR}glossary-${size.width}x${size.height}.png` });
      await page.keyboard.press('Escape');
      await expect(glossary).toHaveCount(0);

      // The summary's and the charts' terms each open their entry from the page.
      for (const term of ['goodput', 'jain', 'p99', 'cov', 'offered-load', 'markov-model', 'mathis-padhye', 'ecn']) {
        await page.locator(`[data-term=${term}]`).first().click();
        await expect(page.getByTestId(`glossary-${term}`)).toHaveClass(/current/);
        await page.getByTestId('glossary-close').click();
      }
    });
  }
});
