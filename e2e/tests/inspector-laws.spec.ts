import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, dumbbell, linkFor, setSpeed, showPane, simTime, waitForSimTime, watchForErrors } from './helpers';

// CoDel and PIE have no drop-probability curve: the inspector places their
// decisions on CoDel's control law and in PIE's probability and delay, and
// DualPI2's on its coupled curves. And the inspector's recording can be
// switched off.

const TCP_RUN = dumbbell(
  { rate_bps: 10_000_000, delay_ms: 10, packets: 200 },
  { scheme: 'codel' },
  // Long enough that a busy machine pauses it before its end.
  { name: 'Eight TCP flows on a 10 Mb/s link', seed: 1, duration_s: 300, measure_from_s: 5, flows: [{ kind: 'tcp', label: 'TCP', count: 8, start_s: [0, 1] }] },
);

/** Load `scheme` on the charts pane and pause it a few seconds in. */
async function pausedRun(page: Page, scheme: string, atS = 6): Promise<void> {
  await page.goto(linkFor({ ...TCP_RUN, queue: { scheme } }, '&view=queue,curve,rate&window=0'));
  await showPane(page, 'charts');
  await setSpeed(page, '5');
  await waitForSimTime(page, atS);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
}

/** Pick the newest drop or mark (`]`) and step back until one is placed on the chart, at most `tries` times. */
async function pickPlacedDecision(page: Page, tries = 20): Promise<void> {
  await page.keyboard.press(']');
  const point = page.getByTestId('chart-curve').getByTestId('decision-point');
  for (let i = 0; i < tries && (await point.count()) === 0; i++) await page.keyboard.press('[');
  await expect(point).toBeVisible();
}

const numberIn = async (page: Page, field: string) =>
  Number(((await page.getByTestId('decision-numbers').locator(`tr[data-field="${field}"] td`).last().textContent()) ?? '').split(' ')[0]);

for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 720 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`a CoDel drop sits on the control law at its count, its spacing interval / √count (${name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await pausedRun(page, 'codel');
    const chart = page.getByTestId('chart-curve');
    await expect(chart).toContainText("CoDel's control law");
    await expect(chart.getByTestId('law-line')).toHaveAttribute('data-interval-ms', '100');
    await pickPlacedDecision(page);
    await expect(page.getByTestId('decision-headline')).toContainText(/^CoDel (dropped|ECN-marked)/);
    const point = chart.getByTestId('decision-point');
    const count = Number(await point.getAttribute('data-count'));
    expect(count).toBe(await numberIn(page, 'count'));
    expect(Number(await point.getAttribute('data-gap-ms'))).toBeCloseTo(100 / Math.sqrt(count), 3);
    await expect(point).toContainText(`count ${count}`);
    const box = await chart.boundingBox();
    if (!box) throw new Error('the chart has no box');
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 0.5);
    await chart.screenshot({ path: `${SCREENSHOT_DIR}inspector-codel-${name}.png` });
    await page.getByTestId('decision-panel').screenshot({ path: `${SCREENSHOT_DIR}inspector-codel-panel-${name}.png` });
    expect(errors).toEqual([]);
  });

  test(`a PIE decision sits at its recorded p and queue delay, outside the quiet corner when it dropped (${name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await pausedRun(page, 'pie', 8);
    const chart = page.getByTestId('chart-curve');
    await expect(chart).toContainText("PIE's drop probability and queue delay");
    await expect(chart.getByTestId('pie-quiet')).toBeVisible();
    await pickPlacedDecision(page);
    const point = chart.getByTestId('decision-point');
    expect(Number(await point.getAttribute('data-p'))).toBeCloseTo(await numberIn(page, 'p'), 3);
    expect(Number(await point.getAttribute('data-qdelay-ms'))).toBeCloseTo(await numberIn(page, 'qdelay_ms'), 2);
    await expect(page.getByTestId('decision-explanation')).toContainText('The drop probability was p =');
    await chart.screenshot({ path: `${SCREENSHOT_DIR}inspector-pie-${name}.png` });
    expect(errors).toEqual([]);
  });

  test(`a DualPI2 drop of a classic packet sits on p′² (${name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await pausedRun(page, 'dualpi2', 8);
    const chart = page.getByTestId('chart-curve');
    await pickPlacedDecision(page);
    const point = chart.getByTestId('decision-point');
    const pPrime = Number(await point.getAttribute('data-x'));
    expect(pPrime).toBeCloseTo(await numberIn(page, 'p_prime'), 3);
    expect(Number(await point.getAttribute('data-p'))).toBeCloseTo(pPrime * pPrime, 6);
    await chart.screenshot({ path: `${SCREENSHOT_DIR}inspector-dualpi2-${name}.png` });
    expect(errors).toEqual([]);
  });

  test(`the inspector's recording switches off and on again (${name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(linkFor(TCP_RUN, '&view=queue,curve,rate&window=0'));
    await showPane(page, 'charts');
    const record = page.getByTestId('record-decisions');
    await expect(record).toBeChecked();
    await record.uncheck();
    await expect(page.getByTestId('decision-hint')).toContainText('recording is off');
    await expect(page.getByTestId('decision-hint')).toContainText('no packet can be explained');
    // The run started playing on load: what it decided before the switch reached the engine is kept.
    const offAtS = await simTime(page);
    await setSpeed(page, '5');
    await waitForSimTime(page, 6);
    await page.getByTestId('play-pause').click();
    await expect(page.getByTestId('play-pause')).toHaveText('Play');
    // Paused with recording off: no mark after the switch, and `]` picks none of that time.
    const marksWhileOff = page.getByTestId('chart-queue').locator(`[data-testid="decision-mark"]`);
    const times = await marksWhileOff.evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-t'))));
    // One simulated second of slack at real-time speed: the switch's message is on its way to the worker.
    expect(times.filter((t) => t > offAtS + 1)).toEqual([]);
    // Nor does `]` pick a decision of that time: at most one made before the switch reached the engine
    // (a packet let through, which draws no mark).
    await page.keyboard.press(']');
    const picked = page.getByTestId('decision-headline');
    if ((await picked.count()) > 0) {
      expect(Number(await picked.getAttribute('data-t'))).toBeLessThanOrEqual(offAtS + 1);
      await page.getByRole('button', { name: 'Close the explanation' }).click();
    }
    // On again: the decisions made from now on are kept.
    await record.check();
    await page.getByTestId('play-pause').click();
    await waitForSimTime(page, 9);
    await page.getByTestId('play-pause').click();
    await expect(page.getByTestId('play-pause')).toHaveText('Play');
    const marks = page.getByTestId('chart-queue').getByTestId('decision-mark');
    await expect(marks.first()).toBeVisible();
    const timesOnAgain = await marks.evaluateAll((all) => all.map((mark) => Number(mark.getAttribute('data-t'))));
    expect(Math.max(...timesOnAgain)).toBeGreaterThan(6);
    await page.getByTestId('decision-panel').screenshot({ path: `${SCREENSHOT_DIR}inspector-recording-${name}.png` });
    expect(errors).toEqual([]);
  });
}
