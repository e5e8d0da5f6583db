import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import postcss from 'postcss';
import { describe, expect, it } from 'vitest';
import {
  APP_LAYER,
  WIDGET_ROOTS,
  isAppStylesheetFile,
  scopeAppStyles,
  scopeSelector,
} from './scope-styles';

const srcDir = join(__dirname, '..');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? cssFiles(join(dir, e.name))
      : e.name.endsWith('.css')
        ? [join(dir, e.name)]
        : [],
  );
}

const plugin = scopeAppStyles({ isAppStylesheet: (f) => isAppStylesheetFile(f, srcDir) });

describe('scopeSelector', () => {
  it('guards the subject and keeps a pseudo-element last', () => {
    const roots = `:where(${WIDGET_ROOTS.join(', ')})`;
    const guard = `:not(${roots}, ${roots} *)`;
    expect(scopeSelector('.main')).toBe(`.main${guard}`);
    expect(scopeSelector(' .tree-row:hover .hover-action ')).toBe(
      `.tree-row:hover .hover-action${guard}`,
    );
    expect(scopeSelector('.m-check::before')).toBe(`.m-check${guard}::before`);
    expect(scopeSelector('.x:after')).toBe(`.x${guard}:after`);
  });

  it('matches app elements and nothing inside Monaco or AG Grid (real selector engine)', () => {
    document.body.innerHTML = `
      <div class="main" id="app-main"><button id="app-btn"></button></div>
      <div class="monaco-editor"><div class="suggest"><div class="main" id="monaco-main"></div></div></div>
      <div class="ag-root-wrapper" id="grid-root"><button id="grid-btn"></button></div>
      <div class="ag-popup"><input id="popup-input" /></div>`;
    const ids = (sel: string) => [...document.querySelectorAll(sel)].map((e) => e.id);
    expect(ids(scopeSelector('.main'))).toEqual(['app-main']);
    expect(ids(scopeSelector('button'))).toEqual(['app-btn']);
    expect(ids(scopeSelector('input'))).toEqual([]);
    expect(ids(scopeSelector('*')).filter(Boolean)).toEqual(['app-main', 'app-btn']);
  });
});

describe('scopeAppStyles over the real stylesheets', () => {
  const files = cssFiles(srcDir);

  it('scopes every rule of every app stylesheet and puts it in the app layer', async () => {
    const app = files.filter((f) => isAppStylesheetFile(f, srcDir));
    expect(app.map((f) => relative(srcDir, f)).sort()).toContain('styles.css');
    for (const file of app) {
      const out = await postcss([plugin]).process(readFileSync(file, 'utf8'), { from: file });
      const top = out.root.nodes.filter((n) => n.type !== 'comment');
      expect(top).toHaveLength(1);
      expect(top[0]).toMatchObject({ type: 'atrule', name: 'layer', params: APP_LAYER });
      out.root.walkRules((rule) => {
        const parent = rule.parent;
        if (parent?.type === 'atrule' && /keyframes$/.test((parent as postcss.AtRule).name)) return;
        for (const s of rule.selectors)
          expect(s, `${relative(srcDir, file)}: ${s}`).toContain(':where(.monaco-editor');
      });
    }
  });

  it('leaves widgets.css and third-party CSS as written', async () => {
    const widgets = join(srcDir, 'widgets.css');
    expect(isAppStylesheetFile(widgets, srcDir)).toBe(false);
    expect(isAppStylesheetFile('/x/node_modules/monaco-editor/esm/vs/a.css', srcDir)).toBe(false);
    const css = readFileSync(widgets, 'utf8');
    const out = await postcss([plugin]).process(css, { from: widgets });
    expect(out.css).toBe(css);
  });
});
