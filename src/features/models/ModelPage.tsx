/**
 * A model's page: header (name, status, target) and the Overview, Describe, Predict and What-if
 * tabs. Holds the state shared by Predict and What-if (the input rows and the last prediction)
 * so switching tabs loses nothing.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useReducer, useState } from 'react';
import { instanceFlavorQueryOptions } from './api/flavor';
import { activeVersion, pendingVersion } from './api/parse';
import { predictMutationOptions, type PredictResult } from './api/predict';
import { modelVersionsQueryOptions } from './api/versions';
import { DescribeTab } from './DescribeTab';
import { ForecastPanel } from './ForecastPanel';
import { ModelActions } from './ModelActions';
import { NotReady, VersionSelect } from './ModelStatus';
import { MODEL_TABS, type ModelTab, type ModelsNav } from './nav';
import { OverviewTab } from './OverviewTab';
import { rowFromRecord, type BodyMode } from './predict-form';
import { initialSession, predictReducer } from './predict-session';
import { PredictTab } from './PredictTab';
import { encodeForm, formRows, type ModelPageForm, type SweepSettings } from './share-state';
import { timeseriesOf } from './timeseries';
import { Crumbs, StatusBadge } from './ui';
import { useModelInputs } from './use-model-inputs';
import { ModelWarnings } from './ModelWarnings';
import { WhatIfTab } from './WhatIfTab';

interface Props {
  project: string;
  model: string;
  tab: ModelTab;
  /** The version chosen in the URL (`&version=2`); absent: the active one. */
  version?: number;
  theme: 'light' | 'dark';
  nav: ModelsNav;
  /** Form values from a shared link (predict rows, what-if sweep). */
  initialForm?: ModelPageForm;
  /** A link asked to run on open: the Predict tab sends, What-if sweeps; then onAutoRunDone. */
  autoRun?: boolean;
  onAutoRunDone?(): void;
}

