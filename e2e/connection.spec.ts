/**
 * The connection pill follows the instance: a request that cannot reach it turns the pill red at
 * once (not at the next status poll), and it turns green again by itself when the instance is
 * back. The spec owns its instance so it can stop and restart it.
 */
import { expect, test } from '@playwright/test';
import { openApp, queryError, resultStatus, setSql } from './helpers';
import { startOwnInstance, type OwnInstance } from './own-instance';

let own: OwnInstance;

test.beforeAll(async () => {
  own = await startOwnInstance();
});
test.afterAll(async () => own?.close());

test('a failed query turns the pill unreachable at once; it recovers when the instance is back', async ({
  page,
}) => {
  await openApp(page, own.url);
  const pill = page.getByRole('status', { name: /^Connection: / });
  await expect(pill).toHaveAccessibleName(/Connected/);

  await own.stopInstance();
  await setSql(page, 'SELECT 41 + 1 AS answer');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(queryError(page)).toContainText('not reachable');
  // Read once, right when the failure shows: the pill must already say so (no waiting for a poll).
  expect(await pill.getAttribute('aria-label')).toBe('Connection: Instance unreachable');
  expect(await pill.getAttribute('title')).toContain('HTTP 502');

  await own.startInstance();
  // No user action: the status is re-checked every few seconds while the instance is away.
  await expect(pill).toHaveAccessibleName(/^Connection: Connected/);
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('1 row');
});
