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
  /** The version chosen in the URL (`&version=2`); absent: the active one. */
  version?: number;
  theme: 'light' | 'dark';
  nav: ModelsNav;
}

export function ModelPage({ project, model, tab, version, theme, nav }: Props) {
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
  // The last prediction, shown only on the version it came from.
  const [sent, setSent] = useState<{ version?: number; result: PredictResult } | null>(null);
  const result = sent && sent.version === version ? sent.result : null;

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
        {versions.length > 0 && (
          <VersionSelect
            versions={versions}
            value={version ?? active?.version}
            onChange={(v) =>
              nav.openModel(project, model, tab, v === active?.version ? undefined : v)
            }
          />
        )}
      </header>

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
            {chosen?.status === 'complete' && tab === 'predict' && (
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
            {chosen?.status === 'complete' && tab === 'what-if' && (
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
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}

/**
 * The version the Describe, Predict and What-if tabs use: every version, the active one marked
 * (and the default); only complete versions can be chosen, the others show their status.
 */
export function VersionSelect({
  versions,
  value,
  onChange,
}: {
  versions: readonly ModelVersion[];
  value: number | undefined;
  onChange(version: number): void;
}) {
  return (
    <label className="m-inline m-version-select">
      <span className="muted small">Version</span>
      <select
        aria-label="Model version"
        value={value === undefined ? '' : String(value)}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {[...versions].reverse().map((v) => (
          <option
            key={v.version}
            value={String(v.version)}
            disabled={v.status !== 'complete' && v.version !== value}
          >
            {versionLabel(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function versionLabel(v: ModelVersion): string {
  const notes = [v.active ? 'active' : '', v.status !== 'complete' ? v.status : ''];
  const note = notes.filter(Boolean).join(', ');
  return `v${v.version}${note ? ` (${note})` : ''}`;
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
