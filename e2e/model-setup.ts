/**
 * Shared steps of the model-page journeys that need a trained model but do not test training:
 * train one through the SQL endpoint and wait for it, and keep screenshots for the README.
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
