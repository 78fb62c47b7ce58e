// Any screen: phones get one section at a time with the transport docked,
// desktops the sidebar beside the charts; nothing scrolls sideways.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, waitForSimTime, watchForErrors } from './helpers';

const PHONE = { width: 390, height: 844 };

/** How far the page scrolls sideways (0 when it fits). */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

async function insideViewport(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y >= 0 && box.y + box.height <= viewport.height && box.x >= 0 && box.x + box.width <= viewport.width;
}

test.describe('phone, 390×844, touch', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('charts first at full width, transport docked, controls one tab away, no sideways scrolling', async ({ page }) => {
    const errors = watchForErrors(page);
    await page.goto('/');
    await waitForSimTime(page, 1);
    expect(await sidewaysOverflow(page)).toBe(0);

    // The first chart starts on the first screen, not below the controls, and spans the width.
    const queueChart = page.getByTestId('chart-queue');
    const chartBox = await queueChart.boundingBox();
    expect(chartBox).not.toBeNull();
    expect(chartBox!.y).toBeLessThan(PHONE.height / 2);
    expect(chartBox!.width).toBeGreaterThan(PHONE.width - 40);
    // The controls are on their own tab.
    await expect(page.getByTestId('scheme-picker')).toBeHidden();
    // The transport stays on screen however far the page scrolls.
    expect(await insideViewport(page, 'play-pause')).toBe(true);
    await page.getByTestId('chart-rate').scrollIntoViewIfNeeded();
    expect(await insideViewport(page, 'play-pause')).toBe(true);
    await page.screenshot({ path: `${SCREENSHOT_DIR}phone-charts-390x844.png` });

    // A tap on a chart shows its values, and they stay after the finger lifts.
    await queueChart.scrollIntoViewIfNeeded();
    const plot = page.locator('[data-testid=chart-queue] .hover-target');
    const plotBox = await plot.boundingBox();
    await page.touchscreen.tap(plotBox!.x + plotBox!.width * 0.1, plotBox!.y + plotBox!.height / 2);
    await expect(page.getByTestId('chart-queue-tooltip')).toBeVisible();
    await expect(page.getByTestId('chart-queue-tooltip')).toContainText(/queue\s*[0-9]/);

    await page.getByTestId('pane-controls').tap();
    await expect(page.getByTestId('scheme-picker')).toBeVisible();
    await expect(page.getByTestId('chart-queue')).toBeHidden();
    expect(await insideViewport(page, 'play-pause')).toBe(true);
    expect(await sidewaysOverflow(page)).toBe(0);

    // A slider follows a tap: max_p's value changes to where the finger lands.
    const slider = page.getByTestId('param-max_p');
    await slider.scrollIntoViewIfNeeded();
    const before = await slider.inputValue();
    const sliderBox = await slider.boundingBox();
    await page.touchscreen.tap(sliderBox!.x + sliderBox!.width * 0.8, sliderBox!.y + sliderBox!.height / 2);
    await expect.poll(() => slider.inputValue()).not.toBe(before);
    await expect(page.getByTestId('param-max_p-error')).toHaveCount(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}phone-controls-390x844.png` });

    await page.getByTestId('pane-charts').tap();
    await expect(page.getByTestId('chart-queue')).toBeVisible();
    expect(errors).toEqual([]);
  });
});

test('desktop, 1280×720: sidebar beside the charts, no tabs, no sideways scrolling', async ({ page }) => {
  await page.goto('/');
  await waitForSimTime(page, 1);
  expect(await sidewaysOverflow(page)).toBe(0);
  await expect(page.getByTestId('pane-charts')).toBeHidden();
  const picker = await page.getByTestId('scheme-picker').boundingBox();
  const chart = await page.getByTestId('chart-queue').boundingBox();
  expect(picker!.x + picker!.width).toBeLessThan(chart!.x);
  expect(chart!.y).toBeLessThan(720);
  expect(await insideViewport(page, 'play-pause')).toBe(true);
});

for (const size of [
  { name: 'small phone', width: 360, height: 740 },
  { name: 'tablet', width: 820, height: 1180 },
  { name: '4K projector', width: 3840, height: 2160 },
]) {
  test(`${size.name}, ${size.width}×${size.height}: fits the width and shows a chart on the first screen`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/');
    await waitForSimTime(page, 1);
    expect(await sidewaysOverflow(page)).toBe(0);
    const chart = await page.getByTestId('chart-queue').boundingBox();
    expect(chart!.y + 100).toBeLessThan(size.height);
    expect(await insideViewport(page, 'play-pause')).toBe(true);
    await page.screenshot({ path: `${SCREENSHOT_DIR}layout-${size.width}x${size.height}.png` });
  });
}
