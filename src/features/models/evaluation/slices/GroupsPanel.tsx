/**
 * For whom: metrics per group of any column (an input or not, e.g. gender), the selection-rate
 * ratios against the four-fifths rule, and warnings for groups too small to judge.
 */
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { EvaluationColumn } from '../../../../../contract';
import { Card } from '../../../../components/ui/Card';
import { type EvaluationTarget, groupsQuery } from '../api';
import { fourFifthsSentence, groupsTable } from './groups-model';

export function GroupsPanel({
  target,
  columns,
  column,
  onColumn,
  threshold,
}: {
  target: EvaluationTarget;
  columns: z.infer<typeof EvaluationColumn>[];
  column: string;
  onColumn(c: string): void;
  /** A binary classifier's threshold being looked at (absent: the one in use). */
  threshold?: number;
}) {
  const q = useQuery({
    ...groupsQuery(target, { column, threshold }),
    enabled: column !== '',
  });
  const t = q.data ? groupsTable(q.data) : null;
  return (
    <Card title="For whom it works" label="Group metrics">
      <label className="ev-field ev-inline">
        <span>Groups of</span>
        <select value={column} onChange={(e) => onColumn(e.target.value)}>
          <option value="">(choose a column)</option>
          {columns
            .filter((c) => c.kind !== 'text')
            .map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
                {c.in_model ? '' : ' (not an input)'}
              </option>
            ))}
        </select>
      </label>
      {threshold !== undefined && (
        <p className="muted small">
          At threshold {threshold.toFixed(3)}, as in Threshold and cost.
        </p>
      )}
      {column && q.isPending && <p className="muted">Loading the groups…</p>}
      {q.isError && (
        <p className="m-error" role="alert">
          {q.error.message}
        </p>
      )}
      {q.data && t && (
        <>
          <p className={q.data.four_fifths.flagged.length ? 'ev-warn-text' : undefined}>
            {fourFifthsSentence(q.data)}
          </p>
          <div className="ev-scroll">
            <table className="m-table ev-groups">
              <caption className="ev-sr-only">Metrics per group of {q.data.column}</caption>
              <thead>
                <tr>
                  {t.head.map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                  <th scope="col">Note</th>
                </tr>
              </thead>
              <tbody>
                {t.rows.map((r) => (
                  <tr key={r.where} className={r.flagged ? 'ev-flagged' : undefined}>
                    <th scope="row">{r.cells[0]}</th>
                    {r.cells.slice(1).map((c, i) => (
                      <td key={i} className="num">
                        {c}
                      </td>
                    ))}
                    <td>{r.small ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {q.data.warnings.map((w, i) => (
            <p key={i} className="muted small">
              {w}
            </p>
          ))}
        </>
      )}
    </Card>
  );
}
