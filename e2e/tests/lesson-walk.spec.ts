// Every step of every lesson, as a student meets it: the step opens on its
// own experiment, paused at t = 0, with the charts its text talks about
// first; no answer shows before the step's own run has finished; and every
// number in the answer is the finished run's (the summary file it exports),
// filled in by the lesson's own template.

import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFileSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Lesson, LessonStep } from '../../web/src/lessons/format';
import { fillTemplate, formatMeasured, judge, measureValue, type Answer } from '../../web/src/lessons/template';
import { parseRichText } from '../../web/src/glossary/richText';
import { SCREENSHOT_DIR, axisLabelReport, expectChartsLaidOut, setSpeed, showPane, watchForErrors } from './helpers';

const LESSON_DIR = fileURLToPath(new URL('../../lessons/', import.meta.url));

function lessonFile(id: string): Omit<Lesson, 'id'> {
  return JSON.parse(readFileSync(`${LESSON_DIR}${id}.json`, 'utf8')) as Omit<Lesson, 'id'>;
}

const LESSON_IDS = readdirSync(LESSON_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((name) => name.replace(/\.json$/, ''))
  .sort();

/** What the page shows for lesson text: glossary links read as their words. */
function plain(text: string): string {
  return parseRichText(text)
    .map((part) => part.text)
    .join('');
}

async function exportedSummary(page: Page): Promise<unknown> {
  await showPane(page, 'charts');
  await page.getByTestId('export-toggle').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-summary').click()]);
  return JSON.parse(await readFile(await download.path(), 'utf8'));
}

/** An answer of the student's: the first option, or 10 of the unit. */
async function predict(page: Page, step: LessonStep): Promise<Answer> {
  if (step.predict.kind === 'choice') {
    await page.getByTestId('prediction-option-0').check();
    return { kind: 'choice', option: 0 };
  }
  await page.getByTestId('prediction-number').fill('10');
  return { kind: 'number', value: 10 };
}

type Outcome = 'finished' | 'an answer showed while the step was still running' | 'the step did not finish';

/**
 * Run the step and watch it to its end: the reveal must not exist while the
 * transport says the run goes on. Watched in the page at every change of its
 * document, so no state between two looks goes unseen; returns how many times
 * it was looked at.
 */
async function runWatchingForEarlyAnswers(page: Page): Promise<number> {
  await page.getByTestId('lesson-run').click();
  await setSpeed(page, 'max');
  const { looks, outcome } = await page.evaluate(
    (timeoutMs) =>
      new Promise<{ looks: number; outcome: Outcome }>((resolve) => {
        let looks = 0;
        const end = (outcome: Outcome) => {
          observer.disconnect();
          clearTimeout(deadline);
          resolve({ looks, outcome });
        };
        // The transport's state and the answer are read in one turn of the page, so the run cannot end between the two readings.
        const look = () => {
          looks += 1;
          const state = document.querySelector('[data-testid=play-pause]')?.textContent ?? '';
          if (state === 'Finished') end('finished');
          else if (document.querySelectorAll('[data-testid=lesson-reveal]').length > 0) end('an answer showed while the step was still running');
        };
        const observer = new MutationObserver(look);
        const deadline = setTimeout(() => end('the step did not finish'), timeoutMs);
        observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        look();
      }),
    80_000,
  );
  expect(outcome).toBe('finished');
  return looks;
}

const PHONE = { name: 'phone', viewport: { width: 390, height: 844 }, present: false };
const PROJECTOR = { name: 'projector, present mode', viewport: { width: 1920, height: 1080 }, present: true };
type Size = typeof PHONE;

/**
 * Lessons whose every step's chart labels the desktop walk checks at other
 * sizes too, on the step's finished run: at a phone's size and on a
 * projector in present mode (the phone and projector tests below walk one
 * step each, for what else depends on the size).
 */
const OTHER_SIZES: Record<string, Size[]> = { 'global-sync': [PHONE], 'bbr-deep-buffer': [PHONE], bufferbloat: [PROJECTOR] };

async function setPresent(page: Page, on: boolean): Promise<void> {
  await page.getByTestId('toggle-present').click();
  await expect(page.getByTestId('toggle-present')).toHaveAttribute('aria-pressed', String(on));
}

/** The step's finished charts at other sizes: no label on another or cut off by the chart's edge. */
async function expectClearLabelsAtOtherSizes(page: Page, title: string, sizes: Size[]): Promise<void> {
  if (sizes.length === 0) return;
  const desktop = page.viewportSize()!;
  for (const size of sizes) {
    await page.setViewportSize(size.viewport);
    if (size.present) await setPresent(page, true);
    await showPane(page, 'charts');
    await expectChartsLaidOut(page);
    const labels = await axisLabelReport(page);
    expect(labels.problems, `${title}: chart labels (${size.name})`).toEqual([]);
    if (size.present) await setPresent(page, false);
  }
  await page.setViewportSize(desktop);
}

async function walkStep(page: Page, lesson: Omit<Lesson, 'id'>, index: number, earlier: unknown[], otherSizes: Size[] = []): Promise<void> {
  const step = lesson.steps[index];
  await showPane(page, 'lesson');
  await expect(page.getByTestId('step-title')).toHaveText(step.title);
  await expect(page.getByTestId('lesson-reveal')).toHaveCount(0);
  // Staged: the step's own experiment at t = 0, paused, its first chart on top.
  await expect(page.getByTestId('experiment-name')).toHaveText(/./);
  await expect(page.getByTestId('sim-time')).toHaveAttribute('data-seconds', '0');
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  const charts = step.setup.charts;
  if (charts) {
    await expect(page.locator('[data-testid=charts] [data-testid^=chart-]').first()).toHaveAttribute('data-testid', `chart-${charts[0]}`);
  }

  const answer = await predict(page, step);
  const looks = await runWatchingForEarlyAnswers(page);
  expect(looks).toBeGreaterThan(0);
  const summary = await exportedSummary(page);
  // The step's charts, finished, with no label on another or cut off by the chart's edge.
  const labels = await axisLabelReport(page);
  expect(labels.problems, `${step.title}: chart labels`).toEqual([]);
  await expectClearLabelsAtOtherSizes(page, step.title, otherSizes);

  await showPane(page, 'lesson');
  const value = measureValue(step.predict.measure, summary);
  expect(value, `${step.title}: the measure has a value`).toBeDefined();
  const verdict = judge(step.predict, answer, value!);
  await expect(page.getByTestId('lesson-verdict')).toHaveText(`${verdict.right ? 'Right.' : 'Not quite.'} ${verdict.sentence}`);
  await expect(page.getByTestId('lesson-reveal')).toHaveAttribute('data-right', String(verdict.right));
  const filled = fillTemplate(step.reveal, { current: summary, earlier }, formatMeasured(step.predict.measure, value!));
  expect(filled.missing, `${step.title}: every placeholder has a value`).toEqual([]);
  await expect(page.getByTestId('lesson-reveal').locator('p').nth(1)).toHaveText(plain(filled.text));
  earlier.push(summary);
}

async function openLesson(page: Page, id: string): Promise<void> {
  await page.goto('/');
  await page.getByTestId('open-lessons').click();
  await page.getByTestId(`lesson-pick-${id}`).click();
}

async function walkLesson(page: Page, id: string): Promise<void> {
  const lesson = lessonFile(id);
  await openLesson(page, id);
  const earlier: unknown[] = [];
  for (let i = 0; i < lesson.steps.length; i++) {
    await walkStep(page, lesson, i, earlier, OTHER_SIZES[id]);
    if (i < lesson.steps.length - 1) await page.getByTestId('lesson-next').click();
  }
}

test.describe('desktop, every lesson', () => {
  for (const id of LESSON_IDS) {
    test(`${id}: each step opens paused on its own experiment and is answered only by its finished run`, async ({ page }) => {
      test.setTimeout(60_000 + lessonFile(id).steps.length * 90_000);
      const errors = watchForErrors(page);
      await walkLesson(page, id);
      expect(errors).toEqual([]);
    });
  }
});

test('“Run it again”: the answer goes until the new run has finished, and then it is the new run’s', async ({ page }) => {
  test.setTimeout(200_000);
  const errors = watchForErrors(page);
  await openLesson(page, 'red-drop-curve');
  await walkStep(page, lessonFile('red-drop-curve'), 0, []);
  // A slider moved after the end: the page offers to run again; the step's answer stays.
  await page.getByTestId('param-max_p-value').fill('0.2');
  await page.getByTestId('param-max_p-value').press('Enter');
  await expect(page.getByTestId('run-again-offer')).toContainText('max_p = 0.2');
  await expect(page.getByTestId('lesson-reveal')).toHaveCount(1);
  // The step's own "Run it again" withdraws the answer until its new run ends.
  await expect(page.getByTestId('lesson-run')).toHaveText('Run it again');
  const looks = await runWatchingForEarlyAnswers(page);
  expect(looks).toBeGreaterThan(0);
  const summary = (await exportedSummary(page)) as { queue: { mean_packets: number } };
  await expect(page.getByTestId('lesson-verdict')).toContainText(`it was ${summary.queue.mean_packets.toFixed(1)} packets`);
  expect(errors).toEqual([]);
});

// At a phone's size and on a projector in present mode, one step walked for
// what depends on the size besides the charts' labels (the panes, the answer
// above the docked transport, present mode's layout); the desktop walk checks
// every step's labels at these sizes (OTHER_SIZES).
test.describe('phone, 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('bbr-deep-buffer, its first step', async ({ page }) => {
    test.setTimeout(150_000);
    const errors = watchForErrors(page);
    await openLesson(page, 'bbr-deep-buffer');
    await walkStep(page, lessonFile('bbr-deep-buffer'), 0, []);
    await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-walk-bbr-phone.png` });
    // The whole answer is in view, above the transport docked at the bottom.
    await expect
      .poll(async () => {
        const reveal = await page.getByTestId('lesson-reveal').boundingBox();
        const dock = await page.locator('.dock').boundingBox();
        return reveal && dock ? dock.y - (reveal.y + reveal.height) : -1;
      })
      .toBeGreaterThanOrEqual(0);
    expect(errors).toEqual([]);
  });
});

test.describe('projector, 1920×1080, present mode', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('bufferbloat, its first step', async ({ page }) => {
    test.setTimeout(150_000);
    const errors = watchForErrors(page);
    await page.goto('/');
    await page.getByTestId('toggle-present').click();
    await page.getByTestId('open-lessons').click();
    await page.getByTestId('lesson-pick-bufferbloat').click();
    await walkStep(page, lessonFile('bufferbloat'), 0, []);
    await page.screenshot({ path: `${SCREENSHOT_DIR}lesson-walk-projector.png` });
    expect(errors).toEqual([]);
  });
});
