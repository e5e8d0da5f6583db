import { expect, test } from '@playwright/test';
import { dataRows, editorInput, setSql } from './helpers';

// The second preview started by scripts/e2e-server.mjs, whose instance requires a login
// (E2E_AUTH_BASE_URL points elsewhere when the suite runs against servers already up).
const authBase =
  process.env.E2E_AUTH_BASE_URL ??
  `http://127.0.0.1:${process.env.E2E_AUTH_UI_PORT ?? Number(process.env.E2E_UI_PORT ?? 4319) + 1}`;

test('an instance with auth on asks for a login, refuses a wrong password, and works after login', async ({
  page,
}) => {
  await page.goto(authBase);
  const form = page.getByRole('form', { name: 'Log in' });
  await expect(form).toBeVisible();
  // The SQL editor behind the dialog loads after it (a chunk of its own) and took the focus when
  // it mounted: what a user typed into the login then went into the editor, and Log in sent
  // nothing (Username empty). The dialog keeps its first field focused once the editor is there.
  await editorInput(page).waitFor({ state: 'attached' });
  await expect(form.getByLabel('Username')).toBeFocused();

  await form.getByLabel('Username').fill('e2e');
  await form.getByLabel('Password').fill('wrong');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(form.getByRole('alert')).toContainText('Wrong username or password');

  await form.getByLabel('Password').fill('e2e-password');
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();
  // What failed before the login (the explorer) loads now.
  await expect(page.getByRole('treeitem', { name: /example_db/ })).toBeVisible();

  // The session cookie is HttpOnly (not readable by scripts) and goes through the proxy.
  const cookies = await page.context().cookies(authBase);
  expect(cookies.find((c) => c.name === 'session')).toMatchObject({
    httpOnly: true,
    sameSite: 'Lax',
  });
  expect(await page.evaluate(() => document.cookie)).not.toContain('session=');

  await editorInput(page).waitFor({ state: 'attached' });
  await setSql(page, 'SELECT * FROM example_db.demo_data.home_rentals LIMIT 3');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(dataRows(page)).toHaveCount(3);

  // A reload keeps the session.
  await page.reload();
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Log in' })).toHaveCount(0);
});
