/**
 * A model's page: header (name, status, target) and the Overview, Describe, Predict and What-if
 * tabs. Holds the state shared by Predict and What-if (the input rows and the last prediction)
 * so switching tabs loses nothing.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useReducer, useState } from 'react';
import { instanceFlavorQueryOptions } from '../../api/models-flavor';
import {
  activeVersion,
  isBusyStatus,
  pendingVersion,
  type ModelVersion,
} from '../../api/models-parse';
import { predictMutationOptions, type PredictResult } from '../../api/models-predict';
import { modelVersionsQueryOptions } from '../../api/models-versions';
import { DescribeTab } from './DescribeTab';
import { MODEL_TABS, type ModelTab, type ModelsNav } from './nav';
import { OverviewTab } from './OverviewTab';
import { rowFromRecord, type BodyMode } from './predict-form';
import { initialSession, predictReducer } from './predict-session';
import { PredictTab } from './PredictTab';
import { StatusBadge } from './ui';
import { useModelInputs } from './use-model-inputs';
import { WhatIfTab } from './WhatIfTab';

interface Props {
  project: string;
  model: string;
  tab: ModelTab;
  theme: 'light' | 'dark';
  nav: ModelsNav;
}

export function ModelPage({ project, model, tab, theme, nav }: Props) {
  const versionsQ = useQuery(modelVersionsQueryOptions(project, model));
  const versions = versionsQ.data ?? [];
  const active = activeVersion(versions);
  const pending = pendingVersion(versions);
  const inputs = useModelInputs(project, model, active);
  const flavor = useQuery(instanceFlavorQueryOptions());
  const [modeOverride, setModeOverride] = useState<BodyMode | null>(null);
  const autoMode: BodyMode = flavor.data?.flavor === 'mindsdb' ? 'envelope' : 'array';
  const mode = modeOverride ?? autoMode;
  const [session, dispatch] = useReducer(predictReducer(inputs.fields), undefined, () =>
    initialSession(),
  );
  // Start the form from a real training row (once it is known) so Send works right away.
  const [prefilledFrom, setPrefilledFrom] = useState<unknown>(null);
  if (inputs.example && inputs.fields.length > 0 && prefilledFrom !== inputs.example) {
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
  const predictM = useMutation(predictMutationOptions());
  const [result, setResult] = useState<PredictResult | null>(null);

  const notFound = versionsQ.isSuccess && versions.length === 0;

  return (
    <div className="m-page m-model-page">
      <header className="m-page-header">
        <div>
          <div className="m-crumbs">
            <button className="link" onClick={nav.openHome}>
              Models
            </button>
            <span aria-hidden> / </span>
            <span>{project}</span>
          </div>
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
      </header>

      {versionsQ.isError && (
        <div className="m-error" role="alert">
          Could not read the model’s status: {versionsQ.error.message}
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
                onClick={() => nav.openModel(project, model, t.id)}
              >
                {t.label}
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
            {tab !== 'overview' && active && active.status !== 'complete' && (
              <NotReady active={active} project={project} model={model} nav={nav} />
            )}
            {tab !== 'overview' && !active && versionsQ.isPending && (
              <p className="muted">Loading…</p>
            )}
            {active?.status === 'complete' && tab === 'describe' && (
              <DescribeTab
                project={project}
                model={model}
                theme={theme}
                activeVersion={active.version}
              />
            )}
            {active?.status === 'complete' && tab === 'predict' && (
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
                sending={predictM.isPending}
                sendError={predictM.error}
                result={result}
                onSend={(body) =>
                  predictM.mutate(
                    { project, model, body },
                    {
                      onSuccess: (r) => {
                        setResult(r);
                        dispatch({ type: 'derive-json' });
                      },
                    },
                  )
                }
              />
            )}
            {active?.status === 'complete' && tab === 'what-if' && (
              <WhatIfTab
                project={project}
                model={model}
                theme={theme}
                inputs={inputs}
                session={session}
                mode={mode}
                onEditInputs={() => nav.openModel(project, model, 'predict')}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}

/** What a tab that needs a complete model shows meanwhile: progress, or the error and what to do. */
export function NotReady({
  active,
  project,
  model,
  nav,
}: {
  active: ModelVersion;
  project: string;
  model: string;
  nav: ModelsNav;
}) {
  if (isBusyStatus(active.status)) {
    return (
      <div className="m-notready" role="status" aria-label="Model not ready">
        <TrainingProgress version={active} />
        <p className="muted">
          This tab opens by itself when training completes (the status updates every second).
        </p>
      </div>
    );
  }
  if (active.status === 'error') {
    return (
      <div className="m-notready">
        <div className="m-error" role="alert">
          <strong>Training failed.</strong> {active.error ?? 'The server gave no reason.'}
        </div>
        <p className="muted">
          Fix the cause (often the training query or the target column) and retrain, or create the
          model again with other settings.
        </p>
        <div className="m-actions">
          <button className="btn" onClick={() => nav.openModel(project, model, 'overview')}>
            Go to Overview (retrain)
          </button>
          <button className="btn" onClick={() => nav.openCreate()}>
            Create another model
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="m-notready" role="status">
      The model’s status is <strong>{active.status}</strong>; describe and predict need a complete
      model.
    </div>
  );
}

export function TrainingProgress({ version }: { version: ModelVersion }) {
  const { current, total, name } = version.phase;
  const pct = current !== null && total ? Math.round((current / total) * 100) : null;
  return (
    <div className="m-progress-block">
      <div className="m-progress-label">
        <span className="spinner small" aria-hidden />
        <span>
          {version.status === 'generating' ? 'Preparing training' : 'Training'}
          {name ? ` — ${name}` : ''}
          {current !== null && total ? ` (phase ${current} of ${total})` : ''}
        </span>
      </div>
      <div
        className="m-progress"
        role="progressbar"
        aria-label="Training progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct ?? undefined}
      >
        <div className={pct === null ? 'indeterminate' : ''} style={{ width: `${pct ?? 30}%` }} />
      </div>
    </div>
  );
}
