/** The Describe tab's card for a time-series model. */
import type { DescribeTimeseries } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { formatPercent, formatRatio, roundedColumnFormatter } from '../shared';
import { forecasterLabel } from './forecaster-label';
import { intervalCoverageTable } from './interval-coverage';

/**
 * A time-series model's clauses, frequency, selected candidate, accuracy per forecast step and,
 * where the instance describes it, each interval level's promised share beside the share it held.
 */
export function TimeseriesCard({ ts }: { ts: DescribeTimeseries }) {
  const formatMae = roundedColumnFormatter(ts.horizon_accuracy.map((h) => h.mae));
  const coverage = intervalCoverageTable(ts.coverage);
  const settings: [string, string][] = [
    ['ORDER BY', ts.order_by],
    ['GROUP BY', ts.group_by.length ? ts.group_by.join(', ') : '—'],
    ['WINDOW', String(ts.window)],
    ['HORIZON', String(ts.horizon)],
    ['Frequency', ts.frequency],
    ['Selected', forecasterLabel(ts.selected)],
  ];
  return (
    <Card
      title="Time series"
      label="Time series"
      actions={
        <span className="muted small">
          per step on the time-ordered validation split; an error under 1× beats repeating last
          season
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
            <th className="num">Error vs repeating last season (MASE)</th>
            <th className="num">Typical miss (MAE)</th>
            <th className="num">Actual values inside the interval</th>
          </tr>
        </thead>
        <tbody>
          {ts.horizon_accuracy.map((h) => (
            <tr key={h.step}>
              <td>{h.step}</td>
              <td className="num">{formatRatio(h.mase)}</td>
              <td className="num">{formatMae(h.mae)}</td>
              <td className="num">{formatPercent(h.coverage)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {coverage && (
        <table className="m-table m-ts-coverage">
          <caption>{coverage.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Forecast step</th>
              {coverage.levels.map((l) => (
                <th key={l} scope="col" className="num">
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {coverage.rows.map((r) => (
              <tr key={r.label}>
                <th scope="row">{r.label}</th>
                {r.cells.map((c, i) => (
                  <td key={coverage.levels[i]} className="num">
                    {c.held} <span className="muted small">({c.gap})</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
