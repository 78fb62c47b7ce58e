// A paper's figure in a share link (`&figure=<id>`): the card's link button
// puts the id in the address; opening that link opens the reproductions
// panel at the card; a run shows the verdict against the paper's marks with
// the ablation series beside a divergence; an id that is no figure says so,
// naming the field.

import { expect, test } from './fixtures';
import { watchForErrors } from './helpers';

// SFRED Fig. 6, the transfer-time CDF: 15 runs, and it diverges with an ablation series.
const ID = 'sfred-fig6';

test("a figure's link opens its card, which shows the verdict and the ablation beside it", async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/');
  await page.getByTestId('toggle-reproduce').click();
  const link = page.getByTestId(`figure-link-${ID}`);
  await link.scrollIntoViewIfNeeded();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`figure=${ID}`));
  const url = page.url();

  await page.goto('about:blank');
  await page.goto(url);
  const card = page.getByTestId(`figure-${ID}`);
  await expect(card).toHaveAttribute('data-linked', 'true');
  await expect(card).toBeInViewport();
  await expect(page.locator('[data-linked]')).toHaveCount(1);

  await card.getByTestId(`figure-run-${ID}`).click();
  await expect(card.getByTestId('figure-svg')).toBeVisible({ timeout: 180_000 });
  // SFRED, RED and the ablation series, each with its band.
  await expect(card.getByTestId('figure-band')).toHaveCount(3);
  await expect(card.getByTestId('figure-verdict')).toHaveAttribute('data-verdict', 'diverges');
  await expect(card.getByTestId('figure-ablations')).toContainText('SFRED, no counter ageing');
  expect(errors).toEqual([]);
});

test('a link naming no figure says so, naming the field', async ({ page }) => {
  const errors = watchForErrors(page);
  await page.goto('/#figure=no-such-figure');
  await expect(page.getByTestId('figure-link-notice')).toContainText('figure');
  await expect(page.getByTestId('figure-link-notice')).toContainText("“no-such-figure”, which is not one of the papers' figures here");
  await expect(page.locator('[data-linked]')).toHaveCount(0);
  expect(errors).toEqual([]);
});
