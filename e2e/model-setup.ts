/**
 * Shared steps of the model-page journeys that need a trained model but do not test training:
 * train one through the SQL endpoint and wait for it (or take the run's shared one), and keep
 * screenshots for the README.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { LONG_WORK_MS } from './helpers';

/** Drops and trains `mindsdb.<name>` from a query of example_db, then waits until it is complete. */
export async function trainModel(
  request: APIRequestContext,
  name: string,
  select: string,
  target: string,
) {
  await request.post('/api/sql/query', { data: { query: `DROP MODEL IF EXISTS mindsdb.${name}` } });
  const res = await request.post('/api/sql/query', {
    data: {
      query: `CREATE MODEL mindsdb.${name} FROM example_db (${select}) PREDICT ${target}`,
    },
  });
  expect((await res.json()).type).toBe('table');
  await waitComplete(request, name);
}

/**
 * The demo models that several journeys read and none changes (no RETRAIN, no saved threshold, no
 * DROP): each is trained once per run, by the first test that asks for it (`sharedModel`), and
 * found complete by the others. A journey that watches a training, or makes a new version of its
 * model, trains its own.
 */
export const SHARED_MODELS = {
  rentals: {
    name: 'e2e_shared_rentals',
    select: 'SELECT * FROM demo_data.home_rentals',
    target: 'rental_price',
  },
  churn: {
    name: 'e2e_shared_churn',
    select: 'SELECT * FROM demo_data.customer_churn',
    target: 'Exited',
  },
} as const;

/** The shared model's name, trained now unless an earlier test of the run trained it. */
export async function sharedModel(
  request: APIRequestContext,
  which: keyof typeof SHARED_MODELS,
): Promise<string> {
  const { name, select, target } = SHARED_MODELS[which];
  const r = await request.get(`/api/projects/mindsdb/models/${name}`);
  const status: unknown = r.ok() ? (await r.json()).status : null;
  if (status === 'generating' || status === 'training') await waitComplete(request, name);
  else if (status !== 'complete') await trainModel(request, name, select, target);
  return name;
}

/** Waits until every version of the model has finished training (complete). */
export async function waitComplete(request: APIRequestContext, name: string, version?: number) {
  await expect
    .poll(
      async () => {
        const r = await request.get(
          `/api/projects/mindsdb/models/${name}${version ? `.${version}` : ''}`,
        );
        return r.ok() ? (await r.json()).status : `http ${r.status()}`;
      },
      { timeout: LONG_WORK_MS, intervals: [500] },
    )
    .toBe('complete');
}

/** Opens a view of the app by its URL hash and waits for the connection. */
export async function openHash(page: Page, hash: string) {
  await page.goto(`/${hash}`);
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();
}

/**
 * `DOCS_SCREENSHOTS=1 npx playwright test ...` refreshes the README's screenshots in docs/; a
 * normal run leaves the tracked files alone.
 */
export async function docsScreenshot(page: Page, file: string, height?: number) {
  if (process.env.DOCS_SCREENSHOTS !== '1') return;
  const size = page.viewportSize();
  if (height && size) await page.setViewportSize({ width: size.width, height });
  await page.mouse.move(0, 0);
  await page.waitForTimeout(300); // charts re-measure after a resize
  await page.screenshot({ path: `docs/${file}` });
  if (height && size) await page.setViewportSize(size);
}
