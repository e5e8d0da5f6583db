/**
 * The model card (issue 17): one self-contained HTML page about a complete model version, for
 * handing to someone who will not open the playground — what it predicts and from which data,
 * how good it is against a trivial baseline in plain words, what it relies on, what to watch out
 * for, its versions and training. Inline CSS and SVG only: no script, no external URL, prints
 * cleanly. The page is React elements rendered by react-dom/server (which escapes every value
 * from the model: names, queries, labels); the charts come from ./charts.ts.
 *
 * It lives in the model layer because it is a presentation of the registry's records and the
 * engine's description, like DESCRIBE's sentences (../metrics-text.ts); the HTTP route only
 * sends it.
 */
import { createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { DriftReport, EffectsReport } from '../../../contract';
import { warningTitle } from '../../../contract/warning-words';
import type { ModelDescription, ModelMetrics, ModelWarning } from '../../automl/index';
import {
  fmtNumber,
  fmtR2,
  fmtShare,
  fmtSmall,
  metricWords,
  metricsSentences,
} from '../metrics-text';
import type { ModelVersionRecord } from '../store';
import { sampleSentence } from '../training-sample';
import { calibrationChart, importanceChart, predictedVsActualChart } from './charts';
import { type CardEvaluation, evaluationSections } from './evaluation';
import { monitoringSections } from './monitoring';
import { CARD_CSS } from './style';

export interface CardInput {
  record: ModelVersionRecord;
  /** Every version of the model, oldest first. */
  versions: ModelVersionRecord[];
  description: ModelDescription;
  warnings: ModelWarning[];
  /** The instance's version (the engine's, as MINDSDB_VERSION shows it). */
  instanceVersion: string;
  generatedAt: Date;
  /** The evaluation views (docs/evaluation.md); null when the version kept no evidence. */
  evaluation?: CardEvaluation | null;
  /** The latest drift report and the effects of the top inputs (server/models/monitoring.ts). */
  drift?: DriftReport | null;
  effects?: EffectsReport | null;
}

type Label = string | number | boolean;

const section = (title: string, ...children: ReactNode[]) =>
  h('section', null, h('h2', null, title), ...children);

const chart = (svgText: string, caption: string) =>
  h(
    'figure',
    null,
    h('div', { className: 'chart', dangerouslySetInnerHTML: { __html: svgText } }),
    h('figcaption', null, caption),
  );

function table(head: ReactNode[], rows: ReactNode[][], className?: string) {
  return h(
    'table',
    { className },
    h('thead', null, h('tr', null, ...head.map((c) => h('th', null, c)))),
    h('tbody', null, ...rows.map((r) => h('tr', null, ...r.map((c) => h('td', null, c))))),
  );
}

/** `2025-06-01 14:03 UTC` from the records' ISO timestamps. */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const seconds = (s: number | null) =>
  s === null
    ? '-'
    : s < 60
      ? `${s.toFixed(1)} s`
      : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;

function accuracyText(metric: string | null | undefined, v: number): string {
  const name = metric ? metricWords(metric) : 'accuracy';
  const value = metric === 'r2_score' ? fmtR2(v) : fmtSmall(v, 4);
  return `${name} ${value}`;
}

/** The sample a chart draws against the rows the metrics were measured on. */
function sampleText(shown: number, total: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return shown < total
    ? `a sample of ${n(shown)} of the ${n(total)} validation rows`
    : `the ${n(total)} validation rows`;
}

/** The engine's summary (`A --> B --> C`) as steps a person reads. */
function engineSteps(summary: string, finetuned: boolean): ReactNode {
  const steps = summary
    .split(' --> ')
    .map((s) => s.trim())
    .filter(Boolean);
  return h(
    'ol',
    { className: 'steps' },
    ...(finetuned ? [h('li', null, 'finetuned from an earlier version')] : []),
    ...steps.map((s) => h('li', null, s)),
  );
}

function whatItPredicts(d: ModelDescription): string {
  if (d.task === 'regression') return `a number (regression)`;
  const classes = (d.classes ?? []).map(String);
  const shown = classes.slice(0, 8).map((c) => `'${c}'`);
  const more = classes.length > 8 ? `, and ${classes.length - 8} more` : '';
  return `one of ${classes.length} classes: ${shown.join(', ')}${more} (${d.task === 'binary' ? 'binary' : 'multiclass'} classification)`;
}

function metricsTable(m: ModelMetrics) {
  const r = m.regression;
  const c = m.classification;
  const rows: ReactNode[][] = [];
  if (r) {
    rows.push(
      ['R² (share of the variation explained; 1 is perfect)', fmtR2(r.r2), fmtSmall(r.baseline.r2)],
      ['Mean absolute error', fmtNumber(r.mae), fmtNumber(r.baseline.mae)],
      ['Root mean squared error', fmtNumber(r.rmse), fmtNumber(r.baseline.rmse)],
    );
  }
  if (c) {
    rows.push(
      [
        'Balanced accuracy (mean recall over classes)',
        fmtShare(c.balanced_accuracy),
        fmtShare(c.baseline.balanced_accuracy),
      ],
      ['Accuracy', fmtShare(c.accuracy), fmtShare(c.baseline.accuracy)],
    );
  }
  const baseline = r
    ? `Always the average (${fmtNumber(r.baseline.value)})`
    : c
      ? `Always '${String(c.baseline.class)}'`
      : 'Baseline';
  return table(['Metric', 'This model', baseline], rows, 'metrics');
}

function classificationDetails(m: ModelMetrics): ReactNode[] {
  const c = m.classification;
  if (!c) return [];
  const lab = (l: Label) => String(l);
  const confusion = h(
    'table',
    { className: 'confusion' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, 'actual \\ predicted'),
        ...c.classes.map((k) => h('th', null, lab(k))),
      ),
    ),
    h(
      'tbody',
      null,
      ...c.confusion.map((row, i) =>
        h(
          'tr',
          null,
          h('th', null, lab(c.classes[i])),
          ...row.map((v, j) =>
            h('td', { className: i === j ? 'hit' : undefined }, v.toLocaleString('en-US')),
          ),
        ),
      ),
    ),
  );
  const perClass = table(
    ['Class', 'Precision (right when it says so)', 'Recall (found of this class)', 'Rows'],
    c.per_class.map((p) => [
      lab(p.class),
      p.precision === null ? 'never predicted' : fmtShare(p.precision),
      p.recall === null ? '-' : fmtShare(p.recall),
      p.support.toLocaleString('en-US'),
    ]),
  );
  return [
    h('h3', null, 'Which classes it confuses'),
    h(
      'p',
      { className: 'note' },
      'Validation rows by actual class (rows) and predicted class (columns); the diagonal is right.',
    ),
    confusion,
    perClass,
    c.calibration.length > 0
      ? chart(
          calibrationChart(c.calibration),
          'Calibration: when the model reports a confidence, how often it is right. Points on the dashed line mean the confidence can be taken at its word.',
        )
      : null,
  ];
}

