/**
 * Time-series journey: create a forecasting model of house_sales through the create form (ORDER
 * BY / GROUP BY / WINDOW / HORIZON, the SQL it shows), watch it train, read the time-series part of
 * Describe (with each interval level's coverage as DESCRIBE has it), then the forecast chart (axis labels, one point per forecast step, the interval band,
 * the group selector), the Forecast tab's horizon and rows, What-if, and the one-click line chart
 * of a forecast query in the SQL results. DOCS_SCREENSHOTS=1 (as the other specs) refreshes
 * docs/model-forecast.png from the chart.
 */
import { expect, test, type Page } from '@playwright/test';
import { editorInput, LONG_WORK_MS, openApp, setSql } from './helpers';

const MODEL = 'e2e_house_sales_forecast';

function chart(page: Page) {
  return page.getByRole('figure', { name: /^Forecast chart:/ });
}

test('create a time-series model through the form and read its forecast chart', async ({
  page,
  request,
}) => {
  await request.post('/api/sql/query', {
    data: { query: `DROP MODEL IF EXISTS mindsdb.${MODEL}` },
  });
  await page.goto('/#view=create-model&db=example_db&schema=demo_data&table=house_sales');
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();

  // The form: target, then the time-series settings; the SQL follows them.
  await expect(page.getByRole('heading', { name: 'Create a model' })).toBeVisible();
  await page.getByLabel('Target column').selectOption('ma');
  await page.getByLabel('Time series (forecast)').check();
  await expect(page.getByLabel('ORDER BY column')).toHaveValue('saledate');
  await page.getByLabel('GROUP BY type').check();
  await page.getByLabel('GROUP BY bedrooms').check();
  await page.getByLabel('WINDOW').fill('8');
  await page.getByLabel('HORIZON').fill('4');
  await page.getByLabel('Model name').fill(MODEL);
  await expect(page.getByLabel('SQL to run')).toHaveText(
    `CREATE MODEL mindsdb.${MODEL}\nFROM example_db\n  (SELECT * FROM demo_data.house_sales)\nPREDICT ma\nORDER BY saledate\nGROUP BY type, bedrooms\nWINDOW 8\nHORIZON 4;`,
  );
  await page.getByRole('button', { name: 'Train model' }).click();

  // Trained: Describe shows the clauses and the accuracy per forecast step.
  await expect(page.getByRole('tab', { name: 'Describe' })).toHaveAttribute(
    'aria-selected',
    'true',
    { timeout: LONG_WORK_MS },
  );
  const tsCard = page.getByRole('region', { name: 'Time series' });
  await expect(tsCard).toContainText('quarterly (month-end)');
  await expect(tsCard).toContainText('type, bedrooms');
  await expect(
    page.getByRole('table', { name: 'Accuracy per forecast step' }).getByRole('row'),
  ).toHaveCount(5);
  // Beside it each band level's promised share and the share it held, as the instance's DESCRIBE
  // has them: pooled, then per step.
  const described = await request.post('/api/sql/query', {
    data: { query: `DESCRIBE mindsdb.${MODEL}` },
  });
  const body = (await described.json()) as { column_names: string[]; data: unknown[][] };
  const tsCell = body.data[0][body.column_names.indexOf('timeseries')];
  const { coverage } = (typeof tsCell === 'string' ? JSON.parse(tsCell) : tsCell) as {
    coverage: { level: number; coverage: number; steps: number[]; outOfFold: boolean }[];
  };
  expect(coverage.map((c) => c.level)).toEqual([0.5, 0.8, 0.9, 0.95]);
  const held = (share: number) => new RegExp(`^${Math.round(share * 100)}% \\(`);
  const coverageTable = tsCard.getByRole('table', { name: /^Intervals: does a 90% band hold/ });
  // Its name says what the shares were counted on, as the instance flags them.
  await expect(coverageTable).toHaveAccessibleName(
    coverage.every((c) => c.outOfFold) ? /data they did not see/ : /counted in sample/,
  );
  await expect(coverageTable.getByRole('columnheader')).toHaveText([
    'Forecast step',
    '50% band',
    '80% band',
    '90% band',
    '95% band',
  ]);
  await expect(coverageTable.getByRole('rowheader')).toHaveText([
    'All steps',
    'Step 1',
    'Step 2',
    'Step 3',
    'Step 4',
  ]);
  const coverageRows = coverageTable.locator('tbody tr');
  await expect(coverageRows.nth(0).getByRole('cell')).toHaveText(
    coverage.map((c) => held(c.coverage)),
  );
  for (let k = 0; k < 4; k++) {
    await expect(coverageRows.nth(k + 1).getByRole('cell')).toHaveText(
      coverage.map((c) => held(c.steps[k])),
    );
  }
  // On a presenter's screens the table fits the width: no column scrolls out of view.
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1366, height: 768 },
  ]) {
    await page.setViewportSize(viewport);
    await coverageTable.scrollIntoViewIfNeeded();
    const box = await coverageTable.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  if (process.env.DOCS_SCREENSHOTS === '1') {
    await tsCard.screenshot({ path: 'docs/model-forecast-intervals.png' });
  }

  // Overview: the forecast chart of the first group.
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(chart(page)).toHaveAccessibleName(
    'Forecast chart: type = house, bedrooms = 2, 4 forecast steps',
  );
  await expect(chart(page).locator('.recharts-label')).toHaveText(['saledate', 'ma']);
  await expect(chart(page).locator('.forecast-point')).toHaveCount(4);
  await expect(chart(page).locator('.forecast-band path.recharts-area-area')).toHaveCount(1);
  await expect(chart(page).locator('.history-line path.recharts-line-curve')).toHaveCount(1);
  if (process.env.DOCS_SCREENSHOTS === '1') {
    await page
      .getByRole('region', { name: 'Forecast' })
      .screenshot({ path: 'docs/model-forecast.png' });
  }

  // Another group: the chart follows.
  await page.getByLabel('Group').selectOption({ label: 'type = unit, bedrooms = 3' });
  await expect(chart(page)).toHaveAccessibleName(
    'Forecast chart: type = unit, bedrooms = 3, 4 forecast steps',
  );
  await expect(chart(page).locator('.forecast-point')).toHaveCount(4);

  // The Forecast tab: a group and a horizon, the rows and the SQL they came from.
  await page.getByRole('tab', { name: 'Forecast' }).click();
  await page.getByLabel('Horizon').selectOption('2');
  await expect(chart(page).locator('.forecast-point')).toHaveCount(2);
  const rows = page.getByRole('table', { name: 'Forecast rows' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('2019-12-31');
  await expect(rows.nth(2)).toContainText('2020-03-31');
  await expect(page.getByLabel('Forecast SQL')).toContainText('t.saledate > LATEST');

  // What-if: the latest value 10 % higher gives a scenario line and its rows.
  await page.getByRole('tab', { name: 'What-if' }).click();
  await expect(chart(page).locator('.scenario-line path.recharts-line-curve')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Scenario rows' }).getByRole('row')).toHaveCount(5);

  // SQL: a forecast query's result charts over time in one click.
  await openApp(page);
  await setSql(
    page,
    `SELECT m.saledate, m.ma, m.ma_min, m.ma_max FROM example_db.demo_data.house_sales AS t JOIN mindsdb.${MODEL} AS m WHERE t.saledate > '2018-01-01' AND t.type = 'house' AND t.bedrooms = 3`,
  );
  await editorInput(page).press('ControlOrMeta+Enter');
  await page.getByRole('button', { name: 'Line chart of ma over saledate' }).click();
  const resultChart = page.getByRole('img', { name: 'Result chart' });
  await expect(resultChart.locator('.recharts-line-curve')).toHaveCount(1);
  await expect(page.getByLabel('Chart type')).toHaveValue('line');
});
