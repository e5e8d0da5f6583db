/**
 * How good the model is, for someone who does not read r2: headline sentences in the target's
 * units beside the baseline, then predicted-vs-actual and residuals (regression) or the confusion
 * matrix, per-class precision/recall and calibration (classifiers). From describe's `metrics`.
 */
import {
  CartesianGrid,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from 'recharts';
import {
  ChartBox,
  usePaperTheme,
  chartAxes,
  chartFont,
  type ChartFont,
  formatNumber,
  formatPercent,
  niceTicks,
} from '../shared';
import type { ReactNode } from 'react';
import type { ModelMetrics, RegressionMetrics } from '../../../../contract';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import {
  qualityHeadlines,
  residualDomain,
  residualPoints,
  squareDomain,
  type ResidualPoint,
} from './model-quality';
import { Card } from '../../../components/ui/Card';
import { ClassificationDetails } from './ClassificationDetails';
import '../shared/insights.css';

type Theme = 'light' | 'dark';

export function ModelQuality({ metrics, theme }: { metrics: ModelMetrics; theme: Theme }) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const headlines = qualityHeadlines(metrics);
  const v = metrics.rows.validation.toLocaleString('en-US');
  const how =
    metrics.validation === 'cross-fitted'
      ? `all ${v} rows, each scored by a model that had not seen it`
      : `${v} held-out rows (of ${metrics.rows.train.toLocaleString('en-US')})`;
  return (
    <>
      <Card
        title="How good is it?"
        label="Model quality"
        actions={<span className="muted small">measured on {how}</span>}
      >
        <div className="m-quality-headlines" role="list" aria-label="Quality metrics">
          {headlines.map((h) => (
            <div
              key={h.key}
              className="m-headline-metric"
              role="listitem"
              aria-label={`${h.name} ${h.value}`}
            >
              <div className="m-hm-name">
                <span>{h.name}</span>
                <strong>{h.value}</strong>
              </div>
              <div className="m-hm-title">{h.title}</div>
              <p>{h.detail}</p>
            </div>
          ))}
        </div>
      </Card>
      {metrics.regression && (
        <RegressionCharts
          r={metrics.regression}
          target={metrics.target}
          validationRows={metrics.rows.validation}
          theme={theme}
          font={font}
        />
      )}
      {metrics.classification && (
        <ClassificationDetails
          c={metrics.classification}
          target={metrics.target}
          theme={theme}
          font={font}
        />
      )}
    </>
  );
}

interface Axis {
  key: 'actual' | 'predicted' | 'residual';
  label: string;
  domain: [number, number];
  ticks: number[];
}

/** One scatter of the validation sample (both regression charts are one of these). */
function ScatterPanel({
  title,
  label,
  description,
  caption,
  points,
  x,
  y,
  color,
  lines,
  theme,
  font,
}: {
  title: string;
  label: string;
  description: string;
  caption: ReactNode;
  points: ResidualPoint[];
  x: Axis;
  y: Axis;
  color: string;
  /** Reference lines drawn under the dots (the diagonal, zero, ± the typical error). */
  lines: ReactNode;
  theme: Theme;
  font: ChartFont;
}) {
  const c = CHART_COLORS[usePaperTheme(theme)];
  const height = font.tick > 12 ? 380 : 300;
  const axes = chartAxes(font, c.text);
  const axis = (a: Axis) => ({
    type: 'number' as const,
    dataKey: a.key,
    name: a.label,
    domain: a.domain,
    ticks: a.ticks,
    tickFormatter: (v: number) => formatNumber(v),
    allowDataOverflow: true,
  });
  return (
    <Card title={title} label={label}>
      <figure className="m-chart" role="img" aria-label={description} style={{ height }}>
        <ChartBox height={height}>
          <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
            <CartesianGrid stroke={c.grid} />
            <XAxis {...axes.x(x.label)} {...axis(x)} />
            <YAxis {...axes.y(y.label)} {...axis(y)} width={72} />
            <ZAxis range={[18, 18]} />
            <Tooltip formatter={(v) => formatNumber(v)} />
            {lines}
            <Scatter data={points} fill={color} fillOpacity={0.55} isAnimationActive={false} />
          </ScatterChart>
        </ChartBox>
      </figure>
      <p className="m-chart-caption">{caption}</p>
    </Card>
  );
}

function RegressionCharts({
  r,
  target,
  validationRows,
  theme,
  font,
}: {
  r: RegressionMetrics;
  target: string;
  /** The rows the metrics count (the charts draw a sample of them). */
  validationRows: number;
  theme: Theme;
  font: ChartFont;
}) {
  const c = CHART_COLORS[usePaperTheme(theme)];
  const points = residualPoints(r.sample);
  if (points.length === 0) return null;
  const domain = squareDomain(points);
  const rDomain = residualDomain(points);
  const ticks = niceTicks(domain);
  const within = points.filter((p) => Math.abs(p.residual) <= r.mae).length / points.length;
  const n =
    points.length < validationRows
      ? `a sample of ${points.length.toLocaleString('en-US')} of the ${validationRows.toLocaleString('en-US')}`
      : points.length.toLocaleString('en-US');
  return (
    <div className="m-grid-2">
      <ScatterPanel
        title="Predicted vs actual"
        label="Predicted vs actual"
        description={`Predicted vs actual ${target} for ${n} validation rows; the closer to the diagonal, the better`}
        caption="Each dot is a row the model did not train on; on the dashed line the prediction is exact."
        points={points}
        x={{ key: 'actual', label: `actual ${target}`, domain, ticks }}
        y={{ key: 'predicted', label: 'predicted', domain, ticks }}
        color={c.accent}
        lines={
          <ReferenceLine
            segment={[
              { x: domain[0], y: domain[0] },
              { x: domain[1], y: domain[1] },
            ]}
            stroke={c.muted}
            strokeDasharray="4 4"
            ifOverflow="hidden"
          />
        }
        theme={theme}
        font={font}
      />
      <ScatterPanel
        title="Errors (residuals)"
        label="Residuals"
        description={`Residuals: actual minus predicted ${target} for ${n} validation rows; ${formatPercent(within, 0)} within the typical error of ${formatNumber(r.mae)}`}
        caption={`Above zero the model predicted too low, below too high; ${formatPercent(within, 0)} of rows fall between the dashed lines (± the typical error, ${formatNumber(r.mae)}).`}
        points={points}
        x={{ key: 'predicted', label: `predicted ${target}`, domain, ticks }}
        y={{
          key: 'residual',
          label: 'actual − predicted',
          domain: rDomain,
          ticks: niceTicks(rDomain, 4),
        }}
        color={c.series[1]}
        lines={
          <>
            <ReferenceLine y={0} stroke={c.muted} />
            <ReferenceLine y={r.mae} stroke={c.muted} strokeDasharray="4 4" />
            <ReferenceLine y={-r.mae} stroke={c.muted} strokeDasharray="4 4" />
          </>
        }
        theme={theme}
        font={font}
      />
    </div>
  );
}
