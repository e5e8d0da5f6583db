/**
 * A model a stakeholder understands: Describe says how far off the model typically is in the
 * target's units beside the baseline, charts predicted vs actual and the residuals (regression) or
 * the confusion matrix, per-class precision/recall and calibration (classifier); warnings stand
 * out on every tab; lists label accuracy by its metric; the describe view prints cleanly.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { docsScreenshot, openHash, SHARED_MODELS, sharedModel } from './model-setup';

const RENTALS = SHARED_MODELS.rentals.name;
const CHURN = SHARED_MODELS.churn.name;

async function describeInfo(request: APIRequestContext, model: string) {
  const r = await request.get(`/api/projects/mindsdb/models/${model}/describe?attribute=info`);
  expect(r.ok()).toBe(true);
  return (await r.json())[0];
}

const num = (text: string) => Number(text.replace(/[,%\s]/g, ''));

test('a regression is described in its target’s units, with its warning on every tab', async ({
  page,
  request,
}) => {
  await sharedModel(request, 'rentals');
  const info = await describeInfo(request, RENTALS);
  const reg = info.metrics.regression;
  await openHash(page, `#view=model&project=mindsdb&model=${RENTALS}&tab=describe`);

  // The dominant input (initial_price) is called out above the tabs, in plain words.
  const warnings = page.getByRole('region', { name: 'Model warnings' });
  await expect(warnings).toContainText('before trusting this model');
  await expect(warnings).toContainText('One input does nearly all the work');
  await expect(warnings).toContainText('initial_price');

  // Error in rental_price's units beside the baseline of predicting the average.
  const quality = page.getByRole('list', { name: 'Quality metrics' });
  const mae = quality.getByRole('listitem', { name: /^Mean absolute error \(MAE\) [\d.,]+$/ });
  await expect(mae).toContainText('Typically off by');
  await expect(mae).toContainText('Predicting the average');
  const maeShown = num((await mae.getAttribute('aria-label'))!.replace(/^.*\) /, ''));
  expect(maeShown).toBeCloseTo(reg.mae, 2);
  const baselineText = (await mae.innerText()).match(/would be off by ([\d,]+)/)![1];
  expect(Math.abs(num(baselineText) - reg.baseline.mae)).toBeLessThan(1);
  await expect(
    quality.getByRole('listitem', { name: /^Root mean squared error \(RMSE\) [\d.,]+$/ }),
  ).toContainText('big misses count more');
  const r2 = quality.getByRole('listitem', { name: /^R² score 0\.9\d*$/ });
  await expect(r2).toContainText('of the variation in rental_price');
  await expect(page.getByRole('region', { name: 'Model quality' })).toContainText(
    `measured on ${info.metrics.rows.validation.toLocaleString('en-US')} held-out rows`,
  );

  // Predicted vs actual: one dot per sampled validation row, and the residuals beside it.
  const scatter = page.getByRole('img', {
    name: /^Predicted vs actual rental_price for a sample of 500 of the [\d,]+ validation rows/,
  });
  await expect(scatter.locator('.recharts-scatter-symbol')).toHaveCount(reg.sample.actual.length);
  await expect(
    page.getByRole('img', { name: /^Residuals: actual minus predicted rental_price/ }),
  ).toBeVisible();
  await docsScreenshot(page, 'model-describe.png');

  // The warning stays in view on the other tabs.
  await page.getByRole('tab', { name: 'Predict' }).click();
  await expect(page.getByRole('region', { name: 'Model warnings' })).toContainText('initial_price');

  // Printing: the describe view alone, charts within the paper, nothing of the app around it.
  await page.getByRole('tab', { name: 'Describe' }).click();
  await expect(scatter).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('tablist', { name: 'Model' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('tree', { name: 'Databases' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Share' })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Model warnings' })).toBeVisible();
  const charts = page.locator('.m-chart svg.recharts-surface');
  await expect(charts).toHaveCount(3); // predicted vs actual, residuals, importances
  // Before printing, the charts are drawn for the paper's width (640 px), not the screen's.
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  for (const svg of await charts.all()) await expect(svg).toHaveAttribute('width', '640');
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  for (const svg of await charts.all()) {
    const box = (await svg.boundingBox())!;
    expect(box.height).toBeGreaterThan(100);
    expect(box.x + box.width).toBeLessThanOrEqual(width + 1);
  }
  await page.evaluate(() => window.dispatchEvent(new Event('afterprint')));
  const pdf = await page.pdf({ format: 'A4', printBackground: true });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0).toBeGreaterThan(1);
  // Back on screen the charts fill their cards again.
  await page.emulateMedia({ media: 'screen' });
  await expect(charts.first()).not.toHaveAttribute('width', '640');
});

test('a classifier shows its confusion matrix, per-class precision/recall and calibration', async ({
  page,
  request,
}) => {
  await sharedModel(request, 'churn');
  const info = await describeInfo(request, CHURN);
  const cls = info.metrics.classification;
  await openHash(page, `#view=model&project=mindsdb&model=${CHURN}&tab=describe`);

  const quality = page.getByRole('list', { name: 'Quality metrics' });
  const accuracy = quality.getByRole('listitem', { name: /^Accuracy \d+(\.\d)?%$/ });
  await expect(accuracy).toContainText('of the time');
  await expect(accuracy).toContainText(`Always answering “${cls.baseline.class}” would be right`);
  const balanced = quality.getByRole('listitem', { name: /^Balanced accuracy \d+(\.\d)?%$/ });
  expect(num((await balanced.getAttribute('aria-label'))!.split(' ').at(-1)!) / 100).toBeCloseTo(
    cls.balanced_accuracy,
    3,
  );

  // The confusion matrix's counts are the validation rows, rows = actual, columns = predicted.
  const matrix = page.getByRole('table', { name: 'Confusion matrix' });
  const counts = (await matrix.locator('.m-cm-count').allInnerTexts()).map(num);
  expect(counts).toEqual(cls.confusion.flat());
  expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(info.metrics.rows.validation);
  await expect(
    matrix.getByRole('cell', {
      name: new RegExp(`^actual 1, predicted 1: ${cls.confusion[1][1].toLocaleString('en-US')} of`),
    }),
  ).toBeVisible();
  const perClass = page.getByRole('table', { name: 'Per-class precision and recall' });
  await expect(perClass.getByRole('row')).toHaveCount(1 + cls.classes.length);
  await expect(perClass).toContainText(`${(cls.per_class[1].recall * 100).toFixed(1)}%`);

  const calibration = page.getByRole('region', { name: 'Calibration' });
  await expect(calibration).toContainText(
    /When it reports about \d+% confidence it is right \d+% of the time/,
  );
  await expect(
    calibration.getByRole('img', {
      name: /^Calibration: reported confidence vs observed accuracy/,
    }),
  ).toBeVisible();
  await expect(calibration.locator('.recharts-scatter-symbol')).toHaveCount(
    cls.calibration.filter((b: { count: number }) => b.count > 0).length,
  );
});

test('the models list labels each accuracy by its metric', async ({ page, request }) => {
  await sharedModel(request, 'rentals');
  await sharedModel(request, 'churn');
  await openHash(page, '#view=models');
  const project = page.getByRole('region', { name: 'Project mindsdb' });
  await expect(project.getByRole('button', { name: `Open model ${RENTALS}` })).toContainText(
    /R² score 0\.9\d*/,
  );
  await expect(project.getByRole('button', { name: `Open model ${CHURN}` })).toContainText(
    /Balanced accuracy 0\.\d+/,
  );
  // Never the bare word for either of them.
  for (const m of [RENTALS, CHURN])
    await expect(project.getByRole('button', { name: `Open model ${m}` })).not.toContainText(
      '· accuracy',
    );
});
