/**
 * What mistakes cost: the payoff matrix in the user's words and currency, the profit curve it
 * gives over every threshold, and the best threshold one click away.
 */
import { Card } from '../../../../components/ui/Card';
import { formatNumber } from '../../shared';
import { EvalChart } from '../EvalChart';
import type { outcomeNames, PayoffText, profitPoints } from './threshold-model';

export function PayoffCard({
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
