/**
 * For demos: the guided first-run sample (query the demo data, train, predict, see why) that a
 * presenter can replay, and presentation mode (larger type, no editor chrome).
 * `DOCS_SCREENSHOTS=1` refreshes docs/guided-tour.png (step 4: the listing's why).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { editorText, LONG_WORK_MS, openApp, resultStatus, setSql } from './helpers';
import { docsScreenshot } from './model-setup';

/**
 * The tour's panel sits beside what its step describes: the two boxes do not meet, and the
 * target is on screen (scrolled into view by the tour, not by the test).
 */
async function expectBeside(page: Page, target: Locator, others: Locator[] = []) {
  const tour = page.getByRole('dialog', { name: 'Guided tour' });
  await expect(target).toBeInViewport();
  const overlaps = async () => {
    const panel = await tour.boundingBox();
    const hit: string[] = [];
    for (const [i, t] of [target, ...others].entries()) {
      const box = await t.boundingBox();
      if (!panel || !box) return ['no box'];
      const apart =
        panel.x + panel.width <= box.x ||
        box.x + box.width <= panel.x ||
        panel.y + panel.height <= box.y ||
        box.y + box.height <= panel.y;
      if (!apart) hit.push(i === 0 ? 'target' : `other ${i}`);
    }
    return hit;
  };
  await expect.poll(overlaps).toEqual([]);
  // The panel itself is whole on screen too, and shows its whole text (no scrolling inside).
  await expect(tour).toBeInViewport({ ratio: 1 });
  expect(await tour.evaluate((e) => e.scrollHeight - e.clientHeight)).toBeLessThanOrEqual(1);
}

