/**
 * What-if: sweep one input with the other inputs fixed from the predict form, in ONE batch
 * request: a numeric input across a range (training min/max by default), a categorical one through
 * its known values. The chart (SweepChart) shows the prediction with its interval, or the class
 * probabilities of a classifier, on an axis that does not exaggerate small changes.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useReveal } from '../../../lib/use-reveal';
import { Card } from '../../../components/ui/Card';
import { CopyButton } from '../../../components/ui/CopyButton';
import { predictMutationOptions } from '../api';
import {
  buildPredictBody,
  buildPredictRows,
  parseNumberText,
  toPredictionViews,
  type BodyMode,
  type ModelInputs,
  type PredictSession,
  type SweepSettings,
} from '../inputs';
import { curlSnippet, formatNumber } from '../shared';
import {
  buildSweepRows,
  DEFAULT_SWEEP_STEPS,
  fallbackRange,
  MAX_SWEEP_STEPS,
  sweepableFields,
  sweepCategories,
  sweepKind,
  sweepSeries,
  sweepValues,
  type SweepKind,
  type SweepValue,
} from './sweep';
import { SweepChart } from './SweepChart';

interface Props {
  project: string;
  model: string;
  theme: 'light' | 'dark';
  inputs: ModelInputs;
  session: PredictSession;
  mode: BodyMode;
  /** A pinned version (absent: the active one). */
  version?: number;
  onEditInputs(): void;
  /** The sweep a link carried (kept current through onSweepChange for the next link). */
  initialSweep?: SweepSettings;
  onSweepChange?(sweep: SweepSettings): void;
  /** A link asked to run on open: sweep once the inputs are ready. */
  autoRun?: boolean;
  onAutoRan?(): void;
}

