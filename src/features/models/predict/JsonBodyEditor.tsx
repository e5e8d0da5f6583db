/**
 * The predict JSON body in Monaco (`json` language), loaded lazily by the Predict tab. Controlled:
 * it shows `value` and reports every edit; the session decides what is valid. The session's error
 * is marked in the text (besides the JSON worker's own squiggles) and Ctrl+Enter sends.
 */
import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import { installEditorEscape } from '../../../lib/editor-escape';
import { jsonErrorRange } from './json-error';
import { THEMES, monaco, setupJsonMonaco } from './json-monaco';

setupJsonMonaco();

export interface JsonBodyEditorProps {
  value: string;
  /** The session's message for the current text (invalid JSON or the wrong shape), or null. */
  error: string | null;
  theme: 'light' | 'dark';
  onChange(text: string): void;
  onSubmit(): void;
}

export default function JsonBodyEditor(props: JsonBodyEditorProps) {
  const { value, error, theme } = props;
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const onMount: OnMount = (ed, m) => {
    editorRef.current = ed;
    installEditorEscape(ed, m);
    ed.addAction({
      id: 'smp.predict-send',
      label: 'Send the prediction request',
      keybindings: [m.KeyMod.CtrlCmd | m.KeyCode.Enter],
      run: () => latest.current.onSubmit(),
    });
  };

  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const text = model.getValue();
    const markers: monaco.editor.IMarkerData[] = [];
    if (error) {
      const r = jsonErrorRange(text, error);
      markers.push({
        severity: monaco.MarkerSeverity.Error,
        message: error,
        startLineNumber: r.startLine,
        startColumn: r.startColumn,
        endLineNumber: r.endLine,
        endColumn: r.endColumn,
      });
    }
    monaco.editor.setModelMarkers(model, 'smp-predict', markers);
  }, [error, value]);

  return (
    <Editor
      path="smp://predict/body.json"
      value={value}
      language="json"
      theme={theme === 'dark' ? THEMES.dark : THEMES.light}
      onChange={(v) => latest.current.onChange(v ?? '')}
      onMount={onMount}
      loading={<div className="editor-loading">Loading editor…</div>}
      options={{
        ariaLabel: 'JSON body',
        minimap: { enabled: false },
        fontSize: 12,
        lineHeight: 18,
        fontFamily: "'JetBrains Mono', 'SF Mono', Menlo, Consolas, 'Liberation Mono', monospace",
        automaticLayout: true,
        scrollBeyondLastLine: false,
        tabSize: 2,
        padding: { top: 6, bottom: 6 },
        fixedOverflowWidgets: true,
        wordBasedSuggestions: 'off',
        renderLineHighlight: 'none',
        glyphMargin: false,
        folding: true,
        lineNumbersMinChars: 2,
        stickyScroll: { enabled: false },
        formatOnPaste: false,
      }}
    />
  );
}
