/**
 * For demos: the guided first-run sample (query the demo data, train, predict, see why) that a
 * presenter can replay, and presentation mode (larger type, no editor chrome).
 */
import { expect, test } from '@playwright/test';
import { editorText, LONG_WORK_MS, openApp, resultStatus, setSql } from './helpers';

test('the guided tour walks from the demo data to a trained model, a prediction and why', async ({
  page,
}) => {
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

  // 2. Train: the card follows the model live.
  await next.click();
  await expect(tour.getByRole('heading', { name: 'Train a model' })).toBeVisible();
  await tour.getByRole('button', { name: '▶ Train it' }).click();
  const card = page.getByRole('region', { name: 'Model mindsdb.tour_home_rentals' });
  await expect(card).toBeVisible();

  // 3. Predict with SQL, once the model is ready: the prediction is pinned in view.
  await next.click();
  const predict = tour.getByRole('button', { name: '▶ Predict' });
  await expect(predict).toBeEnabled({ timeout: LONG_WORK_MS });
  await expect(card.getByRole('heading', { name: 'tour_home_rentals is ready' })).toBeVisible();
  await predict.click();
  await expect(resultStatus(page)).toContainText('1 row · 5 columns');
  await expect(page.getByRole('columnheader', { name: 'rental_price', exact: true })).toBeVisible();

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
  await expect(why).toContainText('The model’s average rental_price is');
  // As the tour says: the rooms and the size push the rent up most, the single bathroom pulls
  // it down; the model reads no initial_price, so nothing warns of a leak.
  const waterfall = why.getByRole('img', { name: /^Explanation of row 1: starts at/ });
  await expect(waterfall).toHaveAccessibleName(
    /starts at [\d.,]+; number_of_rooms = 2 \+[\d.,]+; sqft = 917 \+[\d.,]+; number_of_bathrooms = 1 −[\d.,]+/,
  );
  await expect(waterfall).not.toHaveAccessibleName(/initial_price/);
  await expect(page.getByRole('region', { name: 'Model warnings' })).toHaveCount(0);

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
