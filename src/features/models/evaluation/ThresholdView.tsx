/**
 * Threshold and cost: drag a threshold and watch the confusion matrix, precision, recall and the
 * share flagged change (computed here from the held-out counts: one frame per drag), the ROC,
 * precision-recall and gains curves mark where it is, and a payoff matrix in the user's words and
 * currency gives a profit curve and the best threshold. Saving makes a new version that predicts
 * with it; Undo makes the previous version serve again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { ThresholdView as View } from '../../../../contract/evaluation';
import { modelKeys } from '../../../api/keys';
import { runSql } from '../../../api/sql-query';
import { Card } from '../../../components/ui/Card';
import { formatNumber, formatPercent } from '../shared';
import { type EvaluationTarget, saveThresholdMutation } from './api';
import { EvalChart } from './EvalChart';
import {
  gainsPoints,
  outcomeNames,
  type Payoff,
  parsePayoff,
  prPoints,
  profitPoints,
  rocPoints,
  thresholdModel,
} from './threshold-model';

export interface PayoffText {
  tp: string;
  fp: string;
  tn: string;
  fn: string;
  currency: string;
  positiveName: string;
  negativeName: string;
}

export function ThresholdView({
  view,
  target,
  baseVersion,
  threshold,
  onThreshold,
  payoffText,
  onPayoffText,
  theme,
}: {
  view: View;
  target: EvaluationTarget;
  /** The version shown (what Undo after a save makes serve again). */
  baseVersion: number;
  threshold: number;
  onThreshold(t: number): void;
  payoffText: PayoffText;
  onPayoffText(p: PayoffText): void;
  theme: 'light' | 'dark';
}) {
  const model = useMemo(() => thresholdModel(view), [view]);
  const payoff = parsePayoff(payoffText);
  const hasPayoff = payoff !== null && Object.values(payoff).some((v) => v !== 0);
  const p = model.at(threshold, hasPayoff ? payoff : null);
  const profit = useMemo(
    () => (hasPayoff && payoff ? profitPoints(model, payoff) : null),
    // The payoff's text is its identity: a new object each render must not recompute.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [model, hasPayoff, payoffText.tp, payoffText.fp, payoffText.tn, payoffText.fn],
  );
  const pos = payoffText.positiveName || String(view.positive);
  const neg = payoffText.negativeName || (view.negative === null ? 'other' : String(view.negative));
  const names = outcomeNames(pos, neg);
  const cur = payoffText.currency || 'value';
  const pct = (x: number | null) => formatPercent(x);
  const t3 = threshold.toFixed(3);
  const binary = view.negative !== null;
  return (
    <>
      <Card title="Threshold" label="Threshold">
        {view.decision && (
          <p className="muted">
            The model decides now at {view.decision.threshold.toFixed(3)} (
            {view.decision.rule === 'threshold'
              ? 'a saved threshold'
              : `the ${view.decision.rule} rule`}
            ): rows whose probability of {`'${String(view.positive)}'`} is at least that are
            predicted {`'${String(view.positive)}'`}.
          </p>
        )}
        <div className="ev-threshold-row">
          <label className="ev-slider">
            <span>
              Threshold on P({String(view.positive)}): <strong>{t3}</strong>
            </span>
            <input
              type="range"
              min={0}
              max={1}
              step={0.001}
              value={threshold}
              aria-valuetext={`${t3}: ${pct(p.flagged)} of rows flagged`}
              onChange={(e) => onThreshold(Number(e.target.value))}
            />
          </label>
          <label className="ev-number">
            <span>Exact</span>
            <input
              type="number"
              min={0}
              max={1}
              step={0.001}
              value={t3}
              onChange={(e) => {
                const v = Number(e.target.value);
                if (Number.isFinite(v) && v >= 0 && v <= 1) onThreshold(v);
              }}
            />
          </label>
        </div>
        <div className="ev-live" aria-label={`At threshold ${t3}`}>
          <table className="m-table ev-confusion">
            <caption>
              {view.rows.toLocaleString('en-US')} held-out rows at threshold {t3}
            </caption>
            <thead>
              <tr>
                <th scope="col">actual \ predicted</th>
                <th scope="col">{pos}</th>
                <th scope="col">{neg}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{pos}</th>
                <td className="hit">{p.tp.toLocaleString('en-US')}</td>
                <td>{p.fn.toLocaleString('en-US')}</td>
              </tr>
              <tr>
                <th scope="row">{neg}</th>
                <td>{p.fp.toLocaleString('en-US')}</td>
                <td className="hit">{p.tn.toLocaleString('en-US')}</td>
              </tr>
            </tbody>
          </table>
          <dl className="ev-rates">
            <div>
              <dt>Precision</dt>
              <dd>{pct(p.precision)}</dd>
            </div>
            <div>
              <dt>Recall</dt>
              <dd>{pct(p.recall)}</dd>
            </div>
            <div>
              <dt>Flagged</dt>
              <dd>{pct(p.flagged)}</dd>
            </div>
            <div>
              <dt>False-positive rate</dt>
              <dd>{pct(p.fpr)}</dd>
            </div>
            {profit && (
              <div>
                <dt>Profit</dt>
                <dd>
                  {formatNumber(p.profit)} {cur}
                </dd>
              </div>
            )}
          </dl>
        </div>
      </Card>
      <div className="m-grid-2">
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
        {binary && (
          <PayoffCard
            text={payoffText}
            onText={onPayoffText}
            names={names}
            currency={cur}
            profit={profit}
            threshold={threshold}
            onThreshold={onThreshold}
            profitNow={p.profit}
            theme={theme}
          />
        )}
      </div>
      {binary && (
        <SaveThreshold
          view={view}
          target={target}
          baseVersion={baseVersion}
          threshold={threshold}
          payoff={hasPayoff ? payoff : null}
          currency={payoffText.currency}
        />
      )}
      {!view.savable.applies && <p className="muted">{view.savable.reason}</p>}
    </>
  );
}

