/**
 * The evaluation views in SQL, MindsDB's way: `DESCRIBE [p.]m[.version].<view>` answers a table
 * (DESCRIBE m.model already lists candidates the same way). Each is the REST view flattened into
 * rows: the same computation (views.ts), one row per candidate, curve point, bin, slice or group.
 */
import { bestThreshold, cumulate, pointAt, stepOf } from '../../../contract/threshold';
import type { JsonValue } from '../../engine/values';
import type { EvaluationRef, ModelEvaluation } from './service';

export const EVALUATION_ATTRIBUTES = [
  'leaderboard',
  'roc',
  'precision_recall',
  'gains',
  'threshold',
  'calibration',
  'intervals',
  'slices',
  'groups',
] as const;

type Row = Record<string, JsonValue>;

/** Thresholds DESCRIBE m.threshold lists (and the current and saved ones). */
const THRESHOLD_ROWS = Array.from({ length: 19 }, (_, k) => (k + 1) / 20);

export async function describeEvaluation(
  evaluation: ModelEvaluation,
  ref: EvaluationRef,
  view: string,
): Promise<Row[]> {
  switch (view) {
    case 'leaderboard': {
      const l = await evaluation.leaderboard(ref);
      return l.candidates.map((c) => ({
        name: c.name,
        selected: c.selected,
        metric: c.score.name,
        score: c.score.value,
        other_metric: c.other?.name ?? null,
        other_score: c.other?.value ?? null,
        fit_seconds: c.fit_seconds,
        predict_rows_per_second: c.predict_rows_per_second,
        size_bytes: c.size_bytes,
        using_model: c.using,
      }));
    }
    case 'roc':
    case 'precision_recall':
    case 'gains': {
      const t = await evaluation.threshold(ref);
      const cls = t.positive;
      if (view === 'roc')
        return t.roc.fpr.map((fpr, i) => ({
          class: cls,
          false_positive_rate: fpr,
          true_positive_rate: t.roc.tpr[i],
          auc: t.roc.auc,
        }));
      if (view === 'precision_recall')
        return t.pr.recall.map((recall, i) => ({
          class: cls,
          recall,
          precision: t.pr.precision[i],
          average_precision: t.pr.average_precision,
        }));
      return t.gains.map((g) => ({
        class: cls,
        share_targeted: g.share,
        share_found: g.gain,
        lift: g.lift,
      }));
    }
    case 'threshold': {
      const t = await evaluation.threshold(ref);
      const c = cumulate(t.table);
      const payoff = t.saved?.payoff ?? null;
      const marks = new Map<number, string>();
      for (const x of THRESHOLD_ROWS) marks.set(stepOf(c, x), '');
      if (t.decision) marks.set(stepOf(c, t.decision.threshold), 'decides now');
      if (payoff)
        marks.set(stepOf(c, bestThreshold(c, payoff).threshold), 'best for the saved payoff');
      if (t.saved) marks.set(stepOf(c, t.saved.threshold), 'saved');
      return [...marks.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([k, note]) => {
          const p = pointAt(c, k, payoff);
          return {
            class: t.positive,
            threshold: p.threshold,
            flagged_share: p.flagged,
            precision: p.precision,
            recall: p.recall,
            false_positive_rate: p.fpr,
            accuracy: p.accuracy,
            true_positives: p.tp,
            false_positives: p.fp,
            true_negatives: p.tn,
            false_negatives: p.fn,
            profit: p.profit,
            note: note || null,
          };
        });
    }
    case 'calibration': {
      const r = await evaluation.calibration(ref);
      return r.bins.map((b) => ({
        kind: r.kind,
        class: r.positive,
        from: b.from,
        to: b.to,
        rows: b.rows,
        mean_predicted: b.predicted,
        observed: b.observed,
        brier: r.brier,
        ece: r.ece,
      }));
    }
    case 'intervals': {
      const r = await evaluation.intervals(ref);
      const row = (by: string, c: (typeof r)['overall']) => ({
        by,
        label: c.label,
        rows: c.rows,
        level: r.level,
        coverage: c.coverage,
        mean_width: c.mean_width,
        above: c.above,
        below: c.below,
      });
      return [
        row('overall', r.overall),
        ...r.by_decile.map((c) => row('predicted decile', c)),
        ...(r.by_step ?? []).map((c) => row('forecast step', c)),
      ];
    }
    case 'slices': {
      const r = await evaluation.slices(ref);
      return r.slices.map((s, i) => ({
        rank: i + 1,
        where_clause: s.where,
        rows: s.rows,
        [r.metric]: s.error,
        share_of_errors: s.share,
      }));
    }
    default: {
      // groups: every column with categories (or number ranges) of the held-out rows.
      const sum = await evaluation.summary(ref);
      const out: Row[] = [];
      for (const col of sum.columns.filter((c) => c.kind !== 'text')) {
        const g = await evaluation.groups(ref, { column: col.name });
        for (const r of g.groups) {
          out.push({
            column: g.column,
            in_model: g.in_model,
            group: r.label,
            rows: r.rows,
            ...(r.mae !== undefined
              ? { mae: r.mae, bias: r.bias ?? null, mae_ratio: r.mae_ratio ?? null }
              : {
                  accuracy: r.accuracy ?? null,
                  true_positive_rate: r.tpr ?? null,
                  false_positive_rate: r.fpr ?? null,
                  selection_rate: r.selection_rate ?? null,
                  selection_ratio: r.selection_ratio ?? null,
                  below_four_fifths:
                    r.small || r.selection_ratio === null || r.selection_ratio === undefined
                      ? null
                      : r.selection_ratio < 0.8,
                }),
            note: r.small,
          });
        }
      }
      return out;
    }
  }
}
