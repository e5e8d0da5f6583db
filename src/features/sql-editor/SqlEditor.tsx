/**
 * The Monaco SQL editor (loaded lazily: this module pulls in Monaco). Thin: run planning,
 * completion and the dialect live in pure modules beside it.
 */
import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import {
  THEMES,
  monaco,
  registerSqlLanguage,
  setCompletionSource,
  type CompletionSource,
} from './monaco-setup';
import { WIDE_SCREEN } from '../../components/ui/grid-theme';
import { SQL_NAME_MIME } from '../../lib/drag';
import { installEditorEscape } from '../../lib/editor-escape';
import { useMediaQuery } from '../../lib/use-media-query';
import { planRun, type RunMode, type RunRequest } from './run-plan';
import { LANGUAGE_ID } from './sql-language';

export interface EditorMarker {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
  message: string;
}

export interface SqlEditorHandle {
  /** Inserts text at the cursor (replacing the selection) and focuses the editor. */
  insertText(text: string): void;
  focus(): void;
  run(mode: RunMode): void;
}

export interface SqlEditorProps {
  /** One Monaco model per tab, so undo history and scroll stay per tab. */
  path: string;
  value: string;
  theme: 'light' | 'dark';
  onChange(value: string): void;
  onRun(request: RunRequest): void;
  onCancel(): void;
  marker?: EditorMarker;
  completion: CompletionSource;
  /** Called once the editor is mounted (the shell then loads what the first screen can wait for). */
  onReady?(): void;
  /** Escape was pressed: the next Tab leaves the editor (the shell says so on screen). */
  onLeaveArmed?(armed: boolean): void;
  /** Presentation mode: large type, no line numbers, gutter or current-line band. */
  presenting?: boolean;
  ref?: Ref<SqlEditorHandle>;
}

registerSqlLanguage();

