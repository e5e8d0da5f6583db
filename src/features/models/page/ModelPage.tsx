/**
 * A model's page: header (name, status, target), warnings and the tabs. Overview, Predict and
 * What-if are drawn here, as they share the page's predict form and last prediction (switching
 * tabs loses nothing); the other tabs come whole from their rooms (model-tabs.tsx).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TabList } from '../../../components/ui/TabList';
import {
  activeVersion,
  instanceFlavorQueryOptions,
  isBusyStatus,
  modelVersionsQueryOptions,
  pendingVersion,
  predictMutationOptions,
  type PredictResult,
} from '../api';
import { ForecastPanel, timeseriesOf } from '../forecast';
import { useModelInputs, type BodyMode } from '../inputs';
import { PredictTab } from '../predict';
import { MODEL_TABS, NotReady, type ModelTab, type ModelsNav } from '../shared';
import { ModelWarnings } from '../warnings';
import { WhatIfTab } from '../what-if';
import { ModelHeader } from './ModelHeader';
import { ROOM_TABS } from './model-tabs';
import { OverviewTab } from './OverviewTab';
import { usePageForm } from './use-page-form';

interface Props {
  project: string;
  model: string;
  tab: ModelTab;
  /** The version chosen in the URL (`&version=2`); absent: the active one. */
  version?: number;
  theme: 'light' | 'dark';
  nav: ModelsNav;
  /** The view's URL keys (the predict rows and the sweep live in `form=`). */
  params: Readonly<Record<string, string | undefined>>;
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
  params,
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
  const { session, dispatch, sweep, setSweep, ready: formReady } = usePageForm(params, nav, inputs);

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
  const tabs = MODEL_TABS.map((t) => ({
    id: t.id,
    label: ts && t.id === 'predict' ? 'Forecast' : t.label,
  }));
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
      <ModelHeader
        project={project}
        model={model}
        tab={tab}
        version={version}
        versions={versions}
        active={active}
        pending={pending}
        chosen={chosen}
        target={inputs.target}
        canExportCard={flavor.data?.flavor !== 'mindsdb'}
        nav={nav}
      />
      <ModelWarnings
        project={project}
        model={model}
        version={version}
        activeVersion={active?.version}
        enabled={chosen?.status === 'complete'}
        trainingQuery={chosen?.selectDataQuery}
        target={chosen?.predict ?? inputs.target}
        busy={!!pending && isBusyStatus(pending.status)}
        nav={nav}
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
          <TabList
            className="m-tabs"
            label="Model"
            idPrefix="m"
            tabs={tabs}
            selected={tab}
            onSelect={openTab}
          />
          <div
            className="m-panel"
            role="tabpanel"
            id={`m-panel-${tab}`}
            aria-labelledby={`m-tab-${tab}`}
          >
            {/* The outline a screen reader walks: h1 the model, h2 the tab, h3 its cards. */}
            <h2 className="sr-only">{tabs.find((t) => t.id === tab)?.label}</h2>
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
            {ts && chosen?.status === 'complete' && tab !== 'overview' && !ROOM_TABS[tab] && (
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
            {chosen?.status === 'complete' &&
              ROOM_TABS[tab]?.({
                project,
                model,
                version,
                activeVersion: active?.version ?? chosen.version,
                theme,
                nav,
                params,
              })}
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
