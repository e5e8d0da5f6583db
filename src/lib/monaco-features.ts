/**
 * The editor features the playground uses, instead of Monaco's `features/register.all` (every
 * contribution: inline completions, code actions, colour picker, diff editor, command palette,
 * ...), which is parsed and compiled on every page load that draws an editor. What each is for:
 * - find: Ctrl+F / Ctrl+H in a script;
 * - suggest: schema-aware completions (Ctrl+Space, '.'), src/features/sql-editor/monaco-setup.ts;
 * - hover: the error marker's message under the pointer (and the JSON worker's);
 * - gotoError: F8 / Shift+F8 to the next marker;
 * - contextmenu: right-click Run / Run script / Explain (the editor's addAction entries);
 * - toggleTabFocusMode: Ctrl+M, the documented way out of an editor beside Esc then Tab;
 * - comment, bracketMatching, folding, format, linesOperations, wordOperations, multicursor, dnd:
 *   the everyday editing keys (Ctrl+/, matching brackets, folds, Shift+Alt+F on the JSON body,
 *   Alt+Up/Down, Ctrl+Left/Right/Backspace, Ctrl+D, dragging a selection);
 * - codicon: the icons of the suggestion list and the find widget.
 * vite.config.ts pre-bundles exactly the modules imported here (it reads this file).
 */
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/dnd/register';
