import { describe, expect, it } from 'vitest';
import { dependencyUrls, staticImports } from './dev-ready.mjs';

// What Vite's dev server sends for a module (import analysis has rewritten the specifiers).
const MODULE = `import __vite__cjsImport0 from "/node_modules/.vite/deps/react_jsx-dev-runtime.js?v=1a2b";
import { createRoot } from "/node_modules/.vite/deps/react-dom_client.js?v=1a2b";
import { App } from "/src/app/App.tsx";
import "/src/styles.css";
import { Query } from "/contract/sql.ts";
const Editor = lazy(() => import("/src/features/sql-editor/SqlEditor.tsx"));
const worker = new Worker(new URL("/node_modules/monaco-editor/esm/vs/editor/editor.worker.js?worker_file&type=module", import.meta.url));
const text = "import x from '/src/not-a-module.ts' inside a string";`;

describe('dev-ready: what the first visit will request', () => {
  it('finds the app modules imported statically, not the lazy ones (a path in a string too: harmless)', () => {
    expect(staticImports(MODULE)).toEqual([
      '/src/app/App.tsx',
      '/src/styles.css',
      '/contract/sql.ts',
      '/src/not-a-module.ts',
    ]);
  });

  it('finds every dependency URL, workers included', () => {
    expect(dependencyUrls(MODULE)).toEqual([
      '/node_modules/.vite/deps/react_jsx-dev-runtime.js?v=1a2b',
      '/node_modules/.vite/deps/react-dom_client.js?v=1a2b',
      '/node_modules/monaco-editor/esm/vs/editor/editor.worker.js?worker_file&type=module',
    ]);
  });
});
