/**
 * The model card's evaluation sections (docs/evaluation.md): the candidates, threshold and cost,
 * interval audit, where the model is wrong and for whom, from the same views REST and SQL serve
 * (server/models/evaluation/views.ts). Each chart has a title, axis names with units and a table
 * beside it; a version without evidence says to retrain instead.
 */
import { createElement as h, type ReactNode } from 'react';
import type {
  EvaluationSummary,
  GroupsView,
  Leaderboard,
  SlicesView,
  ThresholdView,
} from '../../../contract/evaluation';
import { bestThreshold, cumulate, pointAt, profitCurve, stepOf } from '../../../contract/threshold';
import type { z } from 'zod';
import type { IntervalsView } from '../../../contract/evaluation';
import { fmtNumber, fmtR2, fmtShare, metricWords } from '../metrics-text';
import { ACCENT, MUTED, WARN, renderSvg } from './charts';

/** What the card shows of a version's evaluation (each part null when it does not apply). */
export interface CardEvaluation {
  summary: EvaluationSummary;
  leaderboard: Leaderboard | null;
  threshold: ThresholdView | null;
  /** A threshold the presenter was looking at (not saved), shown beside the others. */
  shown: number | null;
  intervals: z.infer<typeof IntervalsView> | null;
  slices: SlicesView | null;
  groups: GroupsView[];
}

const section = (title: string, ...children: ReactNode[]) =>
  h('section', null, h('h2', null, title), ...children);

function table(caption: string, head: ReactNode[], rows: ReactNode[][]) {
  return h(
    'table',
    null,
    h('caption', { className: 'note' }, caption),
    h('thead', null, h('tr', null, ...head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, ...rows.map((r) => h('tr', null, ...r.map((c) => h('td', null, c))))),
  );
}

const figure = (title: string, svgText: string, caption: string) =>
  h(
    'figure',
    null,
    h('h3', null, title),
    h('div', {
      className: 'chart',
      role: 'img',
      'aria-label': title,
      dangerouslySetInnerHTML: { __html: svgText },
    }),
    h('figcaption', null, caption),
  );

const share = (x: number | null | undefined) => (x === null || x === undefined ? '-' : fmtShare(x));
const num = (x: number | null | undefined) => (x === null || x === undefined ? '-' : fmtNumber(x));
/** A candidate's score as the card's headline writes the same metric (R² 0.999951, never "1"). */
const score = (metric: string, x: number | null | undefined) =>
  x === null || x === undefined ? '-' : metric === 'r2_score' ? fmtR2(x) : num(x);

const axis = (name: string, pct = true) => ({
  type: 'value',
  min: 0,
  max: 1,
  name,
  nameLocation: 'middle',
  nameGap: pct ? 34 : 42,
  axisLabel: {
    formatter: (v: number) => (pct ? `${Math.round(v * 100)}%` : String(v)),
    color: MUTED,
  },
  splitLine: { lineStyle: { color: '#eef0f3' } },
});

function rocChart(t: ThresholdView): string {
  return renderSvg(
    {
      grid: { left: 64, right: 24, top: 16, bottom: 50 },
      xAxis: axis('false-positive rate (% of negatives flagged)'),
      yAxis: axis('true-positive rate (% of positives found)'),
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
          data: t.roc.fpr.map((x, i) => [x, t.roc.tpr[i]]),
          symbol: 'none',
          lineStyle: { color: ACCENT, width: 2 },
        },
      ],
    },
    420,
    340,
  );
}

function profitChart(
  t: ThresholdView,
  curve: { threshold: number; profit: number }[],
  best: number,
  currency: string,
): string {
  return renderSvg(
    {
      grid: { left: 84, right: 24, top: 16, bottom: 50 },
      xAxis: {
        ...axis('threshold (probability of the positive class)', false),
        axisLabel: { color: MUTED },
      },
      yAxis: {
        type: 'value',
        name: `profit on the held-out rows (${currency})`,
        nameLocation: 'middle',
        nameGap: 64,
        axisLabel: { color: MUTED },
        splitLine: { lineStyle: { color: '#eef0f3' } },
      },
      series: [
        {
          type: 'line',
          data: curve.filter((_, k) => k % 5 === 0).map((p) => [p.threshold, p.profit]),
          symbol: 'none',
          lineStyle: { color: ACCENT, width: 2 },
          markLine: undefined,
        },
        {
          type: 'scatter',
          data: [[best, Math.max(...curve.map((p) => p.profit))]],
          symbolSize: 9,
          itemStyle: { color: WARN },
        },
      ],
    },
    520,
    300,
  );
}

