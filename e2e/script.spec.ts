import { expect, test } from '@playwright/test';
import { openApp, resultStatus, setSql, queryError } from './helpers';

test('Ctrl+Shift+Enter runs a script; USE switches the tab database', async ({ page }) => {
  await openApp(page);
  await setSql(
    page,
    'USE example_db;\nSELECT sqft, rental_price FROM demo_data.home_rentals ORDER BY sqft LIMIT 5;',
  );
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  await expect(resultStatus(page)).toContainText('5 rows · 2 columns');
  await expect(page.getByText('2 statements ran')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Database' })).toHaveValue('example_db');
  await expect(page.getByRole('columnheader', { name: 'rental_price' })).toBeVisible();
});

test('a script stops at the first error and shows the last result and the error', async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, 'SELECT 1 AS first;\nSELEC 2;\nSELECT 3 AS third;');
  await page.keyboard.press('ControlOrMeta+Shift+Enter');
  const alert = queryError(page);
  await expect(alert).toContainText('Stopped at statement 2 of 3');
  await expect(alert).toContainText('syntax error');
  await expect(page.getByRole('columnheader', { name: 'first' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'third' })).toHaveCount(0);
});

test('running an empty editor or only comments explains why nothing ran', async ({ page }) => {
  await openApp(page);
  await setSql(page, '');
  await page.getByRole('button', { name: '▶ Run' }).click();
  await expect(page.getByText('The editor is empty')).toBeVisible();
  await setSql(page, '-- just a note\n/* nothing */');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByText('the editor holds only comments')).toBeVisible();
});
