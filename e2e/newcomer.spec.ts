import { expect, test } from '@playwright/test';
import { dataRows, editorInput, openApp, resultStatus } from './helpers';

test('a newcomer types a query, presses Ctrl+Enter and sees 10 rows with headers and status', async ({
  page,
}) => {
  await openApp(page);
  await expect(
    page.getByRole('heading', { name: 'Run a query to see results here' }),
  ).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Example queries' }).getByRole('button'),
  ).not.toHaveCount(0);

  await editorInput(page).focus();
  await page.keyboard.type('SELECT * FROM example_db.demo_data.home_rentals LIMIT 10');
  await page.keyboard.press('Escape'); // close autocomplete if it is open
  await page.keyboard.press('ControlOrMeta+Enter');

  await expect(resultStatus(page)).toContainText('10 rows · 8 columns');
  await expect(dataRows(page)).toHaveCount(10);
  for (const name of [
    'number_of_rooms',
    'number_of_bathrooms',
    'sqft',
    'location',
    'days_on_market',
    'initial_price',
    'neighborhood',
    'rental_price',
  ]) {
    await expect(page.getByRole('columnheader', { name, exact: true })).toHaveCount(1);
  }
  await expect(page.getByRole('gridcell', { name: 'south_side' }).first()).toBeVisible();
});

test('an example query from the empty state lands in the editor and runs', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: /Average rent by neighborhood/ }).click();
  await page.getByRole('button', { name: '▶ Run' }).click();
  await expect(resultStatus(page)).toContainText('12 rows · 3 columns');
});
