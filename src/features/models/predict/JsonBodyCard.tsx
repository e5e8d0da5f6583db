/**
 * The Predict tab's request body: the JSON editor (Monaco, loaded on first use) kept in step with
 * the form, its format, whether to ask for explanations, and Send.
 */
import { lazy, Suspense, type Dispatch } from 'react';
import type { InstanceFlavor } from '../api';
import type { BodyMode, buildPredictRows, PredictAction, PredictSession } from '../inputs';

/** Monaco (JSON language) comes with the editor, on first use of the Predict tab. */
const JsonBodyEditor = lazy(() => import('./JsonBodyEditor'));

interface Props {
  session: PredictSession;
  dispatch: Dispatch<PredictAction>;
  jsonText: string;
  built: ReturnType<typeof buildPredictRows>;
  explain: boolean;
  mode: BodyMode;
  autoMode: BodyMode;
  flavor: { flavor: InstanceFlavor; version: string | null } | undefined;
  onModeChange(mode: BodyMode): void;
  theme: 'light' | 'dark';
  blocked: boolean;
  sending: boolean;
  sendError: Error | null;
  onSend(): void;
}

export function JsonBodyCard({
  session,
  dispatch,
  jsonText,
  built,
  explain,
  mode,
  autoMode,
  flavor,
  onModeChange,
  theme,
  blocked,
  sending,
  sendError,
  onSend,
}: Props) {
  return (
    <section className="card m-json" aria-label="Request body">
      <header className="card-header">
        <h3>JSON body</h3>
        <div className="card-actions">
          <label className="m-inline">
            <span className="muted small">Format</span>
            <select
              aria-label="Body format"
              value={explain ? 'envelope' : mode}
              disabled={explain}
              title={
                explain
                  ? 'Explanations are asked for in "params", which needs the {"data": [...], "params": {...}} form'
                  : undefined
              }
              onChange={(e) => onModeChange(e.target.value as BodyMode)}
            >
              <option value="array">JSON array (spec)</option>
              <option value="envelope">{'{"data": [...]} (MindsDB)'}</option>
            </select>
          </label>
        </div>
      </header>
      {flavor?.flavor === 'mindsdb' && autoMode === 'envelope' && (
        <div className="m-note" role="note">
          Connected to a MindsDB server
          {flavor.version ? ` (${flavor.version})` : ''}: the body is sent in its{' '}
          <code>{'{"data": [...]}'}</code> form.
        </div>
      )}
      <div
        className={`m-json-editor m-json-monaco ${session.jsonError ? 'invalid' : ''}`}
        data-invalid={session.jsonError ? true : undefined}
      >
        <Suspense fallback={<div className="editor-loading">Loading editor…</div>}>
          <JsonBodyEditor
            value={jsonText}
            error={session.jsonError}
            theme={theme}
            onChange={(text) => dispatch({ type: 'json', text })}
            onSubmit={onSend}
          />
        </Suspense>
      </div>
      <div id="m-json-status" className="m-json-status" aria-live="polite">
        {session.jsonError ? (
          <span className="m-bad" role="alert" aria-label="JSON error">
            {session.jsonError}
          </span>
        ) : (
          <span className="muted small">
            Valid · {built.rows.length.toLocaleString('en-US')} row
            {built.rows.length === 1 ? '' : 's'} · edit here or in the form · <kbd>Esc</kbd>{' '}
            <kbd>Tab</kbd> leaves the editor
          </span>
        )}
      </div>
      {session.unknownColumns.length > 0 && (
        <div className="m-note warn">
          Not model inputs (sent as they are; the server may refuse them):{' '}
          {session.unknownColumns.join(', ')}
        </div>
      )}
      <div className="m-send">
        <button
          className="btn primary"
          disabled={blocked || sending}
          onClick={onSend}
          title="Send (Ctrl+Enter in the JSON editor)"
        >
          {sending ? 'Predicting…' : '▶ Send'}
        </button>
        <label
          className="m-inline m-explain-toggle"
          title='Asks the instance for each input’s contribution ("params": {"explain": true})'
        >
          <input
            type="checkbox"
            checked={explain}
            onChange={(e) => dispatch({ type: 'explain', on: e.target.checked })}
          />
          Explain each prediction
        </label>
        <SendNotes built={built} jsonError={session.jsonError} />
      </div>
      {sendError && (
        <div className="m-error" role="alert" aria-label="Prediction error">
          {sendError.message}
        </div>
      )}
    </section>
  );
}

function SendNotes({
  built,
  jsonError,
}: {
  built: ReturnType<typeof buildPredictRows>;
  jsonError: string | null;
}) {
  if (jsonError) return <span className="m-bad small">Fix the JSON to send.</span>;
  if (built.errors.length > 0) {
    const e = built.errors[0];
    return (
      <span className="m-bad small" role="alert">
        {built.errors.length === 1 ? '1 invalid value' : `${built.errors.length} invalid values`}{' '}
        (not sent): row {e.row + 1}, {e.column}: {e.message}
      </span>
    );
  }
  if (built.empties.length > 0) {
    const cols = [...new Set(built.empties.map((e) => e.column))];
    return (
      <span className="muted small">
        Empty inputs are sent as null: {cols.slice(0, 4).join(', ')}
        {cols.length > 4 ? ` and ${cols.length - 4} more` : ''}
      </span>
    );
  }
  return null;
}
