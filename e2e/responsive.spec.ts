/**
 * Narrow windows and 200% zoom: the explorer, history and upload stay one click away in a drawer
 * (they used to vanish below 900 px); on wide screens the sidebar can be hidden and stays so.
 */
import { expect, test, type Page } from '@playwright/test';
import { openApp, resultStatus } from './helpers';

async function expectDrawerWorks(page: Page) {
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar).toBeHidden();
  const toggle = page.getByRole('button', { name: 'Show sidebar' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(sidebar).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hide sidebar' })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  // Everything the sidebar offers is there: explorer, upload, history.
  const tree = sidebar.getByRole('tree', { name: 'Databases' });
  await expect(tree.getByRole('treeitem', { name: 'example_db' })).toBeVisible();
  await expect(sidebar.getByRole('button', { name: 'Upload file' })).toBeVisible();
  await sidebar.getByRole('tab', { name: 'History' }).click();
  await expect(sidebar.getByRole('searchbox', { name: 'Search history' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();

  // An explorer action closes the drawer and shows its result.
  await page.getByRole('button', { name: 'Show sidebar' }).click();
  await sidebar.getByRole('tab', { name: 'Explorer' }).click();
  await tree.getByRole('button', { name: 'Expand example_db' }).click();
  await tree.getByRole('button', { name: 'Expand demo_data' }).click();
  const table = tree.getByRole('treeitem', { name: 'home_rentals', exact: true });
  await table.getByRole('button', { name: 'home_rentals', exact: true }).click();
  await table
    .getByRole('button', { name: 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 100' })
    .click();
  await expect(sidebar).toBeHidden();
  await expect(resultStatus(page)).toContainText('100 rows · 8 columns');
}

test.describe('below 900 px', () => {
  test.use({ viewport: { width: 800, height: 800 } });
  test('the sidebar is a drawer behind a toolbar button', async ({ page }) => {
    await openApp(page);
    await expectDrawerWorks(page);
  });
});

test.describe('at 200% zoom', () => {
  // 200% zoom of a 1400 x 900 window: half the CSS pixels, twice the device pixels per CSS pixel.
  test.use({ viewport: { width: 700, height: 450 }, deviceScaleFactor: 2 });
  test('the drawer works and the top bar keeps every control on screen', async ({ page }) => {
    await openApp(page);
    for (const name of ['Show sidebar', 'Switch to dark theme', 'Keyboard shortcuts']) {
      await expect(page.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
    }
    await expectDrawerWorks(page);
  });
});

test('on a wide screen the sidebar can be hidden, and stays hidden after a reload', async ({
  page,
}) => {
  await openApp(page);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar).toBeVisible();
  await page.getByRole('button', { name: 'Hide sidebar' }).click();
  await expect(sidebar).toBeHidden();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible();
  await expect(sidebar).toBeHidden();
  await page.getByRole('button', { name: 'Show sidebar' }).click();
  await expect(sidebar).toBeVisible();
});
