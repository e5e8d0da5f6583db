import { expect, test } from '@playwright/test';
import { openApp, resultStatus, setSql, queryError } from './helpers';

test('history lists runs with their outcome, is searchable, and re-runs a query', async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, 'SELECT 7 AS seven');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row');
  await setSql(page, 'SELEC 8');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(queryError(page)).toBeVisible();

  await page.getByRole('tab', { name: 'History' }).click();
  const list = page.getByRole('list', { name: 'Query history' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('error');
  await page.getByRole('searchbox', { name: 'Search history' }).fill('seven');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByRole('listitem')).toContainText('1 row');

  await list.getByRole('button', { name: /Run again: SELECT 7 AS seven/ }).click();
  await expect(page.getByRole('columnheader', { name: 'seven' })).toBeVisible();
  await expect(page.getByRole('gridcell', { name: '7', exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search history' }).fill('');
  await expect(list.getByRole('listitem')).toHaveCount(3);
});
