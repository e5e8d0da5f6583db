/** Loads the threshold view of the version shown and hands it, with the page's state, to ThresholdView. */
import { useQuery } from '@tanstack/react-query';
import { QueryState } from '../../../../components/ui/QueryState';
import { thresholdQuery } from '../api';
import { ThresholdView, type ThresholdViewProps } from './ThresholdView';

export function ThresholdPanel(props: Omit<ThresholdViewProps, 'view'>) {
  const q = useQuery(thresholdQuery(props.target));
  return (
    <QueryState query={q} loading="Loading the curves…" error="Could not load the threshold view">
      {(view) => <ThresholdView {...props} view={view} />}
    </QueryState>
  );
}
