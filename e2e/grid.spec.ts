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

  // Export what is shown: header + the filtered rows, sorted by sqft descending. The menu says
  // which choice is the current view and which is everything.
  await page.getByRole('button', { name: 'Export ▾' }).click();
  const menu = page.getByRole('menu', { name: 'Export' });
  await expect(menu.getByRole('menuitem', { name: 'CSV: All 40 rows, as returned' })).toBeVisible();
  const downloadPromise = page.waitForEvent('download');
  await menu
    .getByRole('menuitem', { name: 'CSV: Current view: 15 of 40 rows, filtered and sorted' })
    .click();
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

  // Everything: all 40 rows in the order the server returned them, filter and sort ignored.
  await page.getByRole('button', { name: 'Export ▾' }).click();
  const allPromise = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'CSV: All 40 rows, as returned' }).click();
  const all = (await readFile(await (await allPromise).path(), 'utf8')).trim().split(/\r\n/);
  expect(all).toHaveLength(41);
  expect(all.slice(1, 16).every((l) => l.split(',')[1] === 'poor')).toBe(true);
  expect(all.slice(16).every((l) => l.split(',')[1] === 'great')).toBe(true);
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

test('columns are sized from their values: timestamps, ids and names show whole, long text is capped', async ({
  page,
}) => {
  await openApp(page);
  await setSql(
    page,
    `SELECT TIMESTAMP '2026-11-23 10:58:51.123456' AS at, 'home_rentals_model_version_two' AS model,
  12345678901234 AS id, repeat('lorem ipsum ', 100) AS note FROM range(3)`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('3 rows · 4 columns');
  const cutOff = async (text: string) =>
    page
      .getByRole('gridcell', { name: text, exact: true })
      .first()
      .evaluate((el) => el.scrollWidth > el.clientWidth);
  expect(await cutOff('2026-11-23 10:58:51.123456')).toBe(false);
  expect(await cutOff('home_rentals_model_version_two')).toBe(false);
  expect(await cutOff('12345678901234')).toBe(false);
  const note = page.getByRole('columnheader', { name: 'note' });
  expect((await note.boundingBox())!.width).toBeLessThanOrEqual(361);
});

test('sorting a long result shows its top, short headers are whole, one row offers no line chart', async ({
  page,
}) => {
  await openApp(page);
  await setSql(
    page,
    'SELECT range AS am, range % 7 AS b, 2.5 AS c FROM range(1000) ORDER BY range DESC',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1,000 rows');
  // Deep into the table (Ctrl+End in the grid), then sorted: the view goes back to the first rows.
  await page.getByRole('gridcell', { name: '999' }).first().click();
  await page.keyboard.press('ControlOrMeta+End');
  await expect(page.getByRole('gridcell', { name: '0', exact: true }).first()).toBeVisible();
  const am = page.getByRole('columnheader', { name: 'am' });
  await am.click();
  await expect(am).toHaveAttribute('aria-sort', 'ascending');
  // Ascending: 0 is the first row. Had the view stayed at the bottom it would show 999.
  const c0 = (text: string) =>
    page.locator('[role="gridcell"][col-id="c0"]').filter({ hasText: new RegExp(`^${text}$`) });
  await expect(c0('0')).toBeInViewport();
  await expect(c0('999')).not.toBeInViewport();
  expect((await cellTexts(page, 'c0'))[0]).toBe('0');
  // Three narrow columns in a wide grid: the spare width goes to them, no header is cut.
  const cut = await page
    .locator('.result-grid .ag-header-cell-text')
    .evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent),
    );
  expect(cut).toEqual([]);
  const widths = await page
    .locator('.result-grid .ag-header-cell[col-id="c0"]')
    .evaluate((el) => el.getBoundingClientRect().width);
  expect(widths).toBeGreaterThan(150);

  await setSql(page, "SELECT DATE '2024-01-01' AS day, 3 AS n");
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row');
  await expect(page.getByRole('button', { name: /Line chart/ })).toHaveCount(0);
});
