/**
 * The model page's drift tab (issue 27): point the version at today's data (any query; tables
 * named like the training table are offered), read the verdict in words, the inputs sorted by
 * drift x importance with their tests, PSI per input, one input's histograms training against
 * today, the predictions' shift; "Retrain on this query" writes the RETRAIN into the editor.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import type { DriftReport } from '../../../../../contract';
import { modelVersionsQueryOptions } from '../../api';
import { formatPercent, type ModelTabProps } from '../../shared';
import { computeDriftMutation, latestDriftQuery } from './api';
import { HistogramChart, PsiChart } from './DriftCharts';
import {
  driftRows,
  firstDirection,
  formatP,
  histogramBars,
  LEVEL_WORDS,
  predictionsText,
  psiBars,
  retrainSql,
  sortDriftRows,
  suggestedQueries,
  trainingTable,
  verdictText,
  type DriftSortKey,
  type SortDirection,
} from './drift-view';
import { similarTablesQuery } from './similar-tables';
import './drift.css';

export function DriftTab({ project, model, version, activeVersion, theme, nav }: ModelTabProps) {
  const target = { project, model, version };
  const client = useQueryClient();
  const latest = useQuery(latestDriftQuery(target));
  const compute = useMutation(computeDriftMutation(target, client));
  const versions = useQuery(modelVersionsQueryOptions(project, model));
  const shown = version ?? activeVersion;
  const trainingQuery = versions.data?.find((v) => v.version === shown)?.selectDataQuery ?? null;
  const base = trainingTable(trainingQuery)?.name;
  const similar = useQuery({ ...similarTablesQuery(project, model, base ?? ''), enabled: !!base });
  const suggestions = suggestedQueries(trainingQuery, similar.data ?? []);

  const [edited, setEdited] = useState<{ query: string; db: string } | null>(null);
  const form = edited ?? { query: latest.data?.query ?? '', db: latest.data?.db ?? '' };
  const report = latest.data ?? null;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!form.query.trim()) return;
    compute.mutate({ query: form.query, ...(form.db.trim() ? { db: form.db.trim() } : {}) });
  };

  return (
    <div className="m-drift">
      <form className="m-card" onSubmit={submit} aria-labelledby="drift-data-title">
        <div className="m-card-header">
          <h3 id="drift-data-title">Today’s data</h3>
          <span className="muted small">
            compared with the training data of v{shown} (a sample kept with the version)
          </span>
        </div>
        <label className="m-field">
          <span className="m-field-name">Query (a SELECT returning the model’s inputs)</span>
          <textarea
            className="m-code-input"
            rows={3}
            spellCheck={false}
            value={form.query}
            placeholder={trainingQuery ?? 'SELECT * FROM my_db.this_month'}
            onChange={(e) => setEdited({ ...form, query: e.target.value })}
          />
        </label>
        <div className="m-drift-controls">
          <label className="m-field">
            <span className="m-field-name">Database</span>
            <input
              value={form.db}
              placeholder="the training data’s"
              onChange={(e) => setEdited({ ...form, db: e.target.value })}
            />
          </label>
          {suggestions.length > 0 && (
            <div
              className="m-drift-suggest"
              role="group"
              aria-label="Tables like the training data"
            >
              <span className="muted small">Like the training data:</span>
              {suggestions.map((s) => (
                <button
                  key={`${s.db}.${s.table}`}
                  type="button"
                  className="btn small"
                  onClick={() => setEdited({ query: s.query, db: s.db })}
                >
                  Use {s.table}
                </button>
              ))}
            </div>
          )}
          <button
            type="submit"
            className="btn primary"
            disabled={!form.query.trim() || compute.isPending}
          >
            {compute.isPending ? 'Computing drift…' : 'Compute drift'}
          </button>
        </div>
        {compute.isError && (
          <div className="m-error" role="alert">
            {compute.error.message}
          </div>
        )}
      </form>

      {latest.isPending ? (
        <p className="muted">Loading the latest drift report…</p>
      ) : latest.isError ? (
        <div className="m-error" role="alert">
          {latest.error.message}
        </div>
      ) : report ? (
        <DriftResult
          report={report}
          theme={theme}
          onRetrain={() => nav.openSql(retrainSql(project, model, report.query, report.db))}
        />
      ) : (
        <p className="m-empty muted">
          No drift report for v{shown} yet: give today’s data above and compute one.
        </p>
      )}
    </div>
  );
}

function DriftResult({
  report,
  theme,
  onRetrain,
}: {
  report: DriftReport;
  theme: 'light' | 'dark';
  onRetrain: () => void;
}) {
  const v = verdictText(report);
  const rows = useMemo(() => driftRows(report), [report]);
  const [sort, setSort] = useState<{ key: DriftSortKey; dir: SortDirection }>({
    key: 'impact',
    dir: 'descending',
  });
  const sorted = sortDriftRows(rows, sort.key, sort.dir);
  const [picked, setPicked] = useState<string | null>(null);
  const column =
    report.columns.find((c) => c.column === picked) ??
    report.columns.find((c) => c.column === sorted[0]?.column);
  const clickSort = (key: DriftSortKey) =>
    setSort((s) =>
      s.key === key
        ? { key, dir: s.dir === 'ascending' ? 'descending' : 'ascending' }
        : { key, dir: firstDirection(key) },
    );
  const header = (key: DriftSortKey, label: string) => (
    <th scope="col" aria-sort={sort.key === key ? sort.dir : 'none'}>
      <button type="button" className="link" onClick={() => clickSort(key)}>
        {label}
        {sort.key === key ? (sort.dir === 'ascending' ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );

  return (
    <>
      <section className={`m-card m-verdict m-verdict-${v.tone}`} aria-labelledby="drift-verdict">
        <div className="m-card-header">
          <h3 id="drift-verdict">{v.title}</h3>
          <div className="m-card-actions">
            <button type="button" className="btn small" onClick={onRetrain}>
              Retrain on this query
            </button>
          </div>
        </div>
        <p className="m-verdict-sentence">{v.sentence}</p>
        <p className="muted small">
          {v.compared}; computed {new Date(report.computed_at).toLocaleString()} on{' '}
          <code>{report.db}</code>: <code>{report.query}</code>
        </p>
      </section>

      <section className="m-card" aria-labelledby="drift-inputs-title">
        <div className="m-card-header">
          <h3 id="drift-inputs-title">Inputs</h3>
          <span className="muted small">
            drifted when PSI ≥ {report.thresholds.psi} and p &lt; {report.thresholds.p_value};
            sorted by PSI × importance unless you pick a column
          </span>
        </div>
        <PsiChart bars={psiBars(report)} threshold={report.thresholds.psi} theme={theme} />
        <div className="m-drift-table">
          <table className="m-table" aria-labelledby="drift-inputs-title">
            <thead>
              <tr>
                {header('column', 'input')}
                {header('importance', 'importance')}
                {header('psi', 'PSI')}
                {header('impact', 'PSI × importance')}
                <th scope="col">level</th>
                {header('pValue', 'p-value')}
                <th scope="col">test</th>
                <th scope="col">notes</th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((r) => (
                <tr key={r.column} className={r.column === column?.column ? 'active' : undefined}>
                  <th scope="row">
                    <button
                      type="button"
                      className="link"
                      aria-pressed={r.column === column?.column}
                      onClick={() => setPicked(r.column)}
                      title="Show its histograms"
                    >
                      {r.column}
                    </button>
                  </th>
                  <td>{formatPercent(r.importance)}</td>
                  <td>{r.psi.toFixed(3)}</td>
                  <td>{r.impact.toFixed(3)}</td>
                  <td className={`m-level m-level-${r.level}`}>{LEVEL_WORDS[r.level]}</td>
                  <td>{formatP(r.pValue)}</td>
                  <td className="small">{r.test}</td>
                  <td className="small">{r.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {report.skipped.length > 0 && (
          <p className="muted small">
            Not compared: {report.skipped.map((s) => `${s.column} (${s.reason})`).join('; ')}
          </p>
        )}
      </section>

      <div className="m-grid-2">
        {column && (
          <section className="m-card" aria-label={`Histograms of ${column.column}`}>
            <HistogramChart
              title={`${column.column}: share of rows per bin, training vs today`}
              unit={column.column}
              bars={histogramBars(column)}
              theme={theme}
            />
          </section>
        )}
        <section className="m-card" aria-labelledby="drift-predictions-title">
          <div className="m-card-header">
            <h3 id="drift-predictions-title">Predictions</h3>
          </div>
          <p className="small">{predictionsText(report.predictions)}</p>
          {report.predictions && (
            <HistogramChart
              title="Predictions: share of rows per bin, training vs today"
              unit="prediction"
              bars={histogramBars(report.predictions)}
              theme={theme}
            />
          )}
        </section>
      </div>
    </>
  );
}
