/**
 * The what-if chart: the prediction along a numeric range with its interval band, or one point
 * (with its interval) per category; class probabilities for classifiers. The y-axis comes from
 * `sweepScale`, so a tiny change is not blown up, and the size of the change is said in words.
 */
import {
  Area,
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  ErrorBar,
  Legend,
  Line,
  ReferenceLine,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { chartAxes, ChartBox, usePaperTheme, chartFont, formatNumber, niceTicks } from '../shared';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import type { SweepKind, SweepPoint, SweepValue } from './sweep';
import { sweepScale } from './sweep-scale';
import '../shared/insights.css';

interface Props {
  points: SweepPoint[];
  classes: string[];
  kind: SweepKind;
  column: string;
  target: string;
  /** The predict form's value of the swept input (marked on the chart). */
  current: SweepValue | undefined;
  theme: 'light' | 'dark';
}

const pctTick = (v: number) => `${Math.round(v * 100)}%`;

export function SweepChart({ points, classes, kind, column, target, current, theme }: Props) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const paper = usePaperTheme(theme);
  const c = CHART_COLORS[paper];
  const scale = sweepScale(points, classes, { target, over: kind });
  const classifier = classes.length > 0;
  const yDomain: [number, number] = scale.domain ?? [0, 1];
  const yTick = classifier ? pctTick : (v: number) => formatNumber(v);
  const axes = chartAxes(font, c.text);
  const height = presenting ? 420 : 340;
  const data = points.map((p) => ({
    ...p,
    error:
      p.band && p.prediction !== null
        ? [Math.max(0, p.prediction - p.band[0]), Math.max(0, p.band[1] - p.prediction)]
        : null,
  }));
  const tooltipValue = (v: unknown, name: unknown): [string, string] => {
    if (Array.isArray(v)) return [`${formatNumber(v[0])} – ${formatNumber(v[1])}`, String(name)];
    return [classifier ? `${(Number(v) * 100).toFixed(1)}%` : formatNumber(v), String(name)];
  };
  const xAxis = axes.x(column);
  const yAxis = (
    <YAxis
      {...axes.y(classifier ? 'probability' : target)}
      width={presenting ? 90 : 72}
      domain={yDomain}
      ticks={scale.domain ? niceTicks(scale.domain) : undefined}
      allowDataOverflow
      tickFormatter={yTick}
    />
  );
  const description =
    kind === 'range'
      ? `What-if chart: ${target} for ${points.length} values of ${column}`
      : `What-if chart: ${target} for each of ${points.length} categories of ${column}`;

  let chart;
  if (kind === 'categories' && classifier) {
    chart = (
      <BarChart data={data} margin={{ top: 10, right: 24, bottom: 24, left: 8 }}>
        <CartesianGrid stroke={c.grid} vertical={false} />
        <XAxis {...xAxis} dataKey="label" interval={0} />
        {yAxis}
        <Tooltip formatter={tooltipValue} />
        <Legend verticalAlign="top" height={28} />
        {classes.map((k, i) => (
          <Bar
            key={k}
            dataKey={`p_${k}`}
            name={`P(${k})`}
            fill={c.series[i % c.series.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    );
  } else if (kind === 'categories') {
    chart = (
      <ComposedChart data={data} margin={{ top: 10, right: 24, bottom: 24, left: 8 }}>
        <CartesianGrid stroke={c.grid} vertical={false} />
        <XAxis {...xAxis} dataKey="label" type="category" scale="band" interval={0} />
        {yAxis}
        <Tooltip
          formatter={(_v, _n, item) => {
            const p = item.payload as (typeof data)[number];
            return [
              `${formatNumber(p.prediction)}${p.band ? ` (${formatNumber(p.band[0])} – ${formatNumber(p.band[1])})` : ''}`,
              target,
            ];
          }}
        />
        <Legend verticalAlign="top" height={28} />
        <Scatter
          dataKey="prediction"
          name={`${target} (bars: interval)`}
          fill={c.accent}
          isAnimationActive={false}
        >
          <ErrorBar dataKey="error" direction="y" width={10} stroke={c.accent} strokeWidth={1.5} />
        </Scatter>
        {current !== undefined && (
          <ReferenceLine
            x={String(current)}
            stroke={c.muted}
            strokeDasharray="4 4"
            label={axes.mark('form value')}
          />
        )}
      </ComposedChart>
    );
  } else {
    chart = (
      <ComposedChart data={data} margin={{ top: 10, right: 24, bottom: 24, left: 8 }}>
        <CartesianGrid stroke={c.grid} />
        <XAxis
          dataKey="x"
          type="number"
          {...xAxis}
          domain={['dataMin', 'dataMax']}
          tickFormatter={(v: number) => formatNumber(v)}
        />
        {yAxis}
        <Tooltip
          labelFormatter={(v) => `${column} = ${formatNumber(v)}`}
          formatter={tooltipValue}
        />
        <Legend verticalAlign="top" height={28} />
        {classifier ? (
          classes.map((k, i) => (
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
        ) : (
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
              name={target}
              stroke={c.accent}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </>
        )}
        {typeof current === 'number' && (
          <ReferenceLine
            x={current}
            stroke={c.muted}
            strokeDasharray="4 4"
            label={axes.mark('form value')}
          />
        )}
      </ComposedChart>
    );
  }

  return (
    <>
      <p className="m-scale" role="note" aria-label="Size of the change">
        {scale.text}
      </p>
      <figure
        className="m-chart"
        role="img"
        aria-label={`${description}. ${scale.text}`}
        style={{ height }}
      >
        <ChartBox height={height}>{chart}</ChartBox>
      </figure>
    </>
  );
}
