/**
 * Saving a threshold with the model: a new version that predicts with it (and says so in
 * DESCRIBE and the card), and Undo that makes the version shown serve again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ThresholdView as View } from '../../../../../contract/evaluation';
import { modelKeys } from '../../../../api/keys';
import { runSql } from '../../../../api/sql-query';
import { Card } from '../../../../components/ui/Card';
import { type EvaluationTarget, saveThresholdMutation } from '../api';
import type { Payoff } from './threshold-model';

export function SaveThreshold({
  view,
  target,
  baseVersion,
  threshold,
  payoff,
  currency,
}: {
  view: View;
  target: EvaluationTarget;
  /** The version shown, which Undo makes serve again. */
  baseVersion: number;
  threshold: number;
  payoff: Payoff | null;
  currency: string;
}) {
  const qc = useQueryClient();
  const save = useMutation({
    ...saveThresholdMutation(target),
    onSuccess: () =>
      qc.invalidateQueries({ queryKey: modelKeys.detail(target.project, target.model) }),
  });
  const [undone, setUndone] = useState<string | null>(null);
  const t = Number(threshold.toFixed(3));
  const undo = async (version: number) => {
    const r = await runSql({
      query: `SET model_active = ${target.project}.${target.model}.${version}`,
    });
    setUndone(r.type === 'error' ? r.error_message : `Version ${version} serves again.`);
    await qc.invalidateQueries({ queryKey: modelKeys.detail(target.project, target.model) });
  };
  return (
    <Card title="Save with the model" label="Save threshold">
      <p>
        Saving makes a new version that predicts {`'${String(view.positive)}'`} when its probability
        is at least {t}: predictions, DESCRIBE and the model card use it and say so. The current
        version stays, so it can be made to serve again.
      </p>
      <button
        type="button"
        className="primary"
        disabled={save.isPending || t <= 0 || t >= 1}
        onClick={() =>
          save.mutate({
            threshold: t,
            positive: view.positive,
            ...(payoff ? { payoff } : {}),
            ...(currency.trim() ? { currency: currency.trim().slice(0, 12) } : {}),
          })
        }
      >
        Save threshold {t}
      </button>
      {save.isError && <p role="alert">{save.error.message}</p>}
      {save.data && (
        <p role="status">
          Saved as version {save.data.version} (active).{' '}
          <button type="button" onClick={() => void undo(baseVersion)}>
            Undo: make version {baseVersion} serve again
          </button>
        </p>
      )}
      {undone && <p role="status">{undone}</p>}
    </Card>
  );
}
