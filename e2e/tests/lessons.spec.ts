// Guided lessons: predict, run, and see the answer from the run's own numbers.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readdirSync } from 'node:fs';
import { SCREENSHOT_DIR, setSpeed, watchForErrors } from './helpers';

/** The first number in a text ("694 ms" → 694), without thousands separators. */
function firstNumber(text: string): number {
  const match = /-?[0-9][0-9,]*(\.[0-9]+)?/.exec(text);
  if (!match) throw new Error(`no number in “${text}”`);
  return Number(match[0].replace(/,/g, ''));
}

/** Every lesson file in the repository's lessons/ folder: the panel lists each. */
const LESSON_COUNT = readdirSync(new URL('../../lessons/', import.meta.url)).filter((name) => name.endsWith('.json')).length;

async function summaryNumber(page: Page, testId: string): Promise<number> {
  return firstNumber((await page.getByTestId(testId).textContent()) ?? '');
}

test.describe('phone, 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('a student runs a lesson end to end', async ({ page }) => {
    // Two whole runs at full speed, each allowed 80 s on a slow machine.
    test.setTimeout(200_000);
    const errors = watchForErrors(page);
    await page.goto('/');
    await page.getByTestId('open-lessons').tap();
    await expect(page.getByTestId('pane-lesson')).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('[data-testid^=lesson-pick-]')).toHaveCount(LESSON_COUNT);
    await page.getByTestId('lesson-pick-bufferbloat').tap();
    await expect(page).toHaveURL(/lesson=bufferbloat&step=1/);
    await expect(page.getByTestId('lesson-progress')).toHaveText('Step 1 of 3');

    // No running before predicting.
    await expect(page.getByTestId('lesson-run')).toBeDisabled();
    await page.getByTestId('prediction-option-1').tap(); // "10 to 100 ms"
    await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-phone-predict.png` });
    await page.getByTestId('lesson-run').tap();

    // The run shows on the charts tab, with the lesson one tap away.
    await expect(page.getByTestId('pane-charts')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('experiment-name')).toHaveText(/Bufferbloat/);
    await expect(page.getByTestId('lesson-strip')).toBeVisible();
    await setSpeed(page, 'max');
    await expect(page.getByTestId('play-pause')).toHaveText('Finished', { timeout: 80_000 });
    const meanDelayMs = await summaryNumber(page, 'summary-delay');
    await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-phone-finished.png` });
    await page.getByTestId('back-to-lesson').tap();

    // The answer: the prediction against the run's own mean delay.
    const verdict = page.getByTestId('lesson-verdict');
    await expect(verdict).toContainText('You predicted “10 to 100 ms”: it was');
    await expect(page.getByTestId('lesson-reveal')).toHaveAttribute('data-right', 'false');
    const revealed = firstNumber(((await verdict.textContent()) ?? '').split('it was')[1]);
    expect(revealed).toBe(Math.round(meanDelayMs));
    expect(meanDelayMs).toBeGreaterThan(500);
    await expect(verdict).toContainText('The right answer was “more than half a second”');
    // The prediction is locked in once the run started.
    await expect(page.getByTestId('prediction-option-0')).toBeDisabled();
    await page.getByTestId('lesson-reveal').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-phone-reveal.png` });

    // On to step 2: a fresh prediction; its reveal quotes step 1's run too.
    await page.getByTestId('lesson-next').tap();
    await expect(page).toHaveURL(/step=2/);
    await expect(page.getByTestId('lesson-run')).toBeDisabled();
    await page.getByTestId('prediction-option-2').tap(); // "95 % busy or more"
    await page.getByTestId('lesson-run').tap();
    await setSpeed(page, 'max');
    await expect(page.getByTestId('play-pause')).toHaveText('Finished', { timeout: 80_000 });
    const utilisation = await summaryNumber(page, 'summary-utilization');
    await page.getByTestId('back-to-lesson').tap();
    await expect(page.getByTestId('lesson-verdict')).toContainText(`it was ${utilisation.toFixed(1)} %`);
    await expect(page.getByTestId('lesson-reveal')).toContainText(`from ${Math.round(meanDelayMs)} ms to`);
    expect(errors).toEqual([]);
  });
});

test('desktop: a link opens a lesson at a step, paused before the prediction; a number prediction is judged against the run', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/#lesson=bufferbloat&step=3');
  await expect(page.getByTestId('lesson-progress')).toHaveText('Step 3 of 3');
  await expect(page.getByTestId('step-title')).toHaveText('PIE steers the delay to a target');
  // The step's own experiment, at t = 0 and paused: nothing to read off before predicting.
  await expect(page.getByTestId('experiment-name')).toHaveText(/PIE/);
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  await expect(page.getByTestId('sim-time')).toHaveAttribute('data-seconds', '0');
  await expect(page.getByTestId('prediction-tolerance')).toHaveText('Counted right within ±15 % of the measured value.');
  // The queue chart draws PIE's target on its delay axis, as it draws RED's thresholds.
  await expect(page.locator('[data-testid=chart-queue] [data-delay-target=target]')).toHaveCount(1);
  await expect(page.getByTestId('chart-queue')).toContainText('target delay = 15 ms');
  // Lesson and charts side by side.
  await expect(page.getByTestId('chart-queue')).toBeVisible();

  await page.getByTestId('prediction-number').fill('20');
  await page.getByTestId('lesson-run').click();
  await setSpeed(page, 'max');
  await expect(page.getByTestId('play-pause')).toHaveText('Finished', { timeout: 80_000 });
  const meanDelayMs = await summaryNumber(page, 'summary-delay');
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toContainText(`You predicted 20.0 ms: it was ${meanDelayMs.toFixed(1)} ms`);
  await expect(page.getByTestId('lesson-reveal')).toHaveAttribute('data-right', String(Math.abs(20 - meanDelayMs) <= 0.15 * meanDelayMs));
  // Steps that have not run in this visit are run out of sight and quoted with their own numbers.
  await expect(page.getByTestId('lesson-reveal')).toContainText(/CoDel: [0-9.]+ ms, Drop Tail: [0-9,]+ ms/);
  await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-desktop-1280x720.png` });

  // The share link keeps the lesson step.
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/lesson=bufferbloat&step=3/);
  expect(errors).toEqual([]);
});

test('a link to a lesson that does not exist says so', async ({ page }) => {
  await page.goto('/#lesson=no-such-lesson');
  await expect(page.getByTestId('link-notice')).toContainText('no-such-lesson');
  await expect(page.locator('[data-testid^=lesson-pick-]').first()).toBeVisible();
});
