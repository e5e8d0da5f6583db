/**
 * Build-time scoping of the app's own CSS (a PostCSS plugin that Vite runs in dev and build): every
 * selector of an app stylesheet gets `:not(<widget root>, <widget root> *)` on its subject, so a generic
 * app class such as `.main` or an element rule such as `button` never reaches inside Monaco or AG
 * Grid (Monaco's suggestion rows have their own `.main`, and an app `.main` once hid their labels).
 * The rules are also put in the `app` cascade layer, which marks them for the e2e leak check.
 * Styles meant for widget internals (classes the app gives grid cells, AG Grid tweaks) live in
 * `src/widgets.css`, which is left as written.
 */
import type { AtRule, Plugin, Root } from 'postcss';

/** Roots of third-party widgets the app's styles must not reach into. */
export const WIDGET_ROOTS = [
  '.monaco-editor',
  '.monaco-diff-editor',
  '.context-view',
  '.ag-root-wrapper',
  '.ag-popup',
  '.ag-custom-component-popup',
] as const;

export const APP_LAYER = 'app';

const ROOTS = `:where(${WIDGET_ROOTS.join(', ')})`;
/** Neither a widget root nor anything inside one. */
const GUARD = `:not(${ROOTS}, ${ROOTS} *)`;

// A trailing pseudo-element (`::before`, legacy `:after`) must stay last in a selector.
const PSEUDO_ELEMENT = /(::[\w-]+(\([^)]*\))?|:(before|after|first-line|first-letter))$/i;

/** Adds the widget guard to the subject of one selector (no commas: split lists first). */
export function scopeSelector(selector: string): string {
  const s = selector.trim();
  const pseudo = PSEUDO_ELEMENT.exec(s);
  return pseudo ? `${s.slice(0, pseudo.index)}${GUARD}${pseudo[0]}` : `${s}${GUARD}`;
}

export interface ScopeOptions {
  /** Whether a stylesheet (by absolute file name) is the app's own and must be scoped. */
  isAppStylesheet(file: string): boolean;
}

function insideKeyframes(node: { parent?: unknown }): boolean {
  for (let p = node.parent as AtRule | Root | undefined; p; p = p.parent as AtRule | undefined) {
    if (p.type === 'atrule' && /keyframes$/i.test(p.name)) return true;
  }
  return false;
}

export function scopeAppStyles({ isAppStylesheet }: ScopeOptions): Plugin {
  return {
    postcssPlugin: 'scope-app-styles',
    Once(root, { AtRule }) {
      const file = root.source?.input.file;
      if (!file || !isAppStylesheet(file)) return;
      root.walkRules((rule) => {
        if (insideKeyframes(rule)) return;
        rule.selectors = rule.selectors.map(scopeSelector);
      });
      const layer = new AtRule({ name: 'layer', params: APP_LAYER });
      layer.append(root.nodes);
      root.append(layer);
    },
  };
}

/** The app's stylesheets: CSS files under `srcDir` except the deliberate widget styles. */
export function isAppStylesheetFile(file: string, srcDir: string): boolean {
  const f = file.replace(/\\/g, '/').split('?')[0];
  const dir = srcDir.replace(/\\/g, '/').replace(/\/?$/, '/');
  return f.startsWith(dir) && f.endsWith('.css') && f !== `${dir}widgets.css`;
}
