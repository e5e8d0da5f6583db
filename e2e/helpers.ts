/** Shared steps for the e2e journeys (role/label locators; Monaco is driven through its textbox). */
import {
  expect,
  test,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from '@playwright/test';

/**
 * How long a step that trains a model or scores a table may take before the test says so: a hang
 * guard, not a speed check, kept under the test's own 240 s (playwright.config.ts). A training of
 * 10 s on an idle machine takes several times longer on a busy one (at load 10 on two cores:
 * 60-90 s), and no test may fail because the machine is busy.
 */
export const LONG_WORK_MS = 200_000;

/**
 * A browser context with the suite's own options (playwright.config.ts's `use`: the worker's
 * baseURL, the viewport, reduced motion, uncompressed assets), for a journey that opens a second
 * context itself: `browser.newContext()` alone takes none of them, and a busy indicator in such a
 * context repainted 60 times a second while a model trained.
 */
export function suiteContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const { baseURL, viewport, reducedMotion, extraHTTPHeaders } = test.info().project.use;
  return browser.newContext({ baseURL, viewport, reducedMotion, extraHTTPHeaders, ...options });
}

export async function openApp(page: Page, path = '/') {
  await page.goto(path);
  await expect(page.getByRole('status', { name: /Connection: Connected/ })).toBeVisible();
  // Monaco's input is a tiny off-screen element: it is attached, not "visible".
  await editorInput(page).waitFor({ state: 'attached' });
}

export function editorInput(page: Page) {
  return page.getByRole('textbox', { name: 'SQL editor' });
}

/** Replaces the editor's text (insertText avoids auto-closed quotes and brackets). */
export async function setSql(page: Page, sql: string) {
  await editorInput(page).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(sql);
}

/** The text Monaco renders (the editor has no accessible text content of its own). */
export function editorText(page: Page) {
  return page.locator('.monaco-editor .view-lines');
}

export function resultStatus(page: Page) {
  return page.getByRole('status', { name: 'Result status' });
}

/** Data rows of the grid (the header row excluded). */
export function dataRows(page: Page) {
  return page
    .getByRole('grid')
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') });
}

/** Texts of one column's rendered cells in row order (AG Grid's DOM order is not row order). */
export async function cellTexts(page: Page, colId: string): Promise<string[]> {
  return page.getByRole('grid').evaluate((grid, id) => {
    const cells = [...grid.querySelectorAll(`[role="gridcell"][col-id="${id}"]`)];
    return cells
      .map((c) => ({
        i: Number(c.closest('[role="row"]')?.getAttribute('aria-rowindex') ?? 0),
        t: (c as HTMLElement).innerText,
      }))
      .sort((a, b) => a.i - b.i)
      .map((x) => x.t);
  }, colId);
}

/** The app's error banner (Monaco has its own empty live regions with the alert role). */
export function queryError(page: Page) {
  return page.getByRole('alert', { name: 'Query error' });
}