function versionsTable(versions: ModelVersionRecord[], current: ModelVersionRecord) {
  return table(
    ['Version', 'Status', 'Active', 'Accuracy', 'Created', 'Training time', 'Data'],
    versions.map((v) => [
      v.version === current.version
        ? h('strong', null, `${v.version} (this card)`)
        : String(v.version),
      v.status === 'error' ? `error: ${v.error ?? ''}` : v.status,
      v.active ? 'yes' : '',
      v.accuracy === null ? '-' : accuracyText(v.accuracyMetric, v.accuracy),
      when(v.createdAt),
      seconds(v.trainingTime),
      v.mode === 'finetune' ? `finetuned from version ${v.baseVersion}` : `FROM ${v.fromDb}`,
    ]),
  );
}

export function renderModelCard(x: CardInput): string {
  const { record: rec, description: d, warnings } = x;
  const m = d.metrics ?? null;
  const full = `${rec.project}.${rec.name}`;
  const importances = d.inputs.map((c) => ({ column: c, value: d.columnImportances[c] ?? 0 }));
  const dominant = warnings.find((w) => w.kind === 'dominant_input')?.column ?? null;
  const ignored = d.features.filter((f) => f.role === 'identifier' || f.role === 'ignored');
  const sentences = metricsSentences(m);
  const accuracyFallback = Object.entries(d.accuracies)
    .map(([k, v]) => accuracyText(k, v))
    .join(', ');

  const body = h(
    'main',
    null,
    h(
      'header',
      null,
      h('p', { className: 'kicker' }, 'Model card'),
      h('h1', null, full),
      h(
        'p',
        { className: 'lede' },
        'Predicts ',
        h('strong', null, d.target),
        `, ${whatItPredicts(d)}, from ${d.inputs.length} input${d.inputs.length === 1 ? '' : 's'}. Version ${rec.version}${rec.active ? ' (active)' : ''}, trained ${when(rec.createdAt)}.`,
      ),
    ),
    section(
      'The data it learned from',
      h(
        'p',
        null,
        `${d.trainRows.toLocaleString('en-US')} rows with a value in ${d.target}, read from database `,
        h('code', null, rec.fromDb),
        ' with:',
      ),
      h('pre', null, rec.selectQuery),
      rec.sample ? h('p', null, sampleSentence(rec.sample)) : null,
      h(
        'p',
        null,
        'Inputs: ',
        h('code', null, d.inputs.join(', ')),
        '.',
        ignored.length > 0
          ? ` Set aside: ${ignored.map((f) => `${f.column} (${f.role === 'identifier' ? 'an identifier' : f.type === 'empty' ? 'no values' : 'ignored or constant'})`).join(', ')}.`
          : '',
      ),
    ),
    section(
      'How good it is',
      sentences.length > 0
        ? h('div', null, ...sentences.map((s) => h('p', null, s)))
        : h(
            'p',
            null,
            `Validation accuracy: ${accuracyFallback}. (Trained before detailed metrics were kept: retrain it for the full picture.)`,
          ),
      m ? metricsTable(m) : null,
      m?.regression
        ? chart(
            predictedVsActualChart(m.regression.sample, d.target),
            `Predicted against actual ${d.target} for ${sampleText(m.regression.sample.actual.length, m.rows.validation)} the model had not seen; the dashed line is a perfect prediction.`,
          )
        : null,
      ...(m ? classificationDetails(m) : []),
    ),
    ...evaluationSections(x.evaluation),
    section(
      'What to watch out for',
      warnings.length > 0
        ? h(
            'ul',
            { className: 'warnings' },
            ...warnings.map((w) =>
              h('li', null, h('span', { className: 'kind' }, warningTitle(w.kind)), ' ', w.message),
            ),
          )
        : h(
            'p',
            null,
            'Nothing stood out: no dominant or identifier-like input, enough rows, no rare class.',
          ),
    ),
    section(
      'What it relies on',
      importances.length > 0
        ? chart(
            importanceChart(importances, dominant),
            'How much worse the model gets when each input is shuffled (permutation importance), as shares of the total.',
          )
        : h('p', null, 'No input importances were computed for this model.'),
    ),
    ...monitoringSections(x.drift ?? null, x.effects ?? null, d.target),
    section(
      'Training',
      table(
        ['', ''],
        [
          ['Engine', engineSteps(d.summary, rec.mode === 'finetune')],
          [
            'Validation',
            m
              ? `${m.rows.validation.toLocaleString('en-US')} rows ${m.validation === 'cross-fitted' ? 'judged out of fold (cross-fitted)' : 'held out from training'}; shipped model trained on ${m.rows.train.toLocaleString('en-US')} rows`
              : '-',
          ],
          [
            'Confidence level',
            `${Math.round(d.confidenceLevel * 100)}%${d.intervals ? `; intervals held the truth for ${fmtShare(d.intervals.validation)} of validation rows` : ''}`,
          ],
          ...(d.decision
            ? [
                [
                  'Decision rule',
                  d.decision.threshold
                    ? `saved threshold: '${String(d.decision.threshold.positive)}' when its probability is at least ${d.decision.threshold.value}`
                    : d.decision.rule === 'balanced'
                      ? 'balanced (every class counts equally)'
                      : 'most probable class',
                ],
              ]
            : []),
          ['USING', Object.keys(rec.using).length > 0 ? JSON.stringify(rec.using) : '(defaults)'],
          ['Training time', seconds(rec.trainingTime)],
          ['Trained', when(rec.createdAt)],
        ],
        'facts',
      ),
    ),
    section('Versions', versionsTable(x.versions, rec)),
    h(
      'footer',
      null,
      `Generated ${when(x.generatedAt.toISOString())} by the SQL & Model Playground instance ${x.instanceVersion}. Metrics were measured at training time on rows the model did not train on; they describe data like the training data.`,
    ),
  );
  const page = h(
    'html',
    { lang: 'en' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('title', null, `Model card: ${full} v${rec.version}`),
      h('style', { dangerouslySetInnerHTML: { __html: CARD_CSS } }),
    ),
    h('body', null, body),
  );
  return `<!doctype html>\n${renderToStaticMarkup(page)}`;
}
