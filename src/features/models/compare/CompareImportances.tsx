/** Both models' input importances in one bar chart, column by column. */
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { DescribeSummaryRow } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import { categoryAxisWidth, chartFont, ChartBox, formatPercent } from '../shared';
import { compareImportances } from './compare';

export function CompareImportances({
  a,
  b,
  nameA,
  nameB,
  theme,
}: {
  a: DescribeSummaryRow;
  b: DescribeSummaryRow;
  nameA: string;
  nameB: string;
  theme: 'light' | 'dark';
}) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const c = CHART_COLORS[theme];
  const rows = compareImportances(a.column_importances, b.column_importances);
  const data = rows.map((r) => ({ column: r.column, a: r.a ?? 0, b: r.b ?? 0 }));
  const text = rows
    .map((r) => `${r.column} ${formatPercent(r.a)} vs ${formatPercent(r.b)}`)
    .join(', ');
  return (
    <Card
      title="Which inputs matter"
      label="Compared importances"
      actions={
        <span className="muted small">
          share of the prediction’s quality each input carries (permutation importance)
        </span>
      }
    >
      <figure
        className="m-chart"
        role="img"
        aria-label={`Importances of ${nameA} vs ${nameB}: ${text}`}
        style={{ height: Math.max(140, rows.length * (presenting ? 52 : 40) + 60) }}
      >
        <ChartBox height={Math.max(140, rows.length * (presenting ? 52 : 40) + 60)}>
          <BarChart
            data={data}
            layout="vertical"
            margin={{ top: 4, right: 24, bottom: 4, left: 8 }}
          >
            <CartesianGrid horizontal={false} stroke={c.grid} />
            <XAxis
              type="number"
              domain={[0, 'auto']}
              tickFormatter={(v: number) => formatPercent(v, 0)}
              stroke={c.text}
              tick={{ fill: c.text, fontSize: font.tick }}
            />
            <YAxis
              type="category"
              dataKey="column"
              width={categoryAxisWidth(
                data.map((d) => d.column),
                font,
              )}
              stroke={c.text}
              tick={{ fill: c.text, fontSize: font.tick }}
              interval={0}
            />
            <Tooltip formatter={(v) => formatPercent(Number(v))} />
            <Legend verticalAlign="top" height={26} itemSorter="dataKey" />
            <Bar dataKey="a" name={nameA} fill={c.accent} isAnimationActive={false} />
            <Bar dataKey="b" name={nameB} fill={c.series[1]} isAnimationActive={false} />
          </BarChart>
        </ChartBox>
      </figure>
    </Card>
  );
}
