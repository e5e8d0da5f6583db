/**
 * What-if: sweep one numeric input across a range (training min/max by default) with the other
 * inputs fixed from the predict form, in ONE batch request, and chart the prediction with its
 * interval band (or the class probabilities of a classifier).
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { predictMutationOptions } from './api/predict';
import { toPredictionViews } from './explain';
import { CHART_COLORS } from '../../components/ui/grid-theme';
import { buildPredictBody, buildPredictRows, parseNumberText, type BodyMode } from './predict-form';
import type { PredictSession } from './predict-session';
import { curlSnippet } from './snippets';
import {
  buildSweepRows,
  DEFAULT_SWEEP_STEPS,
  fallbackRange,
  MAX_SWEEP_STEPS,
  sweepSeries,
  sweepValues,
} from './sweep';
import { Card, CopyButton, formatNumber } from './ui';
import type { SweepSettings } from './share-state';
import type { ModelInputs } from './use-model-inputs';

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
  const numeric = inputs.fields.filter((f) => f.kind === 'number');
  const byImportance = [...numeric].sort((a, b) => (b.importance ?? 0) - (a.importance ?? 0));
  const [chosenColumn, setColumn] = useState(initialSweep?.column ?? '');
  const column = numeric.some((f) => f.name === chosenColumn)
    ? chosenColumn
    : (byImportance[0]?.name ?? '');
  const field = numeric.find((f) => f.name === column);
  const base = session.rows[session.selected] ?? session.rows[0];
  const current = field ? parseNumberText(String(base?.cells[field.name] ?? '')) : undefined;
  const defaults = (field && inputs.ranges[field.name]) ?? fallbackRange(current);
  const [range, setRange] = useState<Record<string, { from: string; to: string }>>(() =>
    initialSweep ? { [initialSweep.column]: { from: initialSweep.from, to: initialSweep.to } } : {},
  );
  const from = range[column]?.from ?? String(defaults[0]);
  const to = range[column]?.to ?? String(defaults[1]);
  const [steps, setSteps] = useState(initialSweep?.steps ?? String(DEFAULT_SWEEP_STEPS));
  const sweep = useMutation(predictMutationOptions());
  const [ran, setRan] = useState<{ column: string; values: number[] } | null>(null);

  const built = useMemo(
    () => (base ? buildPredictRows(inputs.fields, [base]) : null),
    [base, inputs.fields],
  );
  const otherErrors = built?.errors.filter((e) => e.column !== column) ?? [];
  const lo = parseNumberText(from);
  const hi = parseNumberText(to);
  const n = parseNumberText(steps);
  const rangeError =
    lo === undefined || hi === undefined
      ? 'From and To must be numbers'
      : n === undefined || n < 2 || n > MAX_SWEEP_STEPS
        ? `Steps must be between 2 and ${MAX_SWEEP_STEPS}`
        : null;

  const run = () => {
    if (!field || !built || rangeError || otherErrors.length > 0) return;
    const values = sweepValues(lo!, hi!, n!, field.integer);
    const rows = buildSweepRows(built.rows[0], field.name, values);
    setRan({ column: field.name, values });
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
  const inputsReady = !inputs.loading && numeric.length > 0;
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

  if (inputs.loading) return <p className="muted">Loading the model’s inputs…</p>;
  if (numeric.length === 0)
    return <p className="muted">This model has no numeric input to sweep.</p>;

  const fixed = inputs.fields.filter((f) => f.name !== column);
  const c = CHART_COLORS[theme];

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
              {byImportance.map((f) => (
                <option key={f.name} value={f.name}>
                  {f.name}
                </option>
              ))}
            </select>
          </label>
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
          <button
            className="btn primary"
            onClick={run}
            disabled={!!rangeError || otherErrors.length > 0 || sweep.isPending}
          >
            {sweep.isPending ? 'Predicting…' : '▶ Run sweep'}
          </button>
        </div>
        <p className="muted small">
          {field && inputs.ranges[field.name]
            ? `Training data range of ${field.name}: ${formatNumber(inputs.ranges[field.name][0])} – ${formatNumber(inputs.ranges[field.name][1])}. `
            : ''}
          One batch request of {n ?? '?'} rows; the other inputs stay fixed at the predict form’s
          row {session.selected + 1}:{' '}
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
          <figure
            className="m-chart"
            role="img"
            aria-label={`What-if chart: ${inputs.target} for ${series.points.length} values of ${ran.column}`}
            style={{ height: 340 }}
          >
            <ResponsiveContainer width="100%" height="100%">
              <ComposedChart
                data={series.points}
                margin={{ top: 10, right: 24, bottom: 20, left: 8 }}
              >
                <CartesianGrid stroke={c.grid} />
                <XAxis
                  dataKey="x"
                  type="number"
                  domain={['dataMin', 'dataMax']}
                  stroke={c.text}
                  tick={{ fill: c.text, fontSize: 11 }}
                  tickFormatter={(v: number) => formatNumber(v)}
                  label={{
                    value: ran.column,
                    position: 'insideBottom',
                    offset: -12,
                    fill: c.text,
                    fontSize: 12,
                  }}
                />
                <YAxis
                  stroke={c.text}
                  tick={{ fill: c.text, fontSize: 11 }}
                  width={72}
                  domain={series.classes.length > 0 ? [0, 1] : ['auto', 'auto']}
                  tickFormatter={(v: number) =>
                    series.classes.length > 0 ? `${Math.round(v * 100)}%` : formatNumber(v)
                  }
                />
                <Tooltip
                  labelFormatter={(v) => `${ran.column} = ${formatNumber(v)}`}
                  formatter={(v, name) => {
                    if (Array.isArray(v))
                      return [`${formatNumber(v[0])} – ${formatNumber(v[1])}`, name];
                    return [
                      series.classes.length > 0
                        ? `${(Number(v) * 100).toFixed(1)}%`
                        : formatNumber(v),
                      name,
                    ];
                  }}
                />
                <Legend verticalAlign="top" height={28} />
                {series.classes.length === 0 ? (
                  <>
                    <Area
                      dataKey="band"
                      name="interval"
                      stroke="none"
                      fill={c.band}
                      fillOpacity={0.45}
                      isAnimationActive={false}
                    />
                    <Line
                      dataKey="prediction"
                      name={inputs.target}
                      stroke={c.accent}
                      strokeWidth={2}
                      dot={false}
                      isAnimationActive={false}
                    />
                  </>
                ) : (
                  series.classes.map((k, i) => (
                    <Line
                      key={k}
                      dataKey={`p_${k}`}
                      name={`P(${k})`}
                      stroke={c.series[i % c.series.length]}
                      strokeWidth={2}
                      dot={false}
                      isAnimationActive={false}
                    />
                  ))
                )}
                {current !== undefined && (
                  <ReferenceLine
                    x={current}
                    stroke={c.muted}
                    strokeDasharray="4 4"
                    label={{ value: 'form value', fill: c.text, fontSize: 11, position: 'top' }}
                  />
                )}
              </ComposedChart>
            </ResponsiveContainer>
          </figure>
        </Card>
      )}
    </div>
  );
}
