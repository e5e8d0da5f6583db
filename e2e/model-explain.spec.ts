/**
 * Why a prediction came out as it did: the Predict tab asks for explanations (params.explain)
 * and draws each row's waterfall (base value -> each input's push -> prediction), a classifier's
 * in log-odds tied to its calibrated probability; the What-if tab sweeps categorical inputs too,
 * on a y-axis that keeps the interval band and says how big the change is.
 */
import { expect, test, type Page } from '@playwright/test';
import { docsScreenshot, openHash, sharedModel, trainModel } from './model-setup';

const RENTALS = 'e2e_explain_rentals';

function field(page: Page, name: string) {
  return page.getByRole('group', { name: 'Model inputs' }).getByLabel(name, { exact: true });
}

const num = (text: string) => Number(text.replace(/[,+\s]/g, '').replace('−', '-'));

/** The rows of the waterfall's table: [step, push, running value]. */
async function waterfallRows(page: Page) {
  const why = page.getByRole('region', { name: 'Why this prediction' });
  await why.getByText('The numbers').click();
  const rows = why.getByRole('table', { name: /^Contributions for row/ }).getByRole('row');
  const out: string[][] = [];
  for (const r of await rows.all()) out.push(await r.getByRole('cell').allInnerTexts());
  return out.filter((r) => r.length === 3);
}

test('a regression prediction is explained as a waterfall from the average to the prediction', async ({
  page,
  request,
}) => {
  // Without initial_price (a near-copy of the rent), so every input has a story to tell.
  await trainModel(
    request,
    RENTALS,
    'SELECT * EXCLUDE (initial_price) FROM demo_data.home_rentals',
    'rental_price',
  );
  await openHash(page, `#view=model&project=mindsdb&model=${RENTALS}&tab=predict`);
  await expect(field(page, 'sqft')).not.toHaveValue('');
  await field(page, 'sqft').fill('917');
  await field(page, 'location').selectOption({ label: 'great' });

  // Explanations are asked for in the body's params, which the JSON editor shows.
  const explain = page.getByRole('checkbox', { name: 'Explain each prediction' });
  await expect(explain).toBeChecked();
  const body = page
    .getByRole('region', { name: 'Request body' })
    .locator('.monaco-editor .view-lines');
  await expect(body).toContainText('"params": {"explain":true}');
  const sent = page.waitForRequest((r) => r.url().includes('/predict'));
  await page.getByRole('button', { name: /Send/ }).click();
  expect((await sent).postDataJSON()).toMatchObject({ params: { explain: true } });

  const headline = page.getByRole('status', { name: 'Predicted value' });
  const predicted = num(await headline.locator('.m-big').innerText());
  const why = page.getByRole('region', { name: 'Why this prediction' });
  await expect(why.getByRole('heading', { name: /^Why row 1 came out as/ })).toBeVisible();
  await expect(why).toContainText('The model’s average rental_price is');
  const chart = why.getByRole('img', { name: /^Explanation of row 1: starts at/ });
  await expect(chart).toHaveAccessibleName(/sqft = 917 [+−][\d.,]+/);
  await expect(chart).toHaveAccessibleName(/location = great [+−][\d.,]+/);
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(8); // base, 6 inputs, prediction
  // The colours are named: a legend says which pushes up and which down.
  await expect(
    why.getByRole('list', { name: 'Colours of the chart' }).getByRole('listitem'),
  ).toHaveText(['pushes the prediction up', 'pushes it down', 'average and result']);
  await expect(page.getByText('importance: how much the model relies on each input')).toBeVisible();

  // The numbers add up: base + every push = the prediction shown in the headline.
  const rows = await waterfallRows(page);
  expect(rows[0][0]).toBe('Average prediction');
  expect(rows.at(-1)![0]).toBe('Prediction');
  const base = num(rows[0][2]);
  const pushes = rows.slice(1, -1).map((r) => num(r[1]));
  expect(pushes).toHaveLength(6);
  expect(base + pushes.reduce((a, b) => a + b, 0)).toBeCloseTo(predicted, 0);
  expect(num(rows.at(-1)![2])).toBeCloseTo(predicted, 1);
  await why.getByText('The numbers').click();
  await page
    .getByRole('region', { name: 'Prediction result' })
    .evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await docsScreenshot(page, 'model-explain.png', 1250);

  // Without explanations the body is the spec's plain array and no waterfall is drawn.
  await explain.uncheck();
  await expect(body).not.toContainText('params');
  await page.getByRole('button', { name: /Send/ }).click();
  await expect(headline).toBeVisible();
  await expect(page.getByRole('region', { name: 'Why this prediction' })).toHaveCount(0);

  // What-if through the categories of location: one point per category, the change in words.
  await page.getByRole('tab', { name: 'What-if' }).click();
  await page.getByLabel('Input to sweep').selectOption('location');
  await expect(page.getByText('Every known value of location (3)')).toBeVisible();
  await page.getByRole('button', { name: /Run sweep/ }).click();
  const cats = page.getByRole('img', {
    name: /^What-if chart: rental_price for each of 3 categories of location/,
  });
  await expect(cats.locator('.recharts-scatter-symbol')).toHaveCount(3);
  for (const c of ['good', 'great', 'poor']) await expect(cats).toContainText(c);
  await expect(page.getByRole('note', { name: 'Size of the change' })).toHaveText(
    /^(Changes the predicted rental_price by at most [\d.,]+ \([\d.]+%\) across these categories|The predicted rental_price does not change across these categories)/,
  );

  // A numeric sweep: the y-axis spans at least a fifth of the prediction (no blown-up wiggle).
  await page.getByLabel('Input to sweep').selectOption('sqft');
  await page.getByRole('button', { name: /Run sweep/ }).click();
  const line = page.getByRole('img', {
    name: /^What-if chart: rental_price for \d+ values of sqft/,
  });
  await expect(line.locator('.recharts-area-area')).toHaveCount(1);
  const ticks = (
    await line
      .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
      .allTextContents()
  ).map(num);
  const [lo, hi] = [Math.min(...ticks), Math.max(...ticks)];
  expect(hi - lo).toBeGreaterThanOrEqual(0.18 * ((hi + lo) / 2));
  await expect(page.getByRole('note', { name: 'Size of the change' })).toContainText(
    /across this range/,
  );
});

