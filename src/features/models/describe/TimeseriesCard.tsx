/** The Describe tab's card for a time-series model. */
import type { DescribeTimeseries } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { formatMetric } from '../shared';

/** A time-series model's clauses, frequency, selected candidate and accuracy per forecast step. */
export function TimeseriesCard({ ts }: { ts: DescribeTimeseries }) {
  const settings: [string, string][] = [
    ['ORDER BY', ts.order_by],
    ['GROUP BY', ts.group_by.length ? ts.group_by.join(', ') : '—'],
    ['WINDOW', String(ts.window)],
    ['HORIZON', String(ts.horizon)],
    ['Frequency', ts.frequency],
    ['Selected', ts.selected],
  ];
  return (
    <Card
      title="Time series"
      label="Time series"
      actions={
        <span className="muted small">
          per step on the time-ordered validation split; MASE &lt; 1 beats seasonal-naive
        </span>
      }
    >
      <dl className="m-ts-settings">
        {settings.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <table className="m-table" aria-label="Accuracy per forecast step">
        <thead>
          <tr>
            <th>Step</th>
            <th className="num">MASE</th>
            <th className="num">MAE</th>
            <th className="num">Interval coverage</th>
          </tr>
        </thead>
        <tbody>
          {ts.horizon_accuracy.map((h) => (
            <tr key={h.step}>
              <td>{h.step}</td>
              <td className="num">{formatMetric(h.mase)}</td>
              <td className="num">{formatMetric(h.mae)}</td>
              <td className="num">{formatMetric(h.coverage)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
