/**
 * Predict: inputs as a form (one row), an editable rows table or pasted CSV, all kept in sync
 * with the JSON body (editable both ways); Send; the result with its interval; copy as curl/fetch.
 */
import { useEffect, useMemo, useState, type Dispatch } from 'react';
import { TabList } from '../../../components/ui/TabList';
import type { InstanceFlavor, PredictResult } from '../api';
import {
  buildPredictBody,
  buildPredictRows,
  parseCsvRows,
  rowFromRecord,
  shownJson,
  type BodyMode,
  type ModelInputs,
  type PredictAction,
  type PredictSession,
} from '../inputs';
import { JsonBodyCard } from './JsonBodyCard';
import { PredictForm } from './PredictForm';
import { PredictResults } from './PredictResults';
import { RowsTable } from './RowsTable';

interface Props {
  project: string;
  model: string;
  theme: 'light' | 'dark';
  inputs: ModelInputs;
  session: PredictSession;
  dispatch: Dispatch<PredictAction>;
  mode: BodyMode;
  autoMode: BodyMode;
  flavor: { flavor: InstanceFlavor; version: string | null } | undefined;
  onModeChange(mode: BodyMode): void;
  sending: boolean;
  sendError: Error | null;
  result: PredictResult | null;
  onSend(body: unknown): void;
  /** Ask for explanations unless the user said otherwise (the instance computes them). */
  explainDefault: boolean;
  /** A link asked to send on open: send once the rows are valid. */
  autoSend?: boolean;
  onAutoSent?(): void;
}

type InputView = 'form' | 'rows' | 'csv';

export function PredictTab(props: Props) {
  const { inputs, session, dispatch, mode, theme } = props;
  const { fields } = inputs;
  const [view, setView] = useState<InputView>(session.rows.length > 1 ? 'rows' : 'form');
  const built = useMemo(() => buildPredictRows(fields, session.rows), [fields, session.rows]);
  const explain = session.explain ?? props.explainDefault;
  const params = useMemo(() => (explain ? { explain: true } : undefined), [explain]);
  const jsonText = useMemo(
    () => shownJson(session, fields, mode, params),
    [session, fields, mode, params],
  );
  const maxImportance = Math.max(0, ...fields.map((f) => f.importance ?? 0));
  const row = session.rows[session.selected] ?? session.rows[0];
  const blocked = !!session.jsonError || built.errors.length > 0;
  const ready = !inputs.loading && !inputs.error && fields.length > 0;
  const send = () => {
    if (blocked || props.sending) return;
    props.onSend(buildPredictBody(built.rows, mode, params));
  };
  const { autoSend, onAutoSent, onSend } = props;
  useEffect(() => {
    if (!autoSend || !ready) return;
    onAutoSent?.();
    if (!blocked) onSend(buildPredictBody(built.rows, mode, params));
  }, [autoSend, ready, blocked, built.rows, mode, params, onAutoSent, onSend]);

  if (inputs.loading) return <p className="muted">Loading the model’s inputs…</p>;
  if (inputs.error)
    return (
      <div className="m-error" role="alert">
        Could not read the model’s inputs: {inputs.error.message}
      </div>
    );

  return (
    <div className="m-predict">
      <div className="m-predict-top">
        <section className="card m-inputs" aria-label="Inputs">
          <header className="card-header">
            <TabList
              className="segmented"
              label="Input mode"
              tabs={[
                { id: 'form', label: 'Form' },
                { id: 'rows', label: `Rows (${session.rows.length.toLocaleString('en-US')})` },
                { id: 'csv', label: 'Paste CSV' },
              ]}
              selected={view}
              onSelect={setView}
            />
            <div className="card-actions">
              {inputs.example && view === 'form' && (
                <button
                  className="btn small"
                  onClick={() =>
                    dispatch({
                      type: 'set-row',
                      row: session.selected,
                      value: rowFromRecord(fields, inputs.example!, row.id),
                    })
                  }
                  title="Fill the form with a row of the training data"
                >
                  Fill with a training example
                </button>
              )}
              {view === 'form' && (
                <button
                  className="btn small"
                  onClick={() =>
                    dispatch({
                      type: 'set-row',
                      row: session.selected,
                      value: { ...row, cells: {} },
                    })
                  }
                  title="Empty every field of this row"
                >
                  Clear
                </button>
              )}
              {view !== 'csv' && (
                <button className="btn small" onClick={() => dispatch({ type: 'add-row' })}>
                  + Row
                </button>
              )}
            </div>
          </header>
          {view === 'form' && (
            <>
              {session.rows.length > 1 && (
                <div className="m-row-nav">
                  <button
                    className="btn small"
                    aria-label="Previous row"
                    disabled={session.selected === 0}
                    onClick={() => dispatch({ type: 'select', row: session.selected - 1 })}
                  >
                    ‹
                  </button>
                  <span>
                    Row {session.selected + 1} of {session.rows.length}
                  </span>
                  <button
                    className="btn small"
                    aria-label="Next row"
                    disabled={session.selected >= session.rows.length - 1}
                    onClick={() => dispatch({ type: 'select', row: session.selected + 1 })}
                  >
                    ›
                  </button>
                  <button
                    className="btn small ghost"
                    onClick={() => dispatch({ type: 'remove-row', row: session.selected })}
                  >
                    Remove this row
                  </button>
                </div>
              )}
              <PredictForm
                fields={fields}
                row={row}
                rowIndex={session.selected}
                dispatch={dispatch}
                maxImportance={maxImportance}
              />
            </>
          )}
          {view === 'rows' && (
            <RowsTable
              fields={fields}
              rows={session.rows}
              selected={session.selected}
              dispatch={dispatch}
              theme={theme}
            />
          )}
          {view === 'csv' && (
            <CsvPaste
              fieldNames={fields.map((f) => f.name)}
              onRows={(text, replace) => {
                const r = parseCsvRows(text, fields);
                if (r.rows.length > 0) {
                  dispatch({ type: replace ? 'replace-rows' : 'append-rows', rows: r.rows });
                  setView(r.rows.length === 1 && session.rows.length <= 1 ? 'form' : 'rows');
                }
                return r;
              }}
            />
          )}
        </section>

        <JsonBodyCard
          session={session}
          dispatch={dispatch}
          jsonText={jsonText}
          built={built}
          explain={explain}
          mode={mode}
          autoMode={props.autoMode}
          flavor={props.flavor}
          onModeChange={props.onModeChange}
          theme={theme}
          blocked={blocked}
          sending={props.sending}
          sendError={props.sendError}
          onSend={send}
        />
      </div>

      {props.result && inputs.target && (
        <PredictResults
          result={props.result}
          target={inputs.target}
          inputs={fields.map((f) => f.name)}
          theme={theme}
        />
      )}
    </div>
  );
}

