/**
 * Loads Monaco from the local `monaco-editor` package (no CDN) with only what the SQL editor needs:
 * the editor API, the standard editor contributions and the base worker, plus our SQL dialect and
 * themes. Imported lazily with the editor so the first load stays small.
 */
import { THEMES, defineThemes, monaco } from '../../lib/monaco';
import {
  completionContext,
  suggest,
  type CatalogSnapshot,
  type SuggestionKind,
} from './completion';
import { LANGUAGE_ID, languageConfiguration, monarchLanguage } from './sql-language';

export { THEMES };

export interface CompletionSource {
  catalog(): CatalogSnapshot;
  db(): string;
  /** Called when suggestions are requested, so a stale catalog gets refreshed. */
  touch?(): void;
  /** Loads what suggestions for this statement need (e.g. the columns of the models it reads). */
  ensure?(statement: string): Promise<void>;
}

/** How long suggestions wait for missing catalog data before showing what is at hand. */
const ENSURE_WAIT_MS = 1500;

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
    async provideCompletionItems(model, position) {
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
      if (source.ensure) {
        await Promise.race([
          source.ensure(statement).catch(() => undefined),
          new Promise((r) => setTimeout(r, ENSURE_WAIT_MS)),
        ]);
        if (model.isDisposed() || model.getValue() !== text) return { suggestions: [] };
      }
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
  defineThemes();
  return monaco;
}

export { monaco };
