/** The prediction's charts: each row's interval (regression) or class probabilities (classifier). */
import { useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  ErrorBar,
  Legend,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import { intervalPoints, type PredictionView } from '../inputs';
import { chartAxes, chartFont, formatNumber } from '../shared';

const CHART_ROWS = 100;

function probabilityText(p: Record<string, number>): string {
  return Object.entries(p)
    .map(([c, v]) => `${c}: ${(v * 100).toFixed(1)}%`)
    .join(' · ');
}

export function IntervalChart({
  views,
  target,
  theme,
}: {
  views: PredictionView[];
  target: string;
  theme: 'light' | 'dark';
}) {
  const c = CHART_COLORS[theme];
  const axes = chartAxes(chartFont(usePresenting()), c.text);
  const points = useMemo(() => intervalPoints(views, CHART_ROWS), [views]);
  if (points.length === 0) return null;
  return (
    <figure
      className="m-chart"
      role="img"
      aria-label={`Prediction intervals chart of ${points.length} rows`}
      style={{ height: points.length <= 3 ? 150 : 220 }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 10, right: 20, bottom: 24, left: 8 }}>
          <CartesianGrid stroke={c.grid} vertical={false} />
          <XAxis {...axes.x('row')} dataKey="row" type="category" />
          <YAxis
            {...axes.y()}
            domain={['auto', 'auto']}
            width={70}
            tickFormatter={(v: number) => formatNumber(v)}
          />
          <Tooltip
            formatter={(_v, _n, item) => {
              const p = item.payload as (typeof points)[number];
              return [
                `${formatNumber(p.value)} (${formatNumber(p.lower)} – ${formatNumber(p.upper)})`,
                target,
              ];
            }}
          />
          <Scatter dataKey="value" fill={c.accent} name={target} isAnimationActive={false}>
            <ErrorBar dataKey="error" direction="y" width={6} stroke={c.accent} strokeWidth={1.5} />
          </Scatter>
        </ComposedChart>
      </ResponsiveContainer>
      {views.length > CHART_ROWS && (
        <figcaption className="muted small">First {CHART_ROWS} rows charted.</figcaption>
      )}
    </figure>
  );
}

export function ProbabilityChart({
  views,
  classes,
  theme,
}: {
  views: PredictionView[];
  classes: string[];
  theme: 'light' | 'dark';
}) {
  const c = CHART_COLORS[theme];
  const axes = chartAxes(chartFont(usePresenting()), c.text);
  const data = views.slice(0, 40).map((v) => ({
    row: v.index + 1,
    ...Object.fromEntries(classes.map((k) => [`p_${k}`, v.probabilities[k] ?? 0])),
  }));
  return (
    <figure
      className="m-chart"
      role="img"
      aria-label={`Class probabilities chart: ${probabilityText(views[0]?.probabilities ?? {})}`}
      style={{ height: Math.min(320, 60 + data.length * 22) }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 20, bottom: 4, left: 8 }}>
          <CartesianGrid stroke={c.grid} horizontal={false} />
          <XAxis
            {...axes.x()}
            type="number"
            domain={[0, 1]}
            tickFormatter={(v: number) => `${Math.round(v * 100)}%`}
          />
          <YAxis {...axes.y()} type="category" dataKey="row" width={40} />
          <Tooltip formatter={(v) => `${(Number(v) * 100).toFixed(1)}%`} />
          <Legend />
          {classes.map((k, i) => (
            <Bar
              key={k}
              dataKey={`p_${k}`}
              name={`P(${k})`}
              stackId="p"
              fill={c.series[i % c.series.length]}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
