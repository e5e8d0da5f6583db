/**
 * Threshold and cost: drag a threshold and watch the confusion matrix, precision, recall and the
 * share flagged change (computed here from the held-out counts: one frame per drag), the ROC,
 * precision-recall and gains curves mark where it is, and a payoff matrix in the user's words and
 * currency gives a profit curve and the best threshold. Saving makes a new version that predicts
 * with it; Undo makes the previous version serve again.
 */
import { useMemo } from 'react';
import type { ThresholdView as View } from '../../../../../contract/evaluation';
import { Card } from '../../../../components/ui/Card';
import { formatNumber, formatPercent } from '../../shared';
import type { EvaluationTarget } from '../api';
import { PayoffCard } from './PayoffCard';
import { SaveThreshold } from './SaveThreshold';
import { ThresholdCurves } from './ThresholdCurves';
import {
  outcomeNames,
  parsePayoff,
  type PayoffText,
  profitPoints,
  thresholdModel,
} from './threshold-model';

export interface ThresholdViewProps {
  view: View;
  target: EvaluationTarget;
  /** The version shown (what Undo after a save makes serve again). */
  baseVersion: number;
  /** The threshold looked at; null: the one the version decides with (0.5 when none is saved). */
  threshold: number | null;
  onThreshold(t: number): void;
  payoffText: PayoffText;
  onPayoffText(p: PayoffText): void;
  theme: 'light' | 'dark';
}

export function ThresholdView({
  view,
  target,
  baseVersion,
  threshold: asked,
  onThreshold,
  payoffText,
  onPayoffText,
  theme,
}: ThresholdViewProps) {
  const threshold = asked ?? view.decision?.threshold ?? 0.5;
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
        <ThresholdCurves view={view} at={p} threshold={threshold} theme={theme} />
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
