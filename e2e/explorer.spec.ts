import { expect, test } from '@playwright/test';
import { editorInput, editorText, openApp, resultStatus, setSql } from './helpers';

test('explorer: browse to a table, insert its name, and run SELECT * LIMIT 100', async ({
  page,
}) => {
  await openApp(page);
  const tree = page.getByRole('tree', { name: 'Databases' });
  await tree.getByRole('button', { name: 'Expand example_db' }).click();
  await tree.getByRole('button', { name: 'Expand demo_data' }).click();
  const table = tree.getByRole('treeitem', { name: 'home_rentals', exact: true });
  await expect(table).toBeVisible();

  // Columns with their types.
  await table.getByRole('button', { name: 'Expand home_rentals' }).click();
  const sqft = table.getByRole('treeitem', { name: 'sqft' });
  await expect(sqft).toContainText('INTEGER');

  // Double-click inserts the qualified name at the cursor.
  await setSql(page, 'SELECT count(*) FROM ');
  await table.getByRole('button', { name: 'home_rentals', exact: true }).dblclick();
  await expect(editorText(page)).toContainText(
    'SELECT count(*) FROM example_db.demo_data.home_rentals',
  );

  // Hover action: SELECT * ... LIMIT 100 in a new tab.
  await table.locator('.tree-row').first().hover();
  await table
    .getByRole('button', { name: 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 100' })
    .click();
  await expect(page.getByRole('tab', { name: /home_rentals/ })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(resultStatus(page)).toContainText('100 rows · 8 columns');
});

test('a click selects and opens a node without touching the SQL; insert is explicit', async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, 'SELECT  FROM example_db.demo_data.home_rentals');
  const tree = page.getByRole('tree', { name: 'Databases' });

  // One click on a name: selected and expanded, the editor untouched.
  await tree.getByRole('button', { name: 'example_db', exact: true }).click();
  const db = tree.getByRole('treeitem', { name: 'example_db' });
  await expect(db).toHaveAttribute('aria-selected', 'true');
  await expect(db).toHaveAttribute('aria-expanded', 'true');
  await tree.getByRole('button', { name: 'demo_data', exact: true }).click();
  const table = tree.getByRole('treeitem', { name: 'home_rentals', exact: true });
  await table.getByRole('button', { name: 'home_rentals', exact: true }).click();
  await expect(table).toHaveAttribute('aria-selected', 'true');
  await expect(db).toHaveAttribute('aria-selected', 'false');
  const sqft = table.getByRole('treeitem', { name: 'sqft' });
  await sqft.getByRole('button', { name: 'sqft', exact: true }).click();
  await expect(sqft).toHaveAttribute('aria-selected', 'true');
  await expect(editorText(page)).toHaveText('SELECT  FROM example_db.demo_data.home_rentals');

  // The Insert action puts the selected column at the cursor (after SELECT).
  await editorInput(page).focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowRight');
  await sqft.getByRole('button', { name: 'Insert sqft' }).click();
  await expect(editorText(page)).toHaveText('SELECT sqft FROM example_db.demo_data.home_rentals');

  // Dragging a name into the editor drops it where it lands (here: past the end of the line).
  await setSql(page, 'SELECT * FROM ');
  await table
    .getByRole('button', { name: 'home_rentals', exact: true })
    .dragTo(editorText(page), { targetPosition: { x: 600, y: 8 } });
  await expect(editorText(page)).toHaveText('SELECT * FROM example_db.demo_data.home_rentals');
});

test('explorer refreshes after DDL', async ({ page }) => {
  // A table of this run's own: E2E_REUSE_SERVER runs the spec again on an instance that keeps the
  // tables earlier runs made.
  const table = `e2e_view_${Date.now().toString(36)}`;
  await openApp(page);
  const tree = page.getByRole('tree', { name: 'Databases' });
  await tree.getByRole('button', { name: 'Expand files' }).click();
  await expect(tree.getByRole('treeitem', { name: table })).toHaveCount(0);
  await setSql(page, `CREATE TABLE files.${table} AS SELECT 1 AS x`);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(
    page.getByRole('status').filter({ hasText: /Statement executed|affected/ }),
  ).toBeVisible();
  await expect(tree.getByRole('treeitem', { name: table })).toBeVisible();
});
