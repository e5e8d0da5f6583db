/**
 * The model card's monitoring sections (issue 27): the latest drift snapshot of the version, with
 * its date and query, and the feature effects of its top inputs. Each chart has a title, labelled
 * axes and a table beside it with the same numbers. React elements, like the rest of the card.
 */
import { createElement as h, type ReactNode } from 'react';
import type { DriftReport, EffectsReport } from '../../../contract';
import { renderSvg } from './charts';

const ACCENT = '#2f5d9e';
const WARN = '#b45309';
const DRIFT = '#b91c1c';
const MUTED = '#6b7280';

const fmt = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x)
    ? '-'
    : Math.abs(x) >= 1000
      ? Math.round(x).toLocaleString('en-US')
      : String(Number(x.toPrecision(3)));

const pValue = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

function table(head: string[], rows: ReactNode[][]) {
  return h(
    'table',
    null,
    h('thead', null, h('tr', null, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, ...rows.map((r) => h('tr', null, ...r.map((c) => h('td', null, c))))),
  );
}

const figure = (svgText: string, caption: string) =>
  h(
    'figure',
    null,
    h('div', { className: 'chart', dangerouslySetInnerHTML: { __html: svgText } }),
    h('figcaption', null, caption),
  );

/** PSI per input, bars coloured by level, the drift threshold dashed. */
function psiChart(r: DriftReport): string {
  const rows = [...r.columns].reverse();
  const longest = Math.max(4, ...rows.map((c) => c.column.length));
  return renderSvg(
    {
      title: { text: 'Population stability index per input', left: 0, textStyle: { fontSize: 13 } },
      grid: { left: Math.min(220, 16 + longest * 7), right: 56, top: 34, bottom: 44 },
      xAxis: {
        type: 'value',
        name: 'PSI (0 = same distribution)',
        nameLocation: 'middle',
        nameGap: 28,
        axisLabel: { color: MUTED },
        splitLine: { lineStyle: { color: '#e5e7eb' } },
      },
      yAxis: { type: 'category', data: rows.map((c) => c.column), axisTick: { show: false } },
      series: [
        {
          type: 'bar',
          barMaxWidth: 16,
          data: rows.map((c) => ({
            value: Number(c.psi.toFixed(4)),
            itemStyle: {
              color: c.level === 'drifted' ? DRIFT : c.level === 'moderate' ? WARN : ACCENT,
            },
          })),
          markLine: {
            symbol: 'none',
            silent: true,
            lineStyle: { color: MUTED, type: 'dashed' },
            label: { formatter: `drift at ${r.thresholds.psi}`, color: MUTED },
            data: [{ xAxis: r.thresholds.psi }],
          },
        },
      ],
    },
    640,
    70 + rows.length * 24,
  );
}

function driftSection(r: DriftReport | null, target: string): ReactNode {
  if (!r) {
    return h(
      'section',
      null,
      h('h2', null, "Drift: does today's data look like the training data?"),
      h(
        'p',
        null,
        'No drift report was computed for this version. Compute one on the model page (Drift), with POST .../drift, or in SQL: ',
        h('code', null, 'DESCRIBE model.drift FROM db (SELECT ...)'),
        '.',
      ),
    );
  }
  const when = `${r.computed_at.slice(0, 10)} ${r.computed_at.slice(11, 16)} UTC`;
  const rows: ReactNode[][] = r.columns.map((c) => [
    c.column,
    `${(c.importance * 100).toFixed(1)}%`,
    c.psi.toFixed(3),
    `${c.test.name === 'ks' ? 'KS' : 'χ²'} ${c.test.statistic.toFixed(3)}, p ${pValue(c.test.p_value)} (n ${c.test.n_reference.toLocaleString('en-US')} / ${c.test.n_current.toLocaleString('en-US')})`,
    c.level,
    c.new_categories && c.new_categories.rows > 0
      ? `new: ${c.new_categories.values.join(', ')}`
      : c.mean
        ? `mean ${fmt(c.mean.reference)} → ${fmt(c.mean.current)}`
        : '',
  ]);
  if (r.predictions) {
    const p = r.predictions;
    rows.unshift([
      `${target} (predicted)`,
      '',
      p.psi.toFixed(3),
      `${p.test.name === 'ks' ? 'KS' : 'χ²'} ${p.test.statistic.toFixed(3)}, p ${pValue(p.test.p_value)}`,
      p.level,
      p.mean ? `mean ${fmt(p.mean.reference)} → ${fmt(p.mean.current)}` : '',
    ]);
  }
  return h(
    'section',
    null,
    h('h2', null, "Drift: does today's data look like the training data?"),
    h('p', null, h('strong', null, r.summary.sentence), '.'),
    h(
      'p',
      { className: 'note' },
      `Snapshot of ${when}: ${r.rows.current.toLocaleString('en-US')} rows of today's data (database ${r.db}) against ${r.rows.reference.toLocaleString('en-US')} training rows${r.reference_source === 'query' ? ' (read again from the FROM query: this version kept no training sample)' : ''}. An input drifted when its PSI is at least ${r.thresholds.psi} and its test's p-value below ${r.thresholds.p_value}.`,
    ),
    h('pre', null, r.query),
    figure(
      psiChart(r),
      'Bars: each input’s population stability index between training and today; red bars drifted, amber moved moderately. The table below has the same numbers with the tests.',
    ),
    table(['Input', 'Importance', 'PSI', 'Test', 'Level', 'What moved'], rows),
    r.skipped.length > 0
      ? h(
          'p',
          { className: 'note' },
          `Not compared: ${r.skipped.map((s) => `${s.column} (${s.reason})`).join('; ')}.`,
        )
      : null,
  );
}

/** One effect curve: the average as a line (numbers) or bars (categories), ICE lines faint. */
function effectChart(c: EffectsReport['curves'][number], output: string): string {
  const x = c.grid.map((g) => String(g));
  const series: unknown[] = c.ice.slice(0, 20).map((line) => ({
    type: 'line',
    data: line.map((v) => Number(v.toPrecision(6))),
    symbol: 'none',
    lineStyle: { color: '#cbd5e1', width: 1 },
  }));
  series.push({
    type: c.kind === 'number' ? 'line' : 'bar',
    data: c.average.map((v) => Number(v.toPrecision(6))),
    symbolSize: 5,
    barMaxWidth: 28,
    itemStyle: { color: ACCENT },
    lineStyle: { color: ACCENT, width: 3 },
  });
  return renderSvg(
    {
      title: { text: `Effect of ${c.column}`, left: 0, textStyle: { fontSize: 13 } },
      grid: { left: 70, right: 20, top: 34, bottom: 52 },
      xAxis: {
        type: 'category',
        data: x,
        name: `${c.column} (value set in every row)`,
        nameLocation: 'middle',
        nameGap: 32,
        axisLabel: { color: MUTED, hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        scale: true,
        name: `average ${output}`,
        nameLocation: 'middle',
        nameGap: 52,
        axisLabel: { color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      series,
    },
    560,
    300,
  );
}

function effectsSection(r: EffectsReport | null): ReactNode {
  const title = 'Effects of the top inputs';
  if (!r || r.curves.length === 0) {
    const why = r?.skipped[0]?.reason;
    return h(
      'section',
      null,
      h('h2', null, title),
      h('p', null, why ? `No effect curves: ${why}.` : 'No effect curves were computed.'),
    );
  }
  return h(
    'section',
    null,
    h('h2', null, title),
    h(
      'p',
      { className: 'note' },
      `Partial dependence: the average ${r.output} over ${r.rows.toLocaleString('en-US')} training rows when one input is set to each value in every row, the others left as they are (thick line or bars); faint lines follow single rows (ICE).`,
    ),
    ...r.curves.slice(0, 3).flatMap((c) => [
      figure(
        effectChart(c, r.output),
        `${c.column}: moves the average ${r.output} by ${fmt(c.range)} across its range; the table lists the values.`,
      ),
      table(
        [c.column, `average ${r.output}`, 'training rows there'],
        c.grid.map((g, j) => [String(g), fmt(c.average[j]), String(c.distribution[j]?.count ?? 0)]),
      ),
    ]),
  );
}

/** The card's monitoring sections, in reading order. */
export function monitoringSections(
  drift: DriftReport | null,
  effects: EffectsReport | null,
  target: string,
): ReactNode[] {
  return [driftSection(drift, target), effectsSection(effects)];
}
