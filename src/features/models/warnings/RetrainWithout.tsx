/**
 * The warnings' advice applied in one click: the model retrained without an input (a likely leak,
 * an identifier). Shows the RETRAIN it runs (in the training query's own database) before running
 * it; the new version trains while the current one keeps answering, and takes over once complete.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changesCatalog, refreshCatalog } from '../../../api/catalog-change';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { modelStatementMutationOptions, trainingSourceQueryOptions } from '../api';
import { retrainWithoutSql } from '../create';
import type { ModelsNav } from '../shared';

interface Props {
  project: string;
  model: string;
  trainingQuery: string;
  inputs: readonly string[];
  target: string;
  column: string;
  nav: ModelsNav;
  onClose(): void;
}

export function RetrainWithout(p: Props) {
  const qc = useQueryClient();
  const source = useQuery(trainingSourceQueryOptions(p.project, p.model, p.trainingQuery));
  const run = useMutation(modelStatementMutationOptions());
  const sql = source.data
    ? retrainWithoutSql({
        project: p.project,
        model: p.model,
        db: source.data.db,
        selectQuery: p.trainingQuery,
        inputs: p.inputs,
        target: p.target,
        without: [p.column],
      })
    : null;
  return (
    <ConfirmDialog
      title={`Retrain ${p.model} without ${p.column}?`}
      confirmLabel={run.isPending ? 'Starting…' : 'Retrain'}
      busy={!sql || run.isPending}
      onCancel={p.onClose}
      onConfirm={() =>
        sql &&
        run.mutate(sql, {
          onSuccess: (res) => {
            if (changesCatalog(res)) void refreshCatalog(qc);
            p.onClose();
          },
        })
      }
    >
      <p>
        A new version learns from the same rows without <code>{p.column}</code>. The current version
        keeps answering until the new one is complete; then compare the two.
      </p>
      {source.isPending && <p className="muted">Finding the training data’s database…</p>}
      {source.isSuccess && !source.data && (
        <p className="m-error" role="alert">
          The training data’s database could not be found: write the RETRAIN in the SQL editor.
        </p>
      )}
      {source.error && (
        <p className="m-error" role="alert">
          {source.error.message}
        </p>
      )}
      {sql && (
        <>
          <pre className="m-code" aria-label="Statement to run">
            {sql}
          </pre>
          <button className="btn small" onClick={() => p.nav.openSql(sql)}>
            Open in SQL editor instead
          </button>
        </>
      )}
      {run.error && (
        <p className="m-error" role="alert">
          {run.error.message}
        </p>
      )}
    </ConfirmDialog>
  );
}
