/**
 * The results area of a tab: running state (RunningView), what stopped a run (OutcomeBanners),
 * then the last result (ResultContent: grid or chart, status line and export).
 */
import type { ReactNode } from 'react';
import { OutcomeBanners } from './OutcomeBanners';
import { ResultContent, type ResultContentExtras } from './ResultContent';
import type { ResultState } from './result-view';
import { RunningView } from './RunningView';

export type { WhyCell } from './why-cells';

/** Starts loading the grid code early (idle time after the first paint). */
export function preloadResultGrid() {
  void import('./ResultGrid');
}

interface Props extends ResultContentExtras {
  state: ResultState;
  theme: 'light' | 'dark';
  onCancel(): void;
  /** Shown before the first run (e.g. example queries). */
  emptyState: ReactNode;
}

export function ResultsPanel({ state, theme, onCancel, emptyState, ...extras }: Props) {
  if (state.kind === 'idle') return <div className="results-empty">{emptyState}</div>;
  if (state.kind === 'notice') {
    return (
      <div className="results-body">
        <div className="notice" role="status">
          {state.text}
        </div>
      </div>
    );
  }
  if (state.kind === 'running') return <RunningView state={state} onCancel={onCancel} />;
  const o = state.outcome;
  return (
    <div className="results-body">
      <OutcomeBanners outcome={o} />
      {o.last ? (
        <ResultContent
          key={state.id}
          response={o.last.response}
          durationMs={o.last.durationMs}
          sql={o.last.statement.sql}
          theme={theme}
          {...extras}
          note={
            (o.error || o.failure) && o.total > 1
              ? `Result of the last statement that ran (${o.results.length - 1} of ${o.total})`
              : undefined
          }
        />
      ) : null}
    </div>
  );
}
