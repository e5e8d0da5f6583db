/**
 * Where it is wrong: the slices with the most errors, found by a shallow tree over held-out
 * errors, each a SQL WHERE that opens in a new editor tab; and any WHERE the user writes, judged
 * on the same rows.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Card } from '../../../../components/ui/Card';
import { formatPercent } from '../../shared';
import { type EvaluationTarget, slicesQuery } from '../api';
import { errorText, sliceTreeRows, whereProblem } from './slices-model';

export function SlicesPanel({
  target,
  onOpenSql,
  asked,
  onAsk,
}: {
  target: EvaluationTarget;
  onOpenSql(sql: string): void;
  /** The WHERE asked (kept by the tab in the URL, so a shared link judges it again). */
  asked: string | undefined;
  onAsk(where: string): void;
}) {
  const [draft, setDraft] = useState(asked ?? '');
  const q = useQuery(slicesQuery(target, asked));
  const problem = whereProblem(draft);
  if (q.isPending && !asked) return <p className="muted">Finding where it is wrong…</p>;
  const v = q.data;
  const metric = v?.metric === 'mean_absolute_error' ? 'Mean absolute error' : 'Error rate';
  return (
    <Card title="Where it is wrong" label="Error slices">
      {q.isError && (
        <p className="m-error" role="alert">
          {q.error.message}
        </p>
      )}
      {v && (
        <>
          <p className="muted">
            {metric} on {v.rows.toLocaleString('en-US')} held-out rows:{' '}
            <strong>{errorText(v.metric, v.overall)}</strong>. The slices below, found by a shallow
            tree over the rows&apos; columns, hold the most errors; open one as SQL to look at its
            rows.
          </p>
          <div className="ev-scroll">
            <table className="m-table ev-slices">
              <caption className="ev-sr-only">Slices with the highest error first</caption>
              <thead>
                <tr>
                  <th scope="col">Slice (SQL WHERE)</th>
                  <th scope="col">{metric}</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Share of all errors</th>
                  <th scope="col">
                    <span className="ev-sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {v.slices.map((s) => (
                  <tr key={s.where}>
                    <th scope="row">
                      <code>{s.where || 'all rows'}</code>
                    </th>
                    <td className="num">{errorText(v.metric, s.error)}</td>
                    <td className="num">{s.rows.toLocaleString('en-US')}</td>
                    <td className="num">{formatPercent(s.share)}</td>
                    <td>
                      <button
                        type="button"
                        className="btn small"
                        onClick={() => onOpenSql(s.sql)}
                        aria-label={`Open ${s.where || 'all rows'} in the SQL editor`}
                      >
                        Open in SQL
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <details className="ev-numbers">
            <summary>The whole tree</summary>
            <table className="m-table">
              <caption className="ev-sr-only">Error tree, each level a further condition</caption>
              <thead>
                <tr>
                  <th scope="col">Condition</th>
                  <th scope="col">{metric}</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Share of errors</th>
                </tr>
              </thead>
              <tbody>
                {sliceTreeRows(v.tree).map((r) => (
                  <tr key={r.where || 'all'}>
                    <td style={{ paddingLeft: `${0.6 + r.depth * 1.2}em` }}>
                      <code>{r.condition}</code>
                    </td>
                    <td className="num">{errorText(v.metric, r.error)}</td>
                    <td className="num">{r.rows.toLocaleString('en-US')}</td>
                    <td className="num">{formatPercent(r.share)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
      <form
        className="ev-where"
        onSubmit={(e) => {
          e.preventDefault();
          if (!problem) onAsk(draft.trim());
        }}
      >
        <label className="ev-field">
          <span>Judge your own slice: a SQL WHERE over the model&apos;s columns</span>
          <input
            type="text"
            value={draft}
            placeholder="age > 50 AND geography = 'Germany'"
            spellCheck={false}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={draft !== '' && problem !== null}
          />
        </label>
        <button type="submit" className="btn" disabled={problem !== null}>
          Judge this slice
        </button>
      </form>
      {draft !== '' && problem && <p className="muted small">{problem}</p>}
      {asked && q.isPending && <p className="muted">Judging the slice…</p>}
      {v?.asked && (
        <p role="status" className="ev-asked">
          <code>{v.asked.where}</code>: {errorText(v.metric, v.asked.error)} on{' '}
          {v.asked.rows.toLocaleString('en-US')} rows ({formatPercent(v.asked.share)} of all
          errors), against {errorText(v.metric, v.overall)} overall.{' '}
          <button type="button" className="btn small" onClick={() => onOpenSql(v.asked!.sql)}>
            Open in SQL
          </button>
        </p>
      )}
    </Card>
  );
}
