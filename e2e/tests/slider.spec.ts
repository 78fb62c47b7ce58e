import { expect, test } from './fixtures';
import { SCREENSHOT_DIR, linkFor, poissonScenario, probeValue, simTime, waitForSimTime, watchForErrors } from './helpers';

test('dragging a RED slider changes the running simulation without a restart', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto(linkFor(poissonScenario()));
  await waitForSimTime(page, 4);
  await expect.poll(() => probeValue(page, 'p_b')).toBeGreaterThan(0);
  const before = { timeS: await simTime(page), avg: await probeValue(page, 'avg') };

  // Drag max_p from 0.05 to near the right end of its slider.
  const slider = page.getByTestId('param-max_p');
  const box = (await slider.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.05, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.9, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const maxP = Number(await page.getByTestId('param-max_p-value').inputValue());
  expect(maxP).toBeGreaterThan(0.5);

  // The running scheme's drop function follows at once: the curve drawn from the engine rises
  // linearly to max_p at max_th before it jumps to 1, whatever the queue is doing now. Read off the
  // drawn path: the first point is p = 0, so p = 1 − y / y₀ for each point.
  const curveMaxP = async () => {
    const d = (await page.getByTestId('curve-line').getAttribute('d')) ?? '';
    const ys = [...d.matchAll(/[ML][^,]+,([-\d.e]+)/g)].map((m) => Number(m[1]));
    if (ys.length < 2 || !(ys[0] > 0)) return -1;
    const below = ys.map((y) => 1 - y / ys[0]).filter((p) => p < 0.999);
    return Math.max(...below);
  };
  await expect.poll(curveMaxP, { message: 'the drop function follows max_p' }).toBeCloseTo(maxP, 2);
  // The clock keeps going from where it was.
  await expect(page.locator('[data-testid=chart-queue] .param-changes')).toHaveAttribute('data-changes', '1');
  const after = await simTime(page);
  expect(after).toBeGreaterThan(before.timeS);
  await waitForSimTime(page, after + 1);
  // More early drops pull the average queue down.
  await expect.poll(() => probeValue(page, 'avg'), { message: 'avg falls', timeout: 30_000 }).toBeLessThan(before.avg);
  await page.screenshot({ path: `${SCREENSHOT_DIR}slider-moved.png` });
  expect(errors).toEqual([]);
});

test('a refused parameter value names the field and leaves the run alone', async ({ page }) => {
  await page.goto(linkFor(poissonScenario()));
  await waitForSimTime(page, 1);
  const field = page.getByTestId('param-max_th-value');
  await field.fill('3');
  await field.press('Enter');
  await expect(page.getByTestId('param-max_th-error')).toHaveText(
    'max threshold (max_th): must be at least min_th (5): equal thresholds make a step marker [queue.params.max_th]',
  );
  await expect(field).toHaveValue('30');
  const timeS = await simTime(page);
  await waitForSimTime(page, timeS + 0.5);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
});
