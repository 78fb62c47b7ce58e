import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFile } from 'node:fs/promises';
import { SCREENSHOT_DIR, dumbbell, linkFor, openInNewPage, pointsOf, setSpeed, waitForSimTime, watchForErrors } from './helpers';

/** Two TCP flows beside a Poisson source, Drop Tail with a large buffer: it drops nothing for a while, RED drops early. */
function bloatScenario(): Record<string, unknown> {
  const flows = [
    { kind: 'tcp', label: 'TCP', count: 2 },
    { kind: 'poisson', label: 'Poisson', count: 1, rate_bps: 3_000_000, packet_bytes: 1000 },
  ];
  const rest = { name: 'Compare: Drop Tail or RED', seed: 11, duration_s: 300, measure_from_s: 2, flows };
  return dumbbell({ rate_bps: 10_000_000, delay_ms: 10, packets: 1000 }, { scheme: 'droptail' }, rest);
}

type Csv = { header: string[]; rows: number[][] };

async function exportCsv(page: Page, item: string): Promise<Csv> {
  await page.getByTestId('export-toggle').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(item).click()]);
  const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\n');
  return { header: lines[0].split(','), rows: lines.slice(1).map((line) => line.split(',').map(Number)) };
}

function column(csv: Csv, name: string): number[] {
  const i = csv.header.indexOf(name);
  expect(i, `column ${name}`).toBeGreaterThanOrEqual(0);
  return csv.rows.map((row) => row[i]);
}

/** Wait until the rows both runs hold stop changing (the last batches are on their way after a pause). */
async function settledRows(page: Page): Promise<[number, number]> {
  let held = '';
  await expect
    .poll(async () => {
      const charts = page.getByTestId('compare-charts');
      const now = `${await charts.getAttribute('data-rows-a')}/${await charts.getAttribute('data-rows-b')}`;
      const previous = held;
      held = now;
      return now === previous && !now.startsWith('0/');
    })
    .toBe(true);
  const [a, b] = held.split('/').map(Number);
  return [a, b];
}

