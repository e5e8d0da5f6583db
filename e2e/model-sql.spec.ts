/**
 * Models from the SQL editor: CREATE MODEL shows a live status card with a link to the model's
 * page (not a raw 19-column row), completions offer the model's input columns inside WHERE, and
 * a model query keeps the prediction columns in view while the grid scrolls. The model is the
 * README's (trained without the leaking initial_price); `DOCS_SCREENSHOTS=1` refreshes
 * docs/sql-training-card.png.
 */
import { expect, test } from '@playwright/test';
import { editorText, LONG_WORK_MS, openApp, resultStatus, setSql } from './helpers';
import { docsScreenshot } from './model-setup';

// The docs' screenshot shows the README's own model name.
const model =
  process.env.DOCS_SCREENSHOTS === '1'
    ? 'home_rentals_model'
    : `e2e_card_${Date.now().toString(36)}`;
/** The README's model: every column but the leaking initial_price. */
const README_COLUMNS =
  'number_of_rooms, number_of_bathrooms, sqft, location, days_on_market, neighborhood, rental_price';

test.describe.configure({ mode: 'serial' });

test('CREATE MODEL in the editor shows a live status card that links to the model page', async ({
  page,
  request,
}) => {
  await request.post('/api/sql/query', {
    data: { query: `DROP MODEL IF EXISTS mindsdb.${model}` },
  });
  await openApp(page);
  await setSql(
    page,
    `CREATE MODEL mindsdb.${model}\nFROM example_db\n(SELECT ${README_COLUMNS}\nFROM demo_data.home_rentals)\nPREDICT rental_price;`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const card = page.getByRole('region', { name: `Model mindsdb.${model}` });
  await expect(card).toBeVisible();
  await expect(card).toContainText('predicts rental_price');
  await expect(page.getByRole('tab', { name: 'Model' })).toHaveAttribute('aria-selected', 'true');
  // Live: the card follows the model until training completes.
  await expect(card.getByRole('heading', { name: `${model} is ready` })).toBeVisible({
    timeout: LONG_WORK_MS,
  });
  await expect(card.getByLabel('Model status: complete')).toBeVisible();
  await expect(card.getByLabel('R² score')).toHaveText(/^0\.\d+/);
  await docsScreenshot(page, 'sql-training-card.png');

  // The raw row is one click away.
  await page.getByRole('tab', { name: 'Results' }).click();
  await expect(resultStatus(page)).toContainText('1 row · 19 columns');
  await page.getByRole('tab', { name: 'Model' }).click();

  await card.getByRole('link', { name: 'Open model page →' }).click();
  await expect(page).toHaveURL(new RegExp(`view=model.*model=${model}`));
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(model) })).toBeVisible();
});

test("completions offer the model's input columns inside WHERE of a model query", async ({
  page,
}) => {
  await openApp(page);
  await setSql(page, `SELECT * FROM mindsdb.${model} WHERE location = 'good' AND `);
  await page.keyboard.press('Control+Space');
  const list = page.getByRole('listbox', { name: 'Suggest' });
  await expect(list).toBeVisible();
  const items = list.getByRole('listitem');
  // The model's inputs come first, each labelled as an input of the model.
  await expect(items.first()).toHaveAccessibleName(
    /^(number_of_rooms|number_of_bathrooms|sqft|location|days_on_market|neighborhood),/,
  );
  await expect(list).toContainText(`input of ${model}`);
  await page.keyboard.type('sqf');
  await expect(items.first()).toHaveAccessibleName(/^sqft,/);
  await page.keyboard.press('Enter');
  await expect(editorText(page)).toContainText("WHERE location = 'good' AND sqft");
});

test('a model query keeps the prediction and its confidence in view', async ({ page }) => {
  await openApp(page);
  await setSql(
    page,
    `SELECT * FROM mindsdb.${model} WHERE sqft = 900 AND location = 'good' AND number_of_rooms = 2`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row');
  const prediction = page.getByRole('columnheader', { name: 'rental_price', exact: true });
  const confidence = page.getByRole('columnheader', {
    name: 'rental_price_confidence',
    exact: true,
  });
  await expect(prediction).toBeInViewport();
  await expect(confidence).toBeInViewport();
  // Scroll the grid to its last column: the prediction stays where it was.
  const before = await prediction.boundingBox();
  // (AG Grid renders only the columns in view; its horizontal scrollbar has no role.)
  await page
    .getByRole('region', { name: 'Results' })
    .locator('.ag-body-horizontal-scroll-viewport')
    .evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(page.getByRole('columnheader', { name: 'when_data', exact: true })).toBeInViewport();
  await expect(prediction).toBeInViewport();
  expect((await prediction.boundingBox())!.x).toBeCloseTo(before!.x, 0);
});
