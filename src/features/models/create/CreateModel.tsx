/**
 * Create a model: source (a table, or a free query) in a database, target column (with its
 * type), project, name and optional USING or time-series clauses; shows the CREATE MODEL it will
 * run, runs it, follows the training live, and opens the Describe tab when it completes. The form
 * lives in the URL (`form=`), so a link or a reload restores it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import {
  databasesQueryOptions,
  tableColumnsQueryOptions,
  tablesQueryOptions,
} from '../../../api/catalog';
import { changesCatalog, refreshCatalog } from '../../../api/catalog-change';
import { useUrlState } from '../../../lib/use-url-state';
import {
  activeVersion,
  modelStatementMutationOptions,
  modelVersionsQueryOptions,
  projectsQueryOptions,
  queryColumnsQueryOptions,
  rememberModelSource,
} from '../api';
import { Crumbs, type ModelsNav } from '../shared';
import { createFormCodec, type CreateForm } from './create-form';
import {
  buildCreateModelSql,
  defaultModelName,
  validateCreateModel,
  type CreateModelInput,
} from './create-model-sql';
import { ModelOptions } from './ModelOptions';
import { SourceFields } from './SourceFields';
import { TargetFields } from './TargetFields';
import { TrainPanel } from './TrainPanel';
import type { FieldError } from './field-error';

interface Props {
  /** The view's URL keys: the entry point's `db`/`schema`/`table`/`project`, and `form=`. */
  params: Readonly<Record<string, string | undefined>>;
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

export function CreateModel({ params, nav }: Props) {
  const [codec] = useState(() => createFormCodec(params));
  const [form, setForm] = useUrlState({ params, key: 'form', write: nav.replaceParams }, codec);
  const patch = (p: Partial<CreateForm>) => setForm((f) => ({ ...f, ...p }));
  const qc = useQueryClient();
  const dbs = useQuery(databasesQueryOptions());
  const projects = useQuery(projectsQueryOptions());
  const [showErrors, setShowErrors] = useState(false);
  const [training, setTraining] = useState<{ project: string; name: string } | null>(null);
  const create = useMutation(modelStatementMutationOptions());

  const sourceKind = form.sourceKind ?? (form.query ? 'query' : 'table');
  const table = form.table ?? '';
  const schema = form.schema ?? '';
  const query = form.query ?? '';
  const target = form.target ?? '';
  // The name follows the table until the user types one.
  const name = form.name ?? (table ? defaultModelName(table) : '');
  const using = form.using ?? [];
  const ts = form.timeseries ?? null;

  const dataDbs = (dbs.data ?? []).filter((d) => d.type !== 'project' && d.type !== 'system');
  const effectiveDb =
    form.db || dataDbs.find((d) => d.name === 'example_db')?.name || dataDbs[0]?.name || '';
  const effectiveProject = form.project || projects.data?.[0] || 'mindsdb';
  const tables = useQuery({ ...tablesQueryOptions(effectiveDb), enabled: !!effectiveDb });
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

  const pickTable = (next: { schema: string; table: string } | null) =>
    patch({
      schema: next?.schema || undefined,
      table: next?.table ?? '',
      target: '',
      ...(ts ? { timeseries: { ...ts, orderBy: '', groupBy: [] } } : {}),
    });

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

  const err: FieldError = (k) =>
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
        <SourceFields
          sourceKind={sourceKind}
          onSourceKind={(k) => patch({ sourceKind: k })}
          dbs={dataDbs}
          db={effectiveDb}
          onDb={(db) => {
            patch({ db });
            pickTable(null);
          }}
          tables={tables.data}
          tablesLoading={tables.isPending}
          schema={schema}
          table={table}
          onTable={pickTable}
          query={query}
          onQuery={(q) => patch({ query: q, target: '' })}
          err={err}
        />
        <TargetFields
          columns={columns}
          columnsError={colError}
          target={target}
          targetType={targetType}
          onTarget={(t) => patch({ target: t })}
          projects={projects.data ?? [effectiveProject]}
          project={effectiveProject}
          onProject={(p) => patch({ project: p })}
          name={name}
          onName={(n) => patch({ name: n })}
          err={err}
        >
          <ModelOptions
            columns={columns}
            target={target}
            ts={ts}
            onTs={(t) => patch({ timeseries: t ?? undefined })}
            using={using}
            onUsing={(u) => patch({ using: u })}
            err={err}
          />
        </TargetFields>
      </div>

      <TrainPanel
        sql={sql}
        invalid={Object.keys(errors).length > 0}
        showErrors={showErrors}
        starting={create.isPending}
        startError={create.error}
        training={training}
        active={active}
        onTrain={submit}
        nav={nav}
      />
    </div>
  );
}