function PayoffCard({
  text,
  onText,
  names,
  currency,
  profit,
  threshold,
  onThreshold,
  profitNow,
  theme,
}: {
  text: PayoffText;
  onText(p: PayoffText): void;
  names: ReturnType<typeof outcomeNames>;
  currency: string;
  profit: ReturnType<typeof profitPoints> | null;
  threshold: number;
  onThreshold(t: number): void;
  profitNow: number | null;
  theme: 'light' | 'dark';
}) {
  const field = (k: keyof PayoffText, label: string, type = 'text') => (
    <label className="ev-field">
      <span>{label}</span>
      <input
        type={type}
        inputMode={type === 'number' ? 'decimal' : undefined}
        value={text[k]}
        onChange={(e) => onText({ ...text, [k]: e.target.value })}
      />
    </label>
  );
  return (
    <Card title="What mistakes cost" label="Payoff matrix">
      <div className="ev-payoff-words">
        {field('positiveName', 'A positive is a')}
        {field('negativeName', 'A negative is a')}
        {field('currency', 'Currency')}
      </div>
      <p className="muted small">Value of each outcome per row, in {currency} (costs negative):</p>
      <div className="ev-payoff">
        {field('tp', names.tp, 'number')}
        {field('fn', names.fn, 'number')}
        {field('fp', names.fp, 'number')}
        {field('tn', names.tn, 'number')}
      </div>
      {profit ? (
        <>
          <p>
            Best threshold: <strong>{profit.best.threshold.toFixed(3)}</strong>, profit{' '}
            {formatNumber(profit.best.profit)} {currency} on the held-out rows (now{' '}
            {formatNumber(profitNow)}).{' '}
            <button type="button" onClick={() => onThreshold(profit.best.threshold)}>
              Use the best threshold
            </button>
          </p>
          <EvalChart
            title={`Profit by threshold (${currency})`}
            description={`Profit on the held-out rows at each threshold; the best is ${profit.best.threshold.toFixed(3)}, the marked point is the threshold chosen`}
            x={{ label: 'threshold', domain: [0, 1] }}
            y={{ label: `profit (${currency})` }}
            series={[
              {
                name: 'profit',
                points: profit.curve.map((q) => ({ x: q.threshold, y: q.profit })),
              },
            ]}
            marks={[{ x: threshold, y: profitNow ?? 0, label: 'chosen' }]}
            table={{
              caption: `Profit in ${currency} by threshold`,
              head: ['Threshold', `Profit (${currency})`],
              rows: profit.curve
                .filter((_, i) => i % 5 === 0)
                .map((q) => [q.threshold.toFixed(2), q.profit]),
            }}
            theme={theme}
          />
        </>
      ) : (
        <p className="muted">
          Enter what each outcome is worth to see the profit curve and the best threshold.
        </p>
      )}
    </Card>
  );
}

function SaveThreshold({
  view,
  target,
  baseVersion,
  threshold,
  payoff,
  currency,
}: {
  view: View;
  target: EvaluationTarget;
  /** The version shown, which Undo makes serve again. */
  baseVersion: number;
  threshold: number;
  payoff: Payoff | null;
  currency: string;
}) {
  const qc = useQueryClient();
  const save = useMutation({
    ...saveThresholdMutation(target),
    onSuccess: () =>
      qc.invalidateQueries({ queryKey: modelKeys.detail(target.project, target.model) }),
  });
  const [undone, setUndone] = useState<string | null>(null);
  const t = Number(threshold.toFixed(3));
  const undo = async (version: number) => {
    const r = await runSql({
      query: `SET model_active = ${target.project}.${target.model}.${version}`,
    });
    setUndone(r.type === 'error' ? r.error_message : `Version ${version} serves again.`);
    await qc.invalidateQueries({ queryKey: modelKeys.detail(target.project, target.model) });
  };
  return (
    <Card title="Save with the model" label="Save threshold">
      <p>
        Saving makes a new version that predicts {`'${String(view.positive)}'`} when its probability
        is at least {t}: predictions, DESCRIBE and the model card use it and say so. The current
        version stays, so it can be made to serve again.
      </p>
      <button
        type="button"
        className="primary"
        disabled={save.isPending || t <= 0 || t >= 1}
        onClick={() =>
          save.mutate({
            threshold: t,
            positive: view.positive,
            ...(payoff ? { payoff } : {}),
            ...(currency.trim() ? { currency: currency.trim().slice(0, 12) } : {}),
          })
        }
      >
        Save threshold {t}
      </button>
      {save.isError && <p role="alert">{save.error.message}</p>}
      {save.data && (
        <p role="status">
          Saved as version {save.data.version} (active).{' '}
          <button type="button" onClick={() => void undo(baseVersion)}>
            Undo: make version {baseVersion} serve again
          </button>
        </p>
      )}
      {undone && <p role="status">{undone}</p>}
    </Card>
  );
}