export default function SqlEditor(props: SqlEditorProps) {
  const { path, value, theme, onChange, marker, completion, presenting, ref } = props;
  // A 1920x1080 screen outside presentation mode: 13 px reads small there.
  const wide = useMediaQuery(WIDE_SCREEN);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => setCompletionSource(completion), [completion]);

  const run = (mode: RunMode) => {
    const ed = editorRef.current;
    const model = ed?.getModel();
    if (!ed || !model) return;
    const sel = ed.getSelection();
    const selection =
      sel && !sel.isEmpty()
        ? {
            start: model.getOffsetAt(sel.getStartPosition()),
            end: model.getOffsetAt(sel.getEndPosition()),
          }
        : undefined;
    const cursor = model.getOffsetAt(ed.getPosition() ?? { lineNumber: 1, column: 1 });
    latest.current.onRun(planRun(model.getValue(), mode, cursor, selection));
  };
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });

  useImperativeHandle(ref, () => ({
    insertText(text: string) {
      const ed = editorRef.current;
      if (!ed) return;
      const sel = ed.getSelection();
      if (sel) ed.executeEdits('explorer', [{ range: sel, text, forceMoveMarkers: true }]);
      ed.focus();
    },
    focus: () => editorRef.current?.focus(),
    run: (mode) => runRef.current(mode),
  }));

  const onMount: OnMount = (ed, m) => {
    editorRef.current = ed;
    acceptDroppedNames(ed);
    installEditorEscape(ed, m, (armed) => latest.current.onLeaveArmed?.(armed));
    ed.addAction({
      id: 'smp.run-current',
      label: 'Run selection or statement at cursor',
      keybindings: [m.KeyMod.CtrlCmd | m.KeyCode.Enter],
      contextMenuGroupId: 'navigation',
      run: () => runRef.current('current'),
    });
    ed.addAction({
      id: 'smp.run-script',
      label: 'Run whole script',
      keybindings: [m.KeyMod.CtrlCmd | m.KeyMod.Shift | m.KeyCode.Enter],
      contextMenuGroupId: 'navigation',
      run: () => runRef.current('script'),
    });
    ed.addAction({
      id: 'smp.explain',
      label: 'Explain: how the query at the cursor would run',
      keybindings: [m.KeyMod.CtrlCmd | m.KeyMod.Shift | m.KeyCode.KeyE],
      contextMenuGroupId: 'navigation',
      run: () => runRef.current('explain'),
    });
    ed.addAction({
      id: 'smp.cancel',
      label: 'Cancel running query',
      keybindings: [m.KeyMod.CtrlCmd | m.KeyCode.Period],
      run: () => latest.current.onCancel(),
    });
    // Ready to type, unless a dialog opened meanwhile (e.g. the shell asking about a link).
    if (!document.querySelector('[aria-modal="true"]')) ed.focus();
    latest.current.onReady?.();
  };

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      'smp',
      marker
        ? [
            {
              severity: monaco.MarkerSeverity.Error,
              message: marker.message,
              startLineNumber: marker.startLine,
              startColumn: marker.startColumn,
              endLineNumber: marker.endLine,
              endColumn: marker.endColumn,
            },
          ]
        : [],
    );
    if (marker) editorRef.current?.revealLineInCenterIfOutsideViewport(marker.startLine);
  }, [marker, path]);

  return (
    <Editor
      path={path}
      value={value}
      language={LANGUAGE_ID}
      theme={theme === 'dark' ? THEMES.dark : THEMES.light}
      onChange={(v) => onChange(v ?? '')}
      onMount={onMount}
      loading={<div className="editor-loading">Loading editor…</div>}
      options={{
        ariaLabel: 'SQL editor',
        minimap: { enabled: false },
        fontSize: presenting ? 20 : wide ? 15 : 13,
        lineHeight: presenting ? 30 : wide ? 23 : 20,
        // At 20 px a projector shows ~70 characters: long lines wrap rather than run off screen.
        wordWrap: presenting ? 'on' : 'off',
        wrappingIndent: 'indent',
        lineNumbers: presenting ? 'off' : 'on',
        lineDecorationsWidth: presenting ? 24 : 10,
        overviewRulerLanes: presenting ? 0 : 2,
        hideCursorInOverviewRuler: presenting,
        fontFamily: "'JetBrains Mono', 'SF Mono', Menlo, Consolas, 'Liberation Mono', monospace",
        automaticLayout: true,
        scrollBeyondLastLine: false,
        tabSize: 2,
        padding: presenting ? { top: 18, bottom: 18 } : { top: 8, bottom: 8 },
        fixedOverflowWidgets: true,
        wordBasedSuggestions: 'off',
        suggest: { showWords: false },
        renderLineHighlight: presenting ? 'none' : 'line',
        glyphMargin: false,
        folding: !presenting,
        lineNumbersMinChars: 3,
        stickyScroll: { enabled: false },
      }}
    />
  );
}

/**
 * A name dragged from the explorer lands where it is dropped, as plain text (Monaco's own drop
 * handling would insert it as a snippet at the old cursor). Other drops keep Monaco's behaviour.
 */
function acceptDroppedNames(ed: monaco.editor.IStandaloneCodeEditor) {
  const node = ed.getContainerDomNode();
  const positionAt = (e: DragEvent) => {
    const target = ed.getTargetAtClientPoint(e.clientX, e.clientY);
    const model = ed.getModel();
    if (!target?.position || !model) return undefined;
    // Past the end of a line Monaco reports the empty area: the name goes at that line's end.
    if (target.type === monaco.editor.MouseTargetType.CONTENT_EMPTY) {
      const line = target.position.lineNumber;
      return new monaco.Position(line, model.getLineMaxColumn(line));
    }
    return target.position;
  };
  const ours = (e: DragEvent) => !!e.dataTransfer?.types.includes(SQL_NAME_MIME);
  node.addEventListener(
    'dragover',
    (e) => {
      if (!ours(e)) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer!.dropEffect = 'copy';
      const at = positionAt(e);
      if (at) ed.setPosition(at); // the caret shows where the name will go
    },
    true,
  );
  node.addEventListener(
    'drop',
    (e) => {
      if (!ours(e)) return;
      e.preventDefault();
      e.stopPropagation();
      const text = e.dataTransfer!.getData(SQL_NAME_MIME);
      const at = positionAt(e) ?? ed.getPosition();
      if (!text || !at) return;
      const range = new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column);
      ed.executeEdits('explorer-drop', [{ range, text, forceMoveMarkers: true }]);
      ed.focus();
    },
    true,
  );
}
