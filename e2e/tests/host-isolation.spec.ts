// CAKE's host isolation on the page: the flow-group editor's "one host"
// control, the note by the goodput bars that their fair-share ticks are per
// flow, and the summary's per-host table, whose Jain index reads the even
// split between hosts that the per-flow index calls unfair; at desktop and
// phone sizes.

import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, SIZES, preset, linkFor, runAtFullSpeed, showPane, watchForErrors } from './helpers';

const PRESET = preset('cake-host-fairness') as { queue: Record<string, unknown> } & Record<string, unknown>;

for (const size of SIZES) {
  test(`CAKE's host shares: one-host control, bars note and per-host table (${size.name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    await page.setViewportSize({ width: size.width, height: size.height });
    await runAtFullSpeed(page, linkFor(PRESET, '&view=bars'), 20);

    await showPane(page, 'controls');
    await expect(page.getByTestId('flow-0-one_host')).not.toBeChecked();
    await expect(page.getByTestId('flow-1-one_host')).toBeChecked();

    await showPane(page, 'charts');
    await expect(page.getByTestId('host-isolation-note')).toContainText('per flow');
    const hosts = page.getByTestId('summary-hosts');
    await hosts.scrollIntoViewIfNeeded();
    await expect(page.getByTestId('summary-host-0')).toContainText('1');
    await expect(page.getByTestId('summary-host-1')).toContainText('1');
    // Two hosts splitting the link within 10 %: Jain over hosts above 0.99, where the per-flow index is near 0.4.
    const hostJain = Number(await page.getByTestId('summary-host-jain').textContent());
    const flowJain = Number(await page.getByTestId('summary-jain').textContent());
    expect(hostJain).toBeGreaterThan(0.99);
    expect(flowJain).toBeLessThan(0.5);
    const box = await hosts.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 1);
    await hosts.screenshot({ path: `${SCREENSHOT_DIR}host-shares-${size.name}.png` });
    expect(errors).toEqual([]);
  });
}

test('without host isolation the page shows no per-host view, and "one host" can be set in the editor', async ({ page }) => {
  const errors = watchForErrors(page);
  await runAtFullSpeed(page, linkFor({ ...PRESET, queue: { scheme: 'cake', params: { host_isolation: false } } }, '&view=bars'), 5);
  await expect(page.getByTestId('summary-jain')).not.toHaveText('–');
  await expect(page.getByTestId('summary-hosts')).toHaveCount(0);
  await expect(page.getByTestId('host-isolation-note')).toHaveCount(0);

  const oneHost = page.getByTestId('flow-0-one_host');
  await oneHost.check();
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await expect(oneHost).toBeChecked();
  expect(errors).toEqual([]);
});
