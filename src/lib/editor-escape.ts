/**
 * A keyboard way out of a Monaco editor, which keeps Tab for indenting: Escape (when no widget of
 * the editor is open and nothing is selected) arms it, and the next Tab or Shift+Tab moves the
 * focus to the page's next or previous control. Any other key disarms it. Monaco's own Ctrl+M
 * ("Tab moves focus") works as well. The editors say so on screen, beside them.
 */
import type * as Monaco from 'monaco-editor/editor/editor.api';

const ARMED = 'smpLeaveArmed';

/** What Monaco does with Escape itself: those come first. */
const ESCAPE_FREE = [
  '!suggestWidgetVisible',
  '!findWidgetVisible',
  '!parameterHintsVisible',
  '!renameInputVisible',
  '!inSnippetMode',
  '!markersNavigationVisible',
  '!referenceSearchVisible',
  '!editorHasSelection',
  '!editorHasMultipleSelections',
  '!accessibilityHelpWidgetVisible',
  '!inlineSuggestionVisible',
].join(' && ');

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The control after (1) or before (-1) `outside`, in the page's Tab order (tabindex 0). */
function neighbourControl(outside: Element, dir: 1 | -1): HTMLElement | null {
  const all = Array.from(document.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) =>
      !outside.contains(el) &&
      el.tabIndex >= 0 &&
      !el.closest('[aria-hidden="true"], [inert]') &&
      el.getClientRects().length > 0,
  );
  const after = (el: Element) =>
    !!(outside.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return dir === 1 ? (all.find(after) ?? null) : (all.filter((el) => !after(el)).at(-1) ?? null);
}

export function installEditorEscape(
  ed: Monaco.editor.IStandaloneCodeEditor,
  m: typeof Monaco,
  onArmed?: (armed: boolean) => void,
): void {
  const armed = ed.createContextKey<boolean>(ARMED, false);
  const set = (v: boolean) => {
    if (armed.get() === v) return;
    armed.set(v);
    onArmed?.(v);
  };
  const leave = (dir: 1 | -1) => {
    set(false);
    neighbourControl(ed.getContainerDomNode(), dir)?.focus();
  };
  ed.addCommand(m.KeyCode.Escape, () => set(true), ESCAPE_FREE);
  ed.addCommand(m.KeyCode.Tab, () => leave(1), ARMED);
  ed.addCommand(m.KeyMod.Shift | m.KeyCode.Tab, () => leave(-1), ARMED);
  const keep = new Set([
    m.KeyCode.Escape,
    m.KeyCode.Tab,
    m.KeyCode.Shift,
    m.KeyCode.Ctrl,
    m.KeyCode.Alt,
    m.KeyCode.Meta,
  ]);
  ed.onKeyDown((e) => {
    if (!keep.has(e.keyCode)) set(false);
  });
  ed.onDidBlurEditorText(() => set(false));
}
