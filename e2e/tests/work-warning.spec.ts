import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, setSpeed, watchForErrors } from './helpers';

/** Ten 1 Gb/s CBR sources into a 1 Gb/s link for 1000 s: about 5·10⁹ engine events, over the limit. */
const heavy = {
  version: 1,
  name: 'Ten 1 Gb/s sources for 1000 s',
  duration_s: 1000,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e9, delay_ms: 5 }, buffer: { packets: 100 }, access: { rate_bps: 1e9, delay_ms: 1 } },
  queue: { scheme: 'droptail' },
  flows: [{ kind: 'cbr', count: 10, rate_bps: 1e9 }],
};

test('the page asks before a run over the work limit, and stays usable when it runs', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(heavy));
  const warning = page.getByTestId('work-warning');
  await expect(warning).toContainText(/about \d+(\.\d)?B engine events/);
  // The run lifecycle shows its phase: nothing runs while the page asks.
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'confirming');
  await page.screenshot({ path: `${SCREENSHOT_DIR}work-warning.png` });

  // Cancel: the default experiment runs and the long one waits in the editor, to be shortened.
  await page.getByTestId('work-cancel').click();
  await expect(warning).toBeHidden();
  await expect(page.getByTestId('scenario-name')).toHaveValue(heavy.name);
  await expect(page.getByTestId('experiment-name')).not.toHaveText(heavy.name);
  await page.getByTestId('duration').fill('2');
  // The sources get 0.2 ms of access jitter and twice their link's rate (the engine checks both fields like any other).
  await page.getByTestId('flow-0-access_jitter_ms').fill('0.2');
  await page.getByTestId('flow-0-rate_bps').fill('2000');
  await page.getByTestId('flow-0-direction').evaluate((select) => select.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${SCREENSHOT_DIR}flow-group-jitter.png`, clip: { x: 0, y: 56, width: 370, height: 600 } });
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('experiment-name')).toHaveText(heavy.name);
  await expect(warning).toBeHidden();
  // Sources at twice their access link's rate: half their packets stay at the hosts, counted apart from the queue's drops.
  await expect(page.getByTestId('summary-host-drops')).toBeVisible();
  await expect(page.getByTestId('summary-drops')).toBeVisible();
  await page.getByTestId('summary').screenshot({ path: `${SCREENSHOT_DIR}summary-host-drops.png` });

  // Long again: Run anyway starts it, and the controls still answer while it runs.
  await page.getByTestId('duration').fill('1000');
  await page.getByTestId('apply-scenario').click();
  await expect(warning).toBeVisible();
  await page.getByTestId('work-run-anyway').click();
  await expect(warning).toBeHidden();
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'running');
  await setSpeed(page, 'max');
  await expect(page.getByTestId('sim-time')).not.toHaveAttribute('data-seconds', '0');
  await page.getByTestId('play-pause').click();
  await expect(page.getByTestId('play-pause')).toHaveText('Play', { timeout: 2000 });
  expect(errors).toEqual([]);
});
