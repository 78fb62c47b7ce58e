import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFile } from 'node:fs/promises';
import { SCREENSHOT_DIR, linkFor, pointsOf, setSpeed, waitForSimTime, watchForErrors } from './helpers';

/** The page shows flows one by one up to this many (PER_FLOW_LIMIT in web/src/engine/flowGroups.ts). */
const PER_FLOW_LIMIT = 200;

/** TCP flows in groups of the given sizes through RED on 10 Mb/s; the summary starts at 1 s. */
function tcpGroups(...counts: number[]): Record<string, unknown> {
  return {
    version: 1,
    name: `${counts.join(' + ')} TCP flows`,
    seed: 3,
    duration_s: 60,
    measure_from_s: 1,
    topology: { kind: 'dumbbell', bottleneck: { rate_bps: 10_000_000, delay_ms: 10 }, buffer: { packets: 300 } },
    queue: { scheme: 'red', params: { min_th: 40, max_th: 120 } },
    flows: counts.map((count, i) => ({ kind: 'tcp', label: `group ${'AB'[i]}`, count, access_delay_ms: [1, 30], start_s: [0, 0.5] })),
  };
}

async function exportText(page: Page, testId: string): Promise<string> {
  await page.getByTestId('export-toggle').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
  return readFile(await download.path(), 'utf8');
}

test('above the per-flow limit the charts show flow groups as a whole, and say so', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(tcpGroups(PER_FLOW_LIMIT - 49, 50), '&view=goodput,bars&window=30'));
  await setSpeed(page, '10');
  await waitForSimTime(page, 4);
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play');

  const note = page.getByTestId('flow-detail-note');
  await expect(note).toContainText('201 flows: the charts show each flow group as a whole');
  await expect(note.locator('[data-term=sorted-goodput]')).toBeVisible();

  // Goodput over time: one total per group, labelled as such.
  const lines = page.locator('[data-testid=chart-goodput] .goodput-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.first()).toHaveAttribute('data-series', 'group A (151 flows, total)');
  await expect(page.getByTestId('chart-goodput')).toContainText('group B (50 flows, total)');

  // Goodput per flow: a sorted curve per group with a point per flow, not 201 bars.
  const bars = page.getByTestId('chart-bars');
  await expect(bars).toContainText('Goodput per flow, sorted (201 flows; measurement window');
  const curves = bars.locator('.goodput-distribution');
  await expect(curves).toHaveCount(2);
  await expect(curves.first()).toHaveAttribute('data-points', '151');
  await expect(curves.last()).toHaveAttribute('data-points', '50');
  await expect(bars.locator('.bars rect')).toHaveCount(0);
  await expect(bars.getByTestId('equal-share')).toHaveCount(1);
  await page.screenshot({ path: `${SCREENSHOT_DIR}many-flows-1280x720.png` });

  // The series the page holds are per-group statistics; the summary file still has every flow.
  const header = (await exportText(page, 'export-timeseries')).split('\n', 1)[0].split(',');
  expect(header).toEqual(expect.arrayContaining(['t_s', 'goodput_bps.group0.sum', 'goodput_bps.group1.max', 'cwnd_packets.group0.mean', 'srtt_ms.group1.min']));
  expect(header.some((id) => /^(goodput_bps|cwnd_packets|srtt_ms)\.\d+$/.test(id))).toBe(false);
  const summary = JSON.parse(await exportText(page, 'export-summary')) as { flows: unknown[]; groups: unknown[] };
  expect(summary.flows).toHaveLength(201);
  expect(summary.groups).toHaveLength(2);

  // The note's words lead to the glossary.
  await note.locator('[data-term=per-group-view]').click();
  await expect(page.getByTestId('glossary')).toContainText('Per-group view (many flows)');
  expect(errors).toEqual([]);
});

test('at the per-flow limit the charts still draw every flow', async ({ page }) => {
  await page.goto(linkFor(tcpGroups(PER_FLOW_LIMIT), '&view=goodput,bars&window=30'));
  await setSpeed(page, '10');
  await waitForSimTime(page, 3);
  await expect(page.getByTestId('flow-detail-note')).toHaveCount(0);
  await expect.poll(() => pointsOf(page.locator('[data-testid=chart-bars] .bars'))).toBe(PER_FLOW_LIMIT);
  await expect(page.getByTestId('chart-bars').locator('.goodput-distribution')).toHaveCount(0);
});

test('a few flows get a goodput line each', async ({ page }) => {
  await page.goto(linkFor(tcpGroups(3, 2), '&view=goodput,bars&window=30'));
  await setSpeed(page, '10');
  await waitForSimTime(page, 3);
  const lines = page.locator('[data-testid=chart-goodput] .goodput-line');
  await expect(lines).toHaveCount(5);
  await expect(lines.first()).toHaveAttribute('data-series', 'flow 0 (group A)');
  await expect.poll(() => pointsOf(lines.last())).toBeGreaterThan(5);
  await expect(page.getByTestId('chart-bars').locator('.bars rect')).toHaveCount(5);
  await expect(page.getByTestId('flow-detail-note')).toHaveCount(0);
});