export function ModelPage({
  project,
  model,
  tab,
  version,
  theme,
  nav,
  initialForm,
  autoRun = false,
  onAutoRunDone,
}: Props) {
  const versionsQ = useQuery(modelVersionsQueryOptions(project, model));
  const versions = versionsQ.data ?? [];
  const active = activeVersion(versions);
  const pending = pendingVersion(versions);
  // A version chosen in the URL is used as such (`m.2`, even while active); else the active one.
  const chosen = version === undefined ? active : versions.find((v) => v.version === version);
  const missingVersion = versionsQ.isSuccess && version !== undefined && !chosen;
  const openTab = (t: ModelTab) => nav.openModel(project, model, t, version);
  const inputs = useModelInputs(project, model, chosen, version);
  const flavor = useQuery(instanceFlavorQueryOptions());
  const [modeOverride, setModeOverride] = useState<BodyMode | null>(null);
  const autoMode: BodyMode = flavor.data?.flavor === 'mindsdb' ? 'envelope' : 'array';
  const mode = modeOverride ?? autoMode;
  const [session, dispatch] = useReducer(predictReducer(inputs.fields), undefined, () =>
    initialSession(),
  );
  const [sweep, setSweep] = useState<SweepSettings | undefined>(initialForm?.sweep);
  // A link's form values fill the form once the fields are known...
  const [restored, setRestored] = useState(!initialForm);
  if (!restored && initialForm && inputs.fields.length > 0) {
    setRestored(true);
    dispatch({
      type: 'replace-rows',
      rows: initialForm.rows.map((r) => rowFromRecord(inputs.fields, r)),
    });
    dispatch({ type: 'select', row: initialForm.selected });
  }
  // ...else the form starts from a real training row (once it is known) so Send works right away.
  const [prefilledFrom, setPrefilledFrom] = useState<unknown>(initialForm ? 'link' : null);
  if (
    !initialForm &&
    inputs.example &&
    inputs.fields.length > 0 &&
    prefilledFrom !== inputs.example
  ) {
    setPrefilledFrom(inputs.example);
    const first = session.rows[0];
    const pristine =
      session.rows.length === 1 && Object.keys(first.cells).length === 0 && !session.jsonText;
    if (pristine) {
      dispatch({
        type: 'set-row',
        row: 0,
        value: rowFromRecord(inputs.fields, inputs.example, first.id),
      });
    }
  }
  const formReady = initialForm
    ? restored
    : prefilledFrom !== null || (!inputs.loading && !inputs.statsLoading);

  // The form's values live in the URL too, so a link (or a reload) restores them.
  useEffect(() => {
    if (!formReady || inputs.fields.length === 0) return;
    const t = setTimeout(() => {
      const form = encodeForm({ rows: formRows(session.rows), selected: session.selected, sweep });
      nav.replaceParams({ form });
    }, 150);
    return () => clearTimeout(t);
  }, [formReady, inputs.fields.length, session.rows, session.selected, sweep, nav]);

  // A link's request to run: consumed once the form is ready (by the tab that can run).
  const runRequested = autoRun && formReady;
  const consumeRun = () => onAutoRunDone?.();

  const predictM = useMutation(predictMutationOptions());
  // The last prediction, shown only on the version it came from.
  const [sent, setSent] = useState<{ version?: number; result: PredictResult } | null>(null);
  const result = sent && sent.version === version ? sent.result : null;

  const notFound = versionsQ.isSuccess && versions.length === 0;
  // A time-series model forecasts from a group's history: the Predict and What-if tabs choose a
  // group and a horizon instead of editing a row.
  const ts = timeseriesOf(active);
  const target = active?.predict ?? inputs.target ?? '';
  const forecastPanel = (mode: 'overview' | 'predict' | 'what-if') =>
    ts && active?.status === 'complete' ? (
      <ForecastPanel
        key={`${mode}-${active.version}`}
        project={project}
        model={model}
        selectQuery={active.selectDataQuery}
        ts={ts}
        target={target}
        theme={theme}
        mode={mode}
        nav={nav}
      />
    ) : null;

  return (
    <div className="m-page m-model-page">
      <header className="m-page-header">
        <div>
          <Crumbs onHome={nav.openHome}>{project}</Crumbs>
          <h1>
            {model}
            {active && (
              <StatusBadge status={active.status} label={`Model status: ${active.status}`} />
            )}
            {pending && (
              <StatusBadge
                status={pending.status}
                label={`Version ${pending.version} status: ${pending.status}`}
              />
            )}
          </h1>
          {active && (
            <p className="muted m-subtitle">
              Predicts <strong>{active.predict ?? inputs.target ?? '?'}</strong>
              {active.engine && <> · engine {active.engine}</>} · version {active.version}
              {versions.length > 1 && <> of {versions.length}</>}
            </p>
          )}
        </div>
        <div className="m-header-side">
          {versions.length > 0 && (
            <VersionSelect
              versions={versions}
              value={version ?? active?.version}
              onChange={(v) =>
                nav.openModel(project, model, tab, v === active?.version ? undefined : v)
              }
            />
          )}
          <ModelActions
            project={project}
            model={model}
            version={chosen?.version}
            pinned={version !== undefined}
            canExportCard={flavor.data?.flavor !== 'mindsdb'}
            ready={chosen?.status === 'complete'}
            nav={nav}
          />
        </div>
      </header>
      <ModelWarnings
        project={project}
        model={model}
        version={version}
        activeVersion={active?.version}
        enabled={chosen?.status === 'complete'}
      />

      {versionsQ.isError && (
        <div className="m-error" role="alert">
          Could not read the model’s status: {versionsQ.error.message}
        </div>
      )}
      {missingVersion && (
        <div className="m-error" role="alert">
          Model <code>{model}</code> has no version {version}.{' '}
          <button className="btn small" onClick={() => nav.openModel(project, model, tab)}>
            Use the active version
          </button>
        </div>
      )}
      {notFound && (
        <div className="m-error" role="alert">
          There is no model <code>{model}</code> in project <code>{project}</code>.{' '}
          <button className="btn small" onClick={() => nav.openCreate({ project })}>
            Create a model
          </button>
        </div>
      )}

      {!notFound && (
        <>
          <div className="m-tabs" role="tablist" aria-label="Model">
            {MODEL_TABS.map((t) => (
              <button
                key={t.id}
                role="tab"
                id={`m-tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`m-panel-${t.id}`}
                onClick={() => openTab(t.id)}
              >
                {ts && t.id === 'predict' ? 'Forecast' : t.label}
              </button>
            ))}
          </div>
          <div
            className="m-panel"
            role="tabpanel"
            id={`m-panel-${tab}`}
            aria-labelledby={`m-tab-${tab}`}
          >
            {tab === 'overview' && (
              <OverviewTab
                project={project}
                model={model}
                versions={versions}
                active={active}
                loading={versionsQ.isPending}
                nav={nav}
              />
            )}
            {tab === 'overview' && forecastPanel('overview')}
            {ts && chosen?.status === 'complete' && tab !== 'overview' && tab !== 'describe' && (
              <>
                {version !== undefined && version !== active?.version && (
                  <p className="muted small">
                    Forecasts come from the active version ({active?.version}); SQL names a model
                    without its version.
                  </p>
                )}
                {forecastPanel(tab === 'what-if' ? 'what-if' : 'predict')}
              </>
            )}
            {tab !== 'overview' && chosen && chosen.status !== 'complete' && (
              <NotReady active={chosen} project={project} model={model} nav={nav} />
            )}
            {tab !== 'overview' && !active && versionsQ.isPending && (
              <p className="muted">Loading…</p>
            )}
            {chosen?.status === 'complete' && tab === 'describe' && (
              <DescribeTab
                project={project}
                model={model}
                theme={theme}
                activeVersion={active?.version ?? chosen.version}
                version={version}
              />
            )}
            {!ts && chosen?.status === 'complete' && tab === 'predict' && (
              <PredictTab
                project={project}
                model={model}
                theme={theme}
                inputs={inputs}
                session={session}
                dispatch={dispatch}
                mode={mode}
                autoMode={autoMode}
                flavor={flavor.data}
                onModeChange={(m) => setModeOverride(m === autoMode ? null : m)}
                explainDefault={flavor.data?.flavor !== 'mindsdb'}
                autoSend={runRequested}
                onAutoSent={consumeRun}
                sending={predictM.isPending}
                sendError={predictM.error}
                result={result}
                onSend={(body) =>
                  predictM.mutate(
                    { project, model, version, body },
                    {
                      onSuccess: (r) => {
                        setSent({ version, result: r });
                        dispatch({ type: 'derive-json' });
                      },
                    },
                  )
                }
              />
            )}
            {!ts && chosen?.status === 'complete' && tab === 'what-if' && (
              <WhatIfTab
                key={version ?? 'active'}
                project={project}
                model={model}
                theme={theme}
                inputs={inputs}
                session={session}
                mode={mode}
                version={version}
                onEditInputs={() => openTab('predict')}
                initialSweep={sweep}
                onSweepChange={setSweep}
                autoRun={runRequested}
                onAutoRan={consumeRun}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}
