/**
 * The threshold view's curves, each marking where the chosen threshold sits: ROC, precision
 * against recall, and cumulative gains, with the random (or flag-everyone) line to beat.
 */
import type { ThresholdView as View } from '../../../../../contract/evaluation';
import { formatNumber, formatPercent } from '../../shared';
import { EvalChart } from '../EvalChart';
import { gainsPoints, prPoints, rocPoints, type ThresholdModel } from './threshold-model';

export function ThresholdCurves({
  view,
  at: p,
  threshold,
  theme,
}: {
  view: View;
  /** The counts and rates at the chosen threshold. */
  at: ReturnType<ThresholdModel['at']>;
  threshold: number;
  theme: 'light' | 'dark';
}) {
  const pct = (x: number | null) => formatPercent(x);
  const t3 = threshold.toFixed(3);
  return (
    <>
      <EvalChart
        title={`ROC curve for '${String(view.positive)}' (AUC ${formatNumber(view.roc.auc)})`}
        description={`ROC curve: true-positive rate against false-positive rate; area under the curve ${formatNumber(view.roc.auc)}; the marked point is threshold ${t3}`}
        x={{ label: 'false-positive rate (% of negatives flagged)', domain: [0, 1] }}
        y={{ label: 'true-positive rate (% found)', domain: [0, 1] }}
        percentAxes
        series={[
          { name: 'this model', points: rocPoints(view) },
          {
            name: 'random ranking',
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ],
            dashed: true,
          },
        ]}
        marks={[{ x: p.fpr ?? 0, y: p.recall ?? 0, label: `threshold ${t3}` }]}
        table={{
          caption: 'ROC curve points',
          head: ['False-positive rate', 'True-positive rate'],
          rows: rocPoints(view).map((q) => [pct(q.x), pct(q.y)]),
        }}
        theme={theme}
      />
      <EvalChart
        title={`Precision and recall (average precision ${formatNumber(view.pr.average_precision)})`}
        description={`Precision against recall; the marked point is threshold ${t3}`}
        x={{ label: 'recall (% of positives found)', domain: [0, 1] }}
        y={{ label: 'precision (% of flagged that are positive)', domain: [0, 1] }}
        percentAxes
        series={[
          { name: 'this model', points: prPoints(view).points },
          {
            name: 'flagging everyone',
            points: [
              { x: 0, y: prPoints(view).base },
              { x: 1, y: prPoints(view).base },
            ],
            dashed: true,
          },
        ]}
        marks={[{ x: p.recall ?? 0, y: p.precision ?? 1, label: `threshold ${t3}` }]}
        table={{
          caption: 'Precision-recall curve points',
          head: ['Recall', 'Precision'],
          rows: prPoints(view).points.map((q) => [pct(q.x), pct(q.y)]),
        }}
        theme={theme}
      />
      <EvalChart
        title="Cumulative gains"
        description={`Share of '${String(view.positive)}' rows found when flagging the highest-scored share of rows; the marked point is threshold ${t3}`}
        x={{ label: 'rows flagged, highest scores first (%)', domain: [0, 1] }}
        y={{ label: `'${String(view.positive)}' rows found (%)`, domain: [0, 1] }}
        percentAxes
        series={[
          {
            name: 'this model',
            points: gainsPoints(view).map((g) => ({ x: g.share, y: g.gain })),
          },
          {
            name: 'random order',
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ],
            dashed: true,
          },
        ]}
        marks={[{ x: p.flagged, y: p.recall ?? 0, label: `threshold ${t3}` }]}
        table={{
          caption: 'Cumulative gains and lift',
          head: ['Rows flagged', 'Positives found', 'Lift'],
          rows: view.gains
            .filter((_, i) => i % 10 === 9)
            .map((g) => [pct(g.share), pct(g.gain), formatNumber(g.lift)]),
        }}
        theme={theme}
      />
    </>
  );
}
