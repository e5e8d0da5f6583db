/**
 * The evaluation views of one version (contract/evaluation.ts), each computed from its evidence
 * by the engine's pure functions (server/automl/evaluation/). One computation serves REST, SQL's
 * DESCRIBE, the model page and the card: they all call these.
 */
import type {
  CalibrationView,
  CoverageCell as CoverageCellSchema,
  EvaluationSummary,
  GroupsView,
  IntervalsView,
  Leaderboard,
  SliceNode,
  SlicesView,
  ThresholdView,
} from '../../../contract/evaluation';
import type { z } from 'zod';
import {
  type CellValue,
  type ModelDescription,
  type ModelEvidence,
  type ModelWarning,
  cellAt,
  evaluation as ev,
} from '../../automl/index';
import { badInput } from '../../errors';

type Label = string | number | boolean;
type CoverageCell = z.infer<typeof CoverageCellSchema>;

/** What a view needs besides the evidence. */
export interface ViewContext {
  version: number;
  description: ModelDescription;
  warnings: ModelWarning[];
  /** The saved decision (`USING threshold`), if any. */
  saved: EvaluationSummary['saved'];
  /** Builds the query a slice opens in the editor from a WHERE. */
  sliceSql: (where: string) => string;
}

/** NaN and infinities are not JSON: they become null. */
const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

const RETRAIN =
  'retrain the model to see this (it was trained before evaluation evidence was kept)';

/** The class a threshold flags by default: the saved one, else the rarer class held out. */
function defaultPositive(e: ModelEvidence, saved: ViewContext['saved']): number {
  const classes = e.classes ?? [];
  if (saved) {
    const k = classes.findIndex((c) => String(c) === String(saved.positive));
    if (k >= 0) return k;
  }
  const counts = new Array<number>(classes.length).fill(0);
  for (const a of e.heldOut.actual) if (a >= 0) counts[a]++;
  let best = classes.length - 1;
  for (let k = classes.length - 1; k >= 0; k--) if (counts[k] < counts[best]) best = k;
  return best;
}

/** The class `asked` names (by its label's text), or the default. */
export function positiveIndex(
  e: ModelEvidence,
  asked: string | undefined,
  saved: ViewContext['saved'],
): number {
  if (asked === undefined || asked === '') return defaultPositive(e, saved);
  const k = (e.classes ?? []).findIndex((c) => String(c) === asked);
  if (k < 0) {
    throw badInput(
      `'${asked}' is not a class of this model; its classes are: ${(e.classes ?? []).map(String).join(', ')}`,
    );
  }
  return k;
}

/** The positive class's probability of every held-out row. */
function probabilityOf(e: ModelEvidence, k: number): Float64Array {
  const C = e.classes!.length;
  const p = e.heldOut.probabilities!;
  return Float64Array.from({ length: e.heldOut.actual.length }, (_, i) => p[i * C + k]);
}

const isPositive = (e: ModelEvidence, k: number) =>
  Float64Array.from(e.heldOut.actual, (a) => (a === k ? 1 : 0));

function columnKind(e: ModelEvidence, j: number): 'number' | 'category' | 'text' {
  const c = e.heldOut.rows.data[j];
  if (c.kind === 'number') return 'number';
  if (c.kind === 'text' && c.dict.length > 50) return 'text';
  return 'category';
}

export function summary(e: ModelEvidence | null, x: ViewContext): EvaluationSummary {
  const d = x.description;
  const task = d.timeseries ? 'forecast' : d.task;
  const no = (reason: string) => ({ applies: false, reason });
  const yes = { applies: true, reason: null };
  if (!e) {
    return {
      available: false,
      reason: `No evaluation evidence: ${RETRAIN}.`,
      version: x.version,
      task,
      target: d.target,
      classes: d.classes ?? null,
      positive: null,
      level: d.task === 'regression' ? d.confidenceLevel : null,
      held_out: null,
      columns: [],
      views: {
        leaderboard: no(RETRAIN),
        threshold: no(RETRAIN),
        calibration: no(RETRAIN),
        intervals: no(RETRAIN),
        slices: no(RETRAIN),
        groups: no(RETRAIN),
      },
      saved: x.saved,
    };
  }
  const classifier = e.task !== 'regression';
  const inputs = new Set(d.inputs);
  return {
    available: true,
    reason: null,
    version: x.version,
    task,
    target: e.target,
    classes: e.classes,
    positive: classifier ? e.classes![defaultPositive(e, x.saved)] : null,
    level: e.level,
    held_out: {
      rows: e.heldOut.rows.rowCount,
      total: e.heldOut.total,
      validation: e.heldOut.validation,
      sample: e.heldOut.sample,
    },
    columns: e.heldOut.rows.columns.map((name, j) => ({
      name,
      in_model: inputs.has(name),
      kind: columnKind(e, j),
    })),
    views: {
      leaderboard: yes,
      threshold: classifier
        ? yes
        : no(
            'A regression predicts a number: there is no class threshold to choose. See the interval audit.',
          ),
      calibration: classifier
        ? yes
        : no(
            'A regression has no class probabilities to calibrate; the interval audit checks its promised coverage.',
          ),
      intervals: classifier
        ? no('A classifier predicts classes with probabilities, not intervals; see calibration.')
        : yes,
      slices: yes,
      groups: yes,
    },
    saved: x.saved,
  };
}

