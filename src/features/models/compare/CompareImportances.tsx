/** Both models' input importances in one bar chart, column by column. */
import { Bar, Legend, Tooltip } from 'recharts';
import type { DescribeSummaryRow } from '../../../../contract';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import { ColumnBars, formatPercent, ImportancesCard, usePaperTheme } from '../shared';
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
  const c = CHART_COLORS[usePaperTheme(theme)];
  const rows = compareImportances(a.column_importances, b.column_importances);
  const data = rows.map((r) => ({ column: r.column, a: r.a ?? 0, b: r.b ?? 0 }));
  const text = rows
    .map((r) => `${r.column} ${formatPercent(r.a)} vs ${formatPercent(r.b)}`)
    .join(', ');
  return (
    <ImportancesCard label="Compared importances">
      <ColumnBars
        data={data}
        summary={`Importances of ${nameA} vs ${nameB}: ${text}`}
        height={Math.max(140, rows.length * (presenting ? 52 : 40) + 60)}
        theme={theme}
        x={{ domain: [0, 'auto'], format: (v) => formatPercent(v, 0) }}
      >
        <Tooltip formatter={(v) => formatPercent(Number(v))} />
        <Legend verticalAlign="top" height={26} itemSorter="dataKey" />
        <Bar dataKey="a" name={nameA} fill={c.accent} isAnimationActive={false} />
        <Bar dataKey="b" name={nameB} fill={c.series[1]} isAnimationActive={false} />
      </ColumnBars>
    </ImportancesCard>
  );
}
