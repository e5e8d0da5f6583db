/**
 * The model page's effects tab (issue 27): for the most important inputs, partial dependence
 * (the average prediction as one input varies, every other input as it is in each row) with ICE
 * lines for a sample of rows and the rows at each value under the axis; one sentence on the
 * size of the effect, and the curve as a table. Numbers from ./effects-view.ts.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis } from 'recharts';
import type { EffectCurve, EffectsReport } from '../../../../../contract';
import { CHART_COLORS } from '../../../../components/ui/grid-theme';
import { usePresenting } from '../../../../lib/use-presenting';
import {
  ChartBox,
  chartAxes,
  chartFont,
  formatPercent,
  type ModelTabProps,
  usePaperTheme,
} from '../../shared';
import { effectsQuery } from './api';
import { curvePoints, effectSentence, formatOutput, yRange } from './effects-view';
import '../drift/drift.css';

/** Inputs with a curve: the most important ones. */
const TOP_INPUTS = 5;

export function EffectsTab({ project, model, version, theme }: ModelTabProps) {
  // Classifiers: the class whose probability is drawn (null: the server's choice, named back).
  const [cls, setCls] = useState<string | null>(null);
  const q = useQuery({
    ...effectsQuery({ project, model, version }, { top: TOP_INPUTS, class: cls ?? undefined }),
    placeholderData: keepPreviousData,
  });
  const [picked, setPicked] = useState<string | null>(null);
  if (q.isPending) {
    return <p className="muted">Computing partial dependence (one batch per input)…</p>;
  }
  if (q.isError) {
    return (
      <div className="m-error" role="alert">
        {q.error.message}
      </div>
    );
  }
  const r = q.data;
  const curve = r.curves.find((c) => c.column === picked) ?? r.curves[0];
  return (
    <div className="m-effects">
      <section className="m-card" aria-labelledby="effects-title">
        <div className="m-card-header">
          <h3 id="effects-title">Feature effects of v{r.version}</h3>
          <span className="muted small">
            partial dependence over {r.rows.toLocaleString('en-US')} rows of the training data
            {r.class !== undefined ? `, on P(${String(r.class)})` : ''}
          </span>
        </div>
        {r.classes && r.classes.length > 1 && (
          <label className="m-effects-class">
            <span>Probability of class</span>
            <select
              value={String(cls ?? r.class)}
              onChange={(e) => setCls(e.target.value)}
              aria-describedby="effects-title"
            >
              {r.classes.map((c) => (
                <option key={String(c)} value={String(c)}>
                  {String(c)}
                </option>
              ))}
            </select>
            {q.isFetching && <span className="muted small">computing…</span>}
          </label>
        )}
        {r.curves.length === 0 ? (
          <p className="m-empty muted">
            No curves: {r.skipped.map((s) => `${s.column} (${s.reason})`).join('; ')}
          </p>
        ) : (
          <div role="group" aria-label="Input" className="m-drift-suggest">
            {r.curves.map((c) => (
              <button
                key={c.column}
                type="button"
                className="btn small"
                aria-pressed={c.column === curve?.column}
                onClick={() => setPicked(c.column)}
              >
                {c.column} <span className="muted">({formatPercent(c.importance, 0)})</span>
              </button>
            ))}
          </div>
        )}
        {curve && <EffectCurveView curve={curve} report={r} theme={theme} />}
        {r.curves.length > 0 && r.skipped.length > 0 && (
          <p className="muted small">
            No curve: {r.skipped.map((s) => `${s.column} (${s.reason})`).join('; ')}
          </p>
        )}
      </section>
    </div>
  );
}

function EffectCurveView({
  curve,
  report,
  theme,
}: {
  curve: EffectCurve;
  report: EffectsReport;
  theme: 'light' | 'dark';
}) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const c = CHART_COLORS[usePaperTheme(theme)];
  const axes = chartAxes(font, c.text);
  const { points, iceKeys } = curvePoints(curve);
  const [lo, hi] = yRange(points, iceKeys);
  const fmt = (v: number) => formatOutput(v, report.task);
  const numeric = curve.kind === 'number';
  const height = presenting ? 380 : 300;
  const distHeight = presenting ? 110 : 90;
  const title = `Partial dependence of ${report.output} on ${curve.column}, with ${iceKeys.length} individual rows`;
  const sentence = effectSentence(curve, report);
  const xAxis = (withLabel: boolean) => (
    <XAxis
      {...axes.x(withLabel ? curve.column : undefined)}
      dataKey="x"
      type={numeric ? 'number' : 'category'}
      domain={numeric ? ['dataMin', 'dataMax'] : undefined}
      tickFormatter={(v: number | string) =>
        typeof v === 'number' ? (points.find((p) => p.x === v)?.label ?? String(v)) : v
      }
    />
  );
  const yWidth = presenting ? 84 : 68;
  return (
    <figure className="m-chart" aria-labelledby="effects-curve-title" style={{ margin: 0 }}>
      <figcaption id="effects-curve-title" className="m-h4">
        {title}
      </figcaption>
      <p className="m-verdict-sentence">{sentence}</p>
      <div role="img" aria-label={`${title}. ${sentence}`} style={{ height }}>
        <ChartBox height={height}>
          <ComposedChart data={points} margin={{ top: 8, right: 24, bottom: 24, left: 8 }}>
            <CartesianGrid stroke={c.grid} />
            {xAxis(true)}
            <YAxis
              {...axes.y(report.output)}
              width={yWidth}
              domain={[lo, hi]}
              allowDataOverflow
              tickFormatter={fmt}
            />
            <Tooltip
              formatter={(v, n) => [fmt(Number(v)), n === 'average' ? 'average' : 'a row']}
              labelFormatter={(v) =>
                `${curve.column} = ${typeof v === 'number' ? (points.find((p) => p.x === v)?.label ?? v) : String(v)}`
              }
            />
            {iceKeys.map((k) => (
              <Line
                key={k}
                dataKey={k}
                stroke={c.muted}
                strokeOpacity={0.45}
                strokeWidth={1}
                dot={false}
                legendType="none"
                isAnimationActive={false}
              />
            ))}
            <Line
              dataKey="average"
              name="average"
              stroke={c.accent}
              strokeWidth={3}
              dot={!numeric}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ChartBox>
      </div>
      <div
        role="img"
        aria-label={`Rows of the training sample at each value of ${curve.column}`}
        style={{ height: distHeight }}
      >
        <ChartBox height={distHeight}>
          <BarChart data={points} margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
            {xAxis(false)}
            <YAxis {...axes.y()} width={yWidth} allowDecimals={false} />
            <Tooltip formatter={(v) => [String(v), 'rows']} />
            <Bar dataKey="rows" name="rows" fill={c.band} isAnimationActive={false} />
          </BarChart>
        </ChartBox>
      </div>
      <p className="m-chart-caption">
        Thick line: the average {report.output} with {curve.column} set to each value for every row.
        Thin lines: single rows (ICE). Bars: rows of the sample at each value.
      </p>
      <details className="m-details">
        <summary>Table: {title}</summary>
        <table className="m-table">
          <thead>
            <tr>
              <th scope="col">{curve.column}</th>
              <th scope="col">average {report.output}</th>
              <th scope="col">rows at this value</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.label}>
                <th scope="row">{p.label}</th>
                <td>{fmt(p.average)}</td>
                <td>{p.rows.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
