/**
 * Share: a link restores the whole view (SQL and database; a model page with its tab and form
 * values) in someone else's browser, and runs on open when it asks to: a read-only query at once,
 * anything that changes data only after the user agrees (a link is input anyone can craft).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { editorText, openApp, resultStatus, setSql, suiteContext } from './helpers';
import { sharedModel } from './model-setup';

/** Opens a page of the app (a model page has no SQL editor to wait for). */
async function openView(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();
}

/** Opens a link in a fresh browser context: another user, with none of this one's tabs. */
async function openElsewhere(browser: Browser, link: string): Promise<Page> {
  const ctx = await suiteContext(browser, { viewport: { width: 1400, height: 900 } });
  const page = await ctx.newPage();
  await openView(page, link);
  return page;
}

async function shareLink(page: Page, runOnOpen: RegExp | null): Promise<string> {
  await page.getByRole('button', { name: 'Share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this view' });
  if (runOnOpen) await dialog.getByRole('checkbox', { name: runOnOpen }).check();
  const link = await dialog.getByRole('textbox', { name: 'Link to this view' }).inputValue();
  await page.keyboard.press('Escape');
  return link;
}

/** The model page's `form=` value, decoded. */
function formInUrl(page: Page): unknown {
  const form = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('form');
  return form ? JSON.parse(Buffer.from(form, 'base64url').toString('utf8')) : null;
}

function b64(text: string) {
  return Buffer.from(text, 'utf8').toString('base64url');
}

test('a shared query opens with its database and runs on open when asked', async ({
  page,
  browser,
}) => {
  await openApp(page);
  await page.getByRole('combobox', { name: 'Database' }).selectOption('example_db');
  await setSql(page, 'SELECT count(*) AS n FROM demo_data.home_rentals');
  const link = await shareLink(page, /Run the query when the link is opened/);
  expect(link).toContain('db=example_db');
  expect(link).toContain('run=1');

  const other = await openElsewhere(browser, link);
  await expect(editorText(other)).toContainText('SELECT count(*) AS n FROM demo_data.home_rentals');
  await expect(other.getByRole('combobox', { name: 'Database' })).toHaveValue('example_db');
  await expect(resultStatus(other)).toContainText('1 row · 1 column');
  // The request to run is consumed: a reload does not run it again.
  await expect(other).not.toHaveURL(/run=1/);
  await other.context().close();
});

test('a link never runs a statement that changes data without asking', async ({
  page,
  request,
}) => {
  const table = `e2e_link_${Date.now().toString(36)}`;
  const sql = `CREATE TABLE files.${table} AS SELECT 1 AS x`;
  const exists = async () =>
    (
      await (
        await request.post('/api/sql/query', { data: { query: `SELECT * FROM files.${table}` } })
      ).json()
    ).type === 'table';

  await openApp(page, `/#sql=${b64(sql)}&run=1`);
  const confirm = page.getByRole('alertdialog', { name: 'Run the shared SQL?' });
  await expect(confirm).toContainText(sql);
  await expect(confirm.getByRole('button', { name: 'Don’t run' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Don’t run' }).click();
  await expect(confirm).toBeHidden();
  await expect(editorText(page)).toContainText(sql);
  expect(await exists()).toBe(false);

  // Asked again on the next open; agreeing runs it.
  await page.goto('about:blank');
  await page.goto(`/#sql=${b64(sql)}&run=1`);
  await page
    .getByRole('alertdialog', { name: 'Run the shared SQL?' })
    .getByRole('button', { name: 'Run it' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: /Statement executed|affected/ }),
  ).toBeVisible();
  expect(await exists()).toBe(true);
  await request.post('/api/sql/query', { data: { query: `DROP TABLE files.${table}` } });
});

test('a model page link restores its tab and form values and sends the prediction', async ({
  page,
  browser,
  request,
}) => {
  const MODEL = await sharedModel(request, 'rentals');
  await openView(page, `/#view=model&project=mindsdb&model=${MODEL}&tab=predict`);
  const sqft = page
    .getByRole('group', { name: 'Model inputs' })
    .getByLabel('sqft', { exact: true });
  await expect(sqft).not.toHaveValue('');
  await sqft.fill('1234');
  await expect.poll(() => formInUrl(page)).toMatchObject({ rows: [{ sqft: '1234' }] });
  const link = await shareLink(page, /Send the prediction when the link is opened/);

  const other = await openElsewhere(browser, link);
  await expect(other.getByRole('tab', { name: 'Predict' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(
    other.getByRole('group', { name: 'Model inputs' }).getByLabel('sqft', { exact: true }),
  ).toHaveValue('1234');
  await expect(other.getByRole('status', { name: 'Predicted value' })).toContainText(
    'Predicted rental_price',
  );
  await other.context().close();

  // What-if: the sweep's settings travel too, and the sweep runs on open.
  await page.getByRole('tab', { name: 'What-if' }).click();
  await page.getByLabel('Input to sweep').selectOption('sqft');
  await page.getByLabel('Steps', { exact: true }).fill('12');
  // The page keeps its form in the URL as it changes.
  await expect
    .poll(() => formInUrl(page))
    .toMatchObject({ sweep: { column: 'sqft', steps: '12' } });
  const sweepLink = await shareLink(page, /Run the sweep when the link is opened/);
  const third = await openElsewhere(browser, sweepLink);
  await expect(third.getByLabel('Steps', { exact: true })).toHaveValue('12');
  await expect(
    third.getByRole('img', { name: 'What-if chart: rental_price for 12 values of sqft' }),
  ).toBeVisible();
  await third.context().close();
});

test('a create-model link restores the form it was shared from', async ({ page, browser }) => {
  await openView(page, '/#view=create-model&db=example_db&schema=demo_data&table=home_rentals');
  await page.getByLabel('Target column').selectOption('rental_price');
  await page.getByLabel('Model name').fill('shared_rentals');
  await expect
    .poll(() => formInUrl(page))
    .toMatchObject({ target: 'rental_price', name: 'shared_rentals', table: 'home_rentals' });
  const link = await shareLink(page, null);

  const other = await openElsewhere(browser, link);
  await expect(other.getByLabel('Target column')).toHaveValue('rental_price');
  await expect(other.getByLabel('Model name')).toHaveValue('shared_rentals');
  await expect(other.getByLabel('SQL to run')).toContainText('CREATE MODEL mindsdb.shared_rentals');
  await other.context().close();
});
