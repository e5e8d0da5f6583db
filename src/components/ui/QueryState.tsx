/**
 * A react-query result's three states drawn one way: a quiet line while it loads, an alert naming
 * what failed with the error's own message, and the data once it is there (handed to children).
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import './ui.css';

export function QueryState<T>({
  query,
  loading,
  error,
  children,
}: {
  query: UseQueryResult<T, Error>;
  /** Shown while the first answer is awaited ("Loading the calibration…"). */
  loading: ReactNode;
  /** What failed, in words ("Could not load the calibration"); the error's message follows. */
  error: string;
  children(data: T): ReactNode;
}) {
  if (query.isPending) return <p className="muted">{loading}</p>;
  if (query.isError)
    return (
      <p className="m-error" role="alert">
        {error}: {query.error.message}
      </p>
    );
  return children(query.data);
}
