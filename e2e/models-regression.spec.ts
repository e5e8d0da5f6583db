/**
 * Model journey on a regression: create home_rentals' model from the explorer through the form,
 * watch it train, read the description, predict through the form and the JSON body, sweep an input,
 * retrain it and predict with the first version.
 */
import { expect, test, type Page } from '@playwright/test';
import { LONG_WORK_MS, openApp } from './helpers';

const MODEL = 'e2e_rentals_model';
const INPUTS = [
  'number_of_rooms',
  'number_of_bathrooms',
  'sqft',
  'location',
  'days_on_market',
  'initial_price',
  'neighborhood',
];

function field(page: Page, name: string) {
  return page.getByRole('group', { name: 'Model inputs' }).getByLabel(name, { exact: true });
}

/** The JSON body is a Monaco editor: typed through its textbox, read from its rendered lines. */
function jsonBody(page: Page) {
  return {
    input: page.getByRole('textbox', { name: 'JSON body' }),
    text: page.getByRole('region', { name: 'Request body' }).locator('.monaco-editor .view-lines'),
  };
}

async function setJsonBody(page: Page, text: string) {
  await jsonBody(page).input.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('create a regression model from a table, describe it, predict and sweep', async ({
  page,
  request,
}) => {
  // Reruns against a long-lived instance (E2E_BASE_URL) start from no model.
  await request.post('/api/sql/query', {
    data: { query: `DROP MODEL IF EXISTS mindsdb.${MODEL}` },
  });
  await openApp(page);

  // Explorer: "create model from this table".
  const tree = page.getByRole('tree', { name: 'Databases' });
  await tree.getByRole('button', { name: 'Expand example_db' }).click();
  await tree.getByRole('button', { name: 'Expand demo_data' }).click();
  const table = tree.getByRole('treeitem', { name: 'home_rentals', exact: true });
  await table.locator('.tree-row').first().hover();
  await table
    .getByRole('button', { name: 'Create model from example_db.demo_data.home_rentals' })
    .click();

  // The form: source preselected, pick the target (typed), name it; the SQL is shown.
  await expect(page.getByRole('heading', { name: 'Create a model' })).toBeVisible();
  await expect(page.getByLabel('Table')).toHaveValue('demo_data\u0000home_rentals');
  await page.getByLabel('Target column').selectOption('rental_price');
  await expect(page.getByText('Numeric: a regression')).toBeVisible();
  await page.getByLabel('Model name').fill(MODEL);
  await expect(page.getByLabel('SQL to run')).toHaveText(
    `CREATE MODEL mindsdb.${MODEL}\nFROM example_db\n  (SELECT * FROM demo_data.home_rentals)\nPREDICT rental_price;`,
  );
  await page.getByRole('button', { name: 'Train model' }).click();

  // Live status, then the Describe tab opens by itself.
  await expect(page.getByRole('status', { name: 'Training status' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Describe' })).toHaveAttribute(
    'aria-selected',
    'true',
    { timeout: LONG_WORK_MS },
  );
  await expect(page.getByLabel('Model status: complete')).toBeVisible();

  // One importance bar per input, and the r2 accuracy, labelled by its name.
  const chart = page.getByRole('img', { name: /^Column importances chart/ });
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(INPUTS.length);
  for (const input of INPUTS) await expect(chart).toHaveAccessibleName(new RegExp(input));
  const r2 = page.getByRole('listitem', { name: /^R² score 0\.9\d*/ });
  await expect(r2).toContainText('of the variation in rental_price');
  await expect(page.getByRole('table', { name: 'Candidate models' })).toContainText('selected');
  await expect(
    page.getByRole('list', { name: 'Pipeline steps' }).getByRole('listitem'),
  ).not.toHaveCount(0);

  // Predict one row through the form (it starts from a training example).
  await page.getByRole('tab', { name: 'Predict' }).click();
  await expect(field(page, 'sqft')).not.toHaveValue('');
  await field(page, 'sqft').fill('823');
  await field(page, 'location').selectOption({ label: 'good' });
  await page.getByLabel('days_on_market is null').check();
  const body = jsonBody(page);
  await body.input.waitFor({ state: 'attached' });
  await expect(body.text).toContainText('"sqft": 823');
  await expect(body.text).toContainText('"days_on_market": null');
  await page.getByRole('button', { name: /Send/ }).click();
  const headline = page.getByRole('status', { name: 'Predicted value' });
  await expect(headline).toContainText('Predicted rental_price');
  await expect(headline.getByLabel('Prediction interval')).toContainText(/[\d,.]+ – [\d,.]+/);
  await expect(
    page.getByRole('img', { name: /Prediction intervals chart of 1 rows/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy as curl' })).toBeVisible();

  // Edit the JSON: the form follows. Invalid JSON is marked and Send disabled.
  await setJsonBody(page, '[{"sqft": 500, "location": "great", "initial_price": 2000}]');
  await expect(field(page, 'sqft')).toHaveValue('500');
  await expect(field(page, 'location')).toHaveValue(/\d+/);
  await expect(field(page, 'location').locator('option:checked')).toHaveText('great');
  await expect(field(page, 'neighborhood')).toHaveValue('');
  await setJsonBody(page, '[{"sqft": 500,');
  await expect(page.getByRole('alert', { name: 'JSON error' })).toContainText('Invalid JSON');
  await expect(page.locator('.m-json-monaco .squiggly-error').first()).toBeAttached();
  await expect(page.getByRole('button', { name: /Send/ })).toBeDisabled();
  // Fixing it through the form rewrites the JSON; text in a number field is marked, not sent.
  await field(page, 'sqft').fill('8x3');
  await expect(field(page, 'sqft')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: /Send/ })).toBeDisabled();
  await field(page, 'sqft').fill('650');
  await expect(body.text).toContainText('"sqft": 650');
  await expect(page.getByRole('button', { name: /Send/ })).toBeEnabled();

  // What-if: sweep sqft in one batch and chart it with its band.
  await page.getByRole('tab', { name: 'What-if' }).click();
  await page.getByLabel('Input to sweep').selectOption('sqft');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(/^\d+$/);
  await page.getByLabel('Steps', { exact: true }).fill('40');
  await page.getByRole('button', { name: /Run sweep/ }).click();
  const sweep = page.getByRole('img', {
    name: 'What-if chart: rental_price for 40 values of sqft',
  });
  await expect(sweep).toBeVisible();
  await expect(sweep.locator('.recharts-area-area')).toHaveCount(1);
  await expect(sweep.locator('.recharts-line-curve')).toHaveCount(1);

  // Retrain: version 2 trains while version 1 answers, then becomes the active (default) one.
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('button', { name: '↻ Retrain' }).click();
  await page
    .getByRole('alertdialog', { name: `Retrain ${MODEL}?` })
    .getByRole('button', { name: 'Retrain' })
    .click();
  const versionSelect = page.getByLabel('Model version');
  await expect(versionSelect.locator('option:checked')).toHaveText('v2 (active)', {
    timeout: LONG_WORK_MS,
  });
  await expect(versionSelect.locator('option', { hasText: 'v1' })).toBeEnabled();

  // Choose version 1: it is kept in the URL and Predict asks `<model>.1/predict`.
  await versionSelect.selectOption({ label: 'v1' });
  await expect(page).toHaveURL(/[#&]version=1(&|$)/);
  await page.getByRole('tab', { name: 'Predict' }).click();
  await expect(page).toHaveURL(/[#&]version=1(&|$)/);
  await expect(versionSelect.locator('option:checked')).toHaveText('v1');
  await expect(body.text).toContainText('"sqft": 650');
  const predictRequest = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url().includes('/predict'),
  );
  await page.getByRole('button', { name: /Send/ }).click();
  const sent = await predictRequest;
  expect(sent.url()).toContain(`/models/${MODEL}.1/predict`);
  await expect(headline).toContainText('Predicted rental_price');
  // Copy as curl names the version too.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await expect
    .poll(() => page.evaluate(() => navigator.clipboard.readText()))
    .toContain(`/models/${MODEL}.1/predict`);
  // The worker's next test gets this context again (playwright.config.ts's reuseContext), and
  // Playwright's reset leaves granted permissions in place.
  await page.context().clearPermissions();
});
