/**
 * Both models' predictions on the same rows: the first rows of the training data of the side whose
 * inputs cover the other's, each side sent only the columns it knows.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DescribeSummaryRow } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { predict } from '../api';
import { toPredictionViews } from '../inputs';
import { columnFormatter, formatNumber, formatPercent } from '../shared';
import {
  comparePredictions,
  formatModelRef,
  rowsSource,
  type ModelRef,
  type PredictionComparison,
} from './compare';
import { trainingRowsQueryOptions } from './training-rows';
import type { Side } from './use-compare-side';

export const COMPARE_ROW_CHOICES = [10, 25, 50] as const;

/** Only the columns a model knows (its inputs and target): the server refuses others. */
function rowsFor(
  rows: Record<string, unknown>[],
  d: DescribeSummaryRow,
): Record<string, unknown>[] {
  const known = new Set([...d.inputs, ...d.outputs].map((c) => c.toLowerCase()));
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).filter(([k]) => known.has(k.toLowerCase()))),
  );
}

function predictionSummary(c: PredictionComparison, nameA: string, nameB: string): string {
  const n = c.pairs.length;
  if (n === 0) return '';
  if (c.numeric) {
    const parts = [
      `On these ${n} rows the two differ by ${formatNumber(c.meanAbsDiff)} on average (at most ${formatNumber(c.maxAbsDiff)}).`,
    ];
    if (c.errorA !== null && c.errorB !== null)
      parts.push(
        `Against the actual values ${nameA} is off by ${formatNumber(c.errorA)} on average, ${nameB} by ${formatNumber(c.errorB)}.`,
      );
    return parts.join(' ');
  }
  const parts = [`They agree on ${c.agreeing} of ${n} rows.`];
  if (c.errorA !== null && c.errorB !== null)
    parts.push(
      `${nameA} is right on ${formatPercent(c.errorA, 0)} of them, ${nameB} on ${formatPercent(c.errorB, 0)}.`,
    );
  return parts.join(' ');
}

export function PredictionsCard({
  refA,
  refB,
  A,
  B,
  nameA,
  nameB,
  rowCount,
  onRowCount,
}: {
  refA: ModelRef;
  refB: ModelRef;
  A: Side;
  B: Side;
  nameA: string;
  nameB: string;
  rowCount: number;
  onRowCount(n: number): void;
}) {
  const pick = rowsSource(A.describe?.inputs ?? [], B.describe?.inputs ?? []);
  const source =
    pick.side === 'a' && A.chosen?.selectDataQuery ? A : B.chosen?.selectDataQuery ? B : A;
  const otherName = source === A ? nameB : nameA;
  const rowsQ = useQuery(
    trainingRowsQueryOptions(
      source.ref?.project ?? '',
      source.ref?.model ?? '',
      source.chosen?.selectDataQuery,
      rowCount,
    ),
  );
  const rows = rowsQ.data;
  const [pa, pb] = useQueries({
    queries: [
      { side: refA, d: A.describe },
      { side: refB, d: B.describe },
    ].map(({ side, d }) => ({
      queryKey: ['compare-predict', formatModelRef(side), rowCount, rows ?? null] as const,
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        predict({
          project: side.project,
          model: side.model,
          version: side.version,
          body: rowsFor(rows ?? [], d!),
          signal,
        }),
      enabled: !!rows && rows.length > 0 && !!d,
      staleTime: 60_000,
      retry: false,
    })),
  });
  const targetA = A.describe?.outputs[0];
  const targetB = B.describe?.outputs[0];
  const cmp = useMemo(() => {
    if (!rows || !pa.data || !pb.data || !targetA || !targetB) return null;
    return comparePredictions(
      rows,
      targetA === targetB ? targetA : undefined,
      toPredictionViews(pa.data.rows, targetA, []),
      toPredictionViews(pb.data.rows, targetB, []),
    );
  }, [rows, pa.data, pb.data, targetA, targetB]);
  const inputs = [...new Set([...(A.describe?.inputs ?? []), ...(B.describe?.inputs ?? [])])].slice(
    0,
    4,
  );
  const error = rowsQ.error ?? pa.error ?? pb.error;
  const pairs = cmp?.pairs ?? [];
  const fmtValue = columnFormatter(pairs.flatMap((p) => [p.actual, p.a, p.b]));
  const fmtDiff = columnFormatter(pairs.map((p) => p.diff));

  return (
    <Card
      title="Predictions on the same rows"
      label="Compared predictions"
      actions={
        <label className="m-inline">
          <span className="muted small">Rows</span>
          <select
            aria-label="Rows to compare"
            value={String(rowCount)}
            onChange={(e) => onRowCount(Number(e.target.value))}
          >
            {COMPARE_ROW_CHOICES.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <p className="muted small">
        The first {rowCount} rows of {source === A ? nameA : nameB}’s training data (seen in
        training, so errors here look better than on new rows).
        {pick.missing.length > 0 &&
          ` They have no ${pick.missing.join(', ')}: ${otherName} gets ${pick.missing.length === 1 ? 'it' : 'them'} as missing.`}
      </p>
      {error && (
        <div className="m-error" role="alert">
          {error.message}
        </div>
      )}
      {(rowsQ.isPending || pa.isPending || pb.isPending) && !error && (
        <p className="muted">Predicting…</p>
      )}
      {cmp && (
        <>
          <p className="m-explain-sentence" role="status" aria-label="Comparison summary">
            {predictionSummary(cmp, nameA, nameB)}
          </p>
          <table className="m-table" aria-label="Compared predictions">
            <thead>
              <tr>
                <th className="num">#</th>
                {inputs.map((i) => (
                  <th key={i}>{i}</th>
                ))}
                <th className="num">actual</th>
                <th className="num">{nameA}</th>
                <th className="num">{nameB}</th>
                <th className="num">{cmp.numeric ? `${nameB} − ${nameA}` : 'same?'}</th>
              </tr>
            </thead>
            <tbody>
              {cmp.pairs.map((p) => (
                <tr key={p.index}>
                  <td className="num muted">{p.index + 1}</td>
                  {inputs.map((i) => (
                    <td key={i}>{formatNumber(p.inputs[i])}</td>
                  ))}
                  <td className="num">{fmtValue(p.actual)}</td>
                  <td className="num">{fmtValue(p.a)}</td>
                  <td className="num">{fmtValue(p.b)}</td>
                  <td
                    className={`num ${p.diff !== null && p.diff > 0 ? 'm-diff-up' : p.diff !== null && p.diff < 0 ? 'm-diff-down' : ''}`}
                  >
                    {p.diff !== null
                      ? `${p.diff > 0 ? '+' : p.diff < 0 ? '−' : ''}${fmtDiff(Math.abs(p.diff))}`
                      : p.agree
                        ? 'yes'
                        : 'no'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Card>
  );
}
