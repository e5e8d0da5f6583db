/**
 * Monaco for the predict JSON body: the app's shared local-Monaco setup (workers, themes) plus
 * Monaco's JSON language (syntax diagnostics, formatting, folding). Loaded lazily with the JSON
 * editor only.
 */
import 'monaco-editor/language/json/monaco.contribution';
import { THEMES, defineThemes, monaco } from '../../../lib/monaco';

/** Defines the app's light/dark themes (shared with the SQL editor); idempotent. */
export function setupJsonMonaco(): typeof monaco {
  defineThemes();
  return monaco;
}

export { THEMES, monaco };
