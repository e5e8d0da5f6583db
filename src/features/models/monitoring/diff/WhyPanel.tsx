/**
 * The side panel a click on a predicted value of a SQL result opens (issue 27: explanations where
 * people already look): the row's inputs sent to the version that produced the value, with its
 * explanation, drawn by the Predict tab's waterfall; notes when the result lacked some inputs or
 * the explanation does not reproduce the value shown. Request and notes from ./why.ts.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { modelKeys } from '../../../../api/keys';
import { describeQueryOptions, predict } from '../../api';
import { toPredictionViews } from '../../inputs';
import { ExplainWaterfall } from '../../predict';
import { formatNumber } from '../../shared';
import { missingInputs, sameValue, whyRequestBody, whyTitle, type WhySource } from './why';
import '../../shared/insights.css';
import './why.css';

interface Props extends WhySource {
  /** The column as the result names it (an alias of the prediction, maybe). */
  columnName: string;
  /** The value the grid shows, and its row (0-based). */
  value: unknown;
  rowIndex: number;
  theme: 'light' | 'dark';
  /** The model page of that version (a link), when the shell has one. */
  modelHref?: string;
  onClose(): void;
}

const shownValue = (v: unknown) => (typeof v === 'number' ? formatNumber(v) : String(v ?? 'null'));

export function WhyPanel({
  columnName,
  value,
  rowIndex,
  theme,
  modelHref,
  onClose,
  ...src
}: Props) {
  const { project, model, version, column, inputs } = src;
  const closeRef = useRef<HTMLButtonElement>(null);
  // Keyboard users land in the panel; closing returns them where they were (the grid's cell).
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [project, model, version, rowIndex, column]);

  // Escape inside the panel closes it (an aside is no widget to hold a key handler).
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = panelRef.current;
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      onClose();
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [onClose]);

  const info = useQuery(describeQueryOptions(project, model, 'info', { version }));
  const q = useQuery({
    queryKey: [...modelKeys.detail(project, model), 'why', version, inputs] as const,
    queryFn: async ({ signal }) =>
      (await predict({ project, model, version, body: whyRequestBody(src), signal })).rows,
    staleTime: 10 * 60_000,
  });
  const inputNames = info.data?.[0]?.inputs;
  const missing = missingInputs(inputNames, inputs);
  const first = q.data
    ? toPredictionViews(q.data, column, inputNames ?? Object.keys(inputs))[0]
    : undefined;
  const view = first ? { ...first, index: rowIndex } : undefined;

  return (
    <aside ref={panelRef} className="value-panel m-why-panel" aria-label="Why this prediction">
      <header>
        <div>
          <strong>{whyTitle(columnName, value, rowIndex)}</strong>
          <span className="muted small">
            {' '}
            · {project}.{model} v{version}
          </span>
        </div>
        <button ref={closeRef} className="icon-btn" aria-label="Close why panel" onClick={onClose}>
          ×
        </button>
      </header>
      <div className="m-why-body">
        {q.isPending && (
          <p className="muted" role="status">
            Explaining row {rowIndex + 1}…
          </p>
        )}
        {q.error && (
          <p className="m-note warn" role="alert">
            Could not explain this row: {q.error.message}
          </p>
        )}
        {missing.length > 0 && (
          <p className="m-note warn">
            Not in the result, so read as missing: {missing.join(', ')}. Select them too for this
            row’s own explanation.
          </p>
        )}
        {view && !sameValue(value, view.prediction) && (
          <p className="m-note warn">
            Explained from the inputs the result carries, the model predicts{' '}
            {shownValue(view.prediction)}, not the {shownValue(value)} shown.
          </p>
        )}
        {view &&
          (view.explain ? (
            <ExplainWaterfall view={view} target={column} theme={theme} />
          ) : (
            <p className="muted">The model sent no contributions for this row.</p>
          ))}
        {modelHref && (
          <p className="small">
            <a href={modelHref}>
              Open {model} v{version}
            </a>
          </p>
        )}
      </div>
    </aside>
  );
}
