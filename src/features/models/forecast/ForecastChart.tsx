/**
 * A forecast drawn with recharts: the group's history as a solid line, the forecast as a dashed
 * line with a dot per step and its interval as a band, and (what-if) a scenario's forecast.
 */
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { usePresenting } from '../../../lib/use-presenting';
import { chartAxes, chartFont, formatMetric } from '../shared';
import type { ChartPoint } from './timeseries';

interface Props {
  points: (ChartPoint & { scenario?: number })[];
  xLabel: string;
  yLabel: string;
  theme: 'light' | 'dark';
  /** Shown in the accessible name (e.g. the group). */
  title: string;
  height?: number;
}

/** A dot on forecast steps only (the line's first point is the last history value). */
function StepDot(props: { cx?: number; cy?: number; index?: number; payload?: ChartPoint }) {
  const { cx, cy, index, payload } = props;
  if (cx === undefined || cy === undefined || !payload?.band) return <g key={`n${index}`} />;
  return <circle key={`d${index}`} className="forecast-point" cx={cx} cy={cy} r={3.5} />;
}

export function ForecastChart({ points, xLabel, yLabel, theme, title, height = 320 }: Props) {
  const c = CHART_COLORS[theme];
  const steps = points.filter((p) => p.band).length;
  const scenario = points.some((p) => p.scenario !== undefined);
  // Presenting, the ticks and captions grow like every other chart's (read from the back).
  const axes = chartAxes(chartFont(usePresenting()), c.text);
  return (
    <figure
      className="m-chart m-forecast-chart"
      aria-label={`Forecast chart: ${title}, ${steps} forecast steps`}
      data-forecast-steps={steps}
      style={{ height }}
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={points} margin={{ top: 8, right: 24, bottom: 28, left: 24 }}>
          <CartesianGrid stroke={c.grid} />
          <XAxis {...axes.x(xLabel, -16)} dataKey="x" minTickGap={24} />
          <YAxis
            {...axes.y(yLabel, -12)}
            width={72}
            domain={['auto', 'auto']}
            tickFormatter={(v: number) => formatMetric(v)}
          />
          <Tooltip
            formatter={(v) =>
              Array.isArray(v)
                ? `${formatMetric(Number(v[0]))} – ${formatMetric(Number(v[1]))}`
                : formatMetric(Number(v))
            }
          />
          <Legend verticalAlign="top" height={24} />
          <Area
            className="forecast-band"
            dataKey="band"
            name="90% interval"
            stroke="none"
            fill={c.band}
            fillOpacity={0.45}
            isAnimationActive={false}
            connectNulls={false}
          />
          <Line
            className="history-line"
            dataKey="history"
            name="history"
            stroke={c.text}
            dot={false}
            strokeWidth={1.5}
            isAnimationActive={false}
          />
          <Line
            className="forecast-line"
            dataKey="forecast"
            name="forecast"
            stroke={c.accent}
            strokeDasharray="5 3"
            strokeWidth={2}
            dot={StepDot}
            isAnimationActive={false}
          />
          {scenario && (
            <Line
              className="scenario-line"
              dataKey="scenario"
              name="scenario"
              stroke={c.series[1]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}
