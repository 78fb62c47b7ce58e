import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, poissonScenario, redDumbbell, runAtFullSpeed, setSpeed, waitUntilFinished, watchForErrors } from './helpers';

/** Requests that leave the preview server (a CDN font or script would). */
function watchForExternalRequests(page: Page): string[] {
  const external: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol)) external.push(request.url());
  });
  return external;
}

test('TCP flows get Mathis and Padhye predictions beside their bars, groups their fair share over time', async ({ page }) => {
  const errors = watchForErrors(page);
  const flows = [
    { kind: 'tcp', label: 'TCP', count: 4 },
    { kind: 'cbr', label: 'CBR', rate_bps: 1_000_000 },
  ];
  const rest = { name: 'Four TCP flows and a CBR through RED', seed: 3, duration_s: 40, measure_from_s: 10, flows };
  const scenario = redDumbbell({ rate_bps: 10_000_000, delay_ms: 20, packets: 100 }, { min_th: 10, max_th: 40 }, rest);
  await runAtFullSpeed(page, linkFor(scenario, '&view=bars,goodput&window=0'));

  const bars = page.getByTestId('chart-bars');
  await expect(bars.locator('.tcp-model.mathis')).toHaveCount(4);
  await expect(bars.locator('.tcp-model.padhye')).toHaveCount(4);
  const predictions = await bars.locator('.tcp-model').evaluateAll((marks) => marks.map((m) => Number(m.getAttribute('data-bps'))));
  for (const bps of predictions) expect(bps).toBeGreaterThan(0);
  for (const label of ['max-min fair share (theory)', 'Mathis (theory)', 'Padhye (theory)']) await expect(bars.locator('.legend')).toContainText(label);

  // Hovering a TCP bar compares the measurement with both predictions.
  const plot = bars.locator('.hover-target');
  const box = await plot.boundingBox();
  if (!box) throw new Error('the bars chart has no plot area');
  await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
  const tooltip = bars.locator('.tooltip');
  await expect(tooltip).toContainText('goodput');
  await expect(tooltip).toContainText('Mathis (theory)');
  await expect(tooltip).toContainText('Padhye (theory)');
  await bars.screenshot({ path: `${SCREENSHOT_DIR}theory-goodput-bars.png` });

  // Over time: one dashed fair-share level per group (per flow for TCP; the CBR, slower than its share, keeps its rate).
  const levels = page.locator('[data-testid=chart-goodput] [data-testid=fair-share-lines] line[data-bps]');
  await expect(levels).toHaveCount(2);
  const cbrShare = Number(await levels.nth(1).getAttribute('data-bps'));
  expect(cbrShare / 1e6).toBeGreaterThan(0.9);
  expect(cbrShare / 1e6).toBeLessThan(1.0001);
  await expect(page.getByTestId('chart-goodput').locator('.legend')).toContainText('max-min fair share (theory');
  await page.getByTestId('chart-goodput').screenshot({ path: `${SCREENSHOT_DIR}theory-goodput-over-time.png` });
  expect(errors).toEqual([]);
});

test('with 100 TCP flows the theory markers stay one per flow and the over-time chart shows group totals', async ({ page }) => {
  const errors = watchForErrors(page);
  const flows = [{ kind: 'tcp', label: 'TCP', count: 100, access_delay_ms: [1, 30] }];
  const rest = { name: 'A hundred TCP flows through RED', seed: 5, duration_s: 20, measure_from_s: 8, flows };
  const scenario = redDumbbell({ rate_bps: 20_000_000, delay_ms: 10, packets: 300 }, { min_th: 30, max_th: 120 }, rest);
  await runAtFullSpeed(page, linkFor(scenario, '&view=bars,goodput&window=0'));
  const bars = page.getByTestId('chart-bars');
  await expect(bars.locator('.bars rect')).toHaveCount(100);
  // Flows that lost nothing in the window have no prediction; every marker sits on a bar.
  expect(await bars.locator('.tcp-model.mathis').count()).toBeGreaterThan(50);
  const level = page.locator('[data-testid=chart-goodput] [data-testid=fair-share-lines] line[data-bps]');
  await expect(level).toHaveCount(1);
  // Group total: the 100 shares add up to the link's goodput capacity (20 Mb/s less headers).
  const total = Number(await level.getAttribute('data-bps'));
  expect(total / 20e6).toBeGreaterThan(0.9);
  expect(total / 20e6).toBeLessThan(1);
  await page.setViewportSize({ width: 1280, height: 720 });
  await bars.screenshot({ path: `${SCREENSHOT_DIR}theory-goodput-bars-100-flows.png` });
  await page.getByTestId('chart-goodput').screenshot({ path: `${SCREENSHOT_DIR}theory-goodput-over-time-100-flows.png` });
  expect(errors).toEqual([]);
});

test('RED and DSRED show the Markov model of drop probability against offered load, with the run on it', async ({ page }) => {
  const errors = watchForErrors(page);
  // Poisson arrivals at 94.8% of the link: the model's own assumption, bar deterministic service.
  await runAtFullSpeed(page, linkFor(poissonScenario({ duration_s: 60 }), '&view=markov,curve&window=0'));

  const chart = page.getByTestId('chart-markov');
  await expect(chart).toBeVisible();
  await expect(chart.locator('.chart-title')).toHaveText('Drop probability vs offered load — Markov model (theory)');
  await expect(chart.getByTestId('markov-line')).toHaveAttribute('data-points', '121');
  const measured = chart.locator('.measured-load');
  await expect(measured).toHaveCount(1);
  const load = Number(await measured.getAttribute('data-load'));
  expect(load).toBeGreaterThan(0.92);
  expect(load).toBeLessThan(0.98);
  await chart.screenshot({ path: `${SCREENSHOT_DIR}theory-markov-red.png` });

  await page.getByTestId('scheme-picker').selectOption('dsred');
  await setSpeed(page, 'max');
  await waitUntilFinished(page);
  await expect(chart.locator('.legend')).toContainText('DSRED Markov model (theory)');
  await chart.screenshot({ path: `${SCREENSHOT_DIR}theory-markov-dsred.png` });

  // Other schemes have no such model: the chart goes and its checkbox says why.
  await page.getByTestId('scheme-picker').selectOption('codel');
  await expect(page.getByTestId('show-markov')).toBeDisabled();
  await expect(chart).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the RED explainer typesets its drop rule with the bundled KaTeX', async ({ page }) => {
  const errors = watchForErrors(page);
  const external = watchForExternalRequests(page);
  await page.goto(linkFor(poissonScenario()));
  await page.getByTestId('explainer-rule-toggle').click();
  const formula = page.locator('#explainer-rule .explainer-formula');
  await expect(formula.locator('.katex').first()).toBeVisible();
  await expect(formula.locator('annotation')).toContainText('\\frac{p_b}{2 - \\mathit{count}\\cdot p_b}');
  // KaTeX's own fonts, served from the build, are in use.
  const katexFonts = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.family.replace(/"/g, '').startsWith('KaTeX') && f.status === 'loaded').length;
  });
  expect(katexFonts).toBeGreaterThan(0);
  await page.getByTestId('scheme-explainer').screenshot({ path: `${SCREENSHOT_DIR}theory-red-formula.png` });
  expect(external).toEqual([]);
  expect(errors).toEqual([]);
});