test('compare mode runs two schemes on the same arrivals until they part, with a filled summary table', async ({ page, context }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(bloatScenario(), '&view=queue,goodput&window=30&compare=red'));
  await expect(page.getByTestId('compare-area')).toBeVisible();
  await setSpeed(page, '10');
  await waitForSimTime(page, 9);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  const [rowsA, rowsB] = await settledRows(page);

  // The page's own record of both runs, as files.
  const dropTail = await exportCsv(page, 'export-timeseries');
  const red = await exportCsv(page, 'export-partner-timeseries');
  expect(dropTail.rows.length).toBe(rowsA);
  expect(red.rows.length).toBe(rowsB);
  // Lockstep: both runs were paused together, within one scheduler stride.
  const lastA = dropTail.rows[rowsA - 1][0];
  const lastB = red.rows[rowsB - 1][0];
  expect(Math.abs(lastA - lastB)).toBeLessThan(0.5);

  // Same scenario and seed: identical samples until RED first drops a packet.
  const tA = column(dropTail, 't_s');
  const tB = column(red, 't_s');
  const redDrops = ['drops_early', 'drops_forced', 'drops_overflow'].map((c) => column(red, c));
  const firstDrop = tB.findIndex((_, i) => redDrops.some((d) => d[i] > 0));
  expect(firstDrop, 'RED drops something in 9 s').toBeGreaterThan(0);
  expect(
    column(dropTail, 'drops_overflow')
      .slice(0, firstDrop + 1)
      .every((d) => d === 0),
  ).toBe(true);
  expect(firstDrop, 'a stretch of identical samples before the first drop').toBeGreaterThanOrEqual(10);
  for (const name of ['t_s', 'queue_packets', 'queue_bytes', 'arrivals']) {
    expect(column(dropTail, name).slice(0, firstDrop), name).toEqual(column(red, name).slice(0, firstDrop));
  }
  // …and different runs after that: the queues part.
  const queueA = column(dropTail, 'queue_packets');
  const queueB = column(red, 'queue_packets');
  const common = Math.min(rowsA, rowsB);
  const firstDifference = queueA.findIndex((q, i) => i < common && q !== queueB[i]);
  expect(firstDifference).toBeGreaterThanOrEqual(firstDrop);
  expect(tA[firstDifference]).toBe(tB[firstDifference]);

  // The page says where they part: no later than the first differing queue sample, not before RED's first drop.
  const parting = page.getByTestId('compare-divergence');
  await expect(parting).toHaveAttribute('data-kind', 'diverged');
  const partedAt = Number(await parting.getAttribute('data-diverged-at'));
  expect(partedAt).toBeGreaterThanOrEqual(tB[firstDrop]);
  expect(partedAt).toBeLessThanOrEqual(tA[firstDifference]);

  // The delay-vs-goodput plot: per scheme, the mean over the complete 1 s intervals of the
  // measurement window (from t = 2 s) of each interval's mean delay and aggregate goodput.
  await page.getByTestId('chart-delay-goodput').scrollIntoViewIfNeeded();
  const clouds = page.getByTestId('delay-goodput-cloud');
  await expect(clouds).toHaveCount(2);
  const means: { delayMs: number; goodputMbps: number }[] = [];
  for (const [k, csv] of [dropTail, red].entries()) {
    const t = column(csv, 't_s');
    const delay = column(csv, 'queue_delay_ms');
    const goodput = csv.header.filter((h) => h.startsWith('goodput_bps.')).map((h) => column(csv, h));
    const complete = Math.floor(t[t.length - 1] - 2 + 1e-9);
    const intervals = Array.from({ length: complete }, () => ({ delay: 0, goodput: 0, n: 0 }));
    t.forEach((ti, i) => {
      const bin = Math.ceil(ti - 2 - 1e-9) - 1;
      if (bin < 0 || bin >= complete) return;
      intervals[bin].delay += delay[i];
      intervals[bin].goodput += goodput.reduce((sum, g) => sum + g[i], 0);
      intervals[bin].n += 1;
    });
    const filled = intervals.filter((b) => b.n > 0);
    const mean = {
      delayMs: filled.reduce((sum, b) => sum + b.delay / b.n, 0) / filled.length,
      goodputMbps: filled.reduce((sum, b) => sum + b.goodput / b.n, 0) / filled.length / 1e6,
    };
    means.push(mean);
    const cloud = clouds.nth(k);
    await expect(cloud).toHaveAttribute('data-points', String(filled.length));
    expect(Number(await cloud.getAttribute('data-mean-delay-ms'))).toBeCloseTo(mean.delayMs, 6);
    expect(Number(await cloud.getAttribute('data-mean-goodput-mbps'))).toBeCloseTo(mean.goodputMbps, 6);
  }
  expect(means[0].delayMs, 'Drop Tail queues far longer').toBeGreaterThan(5 * means[1].delayMs);
  await expect(page.getByTestId('delay-goodput-mean')).toHaveCount(2);

  // The summary table: both columns filled with numbers for every row.
  await expect(page.getByTestId('compare-name-a')).toHaveText('Drop Tail');
  await expect(page.getByTestId('compare-name-b')).toHaveText('RED');
  const rows = page.locator('[data-testid^=compare-row-]');
  // goodput, 2 groups, Jain, mean and p99 delay, the bottleneck's sojourn p50, p90 and p99.9, the TCP group's RTT percentiles, drops, marks
  const percentiles = ['sojourn-p50', 'sojourn-p90', 'sojourn-p999', 'rtt-0-p50', 'rtt-0-p90', 'rtt-0-p99', 'rtt-0-p999'];
  await expect(rows).toHaveCount(8 + percentiles.length);
  for (const id of ['goodput', 'group-0', 'group-1', 'jain', 'mean-delay', 'p99-delay', ...percentiles, 'drops', 'marks']) {
    for (const side of ['a', 'b']) await expect(page.getByTestId(`compare-${id}-${side}`)).toHaveText(/^[0-9][0-9,.]*( |$)/);
  }
  // A 1000-packet Drop Tail buffer fills up: RED's queueing delay is lower, and the table says so.
  await expect(page.getByTestId('compare-mean-delay-b')).toHaveAttribute('data-better', 'true');
  await expect(page.getByTestId('compare-mean-delay-a')).toHaveAttribute('data-better', 'false');
  await expect(page.getByTestId('compare-mean-delay-b')).toContainText('(better)');
  await expect(page.getByTestId('compare-sojourn-p50-b')).toHaveAttribute('data-better', 'true');
  await expect(page.getByTestId('compare-rtt-0-p50-b')).toHaveAttribute('data-better', 'true');
  await expect(page.getByTestId('compare-marks-a')).toHaveAttribute('data-better', 'false');
  await expect(page.getByTestId('compare-marks-b')).toHaveAttribute('data-better', 'false');

  // The charts draw both runs; the delay-vs-goodput plot has a cloud and a mean per scheme.
  await expect(page.locator('[data-testid=compare-queue] path.series')).toHaveCount(2);
  for (const path of await page.locator('[data-testid=compare-queue] path.series').all()) expect(await pointsOf(path)).toBeGreaterThan(50);
  for (const cloud of await clouds.all()) expect(await pointsOf(cloud)).toBeGreaterThanOrEqual(5);
  // The TCP flows' mean congestion window, one line per run.
  await page.getByTestId('compare-cwnd').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-testid=compare-cwnd] path.series')).toHaveCount(2);
  for (const path of await page.locator('[data-testid=compare-cwnd] path.series').all()) expect(await pointsOf(path)).toBeGreaterThan(10);
  // The TCP group's mean RTT, one line per run; Drop Tail's standing queue makes it the longer.
  await page.getByTestId('compare-rtt').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-testid=compare-rtt] path.series')).toHaveCount(2);
  for (const path of await page.locator('[data-testid=compare-rtt] path.series').all()) expect(await pointsOf(path)).toBeGreaterThan(10);
  // The box plot: each run's queueing delay at the bottleneck.
  await page.getByTestId('compare-box').scrollIntoViewIfNeeded();
  await expect(page.locator('[data-testid=compare-box] .delay-box')).toHaveCount(2);

  // The transport drives both runs: one step advances each by 0.1 s, 10 samples.
  await page.getByTestId('step').click();
  await expect
    .poll(async () => {
      const charts = page.getByTestId('compare-charts');
      return Math.min(Number(await charts.getAttribute('data-rows-a')) - rowsA, Number(await charts.getAttribute('data-rows-b')) - rowsB);
    })
    .toBeGreaterThanOrEqual(9);
  await expect(page.getByTestId('play-pause')).toHaveText('Play');
  const [steppedA, steppedB] = await settledRows(page);
  for (const added of [steppedA - rowsA, steppedB - rowsB]) expect(added).toBeGreaterThanOrEqual(9);
  for (const added of [steppedA - rowsA, steppedB - rowsB]) expect(added).toBeLessThanOrEqual(11);

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOT_DIR}compare-1280x720.png` });
  await page.setViewportSize({ width: 1280, height: 1500 });
  await page.screenshot({ path: `${SCREENSHOT_DIR}compare-full-page.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });

  // The share link carries the partner and reopens compare mode.
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(new URL(link).hash).toContain('compare=red');
  const { opened, openedErrors } = await openInNewPage(context, link);
  await expect(opened.getByTestId('compare-area')).toBeVisible();
  await expect(opened.getByTestId('compare-picker')).toHaveValue('red');
  await waitForSimTime(opened, 3);
  await expect(opened.getByTestId('compare-name-b')).toHaveText('RED');
  expect(openedErrors).toEqual([]);
  expect(errors).toEqual([]);
});

test('an unknown compare partner is named; compare mode is entered and left from the keyboard', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(bloatScenario(), '&compare=no_such_scheme'));
  await expect(page.getByTestId('link-notice')).toContainText('“no_such_scheme”');
  await expect(page.getByTestId('compare-area')).toHaveCount(0);
  await expect(page.getByTestId('charts')).toBeVisible();
  await waitForSimTime(page, 1);

  await page.getByTestId('compare-picker').selectOption('codel');
  await page.getByTestId('compare-start').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('compare-area')).toBeVisible();
  await expect(page.getByTestId('compare-leave')).toBeVisible();
  // Entering compare mode restarts both runs together from t = 0.
  await expect(page.getByTestId('compare-divergence')).toContainText('CoDel');
  await waitForSimTime(page, 1);
  await page.getByTestId('compare-leave').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('compare-area')).toHaveCount(0);
  await expect(page.getByTestId('charts')).toBeVisible();
  // The single run carries on.
  const before = Number(await page.getByTestId('sim-time').getAttribute('data-seconds'));
  await waitForSimTime(page, before + 0.5);
  expect(errors).toEqual([]);
});
