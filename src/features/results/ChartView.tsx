/** Chart tab: plots the result with recharts (bar/line/scatter, axes picked from the columns). */
import { useMemo, useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { chartPoints, defaultAxes, type ChartAxes, type ChartKind } from './chart-model';
import type { GridColumn } from './grid-model';

interface Props {
  columns: GridColumn[];
  rows: unknown[][];
  theme: 'light' | 'dark';
  /** Open as this chart over these axes (the toolbar's one-click line chart over time). */
  initial?: { kind: ChartKind; axes: ChartAxes };
  /** Presentation mode: larger ticks. */
  large?: boolean;
}

const COLORS = {
  light: { line: '#2563eb', grid: '#e5e7eb', text: '#4b5563' },
  dark: { line: '#7aa2f7', grid: '#2a3142', text: '#9aa3b5' },
};

export function ChartView({ columns, rows, theme, initial: opening, large }: Props) {
  const initial = useMemo(() => opening?.axes ?? defaultAxes(columns), [columns, opening]);
  const [kind, setKind] = useState<ChartKind>(opening?.kind ?? 'bar');
  const [x, setX] = useState(initial?.x ?? 0);
  const [y, setY] = useState(initial?.y ?? 0);
  const numeric = columns.filter((c) => c.kind === 'number');
  const xCol = columns[x] ?? columns[0];
  const { points, skipped, capped } = useMemo(
    () =>
      initial
        ? chartPoints(
            rows,
            { x, y },
            xCol?.kind ?? 'text',
            undefined,
            kind === 'line' && xCol?.kind === 'date',
          )
        : { points: [], skipped: 0, capped: false },
    [rows, x, y, xCol, initial, kind],
  );
  const c = COLORS[theme];

  if (!initial) {
    return <div className="empty-note">Nothing to chart: the result has no numeric column.</div>;
  }

  const fontSize = large ? 16 : 11;
  const axisProps = { stroke: c.text, tick: { fill: c.text, fontSize } };
  // The last x tick is centred on the plot's right edge: leave room for half of it, so it is not
  // clipped (long dates at presentation size).
  const lastX = points.length ? String(points[points.length - 1].x ?? '') : '';
  const margin = {
    top: 12,
    right: Math.min(140, Math.max(24, Math.ceil((lastX.length * fontSize * 0.62) / 2) + 8)),
    bottom: 24,
    left: 8,
  };
  const xIsNumber = xCol?.kind === 'number';

  return (
    <div className="chart-view">
      <div className="chart-controls">
        <label>
          Chart
          <select
            aria-label="Chart type"
            value={kind}
            onChange={(e) => setKind(e.target.value as ChartKind)}
          >
            <option value="bar">Bar</option>
            <option value="line">Line</option>
            <option value="scatter">Scatter</option>
          </select>
        </label>
        <label>
          X axis
          <select value={x} onChange={(e) => setX(Number(e.target.value))}>
            {columns.map((col) => (
              <option key={col.id} value={col.index}>
                {col.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Y axis
          <select value={y} onChange={(e) => setY(Number(e.target.value))}>
            {numeric.map((col) => (
              <option key={col.id} value={col.index}>
                {col.name}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">
          {points.length.toLocaleString()} points{capped ? ' (first rows only)' : ''}
          {skipped ? ` · ${skipped} rows without a numeric value skipped` : ''}
        </span>
      </div>
      <div className="chart-canvas" aria-label="Result chart" role="img">
        <ResponsiveContainer width="100%" height="100%">
          {kind === 'scatter' ? (
            <ScatterChart margin={margin}>
              <CartesianGrid stroke={c.grid} />
              <XAxis
                dataKey="x"
                type={xIsNumber ? 'number' : 'category'}
                name={xCol?.name}
                {...axisProps}
              />
              <YAxis dataKey="y" type="number" name={columns[y]?.name} {...axisProps} />
              <Tooltip cursor={{ strokeDasharray: '3 3' }} />
              <Scatter data={points} fill={c.line} isAnimationActive={false} />
            </ScatterChart>
          ) : kind === 'line' ? (
            <LineChart data={points} margin={margin}>
              <CartesianGrid stroke={c.grid} />
              <XAxis dataKey="x" {...axisProps} />
              <YAxis {...axisProps} />
              <Tooltip />
              <Line
                dataKey="y"
                name={columns[y]?.name}
                stroke={c.line}
                dot={false}
                isAnimationActive={false}
              />
            </LineChart>
          ) : (
            <BarChart data={points} margin={margin}>
              <CartesianGrid stroke={c.grid} vertical={false} />
              <XAxis dataKey="x" {...axisProps} />
              <YAxis {...axisProps} />
              <Tooltip />
              <Bar dataKey="y" name={columns[y]?.name} fill={c.line} isAnimationActive={false} />
            </BarChart>
          )}
        </ResponsiveContainer>
      </div>
    </div>
  );
}
