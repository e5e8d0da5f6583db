/**
 * Overview: live status (polled every second while generating/training), target, engine,
 * accuracy, training time, the training query, every version (active marked), Retrain and Drop.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SqlQueryResponse } from '../../../../contract';
import { changesCatalog, refreshCatalog } from '../../../api/catalog-change';
import { Card } from '../../../components/ui/Card';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import {
  isBusyStatus,
  modelStatementMutationOptions,
  pendingVersion,
  useMetricName,
  type ModelVersion,
} from '../api';
import { dropModelSql, quoteIdent, retrainSql } from '../create';
import { timeseriesOf } from '../forecast';
import {
  accuracyLabel,
  metricScale,
  metricValueText,
  formatSeconds,
  TrainingProgress,
  type ModelsNav,
} from '../shared';

interface Props {
  project: string;
  model: string;
  versions: ModelVersion[];
  active: ModelVersion | undefined;
  loading: boolean;
  nav: ModelsNav;
}

export function OverviewTab({ project, model, versions, active, loading, nav }: Props) {
  const qc = useQueryClient();
  const [confirm, setConfirm] = useState<'retrain' | 'drop' | null>(null);
  const statement = useMutation(modelStatementMutationOptions());
  const busy = versions.some((v) => isBusyStatus(v.status));
  const metricName = useMetricName(project, model, active?.version, active?.status);
  const metric = accuracyLabel(metricName, true);

  if (loading) return <p className="muted">Loading…</p>;
  if (!active) return null;
  const pending = pendingVersion(versions);

  const run = (sql: string, after?: () => void) =>
    statement.mutate(sql, {
      onSuccess: (res: SqlQueryResponse) => {
        setConfirm(null);
        if (changesCatalog(res)) void refreshCatalog(qc);
        after?.();
      },
      onError: () => setConfirm(null),
    });

  const options = active.trainingOptions?.using;
  const usingText =
    options && typeof options === 'object' && Object.keys(options).length > 0
      ? JSON.stringify(options)
      : null;
  const trainedOn = active.selectDataQuery;
  const target = active.predict;
  const ts = timeseriesOf(active);
  const sampleSql = !target
    ? null
    : ts
      ? `SELECT m.${quoteIdent(ts.orderBy)}, m.${quoteIdent(target)}, m.${quoteIdent(`${target}_min`)}, m.${quoteIdent(`${target}_max`)}\nFROM <data> AS t\nJOIN ${quoteIdent(project)}.${quoteIdent(model)} AS m\nWHERE t.${quoteIdent(ts.orderBy)} > LATEST${ts.groupBy.map((g) => `\n  AND t.${quoteIdent(g)} = <value>`).join('')};`
      : `SELECT ${quoteIdent(target)}, ${quoteIdent(`${target}_explain`)}\nFROM ${quoteIdent(project)}.${quoteIdent(model)}\nWHERE <input> = <value>;`;

  return (
    <div className="m-overview">
      <div className="m-grid-2">
        <Card title="Status" label="Status">
          <div className="m-status-row">
            <StatusBadge status={active.status} />
            {busy && <span className="muted small">updating live</span>}
          </div>
          {isBusyStatus(active.status) && <TrainingProgress version={active} />}
          {pending && isBusyStatus(pending.status) && (
            <div className="m-pending">
              <p className="muted small">
                Version {pending.version} is training; version {active.version} keeps answering
                until it completes.
              </p>
              <TrainingProgress version={pending} />
            </div>
          )}
          {pending?.status === 'error' && (
            <div className="m-error" role="alert" aria-label="Retraining error">
              <strong>Retraining version {pending.version} failed:</strong>{' '}
              {pending.error ?? 'no reason given'}. Version {active.version} is still active.
            </div>
          )}
          {active.status === 'error' && (
            <div className="m-error" role="alert" aria-label="Training error">
              <strong>Training failed:</strong> {active.error ?? 'no reason given'}
              <div className="m-actions">
                <button className="btn small" onClick={() => setConfirm('retrain')}>
                  Retrain
                </button>
              </div>
            </div>
          )}
          {active.status === 'complete' && (
            <div className="m-actions">
              <button
                className="btn small"
                onClick={() => nav.openModel(project, model, 'describe')}
              >
                Describe →
              </button>
              <button
                className="btn small primary"
                onClick={() => nav.openModel(project, model, 'predict')}
              >
                Predict →
              </button>
            </div>
          )}
          <dl className="m-facts">
            <dt>Target</dt>
            <dd>{active.predict ?? '—'}</dd>
            <dt>Engine</dt>
            <dd>{active.engine ?? '—'}</dd>
            <dt>Active version</dt>
            <dd>{active.version}</dd>
            <dt>{metric}</dt>
            <dd aria-label={metric}>
              {metricValueText(metricName, active.accuracy)}
              {metricScale(metricName) && metricName !== 'mase' && (
                <span className="muted small"> ({metricScale(metricName)})</span>
              )}
            </dd>
            <dt>Training time</dt>
            <dd>{formatSeconds(active.trainingTime)}</dd>
            <dt>Created</dt>
            <dd>{active.createdAt ?? '—'}</dd>
            {usingText && (
              <>
                <dt>USING</dt>
                <dd>
                  <code>{usingText}</code>
                </dd>
              </>
            )}
          </dl>
        </Card>
        <Card
          title="Training query"
          label="Training query"
          actions={
            trainedOn ? (
              <button className="btn small" onClick={() => nav.openSql(trainedOn)}>
                Open in SQL editor
              </button>
            ) : undefined
          }
        >
          <pre className="m-code">{trainedOn ?? '—'}</pre>
          {sampleSql && (
            <>
              <h4 className="m-h4">Query the model with SQL</h4>
              <pre className="m-code">{sampleSql}</pre>
            </>
          )}
        </Card>
      </div>

      <Card title={`Versions (${versions.length})`} label="Versions">
        <table className="m-table" aria-label="Versions">
          <thead>
            <tr>
              <th>Version</th>
              <th>Status</th>
              <th className="num">{metric}</th>
              <th className="num">Training time</th>
              <th>Created</th>
              <th>Tag</th>
            </tr>
          </thead>
          <tbody>
            {[...versions].reverse().map((v) => (
              <tr key={v.version} className={v.active ? 'active' : ''}>
                <td>
                  v{v.version} {v.active && <span className="m-pill">active</span>}
                </td>
                <td>
                  <StatusBadge status={v.status} />
                  {v.error && <div className="m-error-inline">{v.error}</div>}
                </td>
                <td className="num">{metricValueText(metricName, v.accuracy)}</td>
                <td className="num">{formatSeconds(v.trainingTime)}</td>
                <td>{v.createdAt ?? '—'}</td>
                <td>{v.tag ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>

      <Card title="Manage" label="Manage">
        <div className="m-actions">
          <button className="btn" onClick={() => setConfirm('retrain')} disabled={busy}>
            ↻ Retrain
          </button>
          <button className="btn m-danger-outline" onClick={() => setConfirm('drop')}>
            Drop model
          </button>
          {busy && <span className="muted small">Retrain is available once training ends.</span>}
        </div>
        {statement.isError && (
          <div className="m-error" role="alert">
            {statement.error.message}
          </div>
        )}
      </Card>

      {confirm === 'retrain' && (
        <ConfirmDialog
          title={`Retrain ${model}?`}
          confirmLabel="Retrain"
          busy={statement.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() => run(retrainSql(project, model))}
        >
          <p>
            Trains a new version on the current training data. The active version keeps answering
            until the new one completes.
          </p>
          <pre className="m-code">{retrainSql(project, model)}</pre>
        </ConfirmDialog>
      )}
      {confirm === 'drop' && (
        <ConfirmDialog
          title={`Drop ${model}?`}
          confirmLabel="Drop model"
          danger
          busy={statement.isPending}
          onCancel={() => setConfirm(null)}
          onConfirm={() => run(dropModelSql(project, model), nav.openHome)}
        >
          <p>
            Deletes every version of <strong>{model}</strong>. This cannot be undone.
          </p>
          <pre className="m-code">{dropModelSql(project, model)}</pre>
        </ConfirmDialog>
      )}
    </div>
  );
}
