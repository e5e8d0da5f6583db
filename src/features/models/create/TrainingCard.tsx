/**
 * What a CREATE MODEL / RETRAIN run from the SQL editor shows instead of the raw models-table row:
 * the model's live status (polled while it trains), its progress, then its accuracy or error, and
 * links to its page. Loaded lazily by the shell; works against any server that has the models
 * table.
 */
import { useQuery } from '@tanstack/react-query';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { activeVersion, isBusyStatus, modelVersionsQueryOptions, useMetricName } from '../api';
import {
  accuracyLabel,
  metricScale,
  metricValueText,
  formatSeconds,
  TrainingProgress,
  type ModelTab,
} from '../shared';
import '../shared/models.css';

export interface TrainingCardProps {
  project: string;
  model: string;
  /** The version the statement created (a retrain makes a new one); absent: the newest. */
  version?: number;
  /** Link to the model page (a tab of it), so it opens like any link. */
  hrefFor(tab?: ModelTab): string;
}

export function TrainingCard({ project, model, version, hrefFor }: TrainingCardProps) {
  const q = useQuery(modelVersionsQueryOptions(project, model));
  const versions = q.data ?? [];
  const shown =
    (version !== undefined ? versions.find((v) => v.version === version) : undefined) ??
    versions.reduce<(typeof versions)[number] | undefined>(
      (a, v) => (!a || v.version > a.version ? v : a),
      undefined,
    );
  const active = activeVersion(versions);
  const metricName = useMetricName(project, model, shown?.version, shown?.status);
  const metric = accuracyLabel(metricName, true);
  const busy = shown ? isBusyStatus(shown.status) : q.isPending;
  const title = !shown
    ? `Model ${model}`
    : busy
      ? `Training ${model}`
      : shown.status === 'complete'
        ? `${model} is ready`
        : shown.status === 'error'
          ? `Training ${model} failed`
          : `Model ${model}`;

  return (
    <section className="card m-training-card" aria-label={`Model ${project}.${model}`}>
      <header className="card-header">
        <h3>{title}</h3>
        {shown && <StatusBadge status={shown.status} label={`Model status: ${shown.status}`} />}
        <div className="card-actions">
          <a className="btn small primary" href={hrefFor()}>
            Open model page →
          </a>
        </div>
      </header>
      {q.isError && (
        <div className="m-error" role="alert">
          Could not read the model’s status: {q.error.message}
        </div>
      )}
      {shown && (
        <>
          <p className="muted m-training-sub">
            {project}.{model}
            {shown.version ? ` · version ${shown.version}` : ''}
            {shown.predict ? (
              <>
                {' '}
                · predicts <strong>{shown.predict}</strong>
              </>
            ) : null}
            {active && shown.version !== active.version
              ? ` · version ${active.version} keeps answering until this one completes`
              : ''}
          </p>
          {busy && <TrainingProgress version={shown} />}
          {busy && (
            <p className="muted small">The status updates every second while the model trains.</p>
          )}
          {shown.status === 'error' && (
            <div className="m-error" role="alert">
              {shown.error ?? 'The server gave no reason.'}
            </div>
          )}
          {shown.status === 'complete' && (
            <>
              <dl className="m-facts">
                <dt>{metric}</dt>
                <dd aria-label={metric}>
                  {metricValueText(metricName, shown.accuracy)}
                  {metricScale(metricName) && metricName !== 'mase' && (
                    <span className="muted small"> ({metricScale(metricName)})</span>
                  )}
                </dd>
                <dt>Training time</dt>
                <dd>{formatSeconds(shown.trainingTime)}</dd>
              </dl>
              <div className="m-actions">
                <a className="btn small" href={hrefFor('describe')}>
                  Describe
                </a>
                <a className="btn small" href={hrefFor('predict')}>
                  Predict
                </a>
                <a className="btn small" href={hrefFor('what-if')}>
                  What-if
                </a>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