export function WhatIfTab({
  project,
  model,
  theme,
  inputs,
  session,
  mode,
  version,
  onEditInputs,
  initialSweep,
  onSweepChange,
  autoRun,
  onAutoRan,
}: Props) {
  const sweepable = sweepableFields(inputs.fields);
  const [chosenColumn, setColumn] = useState(initialSweep?.column ?? '');
  const column = sweepable.some((f) => f.name === chosenColumn)
    ? chosenColumn
    : (sweepable[0]?.name ?? '');
  const field = sweepable.find((f) => f.name === column);
  const kind: SweepKind | null = field ? sweepKind(field) : null;
  const base = session.rows[session.selected] ?? session.rows[0];
  const cell = field ? base?.cells[field.name] : undefined;
  const current: SweepValue | undefined =
    kind === 'range'
      ? parseNumberText(String(cell ?? ''))
      : cell === null || cell === undefined || cell === ''
        ? undefined
        : cell;
  const defaults =
    (field && inputs.ranges[field.name]) ??
    fallbackRange(typeof current === 'number' ? current : undefined);
  const [range, setRange] = useState<Record<string, { from: string; to: string }>>(() =>
    initialSweep ? { [initialSweep.column]: { from: initialSweep.from, to: initialSweep.to } } : {},
  );
  const from = range[column]?.from ?? String(defaults[0]);
  const to = range[column]?.to ?? String(defaults[1]);
  const [steps, setSteps] = useState(initialSweep?.steps ?? String(DEFAULT_SWEEP_STEPS));
  const sweep = useMutation(predictMutationOptions());
  const [ran, setRan] = useState<{
    column: string;
    kind: SweepKind;
    values: SweepValue[];
  } | null>(null);

  const built = useMemo(
    () => (base ? buildPredictRows(inputs.fields, [base]) : null),
    [base, inputs.fields],
  );
  const otherErrors = built?.errors.filter((e) => e.column !== column) ?? [];
  const lo = parseNumberText(from);
  const hi = parseNumberText(to);
  const n = parseNumberText(steps);
  const rangeError =
    kind !== 'range'
      ? null
      : lo === undefined || hi === undefined
        ? 'From and To must be numbers'
        : n === undefined || n < 2 || n > MAX_SWEEP_STEPS
          ? `Steps must be between 2 and ${MAX_SWEEP_STEPS}`
          : null;

  const run = () => {
    if (!field || !kind || !built || rangeError || otherErrors.length > 0) return;
    const values =
      kind === 'range' ? sweepValues(lo!, hi!, n!, field.integer) : sweepCategories(field);
    const rows = buildSweepRows(built.rows[0], field.name, values);
    setRan({ column: field.name, kind, values });
    sweep.mutate({ project, model, version, body: buildPredictBody(rows, mode) });
  };

  // The sweep settings go into the page's URL (a link restores them) ...
  useEffect(() => {
    if (column) onSweepChange?.({ column, from, to, steps });
  }, [column, from, to, steps, onSweepChange]);
  // ... and a link may ask to run the sweep on open.
  const runRef = useRef(run);
  useEffect(() => {
    runRef.current = run;
  });
  const inputsReady = !inputs.loading && sweepable.length > 0;
  useEffect(() => {
    if (!autoRun || !inputsReady) return;
    onAutoRan?.();
    runRef.current();
  }, [autoRun, inputsReady, onAutoRan]);

  const series = useMemo(() => {
    if (!sweep.data || !ran || !inputs.target) return null;
    const views = toPredictionViews(sweep.data.rows, inputs.target, []);
    return sweepSeries(ran.values, views);
  }, [sweep.data, ran, inputs.target]);
  const resultRef = useRef<HTMLElement>(null);
  useReveal(resultRef, series);

  if (inputs.loading) return <p className="muted">Loading the model’s inputs…</p>;
  if (sweepable.length === 0)
    return (
      <p className="muted">
        This model has no input to sweep (numbers, or categories with known values).
      </p>
    );

  const fixed = inputs.fields.filter((f) => f.name !== column);

  return (
    <div className="m-whatif">
      <Card title="Sweep one input" label="Sweep settings">
        <div className="m-sweep-controls">
          <label>
            <span>Input</span>
            <select
              aria-label="Input to sweep"
              value={column}
              onChange={(e) => setColumn(e.target.value)}
            >
              {sweepable.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                  {sweepKind(f) === 'categories' ? ' (categories)' : ''}
                </option>
              ))}
            </select>
          </label>
          {kind === 'range' ? (
            <>
              <label>
                <span>From</span>
                <input
                  aria-label="From"
                  inputMode="decimal"
                  value={from}
                  onChange={(e) => setRange({ ...range, [column]: { from: e.target.value, to } })}
                />
              </label>
              <label>
                <span>To</span>
                <input
                  aria-label="To"
                  inputMode="decimal"
                  value={to}
                  onChange={(e) => setRange({ ...range, [column]: { from, to: e.target.value } })}
                />
              </label>
              <label>
                <span>Steps</span>
                <input
                  aria-label="Steps"
                  inputMode="numeric"
                  value={steps}
                  onChange={(e) => setSteps(e.target.value)}
                />
              </label>
            </>
          ) : (
            field && (
              <p className="m-sweep-categories muted small">
                Every known value of {field.name} ({sweepCategories(field).length})
              </p>
            )
          )}
          <button
            className="btn primary"
            onClick={run}
            disabled={!!rangeError || otherErrors.length > 0 || sweep.isPending}
          >
            {sweep.isPending ? 'Predicting…' : '▶ Run sweep'}
          </button>
        </div>
        <p className="muted small">
          {kind === 'range' && field && inputs.ranges[field.name]
            ? `Training data range of ${field.name}: ${formatNumber(inputs.ranges[field.name][0])} – ${formatNumber(inputs.ranges[field.name][1])}. `
            : ''}
          One batch request of{' '}
          {kind === 'categories' && field ? sweepCategories(field).length : (n ?? '?')} rows; the
          other inputs stay fixed at the predict form’s row {session.selected + 1}:{' '}
          {fixed
            .map((f) => {
              const v = built?.rows[0]?.[f.name];
              return `${f.name} = ${v === null || v === undefined ? 'null' : String(v)}`;
            })
            .join(', ')}{' '}
          <button className="link" onClick={onEditInputs}>
            edit inputs
          </button>
        </p>
        {rangeError && <p className="m-bad small">{rangeError}</p>}
        {otherErrors.length > 0 && (
          <p className="m-bad small" role="alert">
            Fix the predict form first: {otherErrors[0].column}: {otherErrors[0].message}
          </p>
        )}
        {sweep.isError && (
          <div className="m-error" role="alert">
            {sweep.error.message}
          </div>
        )}
      </Card>

      {series && ran && (
        <Card
          ref={resultRef}
          title={`${inputs.target} as ${ran.column} varies`}
          label="What-if result"
          actions={
            sweep.data && (
              <CopyButton
                text={curlSnippet({
                  method: 'POST',
                  url: sweep.data.url,
                  body: sweep.data.bodyText,
                })}
                label="Copy as curl"
              />
            )
          }
        >
          <SweepChart
            points={series.points}
            classes={series.classes}
            kind={ran.kind}
            column={ran.column}
            target={inputs.target ?? ''}
            current={ran.column === column ? current : undefined}
            theme={theme}
          />
        </Card>
      )}
    </div>
  );
}
