/**
 * Why one prediction came out as it did: a waterfall from the model's base value through each
 * input's push to the explained value (recharts range bars), the one sentence that says how to
 * read it, and the same numbers as a table.
 */
import { useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  ReferenceLine,
  XAxis,
  YAxis,
} from 'recharts';
import {
  ChartBox,
  usePaperTheme,
  chartAxes,
  chartFont,
  formatNumber,
  formatSigned,
  formatSignedRounded,
  niceDomain,
  niceTicks,
} from '../shared';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import type { PredictionView } from '../inputs';
import {
  explainedTask,
  waterfallAxisLabel,
  waterfallSentence,
  waterfallSteps,
  waterfallSummary,
  type WaterfallStep,
} from './waterfall';
import '../shared/insights.css';

interface Props {
  view: PredictionView;
  target: string;
  theme: 'light' | 'dark';
}

interface Datum {
  label: string;
  range: [number, number];
  text: string;
  step: WaterfallStep;
}

export function ExplainWaterfall({ view, target, theme }: Props) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const paper = usePaperTheme(theme);
  const c = CHART_COLORS[paper];
  const axes = chartAxes(font, c.text);
  const ex = view.explain;
  const task = ex ? explainedTask(ex, view.probabilities) : 'regression';
  const classifier = task !== 'regression';
  const w = useMemo(
    () =>
      ex
        ? waterfallSteps(ex, view.inputs, {
            maxInputs: presenting ? 6 : 8,
            baseLabel: classifier ? 'Average score' : 'Average prediction',
            totalLabel: classifier ? `Score of “${String(ex.explained_class)}”` : 'Prediction',
          })
        : null,
    [ex, view.inputs, presenting, classifier],
  );
  if (!w || !ex) return null;

  const values = w.steps.flatMap((s) => [s.start, s.end]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || Math.abs(hi) || 1;
  // Room on both sides for the value labels; markers for base/total are a sliver of the span.
  const domain = niceDomain(lo - span * 0.14, hi + span * 0.14, 6);
  const marker = span * 0.004;
  const data: Datum[] = w.steps.map((s) => ({
    label: s.label,
    range:
      s.kind === 'base' || s.kind === 'total'
        ? [s.end - marker, s.end + marker]
        : [Math.min(s.start, s.end), Math.max(s.start, s.end)],
    text:
      s.kind === 'base' || s.kind === 'total' ? formatNumber(s.end) : formatSignedRounded(s.delta),
    step: s,
  }));
  const fill = (s: WaterfallStep) =>
    s.kind === 'base' || s.kind === 'total' ? c.text : s.delta >= 0 ? c.up : c.down;
  const rowHeight = presenting ? 40 : 30;
  const sentence = waterfallSentence(w, task, {
    target,
    explainedClass: ex.explained_class,
    probability: view.probabilities[String(ex.explained_class)],
  });

  return (
    <section className="m-explain" aria-label="Why this prediction">
      <h4 className="m-explain-title">
        Why row {view.index + 1} came out as {formatNumber(view.prediction)}
      </h4>
      <p className="m-explain-sentence">{sentence}</p>
      <figure
        className="m-chart"
        role="img"
        aria-label={`Explanation of row ${view.index + 1}: ${waterfallSummary(w)}`}
        style={{ height: data.length * rowHeight + 56 }}
      >
        <ChartBox height={data.length * rowHeight + 56}>
          <BarChart
            data={data}
            layout="vertical"
            margin={{ top: 4, right: 24, bottom: 22, left: 8 }}
            barCategoryGap="22%"
          >
            <CartesianGrid horizontal={false} stroke={c.grid} />
            <XAxis
              {...axes.x(waterfallAxisLabel(task, target), -14)}
              type="number"
              domain={domain}
              ticks={niceTicks(domain)}
              tickFormatter={(v: number) => formatNumber(v)}
              allowDataOverflow
            />
            <YAxis {...axes.category(data.map((d) => d.label))} dataKey="label" />
            <ReferenceLine x={w.base} stroke={c.muted} strokeDasharray="3 3" />
            <Bar dataKey="range" isAnimationActive={false} minPointSize={2}>
              {data.map((d) => (
                <Cell key={d.step.key} fill={fill(d.step)} />
              ))}
              <LabelList
                dataKey="text"
                position="right"
                fill={c.text}
                fontSize={font.tick}
                fontWeight={600}
              />
            </Bar>
          </BarChart>
        </ChartBox>
      </figure>
      <ul className="m-legend" aria-label="Colours of the chart">
        <li>
          <span className="m-swatch" style={{ background: c.up }} aria-hidden />
          pushes the {classifier ? 'score' : 'prediction'} up
        </li>
        <li>
          <span className="m-swatch" style={{ background: c.down }} aria-hidden />
          pushes it down
        </li>
        <li>
          <span className="m-swatch m-swatch-line" style={{ background: c.text }} aria-hidden />
          average and result
        </li>
      </ul>
      {!w.additive && (
        <p className="m-note warn">
          These contributions add up to {formatNumber(w.total + w.gap)}, not {formatNumber(w.total)}
          : the server’s explanation is off by {formatNumber(Math.abs(w.gap))}.
        </p>
      )}
      <details className="m-explain-table">
        <summary>The numbers</summary>
        <table className="m-table" aria-label={`Contributions for row ${view.index + 1}`}>
          <thead>
            <tr>
              <th>Step</th>
              <th className="num">Push</th>
              <th className="num">Running {classifier ? 'score' : target}</th>
            </tr>
          </thead>
          <tbody>
            {w.steps.map((s) => (
              <tr key={s.key}>
                <td>{s.label}</td>
                <td className="num">
                  {s.kind === 'push' || s.kind === 'others' ? formatSigned(s.delta) : ''}
                </td>
                <td className="num">{formatNumber(s.end)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {w.folded.length > 0 && <p className="muted small">Other inputs: {w.folded.join(', ')}.</p>}
      </details>
    </section>
  );
}
