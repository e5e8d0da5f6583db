/**
 * Pieces that show a model's state, shared by the model page, its Overview tab and the create form:
 * the version picker, training progress, and what a tab shows while the model is not ready.
 */
import { isBusyStatus, type ModelVersion } from '../api';
import type { ModelsNav } from '../nav';

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
