/**
 * Compare two models, or two versions of one: their metrics side by side (the better one marked),
 * their input importances in one chart, and both models' predictions on the same rows (the first
 * rows of A's training data). Everything is in the URL (`#view=compare&a=p.m[.N]&b=...&rows=`),
 * so Share and reload restore it.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartBox } from './ChartBox';
import type { DescribeSummaryRow } from '../../../contract';
import { modelsQueryOptions } from '../../api/catalog';
import { CHART_COLORS } from '../../components/ui/grid-theme';
import { usePresenting } from '../../lib/use-presenting';
import { describeQueryOptions } from './api/describe';
import { activeVersion, type ModelVersion } from './api/parse';
import { predict } from './api/predict';
import { projectsQueryOptions } from './api/projects';
import { trainingRowsQueryOptions } from './api/training-rows';
import { modelVersionsQueryOptions } from './api/versions';
import { categoryAxisWidth, chartFont } from './chart-style';
import {
  compareImportances,
  compareMetrics,
  comparePredictions,
  formatModelRef,
  parseModelRef,
  refLabel,
  rowsSource,
  sameRef,
  type MetricRow,
  type ModelRef,
  type PredictionComparison,
} from './compare';
import { toPredictionViews } from './explain';
import { formatMetric } from './describe-model';
import { columnFormatter, formatNumber, formatPercent } from './format-number';
import { versionLabel } from './ModelStatus';
import type { ModelsNav } from './nav';
import { Card, Crumbs } from './ui';
import './insights.css';

const COMPARE_ROW_CHOICES = [10, 25, 50] as const;
const DEFAULT_ROWS = 10;

interface Props {
  a?: string;
  b?: string;
  rows?: string;
  theme: 'light' | 'dark';
  nav: ModelsNav;
}

interface Side {
  ref: ModelRef | undefined;
  versions: ModelVersion[];
  /** The version compared: the pinned one, else the active one. */
  chosen: ModelVersion | undefined;
  describe: DescribeSummaryRow | undefined;
  loading: boolean;
  error: Error | null;
}

function useSide(ref: ModelRef | undefined): Side {
  const versionsQ = useQuery({
    ...modelVersionsQueryOptions(ref?.project ?? '', ref?.model ?? ''),
    enabled: !!ref,
  });
  const versions = versionsQ.data ?? [];
  const active = activeVersion(versions);
  const chosen =
    ref?.version === undefined ? active : versions.find((v) => v.version === ref.version);
  const ready = chosen?.status === 'complete';
  const describeQ = useQuery(
    describeQueryOptions(ref?.project ?? '', ref?.model ?? '', '', {
      version: ref?.version,
      activeVersion: active?.version,
      enabled: !!ref && ready,
    }),
  );
  return {
    ref,
    versions,
    chosen,
    describe: describeQ.data?.[0],
    loading: !!ref && (versionsQ.isPending || (ready && describeQ.isPending)),
    error: versionsQ.error ?? describeQ.error ?? null,
  };
}

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

interface CompareParams {
  a?: string;
  b?: string;
  rows?: string;
}

/**
 * The view's own state, written to the URL in place (no history entry for each pick). The URL's
 * values win when they change from outside (back/forward, another link).
 */
function useCompareParams(fromUrl: CompareParams, nav: ModelsNav) {
  const [state, setState] = useState(fromUrl);
  const [seen, setSeen] = useState(fromUrl);
  if (seen.a !== fromUrl.a || seen.b !== fromUrl.b || seen.rows !== fromUrl.rows) {
    setSeen(fromUrl);
    setState(fromUrl);
  }
  const update = (patch: CompareParams) => {
    setState((s) => ({ ...s, ...patch }));
    nav.replaceParams(patch as Record<string, string | undefined>);
  };
  return [state, update] as const;
}

