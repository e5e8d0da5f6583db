/**
 * Create a model: source (a table, or a free query) in a database, target column (with its
 * type), project, name and optional USING; shows the CREATE MODEL it will run, runs it, follows
 * the training live, and opens the Describe tab when it completes.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import {
  databasesQueryOptions,
  tableColumnsQueryOptions,
  tablesQueryOptions,
} from '../../api/catalog';
import { changesCatalog, refreshCatalog } from '../../api/catalog-change';
import { activeVersion, isBusyStatus } from './api/parse';
import { queryColumnsQueryOptions, rememberModelSource } from './api/source';
import { modelStatementMutationOptions } from './api/statement';
import { modelVersionsQueryOptions } from './api/versions';
import { projectsQueryOptions } from './api/projects';
import {
  buildCreateModelSql,
  defaultModelName,
  validateCreateModel,
  type CreateModelInput,
  type TimeSeriesInput,
  type UsingEntry,
} from './create-model-sql';
import { TrainingProgress } from './ModelStatus';
import type { ModelsNav } from './nav';
import { decodeCreateForm, encodeCreateForm } from './share-state';
import { Card, Crumbs, StatusBadge } from './ui';

interface Props {
  initial: Record<string, string>;
  nav: ModelsNav;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function CreateModel({ initial: fromUrl, nav }: Props) {
  // A link's form values (`form=`) take precedence over the plain `db`/`table` of an entry point.
  const [form] = useState(() => decodeCreateForm(fromUrl.form));
  const initial: Record<string, string | undefined> = {
    ...fromUrl,
    ...(form && { ...form, using: undefined, sourceKind: undefined, timeseries: undefined }),
  };
  const qc = useQueryClient();
  const dbs = useQuery(databasesQueryOptions());
  const projects = useQuery(projectsQueryOptions());
  const [sourceKind, setSourceKind] = useState<'table' | 'query'>(
    form?.sourceKind ?? (initial.query ? 'query' : 'table'),
  );
  const [db, setDb] = useState(initial.db ?? '');
  const [tableKey, setTableKey] = useState(
    initial.table ? `${initial.schema ?? ''}\u0000${initial.table}` : '',
  );
  const [query, setQuery] = useState(initial.query ?? '');
  const [target, setTarget] = useState(initial.target ?? '');
  const [project, setProject] = useState(initial.project ?? '');
  const [name, setName] = useState(
    initial.name ?? (initial.table ? defaultModelName(initial.table) : ''),
  );
  const [nameTouched, setNameTouched] = useState(!!initial.name);
  const [using, setUsing] = useState<UsingEntry[]>(form?.using ?? []);
  // Forecasting (ORDER BY / GROUP BY / WINDOW / HORIZON); null: a regular model.
  const [ts, setTs] = useState<TimeSeriesInput | null>(form?.timeseries ?? null);
  const [showErrors, setShowErrors] = useState(false);
  const [training, setTraining] = useState<{ project: string; name: string } | null>(null);
  const create = useMutation(modelStatementMutationOptions());

  const dataDbs = (dbs.data ?? []).filter((d) => d.type !== 'project' && d.type !== 'system');
  const effectiveDb =
    db || dataDbs.find((d) => d.name === 'example_db')?.name || dataDbs[0]?.name || '';
  const effectiveProject = project || projects.data?.[0] || 'mindsdb';
  const tables = useQuery({ ...tablesQueryOptions(effectiveDb), enabled: !!effectiveDb });
  const [schema, table] = tableKey ? tableKey.split('\u0000') : ['', ''];
  const tableCols = useQuery({
    ...tableColumnsQueryOptions(effectiveDb, schema || undefined, table),
    enabled: sourceKind === 'table' && !!table,
  });
  const debouncedQuery = useDebounced(query, 500);
  const queryCols = useQuery({
    ...queryColumnsQueryOptions(effectiveDb, debouncedQuery),
    enabled: sourceKind === 'query' && !!effectiveDb && debouncedQuery.trim().length > 0,
  });
  const columns = sourceKind === 'table' ? tableCols.data : queryCols.data;
  const colError = sourceKind === 'table' ? tableCols.error : queryCols.error;

  const input: CreateModelInput = {
    project: effectiveProject,
    name,
    source:
      sourceKind === 'table'
        ? { kind: 'table', db: effectiveDb, schema: schema || undefined, table }
        : { kind: 'query', db: effectiveDb, query },
    target,
    using,
    timeseries: ts,
  };
  const errors = validateCreateModel(input);
  const sql = buildCreateModelSql(input);

  const versions = useQuery({
    ...modelVersionsQueryOptions(training?.project ?? '', training?.name ?? ''),
    enabled: !!training,
  });
  const active = activeVersion(versions.data ?? []);

  useEffect(() => {
    if (training && active?.status === 'complete') {
      nav.openModel(training.project, training.name, 'describe');
    }
  }, [training, active?.status, nav]);

  const pickTable = (key: string) => {
    setTableKey(key);
    setTarget('');
    if (ts) setTs({ ...ts, orderBy: '', groupBy: [] });
    if (!nameTouched) setName(key ? defaultModelName(key.split('\u0000')[1]) : '');
  };

  // The form lives in the URL too, so a link (or a reload) restores it.
  useEffect(() => {
    const t = setTimeout(() => {
      const state = {
        sourceKind,
        db: effectiveDb,
        ...(sourceKind === 'table' ? { schema: schema || undefined, table } : { query }),
        target,
        project: effectiveProject,
        name,
        using,
        ...(ts ? { timeseries: ts } : {}),
      };
      nav.replaceParams({ form: encodeCreateForm(state) });
    }, 150);
    return () => clearTimeout(t);
  }, [
    sourceKind,
    effectiveDb,
    schema,
    table,
    query,
    target,
    effectiveProject,
    name,
    using,
    ts,
    nav,
  ]);

  const submit = () => {
    setShowErrors(true);
    if (Object.keys(errors).length > 0) return;
    const spec = { project: effectiveProject, name: name.trim() };
    create.mutate(sql, {
      onSuccess: (res) => {
        rememberModelSource(spec.project, spec.name, effectiveDb);
        if (changesCatalog(res)) void refreshCatalog(qc);
        setTraining(spec);
      },
    });
  };

  const err = (k: string) =>
    showErrors && errors[k] ? (
      <span className="m-hint error" role="alert">
        {errors[k]}
      </span>
    ) : null;

  const targetType = useMemo(
    () => columns?.find((c) => c.name === target)?.dataType,
    [columns, target],
  );

  return (
    <div className="m-page m-create">
      <header className="m-page-header">
        <div>
          <Crumbs onHome={nav.openHome}>New model</Crumbs>
          <h1>Create a model</h1>
          <p className="muted">
            Pick the data and the column to predict. Training runs in the background; you can watch
            it here.
          </p>
        </div>
      </header>

      <div className="m-create-grid">
        <Card title="1. Training data" label="Training data">
          <div className="segmented" role="tablist" aria-label="Source kind">
            <button
              role="tab"
              aria-selected={sourceKind === 'table'}
              onClick={() => setSourceKind('table')}
            >
              Table
            </button>
            <button
              role="tab"
              aria-selected={sourceKind === 'query'}
              onClick={() => setSourceKind('query')}
            >
              Query
            </button>
          </div>
          <div className="m-form-rows">
            <label>
              <span>Database</span>
              <select
                aria-label="Database"
                value={effectiveDb}
                onChange={(e) => {
                  setDb(e.target.value);
                  pickTable('');
                }}
              >
                {dataDbs.map((d) => (
                  <option key={d.name} value={d.name}>
                    {d.name}
                    {d.engine ? ` (${d.engine})` : ''}
                  </option>
                ))}
              </select>
              {err('db')}
            </label>
            {sourceKind === 'table' ? (
              <label>
                <span>Table</span>
                <select
                  aria-label="Table"
                  value={tableKey}
                  onChange={(e) => pickTable(e.target.value)}
                >
                  <option value="">{tables.isPending ? 'Loading…' : '— choose a table —'}</option>
                  {tables.data
                    ?.filter((t) => t.kind === 'table' || t.kind === 'view')
                    .map((t) => (
                      <option
                        key={`${t.schema ?? ''}.${t.name}`}
                        value={`${t.schema ?? ''}\u0000${t.name}`}
                      >
                        {t.schema ? `${t.schema}.${t.name}` : t.name}
                      </option>
                    ))}
                </select>
                {err('table')}
              </label>
            ) : (
              <label>
                <span>Query (runs in {effectiveDb || 'the database'})</span>
                <textarea
                  aria-label="Training query"
                  className="m-code-input"
                  rows={5}
                  value={query}
                  placeholder="SELECT * FROM demo_data.home_rentals WHERE ..."
                  onChange={(e) => {
                    setQuery(e.target.value);
                    setTarget('');
                  }}
                />
                {err('query')}
              </label>
            )}
          </div>
        </Card>

        <Card title="2. What to predict" label="Target">
          <div className="m-form-rows">
            <label>
              <span>Target column</span>
              <select
                aria-label="Target column"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
              >
                <option value="">
                  {columns ? '— choose the column to predict —' : 'Choose the data first'}
                </option>
                {columns?.map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name}
                    {c.dataType ? ` (${c.dataType})` : ''}
                  </option>
                ))}
              </select>
              {targetType && (
                <span className="muted small">
                  {/(INT|DOUBLE|FLOAT|DECIMAL|REAL|NUMERIC)/i.test(targetType)
                    ? 'Numeric: a regression with prediction intervals (unless it has few distinct values, then a classifier).'
                    : 'Text/boolean: a classifier with class probabilities.'}
                </span>
              )}
              {colError && <span className="m-hint error">{colError.message}</span>}
              {err('target')}
            </label>
            <label>
              <span>Project</span>
              <select
                aria-label="Project"
                value={effectiveProject}
                onChange={(e) => setProject(e.target.value)}
              >
                {(projects.data ?? [effectiveProject]).map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Model name</span>
              <input
                aria-label="Model name"
                value={name}
                onChange={(e) => {
                  setName(e.target.value);
                  setNameTouched(true);
                }}
              />
              {err('name')}
            </label>
          </div>
          <div className="m-ts" aria-label="Time series">
            <label className="m-check">
              <input
                type="checkbox"
                aria-label="Time series (forecast)"
                checked={!!ts}
                onChange={(e) =>
                  setTs(
                    e.target.checked
                      ? {
                          orderBy:
                            columns?.find((c) => /DATE|TIME/i.test(c.dataType ?? ''))?.name ?? '',
                          groupBy: [],
                          window: '8',
                          horizon: '4',
                        }
                      : null,
                  )
                }
              />
              <span>Time series: forecast the target over time (ORDER BY … WINDOW … HORIZON)</span>
            </label>
            {ts && (
              <div className="m-ts-fields">
                <label>
                  <span>ORDER BY (time)</span>
                  <select
                    aria-label="ORDER BY column"
                    value={ts.orderBy}
                    onChange={(e) =>
                      setTs({
                        ...ts,
                        orderBy: e.target.value,
                        groupBy: ts.groupBy.filter((g) => g !== e.target.value),
                      })
                    }
                  >
                    <option value="">— time column —</option>
                    {columns
                      ?.filter((c) => c.name !== target)
                      .map((c) => (
                        <option key={c.name} value={c.name}>
                          {c.name}
                        </option>
                      ))}
                  </select>
                  {err('orderBy')}
                </label>
                <label>
                  <span>WINDOW (rows read)</span>
                  <input
                    aria-label="WINDOW"
                    inputMode="numeric"
                    value={ts.window}
                    onChange={(e) => setTs({ ...ts, window: e.target.value })}
                  />
                  {err('window')}
                </label>
                <label>
                  <span>HORIZON (steps ahead)</span>
                  <input
                    aria-label="HORIZON"
                    inputMode="numeric"
                    value={ts.horizon}
                    onChange={(e) => setTs({ ...ts, horizon: e.target.value })}
                  />
                  {err('horizon')}
                </label>
                <fieldset aria-label="GROUP BY columns">
                  <legend className="small">GROUP BY (one series per combination)</legend>
                  {columns
                    ?.filter((c) => c.name !== target && c.name !== ts.orderBy)
                    .map((c) => (
                      <label key={c.name} className="m-check">
                        <input
                          type="checkbox"
                          aria-label={`GROUP BY ${c.name}`}
                          checked={ts.groupBy.includes(c.name)}
                          onChange={(e) =>
                            setTs({
                              ...ts,
                              groupBy: e.target.checked
                                ? [...ts.groupBy, c.name]
                                : ts.groupBy.filter((g) => g !== c.name),
                            })
                          }
                        />
                        <span>{c.name}</span>
                      </label>
                    ))}
                  {err('groupBy')}
                </fieldset>
              </div>
            )}
          </div>
          <details className="m-using" open={using.length > 0}>
            <summary>USING options (optional)</summary>
            {using.map((u, i) => (
              <div key={i} className="m-using-row">
                <input
                  aria-label={`USING key ${i + 1}`}
                  placeholder="key"
                  value={u.key}
                  onChange={(e) =>
                    setUsing(using.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))
                  }
                />
                <span>=</span>
                <input
                  aria-label={`USING value ${i + 1}`}
                  placeholder="value"
                  value={u.value}
                  onChange={(e) =>
                    setUsing(using.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
                  }
                />
                <button
                  className="icon-btn"
                  aria-label={`Remove USING option ${i + 1}`}
                  onClick={() => setUsing(using.filter((_, j) => j !== i))}
                >
                  ×
                </button>
                {err(`using.${i}`)}
              </div>
            ))}
            <button
              className="btn small"
              onClick={() => setUsing([...using, { key: '', value: '' }])}
            >
              + Option
            </button>
          </details>
        </Card>
      </div>

      <Card
        title="3. Train"
        label="Train"
        actions={
          <button
            className="btn small"
            onClick={() => nav.openSql(sql)}
            disabled={Object.keys(errors).length > 0}
          >
            Open in SQL editor
          </button>
        }
      >
        <pre className="m-code" aria-label="SQL to run">
          {sql}
        </pre>
        <div className="m-actions">
          <button
            className="btn primary"
            onClick={submit}
            disabled={create.isPending || (!!training && isBusyStatus(active?.status))}
          >
            {create.isPending ? 'Starting…' : 'Train model'}
          </button>
          {showErrors && Object.keys(errors).length > 0 && (
            <span className="m-bad small">Fill in the fields marked above.</span>
          )}
        </div>
        {create.isError && (
          <div className="m-error" role="alert" aria-label="Create model error">
            {create.error.message}
          </div>
        )}
        {training && (
          <div className="m-training" role="status" aria-label="Training status">
            <div className="m-status-row">
              <strong>
                {training.project}.{training.name}
              </strong>
              {active && <StatusBadge status={active.status} />}
            </div>
            {active && isBusyStatus(active.status) && <TrainingProgress version={active} />}
            {active?.status === 'error' && (
              <div className="m-error" role="alert">
                <strong>Training failed:</strong> {active.error ?? 'no reason given'}
                <div className="m-actions">
                  <button
                    className="btn small"
                    onClick={() => nav.openModel(training.project, training.name, 'overview')}
                  >
                    Open the model page
                  </button>
                </div>
              </div>
            )}
            {active?.status === 'complete' && <p>Complete. Opening the description…</p>}
          </div>
        )}
      </Card>
    </div>
  );
}
