/**
 * The model page header's hand-over actions: compare with another version or model, export the
 * model card (a self-contained HTML file, downloaded from the instance) and the model as ONNX.
 */
import { modelCardPath } from '../api';
import { formatModelRef } from '../compare';
import { ExportOnnx } from '../export';
import type { ModelsNav } from '../shared';

interface Props {
  project: string;
  model: string;
  /** The version shown (pinned, or the active one's number). */
  version?: number;
  pinned: boolean;
  /** The card is this instance's extension: hidden against a MindsDB server. */
  canExportCard: boolean;
  ready: boolean;
  nav: ModelsNav;
}

export function ModelActions({
  project,
  model,
  version,
  pinned,
  canExportCard,
  ready,
  nav,
}: Props) {
  if (!ready) return null;
  const ref = { project, model, ...(pinned && version !== undefined ? { version } : {}) };
  return (
    <div className="card-actions m-no-print" role="group" aria-label="Model actions">
      <button
        className="btn small"
        onClick={() => nav.openCompare(formatModelRef(ref))}
        title="Metrics, importances and predictions of two models or versions side by side"
      >
        Compare…
      </button>
      {canExportCard && (
        <a
          className="btn small"
          href={modelCardPath(project, model, pinned ? version : undefined, true)}
          download
          title="One HTML file to hand over: what it predicts, how well, what matters, warnings"
        >
          Export model card
        </a>
      )}
      {canExportCard && (
        <ExportOnnx project={project} model={model} version={pinned ? version : undefined} />
      )}
    </div>
  );
}
