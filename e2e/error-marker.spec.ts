import { expect, test } from '@playwright/test';
import { editorInput, openApp, queryError, setSql } from './helpers';

test('a SQL error is shown and marked at its line and column in the editor', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT 1;\n\nSELECT *\nFROM no_such_table');
  await page.keyboard.press('ControlOrMeta+Enter'); // cursor is at the end: the second statement
  await expect(queryError(page)).toContainText('no_such_table');
  await expect(queryError(page)).toContainText('(line 2, column 6)');
  // Monaco draws a squiggle under the marked range; its line is line 4 of the script.
  const squiggle = page.locator('.monaco-editor .squiggly-error');
  await expect(squiggle).toHaveCount(1);
  const line4 = page.locator('.monaco-editor .view-line').nth(3);
  const [sq, l4] = await Promise.all([squiggle.boundingBox(), line4.boundingBox()]);
  expect(Math.abs((sq?.y ?? 0) - (l4?.y ?? -100))).toBeLessThan(20);

  // Editing the text clears the stale marker.
  await page.keyboard.type(' ');
  await expect(squiggle).toHaveCount(0);
});

test('an unterminated string reports the problem and the app stays usable', async ({ page }) => {
  // Opened from a shared link: typing a quote in Monaco would auto-close it.
  await openApp(page, `/#sql=${Buffer.from("SELECT 'abc", 'utf8').toString('base64url')}`);
  await editorInput(page).focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(queryError(page)).toContainText('Unterminated string');
  await setSql(page, 'SELECT 42 AS answer');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(page.getByRole('gridcell', { name: '42' })).toBeVisible();
});

test('an unknown column is named in words with the catalog suggestion, the engine text below', async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, 'SELECT locaton FROM example_db.demo_data.home_rentals');
  await page.keyboard.press('ControlOrMeta+Enter');
  const banner = queryError(page);
  await expect(banner.locator('strong')).toHaveText('Unknown column "locaton" at line 1, column 8');
  await expect(banner).toContainText('Did you mean location?');
  await expect(banner.locator('.error-message')).toContainText(
    'Binder Error: Referenced column "locaton" not found',
  );
  await expect(banner).not.toContainText('Error 2');
});