export function ComparePage({ a: aParam, b: bParam, rows: rowsParam, theme, nav }: Props) {
  const [params, update] = useCompareParams({ a: aParam, b: bParam, rows: rowsParam }, nav);
  const { a, b, rows } = params;
  const refA = parseModelRef(a);
  const refB = parseModelRef(b);
  const rowCount = COMPARE_ROW_CHOICES.find((n) => String(n) === rows) ?? DEFAULT_ROWS;
  const A = useSide(refA);
  const B = useSide(refB);
  const set = (side: 'a' | 'b', ref: ModelRef | undefined) =>
    update({ [side]: ref ? formatModelRef(ref) : undefined });

  // Without B: another version of A's model if it has one, else another model of A's project.
  const siblings = useQuery({
    ...modelsQueryOptions(refA?.project ?? ''),
    enabled: !!refA && !refB,
  });
  useEffect(() => {
    if (!refA || refB || A.versions.length === 0) return;
    const shown = A.chosen?.version;
    const other = [...A.versions]
      .reverse()
      .find((v) => v.status === 'complete' && v.version !== shown);
    if (other) {
      nav.replaceParams({ b: formatModelRef({ ...refA, version: other.version }) });
      return;
    }
    const model = siblings.data?.find((m) => m.name !== refA.model && m.status === 'complete');
    if (model)
      nav.replaceParams({ b: formatModelRef({ project: refA.project, model: model.name }) });
  }, [refA, refB, A.versions, A.chosen, siblings.data, nav]);

  const metrics = useMemo(() => compareMetrics(A.describe, B.describe), [A.describe, B.describe]);
  const labelA = refA ? refLabel(refA, A.chosen?.version) : 'A';
  const labelB = refB ? refLabel(refB, B.chosen?.version) : 'B';
  const same = refA && refB && refA.project === refB.project && refA.model === refB.model;
  const nameA = same ? `v${A.chosen?.version ?? '?'}` : labelA;
  const nameB = same ? `v${B.chosen?.version ?? '?'}` : labelB;

  return (
    <div className="m-page m-compare">
      <header className="m-page-header">
        <div>
          <Crumbs onHome={nav.openHome}>Compare</Crumbs>
          <h1>
            Compare {refA ? labelA : '…'} with {refB ? labelB : '…'}
          </h1>
          <p className="muted m-subtitle">
            Metrics, which inputs matter, and predictions on the same rows, side by side.
          </p>
        </div>
      </header>

      <div className="m-compare-pickers">
        <ModelPicker side="A" value={refA} onChange={(r) => set('a', r)} />
        <ModelPicker side="B" value={refB} onChange={(r) => set('b', r)} />
      </div>
      {sameRef(refA, refB) && (
        <p className="m-note warn">Both sides are the same model version: pick another for B.</p>
      )}
      {[A, B].map(
        (s, i) =>
          s.error && (
            <div key={i} className="m-error" role="alert">
              {i === 0 ? 'A' : 'B'}: {s.error.message}
            </div>
          ),
      )}
      {[A, B].map(
        (s, i) =>
          s.chosen &&
          s.chosen.status !== 'complete' && (
            <p key={i} className="m-note warn">
              {i === 0 ? labelA : labelB} is {s.chosen.status}: it can be compared once complete.
            </p>
          ),
      )}

      {A.describe && B.describe && (
        <>
          <MetricsCard rows={metrics} nameA={nameA} nameB={nameB} />
          <ImportanceCard a={A.describe} b={B.describe} nameA={nameA} nameB={nameB} theme={theme} />
          {refA && refB && (
            <PredictionsCard
              refA={refA}
              refB={refB}
              A={A}
              B={B}
              nameA={nameA}
              nameB={nameB}
              rowCount={rowCount}
              onRowCount={(n) => update({ rows: String(n) })}
            />
          )}
        </>
      )}
      {(A.loading || B.loading) && <p className="muted">Loading…</p>}
    </div>
  );
}

