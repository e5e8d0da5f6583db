/**
 * axe-core in Chromium, one way for every journey: the violations on the page (or a part of it),
 * each as "rule (impact): target | target" so a failure says where.
 *
 * axe is most of an accessibility journey's time (measured: 7 scans were 20 s of a 25 s journey),
 * so it is asked for violations only (`resultTypes`): axe then keeps one example node for passes,
 * incomplete and inapplicable results instead of all of them, which changes no violation it
 * reports (checked side by side: same rules, same nodes) and took a quarter off each scan.
 *
 * It runs in legacy mode: one `axe.run` in the page. The default mode runs `axe.runPartial` in
 * every frame and then opens a new blank page (a new renderer, axe injected again) to finish the
 * run, which is for pages with cross-origin iframes; the playground has no iframe. Measured side
 * by side on the SQL view with results (1366x768, idle machine, four scans each, alternating):
 * 4.1-6.4 s a scan by default, 1.2-2.1 s in legacy mode, the same violations node for node.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export interface AxeScope {
  /** Only this part of the page (a CSS selector); the whole page by default. */
  include?: string;
  /** Only rules with these tags (e.g. WCAG 2 A/AA); every rule by default. */
  tags?: string[];
  /** Which impacts count: serious and critical by default, or every violation. */
  impacts?: 'serious' | 'all';
}

export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  let axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  if (scope.include) axe = axe.include(scope.include);
  if (scope.tags) axe = axe.withTags(scope.tags);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => scope.impacts === 'all' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}
