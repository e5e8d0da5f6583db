/**
 * File upload against the real instance: pick a CSV, watch the progress (the upload is throttled
 * through Chromium's network emulation so progress is observable), see the loaded table, find it
 * in the explorer under `files` without a refresh, and "Query it". A dropped file goes the same
 * way, and binary bytes come back as the server's own message.
 */
import { expect, test, type Page } from '@playwright/test';
import { editorText, openApp, resultStatus } from './helpers';

const ROWS = 20_000;

function salesCsv(): Buffer {
  const lines = ['id,region,amount'];
  for (let i = 1; i <= ROWS; i++)
    lines.push(`${i},${['north', 'south', 'east', 'west'][i % 4]},${(i * 7.31).toFixed(2)}`);
  return Buffer.from(lines.join('\n') + '\n');
}

function uploadDialog(page: Page) {
  return page.getByRole('dialog', { name: 'Upload file' });
}

async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
  };
}

// Against a reused instance (E2E_BASE_URL), start without the tables these tests create.
test.beforeEach(async ({ request }) => {
  for (const name of ['e2e_sales_2024', 'dropped_data']) {
    const res = await request.delete(`/api/files/${name}`);
    expect([200, 404]).toContain(res.status());
  }
});

test('upload a CSV with progress, find it in the explorer and query it', async ({ page }) => {
  await openApp(page);
  const tree = page.getByRole('tree', { name: 'Databases' });
  // Open `files` first: its table list is cached, so the new table only shows if the upload
  // invalidates it.
  await tree.getByRole('button', { name: 'Expand files' }).click();
  await expect(tree.getByRole('treeitem', { name: 'e2e_sales_2024' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Upload file' }).click();
  const dialog = uploadDialog(page);
  await expect(dialog).toBeVisible();
  const csv = salesCsv();
  await dialog
    .getByLabel('File to upload')
    .setInputFiles({ name: 'E2E Sales-2024.csv', mimeType: 'text/csv', buffer: csv });
  const name = dialog.getByRole('textbox', { name: 'Table name' });
  await expect(name).toHaveValue('e2e_sales_2024');
  await expect(dialog).toContainText('E2E Sales-2024.csv');

  // A bad name is refused before anything is sent.
  await name.fill('e2e/sales');
  await expect(dialog.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  await expect(dialog).toContainText('letters, digits and underscores');
  await name.fill('e2e_sales_2024');

  const unthrottle = await throttleUploads(page, Math.ceil(csv.length / 3));
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
  await expect(bar).toBeVisible();
  await expect(dialog.getByRole('status', { name: 'Upload status' })).toContainText(
    /Uploading… .* of .* \(\d+%\)/,
  );
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
  const result = dialog.getByRole('status', { name: 'Upload result' });
  await expect(result).toContainText(
    `files.e2e_sales_2024: ${ROWS.toLocaleString('en-US')} rows, 3 columns`,
  );
  await unthrottle();
  await expect(dialog.getByRole('list', { name: 'Columns' })).toContainText('region');

  await dialog.getByRole('button', { name: 'Query it' }).click();
  await expect(dialog).toBeHidden();
  await expect(editorText(page)).toContainText('SELECT * FROM files.e2e_sales_2024 LIMIT 100');
  await expect(resultStatus(page)).toContainText('100 rows · 3 columns');
  await expect(
    page.getByRole('grid').getByRole('gridcell', { name: 'north' }).first(),
  ).toBeVisible();

  // The explorer lists the table without a manual refresh.
  await expect(tree.getByRole('treeitem', { name: 'e2e_sales_2024' })).toBeVisible();
});

test('a file dropped on the explorer opens the upload with its name', async ({ page }) => {
  await openApp(page);
  const zone = page.getByRole('region', { name: 'File drop zone' });
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['k,v\na,1\nb,2\n'], 'Dropped Data.csv', { type: 'text/csv' }));
    return dt;
  });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await expect(page.getByText(/Drop a CSV, JSON or Parquet file to upload it/)).toBeVisible();
  await zone.dispatchEvent('dragover', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });

  const dialog = uploadDialog(page);
  await expect(dialog.getByRole('textbox', { name: 'Table name' })).toHaveValue('dropped_data');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByRole('status', { name: 'Upload result' })).toContainText(
    'files.dropped_data: 2 rows, 2 columns',
  );
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();
  const tree = page.getByRole('tree', { name: 'Databases' });
  await tree.getByRole('button', { name: 'Expand files' }).click();
  await expect(tree.getByRole('treeitem', { name: 'dropped_data' })).toBeVisible();
});

test('binary bytes show the server message', async ({ page }) => {
  await openApp(page);
  await page.getByRole('button', { name: 'Upload file' }).click();
  const dialog = uploadDialog(page);
  const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) % 256));
  await dialog
    .getByLabel('File to upload')
    .setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: bytes });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const err = dialog.getByRole('alert', { name: 'Upload error' });
  await expect(err).toContainText('The file is not CSV text: it contains binary data');
  // The dialog stays open to fix it and try again.
  await expect(dialog.getByRole('button', { name: 'Try again' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});
