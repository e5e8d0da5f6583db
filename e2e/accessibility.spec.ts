/**
 * axe-core on every screen of the demo journey, light and dark (issue 24 item 7): no critical and
 * no serious violation (contrast, names, roles, nesting) on the SQL workspace with a result, the
 * Models list, Compare, the create form and each tab of a model page with its result shown.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { openApp, resultStatus, setSql } from './helpers';
import { openHash, trainModel } from './model-setup';

const MODEL = 'e2e_axe_rentals';

/** The serious and critical violations, each as "rule: target(s)" so a failure says where. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Trains the model the screens show, unless a complete one is there already. */
async function ensureModel(request: APIRequestContext) {
  const r = await request.get(`/api/projects/mindsdb/models/${MODEL}`);
  if (r.ok() && (await r.json()).status === 'complete') return;
  await trainModel(
    request,
    MODEL,
    'SELECT number_of_rooms, number_of_bathrooms, sqft, location, days_on_market, neighborhood, rental_price FROM demo_data.home_rentals',
    'rental_price',
  );
}

/** Opens the app in `theme`, then checks each screen; judges once all are checked. */
async function checkScreens(
  page: Page,
  theme: 'light' | 'dark',
  screens: [string, () => Promise<void>][],
) {
  await openApp(page);
  await page.evaluate((t) => localStorage.setItem('smp.theme', JSON.stringify(t)), theme);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
  const found: string[] = [];
  for (const [screen, show] of screens)
    await test.step(screen, async () => {
      await show();
      found.push(...(await seriousViolations(page)).map((v) => `${screen}: ${v}`));
    });
  expect(found).toEqual([]);
}

for (const theme of ['light', 'dark'] as const) {
  test(`the workspace, Models list, Compare and create form have no serious axe violation (${theme})`, async ({
    page,
    request,
  }) => {
    await ensureModel(request);
    await checkScreens(page, theme, [
      [
        'SQL workspace with a result',
        async () => {
          await setSql(page, 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 20');
          await page.keyboard.press('ControlOrMeta+Enter');
          await expect(resultStatus(page)).toContainText('20 rows');
        },
      ],
      [
        'Models list',
        async () => {
          await openHash(page, '#view=models');
          await expect(page.getByRole('main')).toContainText(MODEL);
        },
      ],
      [
        'Compare',
        async () => {
          await openHash(page, `#view=compare&a=mindsdb.${MODEL}&b=mindsdb.${MODEL}`);
          await expect(page.getByRole('table', { name: 'Compared metrics' })).toBeVisible();
        },
      ],
      [
        'create form',
        async () => {
          await openHash(
            page,
            '#view=create-model&db=example_db&schema=demo_data&table=home_rentals',
          );
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        },
      ],
    ]);
  });

  test(`every tab of a model page, with its result, has no serious axe violation (${theme})`, async ({
    page,
    request,
  }) => {
    await ensureModel(request);
    const tab = (name: string) => page.getByRole('tab', { name, exact: true });
    await checkScreens(page, theme, [
      [
        'Overview',
        async () => {
          await openHash(page, `#view=model&project=mindsdb&model=${MODEL}`);
          await expect(tab('Overview')).toHaveAttribute('aria-selected', 'true');
          await expect(page.getByRole('main')).toContainText('Active version');
        },
      ],
      [
        'Describe',
        async () => {
          await tab('Describe').click();
          await expect(page.getByRole('img', { name: /^Predicted vs actual/ })).toBeVisible();
        },
      ],
      [
        'Predict with its result and why',
        async () => {
          await tab('Predict').click();
          await page.getByRole('button', { name: /Send/ }).click();
          await expect(page.getByRole('region', { name: 'Why this prediction' })).toBeVisible();
        },
      ],
      [
        'What-if with its sweep',
        async () => {
          await tab('What-if').click();
          await page.getByRole('button', { name: /Run sweep/ }).click();
          await expect(page.getByRole('region', { name: 'What-if result' })).toBeVisible();
        },
      ],
    ]);
  });
}
