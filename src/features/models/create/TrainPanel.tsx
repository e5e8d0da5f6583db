/** The create form's last card: the CREATE MODEL it runs, Train, and the training followed live. */
import { useRef } from 'react';
import { Card } from '../../../components/ui/Card';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { isBusyStatus, type ModelVersion } from '../api';
import { useReveal } from '../../../lib/use-reveal';
import { TrainingProgress, type ModelsNav } from '../shared';

interface Props {
  sql: string;
  invalid: boolean;
  showErrors: boolean;
  starting: boolean;
  startError: Error | null;
  /** The model whose training started here. */
  training: { project: string; name: string } | null;
  active: ModelVersion | undefined;
  onTrain(): void;
  nav: ModelsNav;
}

export function TrainPanel({
  sql,
  invalid,
  showErrors,
  starting,
  startError,
  training,
  active,
  onTrain,
  nav,
}: Props) {
  // The training just started is what the audience should watch: bring its card into view.
  const trainingRef = useRef<HTMLDivElement>(null);
  useReveal(trainingRef, training);
  return (
    <Card
      title="3. Train"
      label="Train"
      actions={
        <button className="btn small" onClick={() => nav.openSql(sql)} disabled={invalid}>
          Open in SQL editor
        </button>
      }
    >
      <pre className="m-code" aria-label="SQL to run">
        {sql}
      </pre>
      <div className="m-actions">
        <button
          className="btn primary"
          onClick={onTrain}
          disabled={starting || (!!training && isBusyStatus(active?.status))}
        >
          {starting ? 'Starting…' : 'Train model'}
        </button>
        {showErrors && invalid && (
          <span className="m-bad small">Fill in the fields marked above.</span>
        )}
      </div>
      {startError && (
        <div className="m-error" role="alert" aria-label="Create model error">
          {startError.message}
        </div>
      )}
      {training && (
        <div ref={trainingRef} className="m-training" role="status" aria-label="Training status">
          <div className="m-status-row">
            <strong>
              {training.project}.{training.name}
            </strong>
            {active && <StatusBadge status={active.status} />}
          </div>
          {active && isBusyStatus(active.status) && <TrainingProgress version={active} />}
          {active?.status === 'error' && (
            <div className="m-error" role="alert">
              <strong>Training failed:</strong> {active.error ?? 'no reason given'}
              <div className="m-actions">
                <button
                  className="btn small"
                  onClick={() => nav.openModel(training.project, training.name, 'overview')}
                >
                  Open the model page
                </button>
              </div>
            </div>
          )}
          {active?.status === 'complete' && <p>Complete. Opening the description…</p>}
        </div>
      )}
    </Card>
  );
}
