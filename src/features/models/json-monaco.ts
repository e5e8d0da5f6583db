/**
 * Monaco for the predict JSON body: the SQL editor's local-Monaco setup (loader, themes) plus
 * Monaco's JSON language and its worker (syntax diagnostics, formatting, folding). Loaded lazily
 * with the JSON editor only.
 */
import 'monaco-editor/language/json/monaco.contribution';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { THEMES, monaco, registerSqlLanguage } from '../sql-editor/monaco-setup';

// The SQL setup's environment only knows the base worker; the JSON language asks for label 'json'.
self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) =>
    label === 'json' ? new JsonWorker() : new EditorWorker(),
};

/** Defines the app's light/dark themes (shared with the SQL editor); idempotent. */
export function setupJsonMonaco(): typeof monaco {
  registerSqlLanguage();
  return monaco;
}

export { THEMES, monaco };
