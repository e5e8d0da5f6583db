import { expect, test } from '@playwright/test';
import { editorText, openApp, setSql } from './helpers';

test('tabs, their names and SQL survive a reload; the URL carries the query', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT 1 AS first_tab');
  await page.getByRole('button', { name: 'New tab' }).click();
  const tab2 = page.getByRole('tab', { name: /Query 2/ });
  await expect(tab2).toHaveAttribute('aria-selected', 'true');
  await tab2.dblclick();
  const rename = page.getByRole('textbox', { name: 'Tab name' });
  await rename.fill('Rentals');
  await rename.press('Enter');
  await setSql(page, 'SELECT 2 AS rentals_tab');
  // The URL carries this tab's query (written a moment after typing; the first tab's query was
  // there before): a reload opens the tab that holds the URL's query.
  const b64 = Buffer.from('SELECT 2 AS rentals_tab', 'utf8').toString('base64url');
  await expect(page).toHaveURL(new RegExp(`#sql=${b64}(&|$)`));

  await page.reload();
  await expect(page.getByRole('tab', { name: /Query 1/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Rentals/ })).toHaveAttribute('aria-selected', 'true');
  await expect(editorText(page)).toContainText('SELECT 2 AS rentals_tab');
  await page.getByRole('tab', { name: /Query 1/ }).click();
  await expect(editorText(page)).toContainText('SELECT 1 AS first_tab');
});

test('a shared #sql= link opens that query', async ({ page }) => {
  const sql = "SELECT 'shared ✓' AS msg";
  const b64 = Buffer.from(sql, 'utf8').toString('base64url');
  await openApp(page, `/#sql=${b64}`);
  await expect(editorText(page)).toContainText("SELECT 'shared ✓' AS msg");
});

test('tabs can be closed and reordered by drag', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'New tab' }).click();
  await page.getByRole('button', { name: 'New tab' }).click();
  const tabs = page.getByRole('tablist', { name: 'Query tabs' }).getByRole('tab');
  await expect(tabs).toHaveText(['Query 1', 'Query 2', 'Query 3']);
  await tabs.nth(2).dragTo(tabs.nth(0));
  await expect(tabs).toHaveText(['Query 3', 'Query 1', 'Query 2']);
  // The mouse closes with the ×; the keyboard with Delete on the tab. Arrows move between tabs.
  await page.getByTitle('Close Query 1 (Delete on the tab)').click();
  await expect(tabs).toHaveText(['Query 3', 'Query 2']);
  await tabs.nth(0).click();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Delete');
  await expect(tabs).toHaveText(['Query 3']);
});