function leaderboardSection(l: Leaderboard): ReactNode {
  const c0 = l.candidates[0];
  return section(
    'Candidates it tried',
    table(
      `Every candidate the AutoML trained, scored on rows none of them trained on. The selected one serves predictions; RETRAIN ... USING model = '<using>' makes another serve.`,
      [
        'Candidate',
        c0 ? metricWords(c0.score.name) : 'score',
        c0?.other ? metricWords(c0.other.name) : 'other',
        'Fit time',
        'Predict speed',
        'Size',
        'Serves',
      ],
      l.candidates.map((c) => [
        c.using ? `${c.name} (${c.using})` : c.name,
        score(c.score.name, c.score.value),
        c.other ? score(c.other.name, c.other.value) : '-',
        `${c.fit_seconds.toFixed(2)} s`,
        c.predict_rows_per_second === null
          ? '-'
          : `${Math.round(c.predict_rows_per_second).toLocaleString('en-US')} rows/s`,
        c.size_bytes === null ? '-' : `${(c.size_bytes / 1024).toFixed(1)} KB`,
        c.selected ? 'yes' : '',
      ]),
    ),
    l.warnings.length > 0
      ? h(
          'p',
          { className: 'note' },
          `Warnings that apply to every candidate: ${l.warnings.map((w) => w.message).join(' ')}`,
        )
      : null,
  );
}

function thresholdSection(t: ThresholdView, shown: number | null): ReactNode {
  const c = cumulate(t.table);
  const pos = String(t.positive);
  const marks: { label: string; threshold: number }[] = [];
  if (t.decision)
    marks.push({
      label:
        t.decision.rule === 'threshold'
          ? 'saved threshold (in use)'
          : `the ${t.decision.rule} rule (in use)`,
      threshold: t.decision.threshold,
    });
  const payoff = t.saved?.payoff ?? null;
  const currency = t.saved?.currency ?? 'value';
  let best: number | null = null;
  let curve: { threshold: number; profit: number }[] = [];
  if (payoff) {
    curve = profitCurve(c, payoff);
    best = bestThreshold(c, payoff).threshold;
    marks.push({ label: 'best for the payoff', threshold: best });
  }
  if (shown !== null) marks.push({ label: 'shown in the playground, not saved', threshold: shown });
  for (const x of [0.3, 0.5, 0.7]) marks.push({ label: '', threshold: x });
  const rows = [...new Map(marks.map((m) => [stepOf(c, m.threshold), m])).values()]
    .sort((a, b) => a.threshold - b.threshold)
    .map((m) => {
      const p = pointAt(c, stepOf(c, m.threshold), payoff);
      return [
        `${p.threshold.toFixed(3)}${m.label ? ` (${m.label})` : ''}`,
        share(p.flagged),
        share(p.precision),
        share(p.recall),
        `${p.tp} / ${p.fp} / ${p.tn} / ${p.fn}`,
        p.profit === null ? '-' : `${fmtNumber(p.profit)} ${currency}`,
      ];
    });
  return section(
    'Threshold and cost',
    h(
      'p',
      null,
      `The model scores each row with a probability of '${pos}'; a threshold turns it into a decision. ${t.saved ? `A threshold of ${t.saved.threshold} is saved with this version: predictions use it.` : 'No threshold is saved: the decision rule in use is shown below.'}`,
    ),
    figure(
      `ROC curve for '${pos}' (AUC ${num(t.roc.auc)})`,
      rocChart(t),
      `Each point is a threshold: the share of '${pos}' rows found against the share of other rows flagged, on ${t.rows.toLocaleString('en-US')} held-out rows. The dashed diagonal is a random ranking. Average precision: ${num(t.pr.average_precision)}.`,
    ),
    table(
      `What each threshold does on the held-out rows (rows with a probability at or above it are flagged '${pos}'). Counts: true positives / false positives / true negatives / false negatives.`,
      ['Threshold', 'Flagged', 'Precision', 'Recall', 'TP / FP / TN / FN', 'Profit'],
      rows,
    ),
    payoff && best !== null
      ? figure(
          `Profit by threshold (${currency})`,
          profitChart(t, curve, best, currency),
          `Payoff per row: ${fmtNumber(payoff.tp)} for a '${pos}' caught, ${fmtNumber(payoff.fp)} for a false alarm, ${fmtNumber(payoff.tn)} for a correct pass, ${fmtNumber(payoff.fn)} for a '${pos}' missed. The highest profit is at ${best.toFixed(3)}.`,
        )
      : null,
  );
}

