/**
 * Model journey on a classifier: "New model" on customer_churn predicting Exited; the prediction
 * shows class probabilities, and the what-if sweep charts them.
 */
import { expect, test } from '@playwright/test';
import { LONG_WORK_MS, openApp } from './helpers';

test('a churn classifier shows class probabilities', async ({ page, request }) => {
  // Reruns against a long-lived instance (E2E_BASE_URL) start from no model.
  await request.post('/api/sql/query', {
    data: { query: 'DROP MODEL IF EXISTS mindsdb.e2e_churn_model' },
  });
  await openApp(page);
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: 'Models' })
    .click();
  await page.getByRole('button', { name: '+ New model' }).click();

  const data = page.getByRole('region', { name: 'Training data' });
  await data.getByLabel('Database', { exact: true }).selectOption('example_db');
  await data
    .getByLabel('Table', { exact: true })
    .selectOption({ label: 'demo_data.customer_churn' });
  await page.getByLabel('Target column').selectOption('Exited');
  await page.getByLabel('Model name').fill('e2e_churn_model');
  await page.getByRole('button', { name: 'Train model' }).click();
  await expect(page.getByRole('tab', { name: 'Describe' })).toHaveAttribute(
    'aria-selected',
    'true',
    { timeout: LONG_WORK_MS },
  );
  await expect(
    page.getByRole('listitem', { name: /^Balanced accuracy \d+(\.\d)?%$/ }),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'Predict' }).click();
  const age = page.getByRole('group', { name: 'Model inputs' }).getByLabel('Age', { exact: true });
  await expect(age).not.toHaveValue('');
  await age.fill('58');
  await page.getByRole('button', { name: /Send/ }).click();
  const probs = page
    .getByRole('status', { name: 'Predicted value' })
    .getByLabel('Class probabilities');
  await expect(probs).toContainText('0');
  await expect(probs).toContainText('1');
  await expect(probs).toContainText('%');
  await expect(
    page.getByRole('img', { name: /^Class probabilities chart: 0: [\d.]+% · 1: [\d.]+%/ }),
  ).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'P(1)' })).toBeVisible();

  await page.getByRole('tab', { name: 'What-if' }).click();
  await page.getByLabel('Input to sweep').selectOption('Age');
  await page.getByRole('button', { name: /Run sweep/ }).click();
  const chart = page.getByRole('img', { name: /What-if chart: Exited for \d+ values of Age/ });
  await expect(chart.locator('.recharts-line-curve')).toHaveCount(2);
  await expect(chart).toContainText('P(1)');
});