export function leaderboard(e: ModelEvidence, x: ViewContext): Leaderboard {
  return {
    version: x.version,
    candidates: e.candidates.map((c) => ({
      name: c.name,
      kind: c.kind,
      score: { name: c.score.name, value: c.score.value },
      other: c.other,
      fit_seconds: c.fitSeconds,
      predict_rows_per_second: c.predictRowsPerSecond,
      size_bytes: c.sizeBytes,
      selected: c.selected,
      using: c.using,
    })),
    warnings: x.warnings,
  };
}

function classifierOnly(e: ModelEvidence, view: string): void {
  if (e.task === 'regression') {
    throw badInput(
      `The ${view} view applies to classifiers; this model predicts a number (see the intervals view)`,
    );
  }
}

/** Curves thinned to this many points for the wire (the AUCs are exact). */
const CURVE_POINTS = 400;

function thin<T>(xs: T[]): T[] {
  return ev.thinIndices(xs.length, CURVE_POINTS).map((i) => xs[i]);
}

export function threshold(e: ModelEvidence, x: ViewContext, asked?: string): ThresholdView {
  classifierOnly(e, 'threshold');
  const k = positiveIndex(e, asked, x.saved);
  const classes = e.classes!;
  const p = probabilityOf(e, k);
  const y = isPositive(e, k);
  const roc = ev.rocCurve(p, y);
  const pr = ev.prCurve(p, y);
  const binary = e.task === 'binary';
  const perClass = binary
    ? []
    : classes.map((c, j) => {
        const yj = isPositive(e, j);
        const pj = probabilityOf(e, j);
        return {
          class: c,
          rows: yj.reduce((s, v) => s + v, 0),
          auc: num(ev.rocCurve(pj, yj).auc),
          average_precision: num(ev.prCurve(pj, yj).averagePrecision),
        };
      });
  let decision: ThresholdView['decision'] = null;
  if (binary && e.decision) {
    // The rule flags the evidence's positive class; on the other class's probability it is 1 - t.
    const t = e.decision.positive === k ? e.decision.threshold : 1 - e.decision.threshold;
    decision = { rule: e.decision.rule, threshold: t };
  }
  return {
    positive: classes[k],
    negative: binary ? classes[1 - k] : null,
    rows: y.length,
    table: ev.thresholdTable(p, y),
    roc: { fpr: thin(roc.fpr), tpr: thin(roc.tpr), auc: num(roc.auc) },
    pr: {
      precision: thin(pr.precision),
      recall: thin(pr.recall),
      average_precision: num(pr.averagePrecision),
    },
    gains: ev.gainsCurve(p, y, 100),
    per_class: perClass,
    decision,
    savable: binary
      ? { applies: true, reason: null }
      : {
          applies: false,
          reason: `A threshold decides between two classes; this model picks among ${classes.length}. The curves show each class against the rest.`,
        },
    saved: x.saved,
  };
}

export function calibration(
  e: ModelEvidence,
  x: ViewContext,
  asked?: string,
): z.infer<typeof CalibrationView> {
  classifierOnly(e, 'calibration');
  const C = e.classes!.length;
  const h = e.heldOut;
  let p: Float64Array;
  let hit: Float64Array;
  let positive: Label | null = null;
  if (e.task === 'binary') {
    const k = positiveIndex(e, asked, x.saved);
    positive = e.classes![k];
    p = probabilityOf(e, k);
    hit = isPositive(e, k);
  } else {
    // Top-label: the predicted class's probability against the prediction being right.
    p = Float64Array.from(h.predicted, (c, i) => (c >= 0 ? h.probabilities![i * C + c] : NaN));
    hit = Float64Array.from(h.predicted, (c, i) => (c === h.actual[i] ? 1 : 0));
  }
  const r = ev.reliability(p, hit, 10);
  return {
    kind: e.task === 'binary' ? 'positive-class' : 'top-label',
    positive,
    bins: r.bins.map((b) => ({ ...b })),
    brier: num(r.brier),
    ece: num(r.ece),
  };
}

