/**
 * One chart of the evaluation views: a titled figure with axis names (and units), a legend when
 * it draws more than one line, marked points (the dragged threshold), and the same numbers as a
 * table under "Show the numbers" for screen readers and anyone who wants them.
 */
import type { ReactNode } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceDot,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import {
  ChartBox,
  chartAxes,
  chartFont,
  formatNumber,
  NumbersTable,
  type NumbersTableProps,
  usePaperTheme,
} from '../shared';

export interface Series {
  name: string;
  points: { x: number; y: number | null }[];
  dashed?: boolean;
}

/** The chart's numbers, drawn under "Show the numbers". */
type ChartTable = NumbersTableProps;

export function EvalChart({
  title,
  description,
  x,
  y,
  series,
  marks = [],
  table,
  theme,
  percentAxes = false,
  caption,
}: {
  title: string;
  /** What the chart shows, for the figure's accessible name. */
  description: string;
  x: { label: string; domain?: [number, number] };
  y: { label: string; domain?: [number, number] };
  series: Series[];
  marks?: { x: number; y: number; label: string }[];
  table: ChartTable;
  theme: 'light' | 'dark';
  percentAxes?: boolean;
  caption?: ReactNode;
}) {
  const font = chartFont(usePresenting());
  const c = CHART_COLORS[usePaperTheme(theme)];
  const height = font.tick > 12 ? 360 : 280;
  const fmt = (v: number) => (percentAxes ? `${Math.round(v * 100)}%` : formatNumber(v));
  const axes = chartAxes(font, c.text);
  const axis = { type: 'number' as const, tickFormatter: fmt, allowDataOverflow: true };
  return (
    <figure className="ev-figure">
      <figcaption className="ev-figure-title">{title}</figcaption>
      <div className="ev-chart" role="img" aria-label={description} style={{ height }}>
        <ChartBox height={height}>
          <LineChart margin={{ top: 8, right: 20, bottom: 28, left: 12 }}>
            <CartesianGrid stroke={c.grid} />
            <XAxis
              {...axes.x(x.label, -16)}
              {...axis}
              dataKey="x"
              domain={x.domain ?? ['auto', 'auto']}
            />
            <YAxis
              {...axes.y(y.label)}
              {...axis}
              dataKey="y"
              width={72}
              domain={y.domain ?? ['auto', 'auto']}
            />
            <Tooltip formatter={(v) => (typeof v === 'number' ? fmt(v) : String(v))} />
            {series.length > 1 && <Legend verticalAlign="top" height={28} />}
            {series.map((s, i) => (
              <Line
                key={s.name}
                name={s.name}
                data={s.points}
                dataKey="y"
                type="linear"
                dot={false}
                stroke={s.dashed ? c.muted : c.series[i % c.series.length]}
                strokeDasharray={s.dashed ? '5 5' : undefined}
                strokeWidth={s.dashed ? 1 : 2}
                isAnimationActive={false}
                connectNulls
              />
            ))}
            {marks.map((m) => (
              <ReferenceDot
                key={m.label}
                x={m.x}
                y={m.y}
                r={6}
                fill={c.up}
                stroke="none"
                ifOverflow="extendDomain"
              />
            ))}
          </LineChart>
        </ChartBox>
      </div>
      {caption && <p className="m-chart-caption">{caption}</p>}
      <details className="ev-numbers">
        <summary>Show the numbers</summary>
        <NumbersTable {...table} />
      </details>
    </figure>
  );
}
