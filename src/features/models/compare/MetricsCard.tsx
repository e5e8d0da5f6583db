/** The compared metrics, aligned by meaning, the better side marked. */
import { Card } from '../../../components/ui/Card';
import { formatMetric, formatPercent } from '../shared';
import type { MetricRow } from './compare';

function metricText(v: number | null, kind: MetricRow['kind']): string {
  if (v === null) return '—';
  if (kind === 'share') return formatPercent(v);
  return kind === 'count' ? v.toLocaleString('en-US') : formatMetric(v);
}

export function MetricsCard({
  rows,
  nameA,
  nameB,
}: {
  rows: MetricRow[];
  nameA: string;
  nameB: string;
}) {
  return (
    <Card title="Metrics" label="Compared metrics">
      <table className="m-table" aria-label="Compared metrics">
        <thead>
          <tr>
            <th>Metric</th>
            <th className="num">{nameA}</th>
            <th className="num">{nameB}</th>
            <th className="muted">Better</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>
                {r.name}
                {r.higherIsBetter !== null && (
                  <span className="muted small">
                    {' '}
                    ({r.higherIsBetter ? 'higher' : 'lower'} is better)
                  </span>
                )}
              </td>
              <td className={`num${r.better === 'a' ? ' m-better' : ''}`}>
                {metricText(r.a, r.kind)}
              </td>
              <td className={`num${r.better === 'b' ? ' m-better' : ''}`}>
                {metricText(r.b, r.kind)}
              </td>
              <td className="muted">
                {r.better === 'a'
                  ? nameA
                  : r.better === 'b'
                    ? nameB
                    : r.better === 'tie'
                      ? 'same'
                      : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
