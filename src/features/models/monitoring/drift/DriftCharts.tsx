/**
 * The drift tab's charts: PSI per input (a bar each, the drift threshold marked) and one input's
 * histograms, training against today, overlaid as shares of rows. Each is a titled figure with
 * its table alternative; the numbers come from ./drift-view.ts.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_COLORS } from '../../../../components/ui/grid-theme';
import { usePresenting } from '../../../../lib/use-presenting';
import { ChartBox, chartAxes, chartFont, ColumnBars, usePaperTheme } from '../../shared';
import { LEVEL_WORDS, type HistogramBar } from './drift-view';
import type { DriftLevel } from '../../../../../contract';

const pctTick = (v: number) => `${Math.round(v * 100)}%`;
const pct1 = (v: number) => `${(v * 100).toFixed(1)}%`;

export function PsiChart({
  bars,
  threshold,
  theme,
}: {
  bars: { column: string; psi: number; level: DriftLevel }[];
  threshold: number;
  theme: 'light' | 'dark';
}) {
  const presenting = usePresenting();
  const c = CHART_COLORS[usePaperTheme(theme)];
  const axes = chartAxes(chartFont(presenting), c.text);
  const height = Math.max(160, bars.length * (presenting ? 34 : 28) + 70);
  const colour = (l: DriftLevel) =>
    l === 'drifted' ? c.up : l === 'moderate' ? c.series[1] : c.down;
  const max = Math.max(threshold * 1.25, ...bars.map((b) => b.psi));
  return (
    <figure className="m-chart" aria-labelledby="drift-psi-title" style={{ margin: 0 }}>
      <figcaption id="drift-psi-title" className="m-h4">
        PSI per input (population stability index, no unit; drifted from {threshold})
      </figcaption>
      <ColumnBars
        data={bars}
        summary={`Bar chart of PSI per input: ${bars
          .map((b) => `${b.column} ${b.psi.toFixed(2)} (${LEVEL_WORDS[b.level]})`)
          .join(', ')}. The inputs table below has the same numbers.`}
        height={height}
        theme={theme}
        x={{ domain: [0, Number(max.toPrecision(2))], label: 'PSI' }}
      >
        <Tooltip formatter={(v) => [Number(v).toFixed(3), 'PSI']} />
        <ReferenceLine
          x={threshold}
          stroke={c.muted}
          strokeDasharray="4 4"
          label={axes.mark('drift')}
        />
        <Bar dataKey="psi" name="PSI" isAnimationActive={false}>
          {bars.map((b) => (
            <Cell key={b.column} fill={colour(b.level)} />
          ))}
        </Bar>
      </ColumnBars>
    </figure>
  );
}

/** Training against today's data, per bin, as shares of rows; the table below it gives counts. */
export function HistogramChart({
  title,
  unit,
  bars,
  theme,
}: {
  title: string;
  /** What the bins are of ("sqft", "predicted rental_price"), for the axis. */
  unit: string;
  bars: HistogramBar[];
  theme: 'light' | 'dark';
}) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const c = CHART_COLORS[usePaperTheme(theme)];
  const axes = chartAxes(font, c.text);
  const height = presenting ? 340 : 260;
  const id = `drift-hist-${unit.replace(/[^\w-]/g, '_')}`;
  return (
    <figure className="m-chart" aria-labelledby={id} style={{ margin: 0 }}>
      <figcaption id={id} className="m-h4">
        {title}
      </figcaption>
      <div
        role="img"
        aria-label={`${title}: ${bars
          .map((b) => `${b.label} ${pct1(b.training)} in training, ${pct1(b.today)} today`)
          .join('; ')}`}
        style={{ height }}
      >
        <ChartBox height={height}>
          <BarChart data={bars} margin={{ top: 8, right: 16, bottom: 28, left: 8 }}>
            <CartesianGrid stroke={c.grid} vertical={false} />
            <XAxis {...axes.x(unit, -16)} dataKey="label" interval="preserveStartEnd" />
            <YAxis
              {...axes.y('share of rows (%)')}
              tickFormatter={pctTick}
              width={presenting ? 64 : 52}
            />
            <Tooltip formatter={(v, n) => [pct1(Number(v)), String(n)]} />
            <Legend verticalAlign="top" height={26} />
            <Bar dataKey="training" name="training" fill={c.down} isAnimationActive={false} />
            <Bar dataKey="today" name="today" fill={c.up} isAnimationActive={false} />
          </BarChart>
        </ChartBox>
      </div>
      <details className="m-details">
        <summary>Table: {title}</summary>
        <table className="m-table">
          <thead>
            <tr>
              <th scope="col">bin</th>
              <th scope="col">training rows</th>
              <th scope="col">training share</th>
              <th scope="col">today’s rows</th>
              <th scope="col">today’s share</th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.label}>
                <th scope="row">{b.label}</th>
                <td>{b.trainingRows.toLocaleString('en-US')}</td>
                <td>{pct1(b.training)}</td>
                <td>{b.todayRows.toLocaleString('en-US')}</td>
                <td>{pct1(b.today)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
