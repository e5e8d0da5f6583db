import { expect, test } from '@playwright/test';
import { openApp, resultStatus, setSql } from './helpers';

test('a long query can be cancelled and the app keeps working', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT count(*) FROM range(10000000000) a, range(100) b');
  await page.keyboard.press('ControlOrMeta+Enter');
  const running = page.getByRole('status').filter({ hasText: 'Running query' });
  await expect(running).toBeVisible();
  // The busy spinner turns only for people who have not asked their system for less motion.
  const spinner = running.locator('.spinner');
  const turning = () => spinner.evaluate((el) => getComputedStyle(el).animationName);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await turning()).toBe('none');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await turning()).toBe('spin');
  await page.getByRole('button', { name: '■ Cancel' }).click();
  await expect(page.getByText(/Query cancelled after/)).toBeVisible();
  await expect(running).toHaveCount(0);

  await setSql(page, 'SELECT 42 AS answer');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row · 1 column');
  await expect(page.getByRole('gridcell', { name: '42' })).toBeVisible();
});
