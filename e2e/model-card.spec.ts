/**
 * Export model card: the model page downloads one self-contained HTML file (no script, nothing
 * fetched from elsewhere) named after the model and version, for the version shown.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { docsScreenshot, openHash, sharedModel } from './model-setup';

test('the model page exports a self-contained model card of the version shown', async ({
  page,
  request,
}, testInfo) => {
  const MODEL = await sharedModel(request, 'rentals');
  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}&tab=describe`);

  const exportCard = page
    .getByRole('group', { name: 'Model actions' })
    .getByRole('link', { name: 'Export model card' });
  await expect(exportCard).toHaveAttribute(
    'href',
    `/api/projects/mindsdb/models/${MODEL}/card?download=1`,
  );
  const downloading = page.waitForEvent('download');
  await exportCard.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`mindsdb.${MODEL}.v1.html`);
  const path = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(path);
  const html = await readFile(path, 'utf8');
  expect(html).toMatch(/^<!doctype html>/i);
  expect(html).toContain(MODEL);
  expect(html).toContain('rental_price');
  expect(html).toContain('initial_price'); // the warning and the importance chart
  expect(html).toContain('<svg');
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/url\(\s*["']?(https?:)?\/\//i);

  // A pinned version exports that version.
  await openHash(page, `#view=model&project=mindsdb&model=${MODEL}&tab=describe&version=1`);
  await expect(
    page
      .getByRole('group', { name: 'Model actions' })
      .getByRole('link', { name: 'Export model card' }),
  ).toHaveAttribute('href', `/api/projects/mindsdb/models/${MODEL}.1/card?download=1`);

  // The card as a stakeholder opens it: a plain file, no server behind it.
  const card = await page.context().newPage();
  await card.setViewportSize({ width: 1100, height: 1300 });
  await card.goto(`file://${path}`);
  await expect(card.getByRole('heading', { level: 1 })).toContainText(MODEL);
  await docsScreenshot(card, 'model-card.png');
  await card.close();
});
