/**
 * While a query runs: the progress of statements scoring big tables in batches (CREATE TABLE /
 * INSERT ... JOIN model), polled from the instance's status; nothing when none runs.
 */
import { useQuery } from '@tanstack/react-query';
import { runningEngineQueryOptions } from '../../api/status';
import { percent, progressText } from './scoring-progress';

export function ScoringProgress() {
  const q = useQuery(runningEngineQueryOptions());
  const jobs = q.data?.scoring ?? [];
  if (jobs.length === 0) return null;
  return (
    <ul className="scoring-progress" aria-label="Scoring progress">
      {jobs.map((p) => (
        <li key={p.statement + p.what}>
          <div className="scoring-what">Scoring {p.what}</div>
          <progress
            max={100}
            value={p.rows_total === null ? undefined : percent(p)}
            aria-label={`Scoring ${p.what}`}
            aria-valuetext={progressText(p)}
          />
          <div className="scoring-text" role="status">
            {progressText(p)}
          </div>
        </li>
      ))}
    </ul>
  );
}
