import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, pauseAtSimTime, redDumbbell, setSpeed, showPane, watchForErrors } from './helpers';

const RED_TCP = redDumbbell(
  { rate_bps: 10_000_000, delay_ms: 10, packets: 60 },
  { min_th: 5, max_th: 15, max_p: 0.1 },
  { name: 'Eight TCP flows through RED', seed: 1, duration_s: 30, measure_from_s: 5, flows: [{ kind: 'tcp', label: 'TCP', count: 8, start_s: [0, 1] }] },
);

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`a click on a drop explains it in words and numbers and marks it on the curve (${name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(linkFor(RED_TCP, '&view=queue,curve,rate&window=0'));
    await showPane(page, 'charts');
    const panel = page.getByTestId('decision-panel');
    await expect(panel).toContainText('pause the run to see its drops and marks');
    await setSpeed(page, '5');
    await pauseAtSimTime(page, 4);

    // Paused: every kept drop is marked above the queue chart; the panel stays one line until one is picked.
    await expect(panel).toContainText('click a mark above the queue or drop-rate chart');
    const marks = page.getByTestId('chart-queue').getByTestId('decision-mark');
    await expect(marks.first()).toBeVisible();
    expect(await marks.count()).toBeGreaterThan(10);
    // A click above the chart picks the drop or mark nearest in time.
    const markBox = await marks.nth(3).boundingBox();
    if (!markBox) throw new Error('the mark has no box');
    const strip = page.getByTestId('chart-queue').getByTestId('decision-strip');
    const stripBox = await strip.boundingBox();
    if (!stripBox) throw new Error('the strip has no box');
    await strip.click({ position: { x: markBox.x + markBox.width / 2 - stripBox.x, y: stripBox.height / 2 } });
    const selectedMark = page.getByTestId('chart-queue').locator('[data-selected]');
    await expect(selectedMark).toHaveCount(1);
    const index = Number(await selectedMark.getAttribute('data-index'));
    await expect(page.getByTestId('decision-position')).toHaveText(new RegExp(`^decision ${index + 1} of \\d+$`));
    expect(Math.abs(Number(await selectedMark.getAttribute('data-t')) - Number(await marks.nth(3).getAttribute('data-t')))).toBeLessThan(0.5);
    const headline = page.getByTestId('decision-headline');
    await expect(headline).toContainText(/^RED (dropped|ECN-marked) packet \d+ of flow \d+/);
    const reason = await headline.getAttribute('data-reason');
    const explanation = page.getByTestId('decision-explanation');
    if (reason === 'early') {
      await expect(explanation).toContainText('The average queue was');
      await expect(explanation).toContainText('fell below p_a');
    }
    const numbers = page.getByTestId('decision-numbers');
    for (const field of ['avg', 'count', 'p_b', 'p_a', 'draw']) await expect(numbers.locator(`tr[data-field="${field}"]`)).toBeVisible();

    // The curve shows where the decision sat: at its average queue and p_b.
    const point = page.getByTestId('chart-curve').getByTestId('decision-point');
    await expect(point).toBeVisible();
    const avgText = await numbers.locator('tr[data-field="avg"] td').last().textContent();
    expect(Number(await point.getAttribute('data-x'))).toBeCloseTo(Number((avgText ?? '').split(' ')[0]), 2);

    // `]` and `[` step to the next and previous decision.
    await page.keyboard.press(']');
    await expect(page.getByTestId('decision-position')).toHaveText(new RegExp(`^decision ${index + 2} of`));
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    await expect(page.getByTestId('decision-position')).toHaveText(new RegExp(`^decision ${index} of`));

    // The panel fits the screen.
    const box = await panel.boundingBox();
    if (!box) throw new Error('the decision panel has no box');
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
    await panel.screenshot({ path: `${SCREENSHOT_DIR}inspector-${name}.png` });
    expect(errors).toEqual([]);
  });

  test(`FRED's decisions sit on its curve, DRR's are told in its terms, the marks answer the keyboard and clear the buffer label (${name})`, async ({
    page,
  }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    const pause = async (scheme: string) => {
      await page.goto(linkFor({ ...RED_TCP, queue: { scheme } }, '&view=queue,curve,rate&window=0'));
      await showPane(page, 'charts');
      await setSpeed(page, '5');
      await pauseAtSimTime(page, 4);
    };
    await pause('fred');
    await page.keyboard.press(']');
    const point = page.getByTestId('chart-curve').getByTestId('decision-point');
    await expect(point).toBeVisible();
    const avgText = await page.getByTestId('decision-numbers').locator('tr[data-field="avg"] td').last().textContent();
    expect(Number(await point.getAttribute('data-x'))).toBeCloseTo(Number((avgText ?? '').split(' ')[0]), 2);
    expect(Number(await point.getAttribute('data-p'))).toBeGreaterThanOrEqual(0);

    // DRR fills its 60-packet buffer: the buffer's line tops the queue chart, and its label moves under it, clear of the marks.
    await pause('drr');
    const strip = page.getByTestId('chart-queue').getByTestId('decision-strip');
    await expect(strip).toHaveAttribute('aria-label', /\d+ drops? (and|or) marks? in view/);
    await strip.focus();
    await page.keyboard.press('End');
    await expect(page.getByTestId('chart-queue').locator('[data-selected]')).toHaveCount(1);
    await expect(page.getByTestId('decision-explanation')).toContainText('DRR drops the head packet of the longest flow queue');
    const last = await page.getByTestId('decision-position').textContent();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('decision-position')).not.toHaveText(last ?? '');
    await expect(strip).toHaveAttribute('aria-label', /selected/);
    const label = page.getByTestId('chart-queue').locator('.threshold-label', { hasText: /^buffer 60$/ });
    const labelBox = await label.boundingBox();
    const stripBox = await strip.boundingBox();
    if (!labelBox || !stripBox) throw new Error('no buffer label or strip');
    expect(labelBox.y).toBeGreaterThanOrEqual(stripBox.y + stripBox.height - 0.5);
    await page.getByTestId('chart-queue').screenshot({ path: `${SCREENSHOT_DIR}inspector-buffer-label-${name}.png` });
    expect(errors).toEqual([]);
  });
}
