/**
 * The guided tour's panel: one step at a time (what to say, what it runs), with Back / Next, so a
 * presenter can walk an audience through query -> train -> predict -> explain, and replay it.
 */
import { useQuery } from '@tanstack/react-query';
import { activeVersion, isBusyStatus } from '../features/models/api';
import { modelVersionsQueryOptions } from '../features/models/api';
import { TOUR_MODEL, TOUR_PROJECT, TOUR_STEPS, type TourStep } from './tour';

interface Props {
  step: number;
  onStep(step: number): void;
  onClose(): void;
  onRun(step: TourStep): void;
}

export function TourPanel({ step, onStep, onClose, onRun }: Props) {
  const current = TOUR_STEPS[step];
  const versions = useQuery({
    ...modelVersionsQueryOptions(TOUR_PROJECT, TOUR_MODEL),
    enabled: step >= 1,
  });
  const model = activeVersion(versions.data ?? []) ?? versions.data?.at(-1);
  const needsModel = current.action.kind === 'model-page' || !!current.action.needsModel;
  const training = model && isBusyStatus(model.status);
  const modelNote = !needsModel
    ? null
    : !model
      ? 'Train the model first (step 2).'
      : training
        ? `The model is training${model.phase.name ? ` (${model.phase.name})` : ''}…`
        : model.status === 'error'
          ? `Training failed: ${model.error ?? 'no reason given'}. Run step 2 again.`
          : null;
  const last = step === TOUR_STEPS.length - 1;

  return (
    <section className="tour" role="dialog" aria-label="Guided tour">
      <header className="tour-header">
        <span className="tour-count">
          Step {step + 1} of {TOUR_STEPS.length}
        </span>
        <button className="icon-btn" aria-label="Close the tour" onClick={onClose}>
          ×
        </button>
      </header>
      <h2>{current.title}</h2>
      <p>{current.text}</p>
      {current.action.kind === 'sql' && (
        <details className="tour-details">
          <summary>The SQL this step runs (it lands in the editor)</summary>
          <pre className="tour-sql">{current.action.sql}</pre>
        </details>
      )}
      {modelNote && (
        <p className="tour-note" role="status">
          {training && <span className="spinner small" aria-hidden />}
          {modelNote}
        </p>
      )}
      <footer className="tour-footer">
        <ol className="tour-dots" aria-label="Steps">
          {TOUR_STEPS.map((s, i) => (
            <li key={s.id}>
              <button
                aria-label={`Step ${i + 1}: ${s.title}`}
                aria-current={i === step ? 'step' : undefined}
                onClick={() => onStep(i)}
              />
            </li>
          ))}
        </ol>
        <span className="spacer" />
        <button className="btn" disabled={step === 0} onClick={() => onStep(step - 1)}>
          Back
        </button>
        <button
          className="btn primary"
          disabled={needsModel && model?.status !== 'complete'}
          onClick={() => onRun(current)}
        >
          ▶ {current.run}
        </button>
        {last ? (
          <button className="btn" onClick={() => onStep(0)}>
            Replay
          </button>
        ) : (
          <button className="btn" onClick={() => onStep(step + 1)}>
            Next →
          </button>
        )}
      </footer>
    </section>
  );
}
