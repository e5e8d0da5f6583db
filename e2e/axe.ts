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
import { createRequire } from 'node:module';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** What of axe-core's own rule table decides which impacts a rule can report. */
interface AxeAudit {
  rules: { id: string; impact?: string; any: Check[]; all: Check[]; none: Check[] }[];
  data: { checks: Record<string, { impact?: string } | undefined> };
}
type Check = string | { id: string };

// The axe-core that @axe-core/playwright injects: required from where that package requires it
// (its own dependency, which may differ from the copy other packages brought to node_modules).
const fromAxeBuilder = createRequire(
  createRequire(import.meta.url).resolve('@axe-core/playwright'),
);
const axeCore = fromAxeBuilder('axe-core') as { source: string; _audit: AxeAudit };

/**
 * The rules whose every violation is minor or moderate: a violation's impact is its rule's, or
 * else the highest of its failing checks' (fixed in axe's rule table), so a scan that counts only
 * serious and critical ones drops whatever these report, and need not run them (measured: 25-30%
 * of a scan's CPU on Describe and Predict, the same violations node for node). A rule whose
 * impact the table does not give is kept.
 */
const RANK: Record<string, number> = { minor: 1, moderate: 2, serious: 3, critical: 4 };
const highest = (rule: AxeAudit['rules'][number]): number => {
  if (rule.impact) return RANK[rule.impact] ?? 4;
  const checks = [...rule.any, ...rule.all, ...rule.none];
  const ranks = checks.map((c) => axeCore._audit.data.checks[typeof c === 'string' ? c : c.id]);
  return ranks.length === 0 ? 4 : Math.max(...ranks.map((c) => RANK[c?.impact ?? ''] ?? 4));
};
const BELOW_SERIOUS = axeCore._audit.rules.filter((r) => highest(r) < 3).map((r) => r.id);

/**
 * axe is injected into a frame only when it is not there yet (`withAxe`): the same axe then serves
 * each scan of that document (every `axe.run` builds its tree and caches afresh); a page loaded
 * again gets it again. AxeBuilder itself sends the source it is given twice a scan (once to
 * inject, once more in each frame before the run), so it is given a no-op instead: the guarded
 * source it was given until session 20 was 2 x 1.3 MB a scan through Playwright's worker, the
 * browser and the renderer's parser, whether axe was there or not (the presenter journeys, 60
 * scans: the worker's profile spent 4.3 s of its 21 s writing to the browser's pipe).
 */
const AXE_PRESENT = 'undefined';

/** Injects axe into each frame of the page that lacks it. */
async function withAxe(page: Page): Promise<void> {
  for (const frame of page.frames())
    if (!(await frame.evaluate(() => 'axe' in window)))
      await frame.evaluate(`${axeCore.source}\n;undefined`);
}

export interface AxeScope {
  /** Only this part of the page (a CSS selector); the whole page by default. */
  include?: string;
  /** Only rules with these tags (e.g. WCAG 2 A/AA); every rule by default. */
  tags?: string[];
  /** Which impacts count: serious and critical by default, or every violation. */
  impacts?: 'serious' | 'all';
}

export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<string[]> {
  await withAxe(page);
  let axe = new AxeBuilder({ page, axeSource: AXE_PRESENT })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  if (scope.include) axe = axe.include(scope.include);
  if (scope.tags) axe = axe.withTags(scope.tags);
  if (scope.impacts !== 'all') axe = axe.disableRules(BELOW_SERIOUS);
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => scope.impacts === 'all' || v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}
