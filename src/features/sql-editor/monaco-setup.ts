/**
 * Loads Monaco from the local `monaco-editor` package (no CDN) with only what the SQL editor needs:
 * the editor API, the standard editor contributions and the base worker, plus our SQL dialect and
 * themes. Imported lazily with the editor so the first load stays small.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import 'monaco-editor/features/register.all';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import {
  completionContext,
  suggest,
  type CatalogSnapshot,
  type SuggestionKind,
} from './completion';
import { LANGUAGE_ID, languageConfiguration, monarchLanguage } from './sql-language';

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

export const THEMES = { light: 'smp-light', dark: 'smp-dark' } as const;

export interface CompletionSource {
  catalog(): CatalogSnapshot;
  db(): string;
  /** Called when suggestions are requested, so a stale catalog gets refreshed. */
  touch?(): void;
}

let source: CompletionSource | undefined;
export function setCompletionSource(s: CompletionSource) {
  source = s;
}

const KIND: Record<SuggestionKind, monaco.languages.CompletionItemKind> = {
  database: monaco.languages.CompletionItemKind.Module,
  project: monaco.languages.CompletionItemKind.Folder,
  schema: monaco.languages.CompletionItemKind.Module,
  table: monaco.languages.CompletionItemKind.Struct,
  view: monaco.languages.CompletionItemKind.Interface,
  model: monaco.languages.CompletionItemKind.Class,
  column: monaco.languages.CompletionItemKind.Field,
  keyword: monaco.languages.CompletionItemKind.Keyword,
  function: monaco.languages.CompletionItemKind.Function,
};

let registered = false;
export function registerSqlLanguage(): typeof monaco {
  if (registered) return monaco;
  registered = true;
  monaco.languages.register({
    id: LANGUAGE_ID,
    aliases: ['SQL', 'MindsDB SQL'],
    extensions: ['.sql'],
  });
  monaco.languages.setMonarchTokensProvider(
    LANGUAGE_ID,
    monarchLanguage as unknown as monaco.languages.IMonarchLanguage,
  );
  monaco.languages.setLanguageConfiguration(LANGUAGE_ID, languageConfiguration);
  monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
    triggerCharacters: ['.'],
    provideCompletionItems(model, position) {
      if (!source) return { suggestions: [] };
      source.touch?.();
      const text = model.getValue();
      const offset = model.getOffsetAt(position);
      // Only the current statement matters (cheap even for a big script).
      const from = Math.max(text.lastIndexOf(';', offset - 1) + 1, offset - 20_000);
      const nextSemi = text.indexOf(';', offset);
      const statement = text.slice(
        from,
        nextSemi < 0 ? Math.min(text.length, offset + 20_000) : nextSemi,
      );
      const ctx = completionContext(text.slice(from, offset));
      const word = model.getWordUntilPosition(position);
      const range = {
        startLineNumber: position.lineNumber,
        endLineNumber: position.lineNumber,
        startColumn: word.startColumn,
        endColumn: word.endColumn,
      };
      const items = suggest(ctx, source.catalog(), statement, source.db());
      return {
        suggestions: items.map((s) => ({
          label: s.label,
          kind: KIND[s.kind],
          insertText: s.insertText,
          detail: s.detail,
          sortText: `${s.rank}${s.label.toLowerCase()}`,
          range,
        })),
      };
    },
  });
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
  return monaco;
}

export { monaco };