test('a classifier’s explanation reads its raw score as log-odds of the predicted class', async ({
  page,
  request,
}) => {
  const CHURN = await sharedModel(request, 'churn');
  await openHash(page, `#view=model&project=mindsdb&model=${CHURN}&tab=predict`);
  await expect(field(page, 'Age')).not.toHaveValue('');
  await page.getByRole('button', { name: /Send/ }).click();

  const headline = page.getByRole('status', { name: 'Predicted value' });
  const predictedClass = (await headline.locator('.m-big').innerText()).trim();
  const why = page.getByRole('region', { name: 'Why this prediction' });
  const sentence = why.locator('.m-explain-sentence');
  await expect(sentence).toContainText(
    `raw score for “${predictedClass}”, the predicted class, in log-odds`,
  );
  // The score is tied to the calibrated probability the headline shows for that class.
  const prob = headline
    .getByLabel('Class probabilities')
    .locator('.m-prob', { hasText: new RegExp(`^${predictedClass}`) })
    .locator('.m-prob-value');
  const shown = (await prob.innerText()).trim();
  await expect(sentence).toContainText(`calibration turns into the ${shown} probability`);
  const rows = await waterfallRows(page);
  expect(rows[0][0]).toBe('Average score');
  expect(rows.at(-1)![0]).toBe(`Score of “${predictedClass}”`);

  // Categorical what-if for a classifier: grouped probability bars, one group per category.
  await page.getByRole('tab', { name: 'What-if' }).click();
  await page.getByLabel('Input to sweep').selectOption('Geography');
  await page.getByRole('button', { name: /Run sweep/ }).click();
  const chart = page.getByRole('img', {
    name: /^What-if chart: Exited for each of 3 categories of Geography/,
  });
  await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(6);
  for (const g of ['France', 'Germany', 'Spain']) await expect(chart).toContainText(g);
  await expect(page.getByRole('note', { name: 'Size of the change' })).toHaveText(
    /^Changes P\([01]\) by at most [\d.]+ percentage points across these categories\.$/,
  );
});