/** The column's index in the held-out rows, or a BAD_INPUT listing them. */
function columnIndex(e: ModelEvidence, column: string): number {
  const cols = e.heldOut.rows.columns;
  let j = cols.indexOf(column);
  if (j < 0) j = cols.findIndex((c) => c.toLowerCase() === column.toLowerCase());
  if (j < 0) {
    throw badInput(`Column '${column}' is not in the held-out rows; they have: ${cols.join(', ')}`);
  }
  return j;
}

function grouping(e: ModelEvidence, column: string) {
  const j = columnIndex(e, column);
  const rows = e.heldOut.rows;
  return ev.groupRows(rows.columns[j], rows.data[j], rows.rowCount);
}

const cell = (c: ev.CoverageCell, where: string | null = null): CoverageCell => ({
  label: c.label,
  rows: c.rows,
  coverage: num(c.coverage),
  mean_width: num(c.meanWidth),
  above: c.above,
  below: c.below,
  where,
});

/** Rows outside their interval shown in the audit. */
const OUTSIDE_ROWS = 50;

export function intervals(
  e: ModelEvidence,
  _x: ViewContext,
  column?: string,
): z.infer<typeof IntervalsView> {
  const h = e.heldOut;
  if (e.task !== 'regression' || !h.lower || !h.upper) {
    throw badInput(
      'The interval audit applies to models that predict a number with an interval; a classifier has probabilities (see the calibration view)',
    );
  }
  const r = { actual: h.actual, predicted: h.predicted, lower: h.lower, upper: h.upper };
  const n = h.actual.length;
  const overall = ev.coverageBy(r, new Int32Array(n), ['all held-out rows'])[0];
  const dec = ev.predictedDeciles(h.predicted);
  let bySegment: z.infer<typeof IntervalsView>['by_segment'] = null;
  if (column) {
    const g = grouping(e, column);
    const cells = ev.coverageBy(
      r,
      g.of,
      g.segments.map((s) => s.label),
    );
    bySegment = { column: g.column, cells: cells.map((c, k) => cell(c, g.segments[k].where)) };
  }
  let byStep: z.infer<typeof IntervalsView>['by_step'] = null;
  if (h.step) {
    const steps = Math.max(0, ...h.step);
    byStep = ev
      .coverageBy(
        r,
        Int32Array.from(h.step, (s) => s - 1),
        Array.from({ length: steps }, (_, s) => `step ${s + 1}`),
      )
      .map((c) => cell(c));
  }
  const out = ev.rowsOutside(r, OUTSIDE_ROWS);
  let total = 0;
  for (let i = 0; i < n; i++) if (h.actual[i] < h.lower[i] || h.actual[i] > h.upper[i]) total++;
  return {
    level: e.level ?? 0.9,
    overall: cell(overall),
    by_decile: ev.coverageBy(r, dec.of, dec.labels).map((c) => cell(c)),
    by_step: byStep,
    by_segment: bySegment,
    outside: {
      total,
      columns: h.rows.columns,
      rows: out.map((i) => ({
        actual: h.actual[i],
        predicted: h.predicted[i],
        lower: h.lower![i],
        upper: h.upper![i],
        values: h.rows.data.map((c) => jsonCell(cellAt(c, i))),
      })),
    },
  };
}

const jsonCell = (v: CellValue): CellValue =>
  typeof v === 'number' && !Number.isFinite(v) ? null : v;

const errorsOf = new WeakMap<ModelEvidence, Float64Array>();

/** Each held-out row's error: 1 / 0 for a classifier's mistakes, |error| for a regression. */
function rowErrors(e: ModelEvidence): Float64Array {
  let err = errorsOf.get(e);
  if (err) return err;
  const h = e.heldOut;
  err =
    e.task === 'regression'
      ? Float64Array.from(h.actual, (a, i) => Math.abs(a - h.predicted[i]))
      : Float64Array.from(h.actual, (a, i) => (a === h.predicted[i] ? 0 : 1));
  errorsOf.set(e, err);
  return err;
}

