import { expect, test } from '@playwright/test';
import { openApp, resultStatus, setSql } from './helpers';

test('dark mode applies to the app, editor and grid, and persists', async ({ page }) => {
  await openApp(page);
  await page.evaluate(() => localStorage.setItem('smp.theme', '"light"'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await setSql(page, 'SELECT 1 AS x');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row');
  await expect(page.locator('.monaco-editor')).toHaveClass(/vs-dark/);
  const gridBg = await page
    .getByRole('grid')
    .evaluate((el) => getComputedStyle(el.closest('.ag-root-wrapper') ?? el).backgroundColor);
  expect(gridBg).toBe('rgb(20, 24, 33)');

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
});

test('the keyboard shortcut sheet opens with ?', async ({ page }) => {
  await openApp(page);
  await page.getByRole('tab', { name: 'Explorer' }).focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('Run the whole script');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
