/**
 * The model page's version diff tab (issue 27): this version against another (the previous one
 * by default, or another model of the project) on the same rows (the held-out rows, or a query):
 * the summary sentence, which inputs count more or less, and each changed row with its inputs,
 * both predictions and the contributions that moved. Numbers from ./diff-view.ts.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Bar, Legend, Tooltip } from 'recharts';
import type { DiffReport, DiffRequest } from '../../../../../contract';
import { CHART_COLORS } from '../../../../components/ui/grid-theme';
import { usePresenting } from '../../../../lib/use-presenting';
import { modelVersionsQueryOptions } from '../../api';
import { ColumnBars, type ModelTabProps, usePaperTheme } from '../../shared';
import { diffQuery } from './api';
import { againstChoices, diffTableRows, fmt, sourceText, weightBars } from './diff-view';
import '../drift/drift.css';

export function DiffTab({ project, model, version, activeVersion, theme }: ModelTabProps) {
  const shown = version ?? activeVersion;
  const versions = useQuery(modelVersionsQueryOptions(project, model));
  const { choices, initial } = againstChoices(versions.data ?? [], shown);
  const [form, setForm] = useState<{ against: string; query: string; db: string } | null>(null);
  const [asked, setAsked] = useState<DiffRequest | null>(null);
  const current = form ?? {
    against: initial !== undefined ? String(initial) : '',
    query: '',
    db: '',
  };
  // Compare at once with the previous version on the held-out rows; later, what the form says.
  const body: DiffRequest | null =
    asked ?? (initial !== undefined ? { against: String(initial) } : null);
  const q = useQuery({
    ...diffQuery({ project, model, version }, body ?? {}),
    enabled: body !== null,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const against = current.against.trim();
    setAsked({
      ...(against ? { against } : {}),
      ...(current.query.trim() ? { query: current.query.trim() } : {}),
      ...(current.query.trim() && current.db.trim() ? { db: current.db.trim() } : {}),
    });
  };

  return (
    <div className="m-vdiff">
      <form className="m-card" onSubmit={submit} aria-labelledby="diff-form-title">
        <div className="m-card-header">
          <h3 id="diff-form-title">Compare v{shown} with</h3>
        </div>
        <div className="m-drift-controls">
          <label className="m-field">
            <span className="m-field-name">Other side (a version, or model[.version])</span>
            <input
              list="diff-versions"
              value={current.against}
              placeholder={choices.length ? String(choices[0]) : 'other_model'}
              onChange={(e) => setForm({ ...current, against: e.target.value })}
            />
            <datalist id="diff-versions">
              {choices.map((v) => (
                <option key={v} value={String(v)}>
                  v{v}
                </option>
              ))}
            </datalist>
          </label>
          <label className="m-field" style={{ flex: 1, minWidth: 240 }}>
            <span className="m-field-name">Rows (a SELECT; empty: the held-out rows)</span>
            <input
              value={current.query}
              placeholder="the held-out rows kept with the version"
              onChange={(e) => setForm({ ...current, query: e.target.value })}
            />
          </label>
          <label className="m-field">
            <span className="m-field-name">Database</span>
            <input
              value={current.db}
              placeholder="the training data’s"
              onChange={(e) => setForm({ ...current, db: e.target.value })}
            />
          </label>
          <button type="submit" className="btn primary" disabled={!current.against.trim()}>
            Compare
          </button>
        </div>
        {body === null && versions.isSuccess && (
          <p className="m-empty muted">
            v{shown} is the only complete version: retrain to get another one, or name another model
            of the project.
          </p>
        )}
      </form>
      {body !== null &&
        (q.isPending ? (
          <p className="muted">Predicting and explaining the rows with both sides…</p>
        ) : q.isError ? (
          <div className="m-error" role="alert">
            {q.error.message}
          </div>
        ) : (
          <DiffResult report={q.data} theme={theme} />
        ))}
    </div>
  );
}

function DiffResult({ report, theme }: { report: DiffReport; theme: 'light' | 'dark' }) {
  const presenting = usePresenting();
  const c = CHART_COLORS[usePaperTheme(theme)];
  const bars = weightBars(report);
  const rows = diffTableRows(report);
  const classifier = report.task !== 'regression';
  const height = Math.max(150, bars.length * (presenting ? 40 : 32) + 80);
  const chartTitle = 'How much each input counts on the changed rows (mean |contribution|)';
  return (
    <>
      <section className="m-card m-verdict m-verdict-warn" aria-labelledby="diff-summary">
        <div className="m-card-header">
          <h3 id="diff-summary">What changed</h3>
        </div>
        <p className="m-verdict-sentence">{report.summary}</p>
        <p className="muted small">{sourceText(report)}</p>
      </section>
      {bars.length > 0 && (
        <section className="m-card" aria-labelledby="diff-weights-title">
          <figure className="m-chart" aria-labelledby="diff-weights-title" style={{ margin: 0 }}>
            <figcaption id="diff-weights-title" className="m-h4">
              {chartTitle}
            </figcaption>
            <ColumnBars
              data={bars}
              summary={`${chartTitle}: ${bars
                .map((b) => `${b.column} ${fmt(b.before)} before, ${fmt(b.after)} after`)
                .join('; ')}`}
              height={height}
              theme={theme}
              x={{
                format: fmt,
                label: classifier
                  ? 'mean |contribution| (raw score)'
                  : 'mean |contribution| (target units)',
              }}
            >
              <Tooltip formatter={(v, n) => [fmt(Number(v)), String(n)]} />
              <Legend verticalAlign="top" height={26} />
              <Bar
                dataKey="before"
                name={`v${report.before.version} (before)`}
                fill={c.down}
                isAnimationActive={false}
              />
              <Bar
                dataKey="after"
                name={`v${report.after.version} (after)`}
                fill={c.up}
                isAnimationActive={false}
              />
            </ColumnBars>
            <details className="m-details">
              <summary>Table: {chartTitle}</summary>
              <table className="m-table">
                <thead>
                  <tr>
                    <th scope="col">input</th>
                    <th scope="col">before</th>
                    <th scope="col">after</th>
                  </tr>
                </thead>
                <tbody>
                  {bars.map((b) => (
                    <tr key={b.column}>
                      <th scope="row">{b.column}</th>
                      <td>{fmt(b.before)}</td>
                      <td>{fmt(b.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          </figure>
        </section>
      )}
      <section className="m-card" aria-labelledby="diff-rows-title">
        <div className="m-card-header">
          <h3 id="diff-rows-title">Changed rows, largest change first</h3>
          <span className="muted small">
            {rows.length < report.rows.changed
              ? `the first ${rows.length} of ${report.rows.changed.toLocaleString('en-US')}`
              : `${rows.length}`}
          </span>
        </div>
        {rows.length === 0 ? (
          <p className="m-empty muted">No row changed.</p>
        ) : (
          <div className="m-vdiff-table">
            <table className="m-table" aria-labelledby="diff-rows-title">
              <thead>
                <tr>
                  <th scope="col">row</th>
                  <th scope="col">v{report.before.version}</th>
                  <th scope="col">v{report.after.version}</th>
                  <th scope="col">{classifier ? 'probability change' : 'change'}</th>
                  <th scope="col">contributions that moved</th>
                  <th scope="col">inputs</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.row}>
                    <th scope="row">{r.row}</th>
                    <td>{r.before}</td>
                    <td className={r.flipped ? 'm-level-drifted' : undefined}>{r.after}</td>
                    <td>{r.change}</td>
                    <td className="small">{r.moved}</td>
                    <td className="small">{r.inputs}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
