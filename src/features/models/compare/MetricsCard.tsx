/**
 * The compared metrics, aligned by meaning, the better side marked; a side whose scores are
 * suspect (a likely leak, an identifier) has its "better" marked so, with the reasons above.
 */
import type { ModelWarning } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { formatMetric, formatPercent } from '../shared';
import { RankingCaveat, suspectReasons } from '../warnings';
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
  warningsA,
  warningsB,
}: {
  rows: MetricRow[];
  nameA: string;
  nameB: string;
  warningsA: readonly ModelWarning[];
  warningsB: readonly ModelWarning[];
}) {
  const suspectA = suspectReasons(warningsA).length > 0;
  const suspectB = suspectReasons(warningsB).length > 0;
  const better = (name: string, suspect: boolean) =>
    suspect ? (
      <span className="m-suspect" title="This side's scores are suspect: see above">
        {name} <span className="m-suspect-mark">(suspect)</span>
      </span>
    ) : (
      name
    );
  return (
    <Card title="Metrics" label="Compared metrics">
      <RankingCaveat
        models={[
          { name: nameA, warnings: warningsA },
          { name: nameB, warnings: warningsB },
        ]}
      />
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
                  ? better(nameA, suspectA)
                  : r.better === 'b'
                    ? better(nameB, suspectB)
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