function intervalsSection(r: z.infer<typeof IntervalsView>): ReactNode {
  const cells = [r.overall, ...r.by_decile];
  return section(
    'Do the intervals hold?',
    h(
      'p',
      null,
      `Promised: ${fmtShare(r.level)} of actual values inside the interval. Achieved on held-out rows: ${share(r.overall.coverage)} (${r.outside.total.toLocaleString('en-US')} rows outside).`,
    ),
    table(
      'Coverage and mean interval width overall and per decile of the predicted value; a decile far below the promise is where the intervals should not be trusted.',
      ['Rows', 'Count', 'Coverage', 'Mean width', 'Above / below'],
      cells.map((x) => [
        x.label,
        x.rows.toLocaleString('en-US'),
        share(x.coverage),
        num(x.mean_width),
        `${x.above} / ${x.below}`,
      ]),
    ),
    r.by_step
      ? table(
          'Coverage per forecast step.',
          ['Step', 'Rows', 'Coverage', 'Mean width'],
          r.by_step.map((x) => [
            x.label,
            x.rows.toLocaleString('en-US'),
            share(x.coverage),
            num(x.mean_width),
          ]),
        )
      : null,
  );
}

function slicesSection(s: SlicesView): ReactNode {
  const top = s.slices.slice(0, 6);
  const metric = s.metric === 'error_rate' ? 'Error rate' : 'Mean absolute error';
  return section(
    'Where it is wrong',
    h(
      'p',
      null,
      `Overall ${metric.toLowerCase()} on held-out rows: ${s.metric === 'error_rate' ? share(s.overall) : num(s.overall)}. The slices with the most errors, found by a shallow tree over the rows' columns:`,
    ),
    table(
      'Each slice as a SQL WHERE over the training data, with its error, size and share of all errors.',
      ['Slice (SQL WHERE)', metric, 'Rows', 'Share of errors'],
      top.map((x) => [
        h('code', null, x.where),
        s.metric === 'error_rate' ? share(x.error) : num(x.error),
        x.rows.toLocaleString('en-US'),
        share(x.share),
      ]),
    ),
  );
}

function groupsSection(groups: GroupsView[]): ReactNode {
  if (groups.length === 0) return null;
  return section(
    'For whom it works',
    ...groups.map((g) =>
      h(
        'div',
        { key: g.column },
        h('h3', null, `By ${g.column}${g.in_model ? '' : ' (not a model input)'}`),
        g.groups[0]?.mae !== undefined
          ? table(
              `Mean absolute error and bias (mean of predicted - actual) per group of ${g.column}.`,
              ['Group', 'Rows', 'MAE', 'Bias', 'Note'],
              g.groups.map((r) => [
                r.label,
                r.rows.toLocaleString('en-US'),
                num(r.mae),
                num(r.bias),
                r.small ?? '',
              ]),
            )
          : table(
              `Per group of ${g.column}, predicting '${String(g.positive)}': accuracy, true-positive rate (found), false-positive rate (false alarms), selection rate (flagged) and its ratio to the highest group's (the four-fifths rule asks for 80 % or more).`,
              ['Group', 'Rows', 'Accuracy', 'TPR', 'FPR', 'Selected', 'Ratio', 'Note'],
              g.groups.map((r) => [
                r.label,
                r.rows.toLocaleString('en-US'),
                share(r.accuracy),
                share(r.tpr),
                share(r.fpr),
                share(r.selection_rate),
                r.selection_ratio === null || r.selection_ratio === undefined
                  ? '-'
                  : `${fmtShare(r.selection_ratio)}${r.selection_ratio < 0.8 && !r.small ? ' (below 4/5)' : ''}`,
                r.small ?? '',
              ]),
            ),
        ...g.warnings.map((w) => h('p', { className: 'note' }, w)),
      ),
    ),
  );
}

/** The evaluation sections, or one saying to retrain when the version kept no evidence. */
export function evaluationSections(e: CardEvaluation | null | undefined): ReactNode[] {
  if (!e) return [];
  if (!e.summary.available) {
    return [
      section(
        'Evaluation',
        h('p', null, e.summary.reason ?? 'Retrain the model to see its evaluation.'),
      ),
    ];
  }
  return [
    e.leaderboard ? leaderboardSection(e.leaderboard) : null,
    e.threshold ? thresholdSection(e.threshold, e.shown) : null,
    e.intervals ? intervalsSection(e.intervals) : null,
    e.slices ? slicesSection(e.slices) : null,
    groupsSection(e.groups),
  ];
}
