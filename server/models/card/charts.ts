/**
 * The model card's charts as inline SVG strings, drawn on the server by Apache ECharts' string
 * renderer (its SSR mode: no DOM, no canvas). Recharts, which the playground draws with, renders
 * an empty wrapper under react-dom/server since its 3.x rewrite (recharts/recharts#5997), so the
 * card uses the library built for this. Every chart has a fixed size (print-friendly), no
 * animation, no interaction, and no namespace URLs (inline SVG in HTML needs none).
 */
import * as echarts from 'echarts/core';
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TitleComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

echarts.use([
  BarChart,
  LineChart,
  ScatterChart,
  GridComponent,
  MarkLineComponent,
  TitleComponent,
  SVGRenderer,
]);

const INK = '#1f2937';
export const MUTED = '#6b7280';
export const ACCENT = '#2f5d9e';
export const WARN = '#b45309';
const FONT = { fontFamily: 'system-ui, sans-serif', fontSize: 12, color: INK };

/** Renders one option to an SVG string and frees the chart (a live one keeps a timer running). */
export function renderSvg(option: EChartsCoreOption, width: number, height: number): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({ animation: false, silent: true, textStyle: FONT, ...option });
    return chart
      .renderToSVGString()
      .replace(/\s+xmlns(:xlink)?="[^"]*"/g, '')
      .replace(/\s+version="1\.1"\s+baseProfile="full"/, '');
  } finally {
    chart.dispose();
  }
}

/** Horizontal bars of input importance, largest on top, labelled in percent. */
export function importanceChart(
  importances: { column: string; value: number }[],
  highlight: string | null,
): string {
  const rows = [...importances].sort((a, b) => a.value - b.value);
  const longest = Math.max(4, ...rows.map((r) => r.column.length));
  const height = 40 + rows.length * 26;
  return renderSvg(
    {
      grid: { left: Math.min(220, 16 + longest * 7), right: 64, top: 8, bottom: 28 },
      xAxis: {
        type: 'value',
        max: 1,
        axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%`, color: MUTED },
        splitLine: { lineStyle: { color: '#e5e7eb' } },
      },
      yAxis: {
        type: 'category',
        data: rows.map((r) => r.column),
        axisLabel: { color: INK },
        axisTick: { show: false },
      },
      series: [
        {
          type: 'bar',
          barMaxWidth: 18,
          data: rows.map((r) => ({
            value: r.value,
            itemStyle: { color: r.column === highlight ? WARN : ACCENT },
          })),
          label: {
            show: true,
            position: 'right',
            color: INK,
            formatter: (p: { value: number }) => `${(p.value * 100).toFixed(1)}%`,
          },
        },
      ],
    },
    640,
    height,
  );
}

/** Predicted against actual for a sample of validation rows, with the line where they agree. */
export function predictedVsActualChart(
  sample: { actual: number[]; predicted: number[] },
  target: string,
): string {
  const all = [...sample.actual, ...sample.predicted];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  return renderSvg(
    {
      grid: { left: 70, right: 24, top: 16, bottom: 48 },
      xAxis: {
        type: 'value',
        name: `actual ${target}`,
        nameLocation: 'middle',
        nameGap: 30,
        scale: true,
        axisLabel: { color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      yAxis: {
        type: 'value',
        name: `predicted`,
        nameLocation: 'middle',
        nameGap: 52,
        scale: true,
        axisLabel: { color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      series: [
        {
          type: 'line',
          data: [
            [lo, lo],
            [hi, hi],
          ],
          symbol: 'none',
          lineStyle: { color: MUTED, type: 'dashed', width: 1 },
        },
        {
          type: 'scatter',
          symbolSize: 4,
          itemStyle: { color: ACCENT, opacity: 0.55 },
          data: sample.actual.map((a, i) => [a, sample.predicted[i]]),
        },
      ],
    },
    420,
    340,
  );
}

/** Reported confidence against how often the answer was right, per bin, beside the diagonal. */
export function calibrationChart(
  bins: { confidence: number; observed: number; count: number }[],
): string {
  return renderSvg(
    {
      grid: { left: 60, right: 24, top: 16, bottom: 48 },
      xAxis: {
        type: 'value',
        min: 0,
        max: 1,
        name: 'reported confidence',
        nameLocation: 'middle',
        nameGap: 30,
        axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%`, color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      yAxis: {
        type: 'value',
        min: 0,
        max: 1,
        name: 'share right',
        nameLocation: 'middle',
        nameGap: 42,
        axisLabel: { formatter: (v: number) => `${Math.round(v * 100)}%`, color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      series: [
        {
          type: 'line',
          data: [
            [0, 0],
            [1, 1],
          ],
          symbol: 'none',
          lineStyle: { color: MUTED, type: 'dashed', width: 1 },
        },
        {
          type: 'line',
          data: bins.map((b) => [b.confidence, b.observed]),
          symbolSize: 7,
          itemStyle: { color: ACCENT },
          lineStyle: { color: ACCENT },
        },
      ],
    },
    420,
    340,
  );
}
