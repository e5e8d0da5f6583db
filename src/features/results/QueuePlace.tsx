/**
 * While a query runs: its place in the instance's line when it waits for an engine connection
 * ("Waiting: 3rd in line"), polled from the status; nothing once it runs.
 */
import { useQuery } from '@tanstack/react-query';
import { useTrackedQueries } from '../../api/queued-queries';
import { runningEngineQueryOptions } from '../../api/status';
import { queuePlaceText } from './queue-place';

export function QueuePlace() {
  const q = useQuery(runningEngineQueryOptions());
  const mine = useTrackedQueries();
  const text = queuePlaceText(q.data?.queue ?? [], mine);
  if (!text) return null;
  return (
    <div className="queue-place" role="status">
      {text}
    </div>
  );
}
