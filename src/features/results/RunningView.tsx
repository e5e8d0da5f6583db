/** A run in progress: the statement counter, the time running, Cancel, the queue and scoring. */
import { useEffect, useState } from 'react';
import { formatDuration } from '../../lib/format';
import { QueuePlace } from './QueuePlace';
import type { ResultState } from './result-view';
import { ScoringProgress } from './ScoringProgress';

export function RunningView({
  state,
  onCancel,
}: {
  state: Extract<ResultState, { kind: 'running' }>;
  onCancel(): void;
}) {
  return (
    <div className="results-body running" aria-busy="true">
      <div className="running-box" role="status">
        <span className="spinner" aria-hidden />
        Running{state.total > 1 ? ` statement ${state.done + 1} of ${state.total}` : ' query'}…{' '}
        <Elapsed since={state.startedAt} />
        <button className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <QueuePlace />
      <ScoringProgress />
    </div>
  );
}

function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    const t = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(t);
  }, []);
  return <>{formatDuration(Math.max(0, now - since))}</>;
}
