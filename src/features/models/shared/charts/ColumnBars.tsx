/**
 * One horizontal bar per input column, the chart the model pages draw most (importances, drift,
 * what a retraining changed): the chart image with its spoken summary, the grid and both axes in
 * the room's type size (presentation mode) and the paper's colours. Callers add what differs as
 * recharts children: the bars, tooltip, legend, reference lines.
 */
import type { ReactNode } from 'react';
import { BarChart, CartesianGrid, XAxis, YAxis } from 'recharts';
import type { AxisDomain } from 'recharts/types/util/types';
import { CHART_COLORS } from '../../../../components/ui/grid-theme';
import { usePresenting } from '../../../../lib/use-presenting';
import { ChartBox, usePaperTheme } from './ChartBox';
import { chartAxes, chartFont } from './chart-style';

interface ColumnBarsProps<Row extends { column: string }> {
  data: Row[];
  /** What a screen reader says for the whole chart: every bar's column and value. */
  summary: string;
  height: number;
  theme: 'light' | 'dark';
  /** The value axis: its range, tick words and caption. */
  x?: { domain?: AxisDomain; format?: (v: number) => string; label?: string };
  /** Room on the right for value labels at the bars' ends. */
  right?: number;
  children: ReactNode;
}

export function ColumnBars<Row extends { column: string }>({
  data,
  summary,
  height,
  theme,
  x = {},
  right = 24,
  children,
}: ColumnBarsProps<Row>) {
  const font = chartFont(usePresenting());
  const c = CHART_COLORS[usePaperTheme(theme)];
  const axes = chartAxes(font, c.text);
  return (
    <div role="img" aria-label={summary} style={{ height }}>
      <ChartBox height={height}>
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 4, right, bottom: x.label ? 24 : 4, left: 8 }}
        >
          <CartesianGrid stroke={c.grid} horizontal={false} />
          <XAxis {...axes.x(x.label)} type="number" domain={x.domain} tickFormatter={x.format} />
          <YAxis {...axes.category(data.map((d) => d.column))} dataKey="column" />
          {children}
        </BarChart>
      </ChartBox>
    </div>
  );
}