function sliceNode(s: ev.Slice): SliceNode {
  return {
    where: s.where,
    rows: s.rows,
    error: num(s.error),
    share: s.share,
    ...(s.children ? { children: s.children.map(sliceNode) } : {}),
  };
}

const sliceRow = (
  x: ViewContext,
  where: string,
  s: { rows: number; error: number; share: number },
) => ({
  where,
  rows: s.rows,
  error: num(s.error),
  share: s.share,
  sql: x.sliceSql(where),
});

/** The slice a user's WHERE selects (`mask`: 1 for each held-out row it keeps). */
export function askedSlice(
  e: ModelEvidence,
  x: ViewContext,
  where: string,
  mask: Uint8Array,
): SlicesView['asked'] {
  return sliceRow(x, where, ev.sliceOf(mask, rowErrors(e)));
}

export function slices(
  e: ModelEvidence,
  x: ViewContext,
  opts: { depth?: number; asked?: { where: string; mask: Uint8Array } } = {},
): SlicesView {
  const err = rowErrors(e);
  const { root, leaves } = ev.findSlices(e.heldOut.rows, err, { maxDepth: opts.depth ?? 3 });
  const row = (where: string, s: { rows: number; error: number; share: number }) =>
    sliceRow(x, where, s);
  const asked = opts.asked ? askedSlice(e, x, opts.asked.where, opts.asked.mask) : null;
  return {
    metric: e.task === 'regression' ? 'mean_absolute_error' : 'error_rate',
    overall: num(root.error),
    rows: root.rows,
    tree: sliceNode(root),
    slices: leaves.map((l) => row(l.where, l)),
    asked,
  };
}

export function groups(
  e: ModelEvidence,
  x: ViewContext,
  opts: { column: string; threshold?: number; positive?: string },
): GroupsView {
  const g = grouping(e, opts.column);
  const h = e.heldOut;
  const inModel = x.description.inputs.includes(g.column);
  const warnings: string[] = [];
  if (e.task === 'regression') {
    const rows = ev.regressionGroups(g, h.actual, h.predicted);
    for (const r of rows)
      if (r.small) warnings.push(`${g.column} = ${r.label}: ${r.small}; not judged.`);
    return {
      column: g.column,
      in_model: inModel,
      task: x.description.timeseries ? 'forecast' : e.task,
      positive: null,
      threshold: null,
      groups: rows.map((r) => ({
        label: r.label,
        where: r.where,
        rows: r.rows,
        small: r.small,
        mae: num(r.mae),
        bias: num(r.bias),
        mae_ratio: num(r.maeRatio),
      })),
      four_fifths: { applies: false, min_ratio: null, flagged: [] },
      warnings,
    };
  }
  const k = positiveIndex(e, opts.positive, x.saved);
  const actualPos = isPositive(e, k);
  const t = opts.threshold ?? null;
  if (t !== null && e.task !== 'binary')
    throw badInput('A threshold applies to binary classifiers only');
  const predPos =
    t !== null
      ? Float64Array.from(probabilityOf(e, k), (p) => (p >= t ? 1 : 0))
      : Float64Array.from(h.predicted, (c) => (c === k ? 1 : 0));
  const rows = ev.classGroups(g, actualPos, predPos);
  const judged = rows.filter((r) => !r.small && Number.isFinite(r.selectionRatio));
  const minRatio = judged.length ? Math.min(...judged.map((r) => r.selectionRatio)) : NaN;
  const flagged = judged.filter((r) => r.selectionRatio < ev.FOUR_FIFTHS).map((r) => r.label);
  for (const r of rows)
    if (r.small) warnings.push(`${g.column} = ${r.label}: ${r.small}; not judged.`);
  if (flagged.length) {
    warnings.push(
      `Selection rate of ${flagged.join(', ')} is below four fifths of the highest group's: a sign of adverse impact to look into.`,
    );
  }
  return {
    column: g.column,
    in_model: inModel,
    task: e.task,
    positive: e.classes![k],
    threshold: t,
    groups: rows.map((r) => ({
      label: r.label,
      where: r.where,
      rows: r.rows,
      small: r.small,
      accuracy: num(r.accuracy),
      tpr: num(r.tpr),
      fpr: num(r.fpr),
      selection_rate: num(r.selectionRate),
      selection_ratio: num(r.selectionRatio),
      tpr_ratio: num(r.tprRatio),
    })),
    four_fifths: { applies: true, min_ratio: num(minRatio), flagged },
    warnings,
  };
}
