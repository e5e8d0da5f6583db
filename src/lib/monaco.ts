/**
 * Monaco from the local `monaco-editor` package (no CDN), shared by every editor in the app: the
 * editor API with the contributions the app uses (./monaco-features.ts, not all of Monaco's), the
 * workers (the base one, and JSON's for the predict body), and the app's light/dark themes.
 * Imported lazily with the editors so the first load stays small.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import './monaco-features';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';

// A worker file is fetched only when a language asks for it (label 'json': the JSON editor).
self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) =>
    label === 'json' ? new JsonWorker() : new EditorWorker(),
};
loader.config({ monaco });

export const THEMES = { light: 'smp-light', dark: 'smp-dark' } as const;

let themesDefined = false;
/** Defines the app's light and dark editor themes (idempotent). */
export function defineThemes(): void {
  if (themesDefined) return;
  themesDefined = true;
  const rules = (dark: boolean): monaco.editor.ITokenThemeRule[] => [
    { token: 'keyword', foreground: dark ? '7aa2f7' : '1d4ed8', fontStyle: 'bold' },
    { token: 'type', foreground: dark ? '2ac3de' : '0e7490' },
    { token: 'predefined', foreground: dark ? 'bb9af7' : '7c3aed' },
    { token: 'string', foreground: dark ? '9ece6a' : '15803d' },
    { token: 'number', foreground: dark ? 'ff9e64' : 'c2410c' },
    { token: 'comment', foreground: dark ? '737aa2' : '6b7280', fontStyle: 'italic' },
    { token: 'identifier.quote', foreground: dark ? 'c0caf5' : '374151' },
    { token: 'variable', foreground: dark ? 'e0af68' : 'a16207' },
    { token: 'operator', foreground: dark ? '89ddff' : '475569' },
  ];
  monaco.editor.defineTheme(THEMES.light, {
    base: 'vs',
    inherit: true,
    rules: rules(false),
    colors: { 'editor.background': '#ffffff', 'editorLineNumber.foreground': '#9ca3af' },
  });
  monaco.editor.defineTheme(THEMES.dark, {
    base: 'vs-dark',
    inherit: true,
    rules: rules(true),
    colors: { 'editor.background': '#141821', 'editorLineNumber.foreground': '#4b5563' },
  });
}

export { monaco };
