import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { linkFor, showPane, watchForErrors } from './helpers';

/** Ten 1 Gb/s CBR sources under RED; at 1000 s about 5·10⁹ engine events, over the work limit, at 2 s well within it. */
const scenario = (durationS: number) => ({
  version: 1,
  name: 'Ten 1 Gb/s sources under RED',
  duration_s: durationS,
  topology: { kind: 'dumbbell', bottleneck: { rate_bps: 1e9, delay_ms: 5 }, buffer: { packets: 100 }, access: { rate_bps: 1e9, delay_ms: 1 } },
  queue: { scheme: 'red' },
  flows: [{ kind: 'cbr', count: 10, rate_bps: 1e9 }],
});

test('while a new run is on its way the parameter controls take no change, and then belong to the new run', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(scenario(2)));
  // The controls sit in one fieldset: disabling it disables every one of them.
  const control = page.getByTestId('param-max_p-value');
  await expect(control).toBeEnabled();

  // A run over the work limit is applied: while the page asks, the controls on screen are the replaced run's and take nothing.
  await page.getByTestId('duration').fill('1000');
  await page.getByTestId('apply-scenario').click();
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'confirming');
  await expect(page.getByTestId('scheme-params')).toHaveAttribute('disabled');
  await expect(control).toBeDisabled();
  // Cancel: the run on screen stays, and its controls answer again.
  await page.getByTestId('work-cancel').click();
  await expect(control).toBeEnabled();

  // Run anyway: once the engine has built the new run, a change goes to it.
  await page.getByTestId('apply-scenario').click();
  await page.getByTestId('work-run-anyway').click();
  await control.fill('0.3');
  await control.press('Enter');
  await expect(page.locator('.app')).toHaveAttribute('data-phase', 'running');
  await expect(control).toHaveValue('0.3');
  await expect(page.getByTestId('param-max_p-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** Holds the engine (its worker and its WebAssembly) back until `release` is called: the page's first run stays on its way. */
async function holdEngine(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*(worker.*\.js|\.wasm)$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** What the page opens with: the default experiment, or a share link's (a NewReno group of three). */
const OPENINGS = [
  { name: 'the default experiment', url: '/', title: undefined, count: undefined },
  {
    name: 'a share link',
    url: linkFor({ ...scenario(2), name: 'Three TCP flows under RED', flows: [{ kind: 'tcp', count: 3 }] }),
    title: 'Three TCP flows under RED',
    count: '3',
  },
] as const;

for (const opening of OPENINGS) {
  test(`a scenario edit made while the first run loads is not replaced by that run (${opening.name})`, async ({ page }) => {
    const errors = watchForErrors(page);
    const release = await holdEngine(page);
    await page.goto(opening.url);
    await showPane(page, 'controls');
    const cc = page.getByTestId('flow-0-cc');
    // Edit the flow group at once, while the first run is on its way.
    const edited = cc.selectOption('cubic');
    // The page either takes the edit now or refuses it until the run starts; only then does the engine load.
    await page.waitForFunction(() => {
      const select = document.querySelector<HTMLSelectElement>('[data-testid=flow-0-cc]');
      return select !== null && (select.matches(':disabled') || select.value === 'cubic');
    });
    await expect(page.locator('.app')).toHaveAttribute('data-phase', /opening|estimating/);
    release();
    await edited;
    await expect(page.locator('.app')).toHaveAttribute('data-phase', /running|finished/);
    // The edit is still there, made to the document that runs, and ready to apply.
    await expect(cc).toHaveValue('cubic');
    await expect(page.getByTestId('flow-0-hystart')).toHaveValue('linux');
    if (opening.title) await expect(page.getByTestId('scenario-name')).toHaveValue(opening.title);
    if (opening.count) await expect(page.getByTestId('flow-0-count')).toHaveValue(opening.count);
    await expect(page.getByTestId('apply-scenario')).toBeEnabled();
    expect(errors).toEqual([]);
  });
}

test('an edit not yet applied stays when another scheme restarts the run, and Apply runs it under that scheme', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(scenario(2)));
  await expect(page.locator('.app')).toHaveAttribute('data-phase', /running|finished/);
  await showPane(page, 'controls');
  await page.getByTestId('duration').fill('3');
  await expect(page.getByTestId('apply-scenario')).toBeEnabled();
  // Another scheme restarts the run on the running experiment: the draft holds nothing the scheme changes.
  await page.getByTestId('scheme-picker').selectOption('codel');
  await expect(page.getByTestId('param-target-value')).toBeEnabled();
  await expect(page.getByTestId('duration')).toHaveValue('3');
  await page.getByTestId('apply-scenario').click();
  await expect(page.getByTestId('apply-scenario')).toBeDisabled();
  await expect(page.getByTestId('scheme-picker')).toHaveValue('codel');
  await expect(page.getByTestId('duration')).toHaveValue('3');
  expect(errors).toEqual([]);
});
