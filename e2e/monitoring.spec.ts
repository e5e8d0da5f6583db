/**
 * Watching a model after training (issue 27), the presenter's journey: train on home_rentals,
 * point the Drift tab at this month's listings (the shifted demo table) and get a verdict in
 * words, write the RETRAIN into the editor, retrain, read the version diff between the two
 * versions and the feature effects, click a prediction in a query result to see why (mouse and
 * keyboard); each view passes axe (WCAG 2 A/AA) in Chromium. `DOCS_SCREENSHOTS=1` refreshes the
 * tutorial's screenshots (docs/evaluation.md).
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { editorText, LONG_WORK_MS, openApp, resultStatus, setSql } from './helpers';
import { docsScreenshot, openHash, trainModel, waitComplete } from './model-setup';

const MODEL = 'e2e_monitoring_rentals';

async function expectAccessible(page: Page, what: string, where = '.m-panel') {
  const found = await axeViolations(page, {
    include: where,
    tags: ['wcag2a', 'wcag2aa'],
    impacts: 'all',
  });
  expect(found, what).toEqual([]);
}

test('drift verdict on this month’s data, retrain, version diff and effects', async ({
  page,
  request,
}) => {
  await trainModel(request, MODEL, 'SELECT * FROM demo_data.home_rentals', 'rental_price');

  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}&tab=drift`);
  await expect(page.getByRole('tab', { name: 'Drift' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText(/No drift report for v1 yet/)).toBeVisible();

  // The table named like the training table is offered as today's data.
  await page.getByRole('button', { name: 'Use home_rentals_this_month' }).click();
  await expect(page.getByRole('textbox', { name: /Query/ })).toHaveValue(
    'SELECT * FROM demo_data.home_rentals_this_month',
  );
  await page.getByRole('button', { name: 'Compute drift' }).click();
  const verdict = page.getByRole('heading', { name: /^Retrain:/ });
  await expect(verdict).toBeVisible({ timeout: LONG_WORK_MS });
  await expect(page.getByText(/inputs drifted, covering \d+% of importance/)).toBeVisible();

  // The shifted inputs are named drifted; the never-seen neighbourhood is noted.
  const inputs = page.getByRole('table', { name: 'Inputs' });
  const row = (name: string) =>
    inputs.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });
  await expect(row('sqft')).toContainText('drifted');
  await expect(row('neighborhood')).toContainText('harbor_district');
  await expect(row('number_of_rooms')).not.toContainText('drifted');
  await expectAccessible(page, 'drift tab');
  await docsScreenshot(page, 'monitoring-drift.png', 1100);

  for (const size of [
    { width: 1366, height: 768 },
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await expect(verdict).toBeInViewport();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `no sideways scroll at ${size.width}x${size.height}`).toBeLessThanOrEqual(0);
  }

  // "Retrain on this query" writes the statement into the editor; run it as a user would.
  await page.getByRole('button', { name: 'Retrain on this query' }).click();
  await expect(editorText(page)).toContainText(`RETRAIN mindsdb.${MODEL}`);
  await expect(editorText(page)).toContainText('home_rentals_this_month');
  await request.post('/api/sql/query', {
    data: {
      query: `RETRAIN mindsdb.${MODEL} FROM example_db (SELECT * FROM demo_data.home_rentals_this_month)`,
    },
  });
  await waitComplete(request, MODEL, 2);

  // The version diff opens on v2 against v1, on v2's held-out rows.
  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}&tab=diff`);
  await expect(page.getByText(/^v1 against v2 on [\d,]+ held-out rows kept with v2/)).toBeVisible({
    timeout: LONG_WORK_MS,
  });
  const changed = page.getByRole('table', { name: /Changed rows/ });
  await expect(changed.getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page, 'diff tab');
  await docsScreenshot(page, 'monitoring-diff.png', 1100);

  // Effects: the most important input's curve, with a sentence and a table.
  await page.getByRole('tab', { name: 'Effects' }).click();
  await expect(
    page.getByText(/^Across its (range|categories), \w+ moves the average rental_price/),
  ).toBeVisible({
    timeout: LONG_WORK_MS,
  });
  await expectAccessible(page, 'effects tab');

  // A prediction in a query result explains itself: a click (or Enter) opens its waterfall.
  await openApp(page);
  await setSql(
    page,
    `SELECT t.*, m.rental_price AS predicted FROM example_db.demo_data.home_rentals_this_month AS t JOIN mindsdb.${MODEL} AS m LIMIT 5`,
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('5 rows');
  const predicted = page.locator('[role="gridcell"].cell-why');
  await expect(predicted).toHaveCount(5);
  await predicted.first().click();
  const why = page.getByRole('complementary', { name: 'Why this prediction' });
  await expect(why.getByText(/^Why predicted = [\d,.]+ \(row \d\)$/)).toBeVisible();
  await expect(why.getByText(`mindsdb.${MODEL} v2`)).toBeVisible();
  await expect(why.getByRole('img', { name: /^Explanation of row \d/ })).toBeVisible({
    timeout: LONG_WORK_MS,
  });
  // Every input is in the result: the waterfall explains exactly the value shown.
  await expect(why.getByText(/read as missing|not the .* shown/)).toHaveCount(0);
  await expectAccessible(page, 'why panel', '.m-why-panel');
  await docsScreenshot(page, 'monitoring-why.png');
  // Keyboard: Escape closes and gives the focus back to the cell; Enter opens it again.
  await page.keyboard.press('Escape');
  await expect(why).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(why.getByRole('img', { name: /^Explanation of row \d/ })).toBeVisible();
  // A data column's cell still opens its value, not a why.
  await page.keyboard.press('Escape');
  await expect(why).toBeHidden();
  await page.locator('[role="gridcell"][col-id="c0"]').first().dblclick();
  await expect(page.getByRole('complementary', { name: 'Cell value' })).toBeVisible();
  await expect(why).toBeHidden();
});
