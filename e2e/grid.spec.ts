import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { cellTexts, openApp, resultStatus, setSql } from './helpers';

test('sort, filter and export the result as CSV', async ({ page }) => {
  await openApp(page);
  await setSql(
    page,
    `(SELECT sqft, location, rental_price FROM example_db.demo_data.home_rentals WHERE location = 'poor' LIMIT 15)
UNION ALL
(SELECT sqft, location, rental_price FROM example_db.demo_data.home_rentals WHERE location = 'great' LIMIT 25)`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('40 rows · 3 columns');

  // Sort by sqft descending (click the header twice).
  const sqftHeader = page.getByRole('columnheader', { name: 'sqft' });
  await sqftHeader.click();
  await sqftHeader.click();
  await expect(sqftHeader).toHaveAttribute('aria-sort', 'descending');
  const sqft = (await cellTexts(page, 'c0')).map(Number);
  expect(sqft.length).toBeGreaterThan(0);
  expect(sqft).toEqual([...sqft].sort((a, b) => b - a));

  // Filter location = poor through the header filter.
  const locHeader = page.getByRole('columnheader', { name: 'location' });
  await locHeader.hover();
  await locHeader.locator('.ag-header-cell-filter-button').click();
  const filterInput = page.getByRole('textbox', { name: 'Filter Value' }).first();
  await filterInput.fill('poor');
  await expect(resultStatus(page)).toContainText('15 of 40 rows');
  const shown = 15;
  await page.keyboard.press('Escape');

  // Export what is shown: header + the filtered rows, sorted by sqft descending.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^home_rentals-.*\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trim().split(/\r\n/);
  expect(lines[0]).toBe('sqft,location,rental_price');
  expect(lines).toHaveLength(shown + 1);
  const rows = lines.slice(1).map((l) => l.split(','));
  expect(rows.every((r) => r[1] === 'poor')).toBe(true);
  const exportedSqft = rows.map((r) => Number(r[0]));
  expect(exportedSqft).toEqual([...exportedSqft].sort((a, b) => b - a));
});

test('duplicate column names, NULLs and nested values all show', async ({ page }) => {
  await openApp(page);
  await setSql(page, "SELECT 1 AS a, 2 AS a, NULL AS n, [1, 2] AS l, {'x': 1} AS s");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row · 5 columns');
  await expect(page.getByRole('columnheader', { name: 'a', exact: true })).toHaveCount(2);
  await expect(page.getByRole('gridcell', { name: 'NULL' })).toBeVisible();
  await page.getByRole('gridcell', { name: '{"x":1}' }).dblclick();
  await expect(page.getByRole('complementary', { name: 'Cell value' })).toContainText('"x": 1');
});
