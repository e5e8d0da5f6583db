/**
 * The app's styles stay out of third-party widgets: Monaco's suggestion rows show their labels (an
 * app `.main` rule once pushed them out of view), and no rule of the app's stylesheets (the `app`
 * cascade layer, see src/lib/scope-styles.ts) matches any element inside Monaco or AG Grid.
 */
import { expect, test, type Page } from '@playwright/test';
import { openApp, resultStatus, setSql } from './helpers';

/** Selectors of every app rule the page has loaded, and how many there are. */
async function appRulesMatching(
  page: Page,
  widgetRoots: string,
): Promise<{
  appRules: number;
  leaks: string[];
}> {
  return page.evaluate((roots) => {
    const selectors: string[] = [];
    const walk = (rules: CSSRuleList, inApp: boolean) => {
      for (const r of Array.from(rules)) {
        if (r instanceof CSSLayerBlockRule) walk(r.cssRules, inApp || r.name === 'app');
        else if (r instanceof CSSMediaRule) {
          if (matchMedia(r.conditionText).matches) walk(r.cssRules, inApp);
        } else if (r instanceof CSSStyleRule && inApp) selectors.push(r.selectorText);
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      try {
        walk(sheet.cssRules, false);
      } catch {
        /* a cross-origin sheet: not the app's */
      }
    }
    // matches() cannot take pseudo-elements; the element part decides whether a rule reaches it.
    const testable = selectors.map((s) =>
      s.replace(/::?(before|after|first-line|first-letter|placeholder|selection|marker)\b/g, ''),
    );
    const widgets = Array.from(document.querySelectorAll(roots)).flatMap((root) => [
      root,
      ...Array.from(root.querySelectorAll('*')),
    ]);
    const leaks = new Set<string>();
    for (const el of widgets) {
      testable.forEach((s, i) => {
        try {
          if (el.matches(s)) leaks.add(`${selectors[i]} -> ${el.className}`);
        } catch {
          /* a selector matches() cannot evaluate */
        }
      });
    }
    return { appRules: selectors.length, leaks: [...leaks] };
  }, widgetRoots);
}

test('autocomplete suggestions show their labels', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT * FROM example_db.demo_data.home_rentals WHERE ');
  await page.keyboard.press('Control+Space');
  const list = page.getByRole('listbox', { name: 'Suggest' });
  await expect(list).toBeVisible();
  // Monaco marks the rows `option` but exposes them as list items.
  const options = list.getByRole('listitem');
  await expect(options.first()).toBeVisible();
  const count = Math.min(await options.count(), 6);
  expect(count).toBeGreaterThan(2);
  for (let i = 0; i < count; i++) {
    const option = options.nth(i);
    // Monaco's aria-label is "<label>, <kind>": the label must be drawn inside the row.
    const label = (await option.getAttribute('aria-label'))!.split(',')[0];
    const text = option.getByText(label, { exact: true }).first();
    await expect(text).toBeVisible();
    const [row, box] = [await option.boundingBox(), await text.boundingBox()];
    expect(box!.width).toBeGreaterThan(4);
    expect(box!.height).toBeGreaterThan(4);
    // Inside the row, not pushed out below or beside it.
    expect(box!.y).toBeGreaterThanOrEqual(row!.y - 1);
    expect(box!.y + box!.height).toBeLessThanOrEqual(row!.y + row!.height + 1);
    expect(box!.x + box!.width).toBeLessThanOrEqual(row!.x + row!.width + 1);
  }
  await page.keyboard.press('Escape');
});

test('no app style rule reaches inside Monaco or AG Grid widgets', async ({ page }) => {
  await openApp(page);
  await setSql(page, 'SELECT location, sqft FROM example_db.demo_data.home_rentals LIMIT 20');
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect(resultStatus(page)).toContainText('20 rows');

  // The grid with a column filter open, then the editor with its suggestions open.
  const header = page.getByRole('columnheader', { name: 'location' });
  await header.hover();
  // AG Grid hides its filter button from the accessibility tree (as e2e/grid.spec.ts does).
  await header.locator('.ag-header-cell-filter-button').click();
  await expect(page.getByRole('textbox', { name: 'Filter Value' }).first()).toBeVisible();
  const grid = await appRulesMatching(page, '.ag-root-wrapper, .ag-popup');
  expect(grid.appRules).toBeGreaterThan(100);
  expect(grid.leaks).toEqual([]);

  await page.keyboard.press('Escape');
  await setSql(page, 'SELECT * FROM example_db.demo_data.home_rentals WHERE ');
  await page.keyboard.press('Control+Space');
  await expect(page.getByRole('listbox', { name: 'Suggest' })).toBeVisible();
  const editor = await appRulesMatching(page, '.monaco-editor');
  expect(editor.leaks).toEqual([]);
});
