/** Loads the threshold view of the version shown and hands it, with the page's state, to ThresholdView. */
import { useQuery } from '@tanstack/react-query';
import { type EvaluationTarget, thresholdQuery } from '../api';
import type { PayoffText } from './threshold-model';
import { ThresholdView } from './ThresholdView';

export function ThresholdPanel({
  target,
  baseVersion,
  threshold,
  onThreshold,
  payoffText,
  onPayoffText,
  theme,
}: {
  target: EvaluationTarget;
  baseVersion: number;
  threshold: number | null;
  onThreshold(t: number): void;
  payoffText: PayoffText;
  onPayoffText(p: PayoffText): void;
  theme: 'light' | 'dark';
}) {
  const q = useQuery(thresholdQuery(target));
  if (q.isPending) return <p className="muted">Loading the curves…</p>;
  if (q.isError)
    return (
      <p className="m-error" role="alert">
        Could not load the threshold view: {q.error.message}
      </p>
    );
  return (
    <ThresholdView
      view={q.data}
      target={target}
      baseVersion={baseVersion}
      threshold={threshold ?? q.data.decision?.threshold ?? 0.5}
      onThreshold={onThreshold}
      payoffText={payoffText}
      onPayoffText={onPayoffText}
      theme={theme}
    />
  );
}
