/**
 * Scoring a big table in batches from the editor (issue 28): while CREATE TABLE ... (SELECT ...
 * FROM data JOIN model) runs, the running-query view shows rows done of the total, the rate and
 * the time left; Cancel stops it and the statement's transaction is rolled back (no table).
 */
import { expect, test } from '@playwright/test';
import { openApp, setSql } from './helpers';
import { trainModel } from './model-setup';

const ROWS = 2_000_000;

test.beforeAll(async ({ request }) => {
  await trainModel(
    request,
    'e2e_scoring',
    'SELECT sqft, location, rental_price FROM demo_data.home_rentals LIMIT 300',
    'rental_price',
  );
  for (const query of [
    'DROP TABLE IF EXISTS files.e2e_scored',
    `CREATE OR REPLACE TABLE files.e2e_scoring_src AS SELECT 300 + (range % 3000) AS sqft, ['good', 'poor', 'great'][1 + range % 3] AS location FROM range(${ROWS})`,
  ]) {
    const r = await request.post('/api/sql/query', { data: { query } });
    expect((await r.json()).type).not.toBe('error');
  }
});

test('a scoring statement shows its progress while it runs, and Cancel rolls it back', async ({
  page,
  request,
}) => {
  await openApp(page);
  await setSql(
    page,
    'CREATE TABLE files.e2e_scored (SELECT t.sqft, m.rental_price FROM files.e2e_scoring_src AS t JOIN mindsdb.e2e_scoring AS m)',
  );
  await page.keyboard.press('ControlOrMeta+Enter');
  const progress = page.getByRole('list', { name: 'Scoring progress' });
  await expect(progress).toBeVisible();
  await expect(progress.getByRole('progressbar')).toHaveAttribute(
    'aria-valuetext',
    /of 2,000,000 rows \(\d+%\) · [\d,]+ rows\/s/,
  );
  await expect(progress).toContainText('files.e2e_scoring_src -> "files"."e2e_scored"');
  await page.getByRole('button', { name: '■ Cancel' }).click();
  await expect(page.getByText(/Query cancelled after/)).toBeVisible();
  await expect(progress).toHaveCount(0);
  // The statement ended on the server (not only in the page), and its table was rolled back.
  await expect
    .poll(async () => {
      const r = await request.get('/api/status');
      return ((await r.json()).engine?.scoring ?? []).length;
    })
    .toBe(0);
  const r = await request.post('/api/sql/query', {
    data: { query: 'SELECT count(*) FROM files.e2e_scored' },
  });
  expect(await r.json()).toMatchObject({ type: 'error' });
});
