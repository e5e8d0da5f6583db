/**
 * Interval audit: achieved coverage and mean width against the promised level, per decile of the
 * predicted value, per forecast step, per segment of a chosen column, and the rows outside.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CoverageCell, EvaluationColumn } from '../../../../../contract';
import { Card } from '../../../../components/ui/Card';
import { formatNumber, formatPercent, NumbersTable } from '../../shared';
import { type EvaluationTarget, intervalsQuery } from '../api';
import { brokenPromises, coverageVerdict, VERDICT_WORDS } from './coverage-model';
import { EvalChart } from '../EvalChart';

type Cell = z.infer<typeof CoverageCell>;

export function IntervalsPanel({
  target,
  columns,
  theme,
  column,
  onColumn: setColumn,
}: {
  target: EvaluationTarget;
  columns: z.infer<typeof EvaluationColumn>[];
  theme: 'light' | 'dark';
  /** The column to cut by ('' for none), kept by the tab in the URL. */
  column: string;
  onColumn(column: string): void;
}) {
  const q = useQuery(intervalsQuery(target, column || undefined));
  const segmentable = columns.filter((c) => c.kind !== 'text');
  return (
    <Card title="Do the intervals hold?" label="Interval audit">
      <label className="ev-field ev-inline">
        <span>Also by segments of</span>
        <select value={column} onChange={(e) => setColumn(e.target.value)}>
          <option value="">(no column)</option>
          {segmentable.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
              {c.in_model ? '' : ' (not an input)'}
            </option>
          ))}
        </select>
      </label>
      {q.isPending && <p className="muted">Loading the interval audit…</p>}
      {q.isError && (
        <p className="m-error" role="alert">
          Could not audit the intervals: {q.error.message}
        </p>
      )}
      {q.data && (
        <>
          <p>
            Promised: {formatPercent(q.data.level)} of actual values inside the interval. Achieved
            on held-out rows: <strong>{formatPercent(q.data.overall.coverage)}</strong> (
            {q.data.outside.total.toLocaleString('en-US')} rows outside).{' '}
            {summary(
              [...q.data.by_decile, ...(q.data.by_segment?.cells ?? []), ...(q.data.by_step ?? [])],
              q.data.level,
            )}
          </p>
          <EvalChart
            title="Coverage per decile of the predicted value"
            description={`Share of held-out rows inside their interval per decile of the predicted value, against the promised ${formatPercent(q.data.level)}`}
            x={{ label: 'decile of the predicted value (1 = lowest)', domain: [1, 10] }}
            y={{ label: 'rows inside the interval (%)', domain: [0, 1] }}
            percentAxes={false}
            series={[
              {
                name: 'achieved',
                points: q.data.by_decile.map((c, i) => ({ x: i + 1, y: c.coverage })),
              },
              {
                name: 'promised',
                points: [
                  { x: 1, y: q.data.level },
                  { x: 10, y: q.data.level },
                ],
                dashed: true,
              },
            ]}
            table={{ caption: 'Coverage per decile', ...cellTable(q.data.by_decile, q.data.level) }}
            theme={theme}
          />
          {q.data.by_step && (
            <CellTable title="Per forecast step" cells={q.data.by_step} level={q.data.level} />
          )}
          {q.data.by_segment && (
            <CellTable
              title={`Per segment of ${q.data.by_segment.column}`}
              cells={q.data.by_segment.cells}
              level={q.data.level}
            />
          )}
          {q.data.outside.rows.length > 0 && (
            <details className="ev-numbers">
              <summary>
                The rows outside their interval, farthest first ({q.data.outside.rows.length} of{' '}
                {q.data.outside.total.toLocaleString('en-US')})
              </summary>
              <div className="ev-scroll">
                <table className="m-table">
                  <thead>
                    <tr>
                      <th scope="col">Actual</th>
                      <th scope="col">Predicted</th>
                      <th scope="col">Interval</th>
                      {q.data.outside.columns.map((c) => (
                        <th scope="col" key={c}>
                          {c}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {q.data.outside.rows.map((r, i) => (
                      <tr key={i}>
                        <td className="num">{formatNumber(r.actual)}</td>
                        <td className="num">{formatNumber(r.predicted)}</td>
                        <td className="num">
                          {formatNumber(r.lower)} – {formatNumber(r.upper)}
                        </td>
                        {r.values.map((v, j) => (
                          <td key={j}>{v === null ? '—' : String(v)}</td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          )}
        </>
      )}
    </Card>
  );
}

function summary(cells: Cell[], level: number): string {
  const broken = brokenPromises(cells, level);
  if (broken.length === 0) return 'No decile, step or segment falls clearly below the promise.';
  return `Below the promise: ${broken
    .slice(0, 3)
    .map((c) => `${c.label} (${formatPercent(c.coverage)})`)
    .join(', ')}${broken.length > 3 ? ` and ${broken.length - 3} more` : ''}.`;
}

function cellTable(cells: Cell[], level: number) {
  return {
    head: ['Rows', 'Count', 'Coverage', 'Mean width', 'Above / below', 'Verdict'],
    rows: cells.map((c) => [
      c.label,
      c.rows.toLocaleString('en-US'),
      formatPercent(c.coverage),
      formatNumber(c.mean_width),
      `${c.above} / ${c.below}`,
      VERDICT_WORDS[coverageVerdict(c, level)],
    ]),
  };
}

function CellTable({ title, cells, level }: { title: string; cells: Cell[]; level: number }) {
  return (
    <div className="ev-scroll">
      <NumbersTable caption={title} {...cellTable(cells, level)} />
    </div>
  );
}