test('the guided tour walks from the demo data to a trained model, a prediction and why', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await openApp(page);
  await page.getByRole('button', { name: 'Start the tour' }).click();
  const tour = page.getByRole('dialog', { name: 'Guided tour' });
  const next = tour.getByRole('button', { name: 'Next →' });

  // 1. Query the demo data.
  await expect(tour).toContainText('Step 1 of 4');
  await tour.getByRole('button', { name: '▶ Run the query' }).click();
  await expect(page.getByRole('tab', { name: /Guided tour/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(resultStatus(page)).toContainText('10 rows');
  const header = page.locator('.result-grid .ag-header');
  await expectBeside(page, header);

  // 2. Train: the card follows the model live.
  await next.click();
  await expect(tour.getByRole('heading', { name: 'Train a model' })).toBeVisible();
  await tour.getByRole('button', { name: '▶ Train it' }).click();
  const card = page.getByRole('region', { name: 'Model mindsdb.tour_home_rentals' });
  await expect(card).toBeVisible();
  await expectBeside(page, card);

  // 3. Predict with SQL, once the model is ready: the prediction is pinned in view.
  await next.click();
  const predict = tour.getByRole('button', { name: '▶ Predict' });
  await expect(predict).toBeEnabled({ timeout: LONG_WORK_MS });
  await expect(card.getByRole('heading', { name: 'tour_home_rentals is ready' })).toBeVisible();
  await predict.click();
  await expect(resultStatus(page)).toContainText('1 row · 5 columns');
  await expect(page.getByRole('columnheader', { name: 'rental_price', exact: true })).toBeVisible();
  await expectBeside(page, header);

  // 4. See why: the model page with the same listing, sent.
  await next.click();
  await tour.getByRole('button', { name: '▶ Open the model page' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /tour_home_rentals/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Predict' })).toHaveAttribute('aria-selected', 'true');
  await expect(
    page.getByRole('group', { name: 'Model inputs' }).getByLabel('sqft', { exact: true }),
  ).toHaveValue('917');
  const headline = page.getByRole('status', { name: 'Predicted value' });
  await expect(headline).toContainText('Predicted rental_price');
  await expect(headline.getByLabel('Prediction interval')).toContainText(/[\d,.]+ – [\d,.]+/);
  // ...and why: the listing's waterfall, from the average rent through each input's push.
  const why = page.getByRole('region', { name: 'Why this prediction' });
  const chart = why.getByRole('img', { name: /^Explanation of row 1/ });
  await expect(why).toContainText('The model’s average rental_price is');
  // As the tour says: the rooms and the size push the rent up most, the single bathroom pulls
  // it down; the model reads no initial_price, so nothing warns of a leak.
  const waterfall = why.getByRole('img', { name: /^Explanation of row 1: starts at/ });
  await expect(waterfall).toHaveAccessibleName(
    /starts at [\d.,]+; number_of_rooms = 2 \+[\d.,]+; sqft = 917 \+[\d.,]+; number_of_bathrooms = 1 −[\d.,]+/,
  );
  await expect(waterfall).not.toHaveAccessibleName(/initial_price/);
  await expect(page.getByRole('region', { name: 'Model warnings' })).toHaveCount(0);
  // The waterfall it talks about is scrolled into view, the panel beside it and off Send.
  const send = page.getByRole('button', { name: /Send/ });
  await expectBeside(page, chart, [headline, send]);
  await docsScreenshot(page, 'guided-tour.png');

  // On a 1280x720 projector in presentation mode (the model trained above): each step's panel
  // still sits beside its target.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Present' }).click();
  await tour.getByRole('button', { name: 'Step 1: Query the demo data' }).click();
  await tour.getByRole('button', { name: '▶ Run the query' }).click();
  await expect(resultStatus(page)).toContainText('10 rows');
  await expectBeside(page, header);
  await tour.getByRole('button', { name: 'Step 3: Predict with SQL' }).click();
  await tour.getByRole('button', { name: '▶ Predict' }).click();
  await expect(resultStatus(page)).toContainText('1 row · 5 columns');
  await expectBeside(page, header);
  await next.click();
  await tour.getByRole('button', { name: '▶ Open the model page' }).click();
  await expect(headline).toContainText('Predicted rental_price');
  // Presenting, the prediction and its waterfall do not fit above one another with the panel:
  // the panel sits above the waterfall at its right, off the figures (Send, above them, has
  // scrolled up under the top bar).
  await expectBeside(page, chart, [
    headline.locator('.m-big'),
    headline.getByLabel('Prediction interval'),
  ]);
  await page.getByRole('button', { name: 'Exit presentation' }).click();

  // A presenter replays it: back to step 1, and training starts over (the model is re-created).
  await tour.getByRole('button', { name: 'Replay' }).click();
  await expect(tour).toContainText('Step 1 of 4');
  await tour.getByRole('button', { name: 'Step 2: Train a model' }).click();
  await tour.getByRole('button', { name: '▶ Train it' }).click();
  await expect(editorText(page)).toContainText('DROP MODEL IF EXISTS mindsdb.tour_home_rentals');
  await expect(page.getByRole('region', { name: 'Model mindsdb.tour_home_rentals' })).toContainText(
    'version 1',
  );
  await tour.getByRole('button', { name: 'Close the tour' }).click();
  await expect(tour).toBeHidden();
});

test('presentation mode: larger type, no editor chrome, remembered until turned off', async ({
  page,
}) => {
  await openApp(page);
  const fontSize = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const before = await fontSize('.monaco-editor .view-lines');
  await page.getByRole('button', { name: 'Present' }).click();
  await expect(page.getByRole('button', { name: 'Exit presentation' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  // Editor chrome gone: no query tabs, no line numbers, no sidebar; larger editor type.
  await expect(page.getByRole('tablist', { name: 'Query tabs' })).toHaveCount(0);
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeHidden();
  await expect(page.locator('.monaco-editor .line-numbers')).toHaveCount(0);
  expect(await fontSize('.monaco-editor .view-lines')).toBeGreaterThan(before * 1.4);

  // On a 1280x720 projector a long statement wraps at 20 px instead of running off the screen.
  await page.setViewportSize({ width: 1280, height: 720 });
  const columns = Array.from({ length: 16 }, (_, i) => `column_number_${i}`).join(', ');
  await setSql(page, `SELECT ${columns} FROM example_db.demo_data.home_rentals`);
  await expect
    .poll(() => page.locator('.monaco-editor .view-line').count())
    .toBeGreaterThanOrEqual(3);
  const editorBox = await page.locator('.monaco-editor').first().boundingBox();
  for (const line of await page.locator('.monaco-editor .view-line > span').all()) {
    const box = await line.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(editorBox!.x + editorBox!.width);
  }
  await page.setViewportSize({ width: 1400, height: 900 });

  // Larger type in the grid and around it.
  await setSql(page, 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 5');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('5 rows');
  expect(
    await page
      .getByRole('gridcell', { name: 'great' })
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize)),
  ).toBeGreaterThanOrEqual(15);
  expect(await resultStatus(page).evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBe(
    14,
  );

  // The sidebar is still one click away, as a drawer.
  await page.getByRole('button', { name: 'Show sidebar' }).click();
  await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.reload();
  await expect(page.getByRole('button', { name: 'Exit presentation' })).toBeVisible();
  await page.getByRole('button', { name: 'Exit presentation' }).click();
  await expect(page.getByRole('tablist', { name: 'Query tabs' })).toBeVisible();
  await expect(page.locator('.monaco-editor .line-numbers').first()).toBeVisible();
});
