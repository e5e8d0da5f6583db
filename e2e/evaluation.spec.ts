/**
 * Questioning a model as a presenter does (issue 26), on the bank churn demo: the Evaluation tab's
 * leaderboard, a threshold dragged by keyboard with a payoff matrix and saved as a new version, the
 * slice where it is wrong opened in the SQL editor, a WHERE of one's own kept through a reload,
 * metrics by geography, at the screen sizes a presenter uses, with no critical or serious axe
 * violation on the tab's sections in both themes; then the model exported as ONNX. With
 * DOCS_SCREENSHOTS=1 it also takes docs/evaluation.md's screenshots.
 */
import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page, test } from '@playwright/test';
import { axeViolations } from './axe';
import { editorText } from './helpers';
import { docsScreenshot, openHash, trainModel, waitComplete } from './model-setup';

const MODEL = 'e2e_eval_churn';

async function expectNoSeriousAxe(page: Page, what: string) {
  expect(await axeViolations(page, { include: '[role="tabpanel"]' }), `axe on ${what}`).toEqual([]);
}

test('a presenter picks a threshold from a payoff matrix, saves it and opens where the model is wrong in SQL', async ({
  page,
  request,
}) => {
  await trainModel(request, MODEL, 'SELECT * FROM demo_data.customer_churn', 'Exited');
  await page.setViewportSize({ width: 1366, height: 768 });
  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}&tab=evaluation`);

  // Leaderboard: the candidates, best first, the serving one marked.
  const board = page.getByRole('table', { name: 'Candidates, best score first' });
  await expect(board).toBeVisible();
  const rows = board.getByRole('row');
  expect(await rows.count()).toBeGreaterThan(2);
  await expect(board.getByRole('cell', { name: /serves/ })).toHaveCount(1);
  await expectNoSeriousAxe(page, 'the leaderboard');
  await docsScreenshot(page, 'evaluation-leaderboard.png');

  // Threshold and cost, by keyboard: arrow keys move along the sections and the slider.
  await page.getByRole('tab', { name: 'Leaderboard' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Threshold & cost' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const slider = page.getByRole('slider');
  await expect(slider).toBeVisible();
  const start = await slider.inputValue();
  const matrix = page.getByRole('table', { name: /held-out rows at threshold/ });
  const before = await matrix.getByRole('cell').allTextContents();
  await slider.focus();
  for (let i = 0; i < 50; i++) await page.keyboard.press('ArrowRight');
  await expect(slider).not.toHaveValue(start);
  const threshold = Number(await slider.inputValue());
  await expect(matrix).toHaveAccessibleName(new RegExp(`threshold ${threshold.toFixed(3)}`));
  const after = await matrix.getByRole('cell').allTextContents();
  const total = (xs: string[]) => xs.reduce((s, x) => s + Number(x.replace(/,/g, '')), 0);
  expect(total(after)).toBe(total(before)); // same rows, another split
  expect(after).not.toEqual(before);

  // A payoff matrix: a missed churner costs 500, a retention offer 50.
  const payoff = page.getByRole('region', { name: 'Payoff matrix' });
  await payoff.getByLabel('Currency').fill('EUR');
  await payoff.getByLabel(/caught/).fill('450');
  await payoff.getByLabel(/False alarm/).fill('-50');
  await payoff.getByLabel(/missed/).fill('-500');
  await expect(payoff.getByRole('figure').getByText('Profit by threshold (EUR)')).toBeVisible();
  await payoff.getByRole('button', { name: 'Use the best threshold' }).click();
  const best = Number(await slider.inputValue());
  await expect(payoff.getByText(`Best threshold: ${best.toFixed(3)}`)).toBeVisible();
  await expectNoSeriousAxe(page, 'threshold and cost');
  await docsScreenshot(page, 'evaluation-threshold.png', 1100);

  // Saving makes version 2, which predicts with the threshold.
  await page.getByRole('button', { name: /^Save threshold/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version 2' })).toBeVisible();
  await waitComplete(request, MODEL, 2);
  const described = await request.post('/api/sql/query', {
    data: { query: `DESCRIBE mindsdb.${MODEL}.2.threshold` },
  });
  expect(JSON.stringify((await described.json()).data)).toContain(String(Number(best.toFixed(3))));

  // Calibration: a titled chart with its numbers as a table.
  await page.getByRole('tab', { name: 'Calibration' }).click();
  await expect(page.getByRole('img', { name: /perfect calibration/ })).toBeVisible();
  await expectNoSeriousAxe(page, 'calibration');

  // For whom: metrics by geography with the four-fifths rule.
  await page.getByRole('tab', { name: 'For whom' }).click();
  await page.getByLabel('Groups of').selectOption('Geography');
  const groups = page.getByRole('table', { name: 'Metrics per group of Geography' });
  await expect(groups.getByRole('rowheader')).toHaveText(['France', 'Germany', 'Spain'], {
    useInnerText: true,
  });
  await expect(page.getByText(/4\/5 as often/)).toBeVisible();
  await expectNoSeriousAxe(page, 'for whom');
  await docsScreenshot(page, 'evaluation-groups.png');

  // The dark theme: the same sections pass axe (contrast of tables, flags and charts).
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoSeriousAxe(page, 'for whom, dark');
  await page.getByRole('tab', { name: 'Threshold & cost' }).click();
  await expect(page.getByRole('slider')).toBeVisible();
  await expectNoSeriousAxe(page, 'threshold and cost, dark');

  // Presentation sizes: the sections stay reachable and the tab does not scroll sideways.
  for (const size of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await expect(page.getByRole('tab', { name: 'Where it is wrong' })).toBeInViewport();
    const overflow = await page
      .getByRole('tabpanel')
      .last()
      .evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
  }

  // Where it is wrong: the worst slice opens as SQL in the editor.
  await page.getByRole('tab', { name: 'Where it is wrong' }).click();
  const slices = page.getByRole('table', { name: 'Slices with the highest error first' });
  const worst = (await slices.getByRole('rowheader').first().innerText()).trim();
  expect(worst.length).toBeGreaterThan(0);
  await expectNoSeriousAxe(page, 'where it is wrong');

  // A WHERE of one's own, judged on the same rows, survives a reload (what a shared link opens).
  const mine = "Age >= 45 AND Geography = 'Germany'";
  await page.getByRole('textbox', { name: /Judge your own slice/ }).fill(mine);
  await page.getByRole('button', { name: 'Judge this slice' }).click();
  const judged = page.getByRole('status').filter({ hasText: 'against' });
  await expect(judged).toContainText(mine);
  const verdict = await judged.innerText();
  // The key already held the section and threshold: wait until it holds this WHERE (the URL is
  // written a moment after the change, so a reload at once would open the view without it).
  await expect.poll(() => evalKey(page.url()).where).toBe(mine);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Where it is wrong' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByRole('textbox', { name: /Judge your own slice/ })).toHaveValue(mine);
  await expect(page.getByRole('status').filter({ hasText: 'against' })).toHaveText(verdict);
  await docsScreenshot(page, 'evaluation-slices.png');

  await slices
    .getByRole('button', { name: /Open .* in the SQL editor/ })
    .first()
    .click();
  await expect(editorText(page)).toContainText('WHERE');
  await expect(editorText(page)).toContainText(worst.split(' AND ')[0]);
});

/** The Evaluation tab's `eval=` key of a URL, decoded (empty when absent). */
function evalKey(url: string): { where?: string } {
  const raw = new URLSearchParams(new URL(url).hash.slice(1)).get('eval');
  return raw ? (JSON.parse(raw) as { where?: string }) : {};
}

/** The model the first test trained, or trained now when this test runs alone. */
async function ensureModel(request: APIRequestContext) {
  const r = await request.get(`/api/projects/mindsdb/models/${MODEL}`);
  if (r.ok() && (await r.json()).status === 'complete') return;
  await trainModel(request, MODEL, 'SELECT * FROM demo_data.customer_churn', 'Exited');
}

test('Export ONNX downloads the model as an ONNX protobuf', async ({ page, request }) => {
  await ensureModel(request);
  await page.setViewportSize({ width: 1366, height: 768 });
  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}`);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export ONNX' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(new RegExp(`^mindsdb\\.${MODEL}\\.v\\d+\\.onnx$`));
  const bytes = readFileSync(await download.path());
  expect(bytes.length).toBeGreaterThan(1000);
  // A ModelProto starts with field 1 (ir_version, a varint): tag 0x08, then the version, 10.
  expect([bytes[0], bytes[1]]).toEqual([0x08, 10]);
  expect(bytes.includes(Buffer.from('ai.onnx.ml'))).toBe(true);
});