function ModelPicker({
  side,
  value,
  onChange,
}: {
  side: 'A' | 'B';
  value: ModelRef | undefined;
  onChange(ref: ModelRef | undefined): void;
}) {
  const projects = useQuery(projectsQueryOptions());
  const [picked, setPicked] = useState<string | null>(null);
  const project = value?.project ?? picked ?? projects.data?.[0] ?? '';
  const models = useQuery({ ...modelsQueryOptions(project), enabled: !!project });
  const versions = useQuery({
    ...modelVersionsQueryOptions(project, value?.model ?? ''),
    enabled: !!value?.model,
  });
  return (
    <section className="m-card" aria-label={`Model ${side}`}>
      <div className="m-compare-picker">
        <strong className={side === 'A' ? 'm-side-a' : 'm-side-b'}>{side}</strong>
        <label>
          Project
          <select
            aria-label={`Project ${side}`}
            value={project}
            onChange={(e) => {
              setPicked(e.target.value);
              onChange(undefined);
            }}
          >
            {(projects.data ?? [project]).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Model
          <select
            aria-label={`Model ${side}`}
            value={value?.model ?? ''}
            onChange={(e) =>
              onChange(e.target.value ? { project, model: e.target.value } : undefined)
            }
          >
            <option value="">Choose a model</option>
            {models.data?.map((m) => (
              <option key={m.name} value={m.name}>
                {m.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Version
          <select
            aria-label={`Version ${side}`}
            value={value?.version === undefined ? '' : String(value.version)}
            disabled={!value?.model}
            onChange={(e) =>
              value &&
              onChange({
                project: value.project,
                model: value.model,
                ...(e.target.value ? { version: Number(e.target.value) } : {}),
              })
            }
          >
            <option value="">active</option>
            {[...(versions.data ?? [])].reverse().map((v) => (
              <option key={v.version} value={String(v.version)} disabled={v.status !== 'complete'}>
                {versionLabel(v)}
              </option>
            ))}
          </select>
        </label>
      </div>
    </section>
  );
}

function metricText(v: number | null, kind: MetricRow['kind']): string {
  if (v === null) return '—';
  if (kind === 'share') return formatPercent(v);
  return kind === 'count' ? v.toLocaleString('en-US') : formatMetric(v);
}

function MetricsCard({ rows, nameA, nameB }: { rows: MetricRow[]; nameA: string; nameB: string }) {
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

function ImportanceCard({
  a,
  b,
  nameA,
  nameB,
  theme,
}: {
  a: DescribeSummaryRow;
  b: DescribeSummaryRow;
  nameA: string;
  nameB: string;
  theme: 'light' | 'dark';
}) {
  const presenting = usePresenting();
  const font = chartFont(presenting);
  const c = CHART_COLORS[theme];
  const rows = compareImportances(a.column_importances, b.column_importances);
  const data = rows.map((r) => ({ column: r.column, a: r.a ?? 0, b: r.b ?? 0 }));
  const text = rows
    .map((r) => `${r.column} ${formatNumber(r.a)} vs ${formatNumber(r.b)}`)
    .join(', ');
  return (
    <Card
      title="Which inputs matter"
      label="Compared importances"
      actions={<span className="muted small">permutation importance, higher = more influence</span>}
    >
      <figure
        className="m-chart"
        role="img"
        aria-label={`Importances of ${nameA} vs ${nameB}: ${text}`}
        style={{ height: Math.max(140, rows.length * (presenting ? 52 : 40) + 60) }}
      >
        <ChartBox height={Math.max(140, rows.length * (presenting ? 52 : 40) + 60)}>
          <BarChart
            data={data}
            layout="vertical"
            margin={{ top: 4, right: 24, bottom: 4, left: 8 }}
          >
            <CartesianGrid horizontal={false} stroke={c.grid} />
            <XAxis
              type="number"
              domain={[0, 'auto']}
              stroke={c.text}
              tick={{ fill: c.text, fontSize: font.tick }}
            />
            <YAxis
              type="category"
              dataKey="column"
              width={categoryAxisWidth(
                data.map((d) => d.column),
                font,
              )}
              stroke={c.text}
              tick={{ fill: c.text, fontSize: font.tick }}
              interval={0}
            />
            <Tooltip formatter={(v) => formatNumber(Number(v))} />
            <Legend verticalAlign="top" height={26} itemSorter="dataKey" />
            <Bar dataKey="a" name={nameA} fill={c.accent} isAnimationActive={false} />
            <Bar dataKey="b" name={nameB} fill={c.series[1]} isAnimationActive={false} />
          </BarChart>
        </ChartBox>
      </figure>
    </Card>
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

function PredictionsCard({
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