function CsvPaste({
  fieldNames,
  onRows,
}: {
  fieldNames: string[];
  onRows(text: string, replace: boolean): ReturnType<typeof parseCsvRows>;
}) {
  const [text, setText] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const apply = (replace: boolean) => {
    const r = onRows(text, replace);
    const parts = [
      r.rows.length === 0
        ? 'No rows found.'
        : `${replace ? 'Replaced with' : 'Added'} ${r.rows.length.toLocaleString('en-US')} row${r.rows.length === 1 ? '' : 's'}${r.hasHeader ? ' (header matched)' : ' (values in input order)'}.`,
      r.ignoredColumns.length > 0 ? `Ignored columns: ${r.ignoredColumns.join(', ')}.` : '',
      ...r.warnings,
    ];
    setMessage(parts.filter(Boolean).join(' '));
    if (r.rows.length > 0) setText('');
  };
  return (
    <div className="m-csv">
      <label htmlFor="m-csv-text" className="muted small">
        Paste CSV or spreadsheet rows. With a header, columns are matched by name; without, values
        fill the inputs in order: {fieldNames.join(', ')}.
      </label>
      <textarea
        id="m-csv-text"
        aria-label="CSV rows"
        className="m-csv-text"
        spellCheck={false}
        value={text}
        placeholder={`${fieldNames.join(',')}\n…`}
        onChange={(e) => setText(e.target.value)}
      />
      <div className="m-actions">
        <button className="btn primary small" disabled={!text.trim()} onClick={() => apply(true)}>
          Replace rows
        </button>
        <button className="btn small" disabled={!text.trim()} onClick={() => apply(false)}>
          Add rows
        </button>
        {message && (
          <span className="muted small" role="status">
            {message}
          </span>
        )}
      </div>
    </div>
  );
}
