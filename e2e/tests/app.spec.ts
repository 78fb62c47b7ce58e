import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, clockShown, inkColumns, linkFor, pointsOf, poissonScenario, recordClock, setSpeed, waitForSimTime, watchForErrors } from './helpers';

test('the default experiment runs and every chart draws data', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await expect(page.getByTestId('experiment-name')).not.toBeEmpty();
  await waitForSimTime(page, 2);

  // Rendered data, not just elements: every line's record on its chart's canvas carries the points drawn.
  await expect.poll(() => pointsOf(page.getByTestId('queue-line'))).toBeGreaterThan(50);
  await expect.poll(() => pointsOf(page.getByTestId('probe-line-avg'))).toBeGreaterThan(50);
  // And the canvas holds them: the queue's blue spans the columns of the 2+ s of data (of a 30 s window).
  await expect.poll(() => inkColumns(page, 'chart-queue', '#0072B2')).toBeGreaterThan(30);
  // Charts below the fold draw once they are scrolled into view (and those scrolled away stop).
  await page.getByTestId('chart-rate').scrollIntoViewIfNeeded();
  await expect.poll(() => pointsOf(page.getByTestId('drop-rate-line'))).toBeGreaterThan(5);
  await expect.poll(() => pointsOf(page.getByTestId('curve-line'))).toBeGreaterThan(10);
  await expect.poll(() => pointsOf(page.locator('[data-testid=chart-goodput] .goodput-line'))).toBeGreaterThan(5);
  // RED's thresholds are drawn (horizontal lines: zero height, so counted rather than "visible").
  await expect(page.locator('[data-threshold=min_th]')).toHaveCount(1);
  await expect(page.locator('[data-threshold=max_th]')).toHaveCount(1);

  // Past the measurement window the bars and the summary fill in.
  await setSpeed(page, '10');
  await waitForSimTime(page, 15);
  await expect.poll(() => pointsOf(page.locator('[data-testid=chart-bars] .bars'))).toBeGreaterThan(0);
  await expect(page.getByTestId('summary-utilization')).toBeVisible();
  await expect(page.getByTestId('event-rate')).not.toHaveText(/^0 events/);

  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  await page.screenshot({ path: `${SCREENSHOT_DIR}main-1280x720.png` });
  // A tall viewport puts every chart on screen for the full-page picture.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}main-full-page.png`, fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}main-1920x1080.png` });
  expect(errors).toEqual([]);
});

test('pause stops the clock, step advances it, and the window scrolls back', async ({ page }) => {
  // An hour-long run: however busy the machine, it is still running when Pause is clicked.
  await page.goto(linkFor(poissonScenario({ duration_s: 3600 }), '&window=30'));
  await setSpeed(page, '10');
  await waitForSimTime(page, 32);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  const paused = Number(await page.getByTestId('sim-time').getAttribute('data-seconds'));
  await recordClock(page);

  await page.getByTestId('step').click();
  await expect.poll(async () => Number(await page.getByTestId('sim-time').getAttribute('data-seconds'))).toBeCloseTo(paused + 0.1, 5);
  // The step ends by itself: the run is paused again, not spinning.
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  // Paused, the clock stood still until the step, which moved it on from where it stood by no more than its 0.1 s.
  const shown = await clockShown(page);
  expect(shown.length, 'the step was seen on the clock').toBeGreaterThan(0);
  expect(shown.filter((s) => !s.stepped)).toEqual([]);
  for (const { seconds } of shown) expect(seconds > paused && seconds <= paused + 0.1 + 1e-9, `the clock showed ${seconds} s`).toBe(true);

  // Scroll the 30 s window back to the start of the run.
  const scroll = page.getByTestId('scroll-back');
  await scroll.focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('follow-live')).toBeEnabled();
  const firstTick = page.locator('[data-testid=chart-queue] .axis text').first();
  await expect(firstTick).toHaveText('0');
  await page.getByTestId('follow-live').click();
  await expect(page.getByTestId('follow-live')).toBeDisabled();

  // Keyboard: Space toggles play when no control has focus.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect(page.getByTestId('play-pause')).toHaveText(/Pause|Finished/);
});

test('the preset gallery loads each preset', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-gallery').click();
  const presets = page.locator('[data-testid^=preset-]');
  expect(await presets.count()).toBeGreaterThanOrEqual(4);
  await page.screenshot({ path: `${SCREENSHOT_DIR}gallery.png` });
  await page.getByTestId('preset-red-vs-droptail-cbr').click();
  await expect(page.getByTestId('experiment-name')).toHaveText('32 TCP + 1 CBR on 1 Mb/s, RED');
  await waitForSimTime(page, 1);
  await expect(page.getByTestId('flow-group-1')).toBeVisible();
  expect(errors).toEqual([]);
});
