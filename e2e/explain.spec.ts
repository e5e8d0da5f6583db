/**
 * Explain beside Run: the plan of the query at the cursor (the model's prediction step, the final
 * SQL, DuckDB's plan) as a result table, without running the query; the action fits the toolbar
 * at the screen sizes a presenter uses.
 */
import { expect, test } from '@playwright/test';
import { cellTexts, openApp, resultStatus, setSql } from './helpers';
import { trainModel } from './model-setup';

const model = `e2e_explain_${Date.now().toString(36)}`;

test('Explain shows how a model query would run: the prediction step, the final SQL, DuckDB plan', async ({
  page,
  request,
}) => {
  await trainModel(
    request,
    model,
    'SELECT sqft, location, rental_price FROM demo_data.home_rentals',
    'rental_price',
  );
  await openApp(page);
  await setSql(
    page,
    `SELECT 1;\nSELECT t.sqft, m.rental_price\nFROM example_db.demo_data.home_rentals AS t\nJOIN mindsdb.${model} AS m\nWHERE t.location = 'good'`,
  );
  // The cursor is at the end of the editor: the second statement is the one explained.
  await page.getByRole('button', { name: 'Explain', exact: true }).click();
  await expect(resultStatus(page)).toContainText('3 rows');
  await expect(page.getByRole('columnheader', { name: 'action', exact: true })).toBeVisible();
  expect(await cellTexts(page, 'c1')).toEqual([
    `predict mindsdb.${model}`,
    'final SQL in DuckDB',
    'DuckDB plan',
  ]);
  const details = await cellTexts(page, 'c2');
  expect(details[0]).toMatch(/^on the distinct input rows of: .*home_rentals/);

  for (const size of [
    { width: 1366, height: 768 },
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await expect(page.getByRole('button', { name: 'Explain', exact: true })).toBeInViewport();
    await expect(page.getByRole('button', { name: 'Run script' })).toBeInViewport();
  }
});
