/**
 * Compare two models (or two versions of one): the `compare` view's URL references, and the
 * alignment of their metrics (by meaning, so `r2_score` of one meets `r2` of the other), their
 * input importances (by column) and their predictions on the same rows (by row).
 */
import type { DescribeSummaryRow } from '../../../../contract';
import type { PredictionView } from '../inputs';
import { metricHigherIsBetter, metricLabel } from '../shared';

export interface ModelRef {
  project: string;
  model: string;
  /** A pinned version; absent: the active one. */
  version?: number;
}

/** `project.model` or `project.model.N` (names are identifiers; a trailing number is a version). */
export function parseModelRef(s: string | undefined): ModelRef | undefined {
  if (!s || s.length > 300) return undefined;
  const m = /^([^.]+)\.(.+?)(?:\.(\d{1,9}))?$/.exec(s);
  if (!m) return undefined;
  const version = m[3] === undefined ? undefined : Number(m[3]);
  return { project: m[1], model: m[2], ...(version && version >= 1 ? { version } : {}) };
}

export function formatModelRef(r: ModelRef): string {
  return `${r.project}.${r.model}${r.version === undefined ? '' : `.${r.version}`}`;
}

export function sameRef(a: ModelRef | undefined, b: ModelRef | undefined): boolean {
  return !!a && !!b && formatModelRef(a) === formatModelRef(b);
}

/** "home_rentals_model v2" or "home_rentals_model (active)". */
export function refLabel(r: ModelRef, activeVersion?: number): string {
  const v = r.version ?? activeVersion;
  return `${r.model} ${v === undefined ? '(active)' : `v${v}`}`;
}

export type Side = 'a' | 'b';

export interface MetricRow {
  key: string;
  name: string;
  a: number | null;
  b: number | null;
  kind: 'number' | 'share' | 'count';
  /** null: neither direction is better (row counts). */
  higherIsBetter: boolean | null;
  better: Side | 'tie' | null;
}

interface MetricDef {
  key: string;
  name: string;
  kind: MetricRow['kind'];
  higherIsBetter: boolean | null;
  read(d: DescribeSummaryRow): number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Every metric either side may have, in the order shown. Old servers only have `accuracies`. */
const METRICS: MetricDef[] = [
  {
    key: 'mae',
    name: 'Mean absolute error',
    kind: 'number',
    higherIsBetter: false,
    read: (d) => num(d.metrics?.regression?.mae),
  },
  {
    key: 'rmse',
    name: 'Root mean squared error',
    kind: 'number',
    higherIsBetter: false,
    read: (d) => num(d.metrics?.regression?.rmse),
  },
  {
    key: 'r2',
    name: 'R² score',
    kind: 'number',
    higherIsBetter: true,
    read: (d) => num(d.metrics?.regression?.r2) ?? num(d.accuracies.r2_score),
  },
  {
    key: 'accuracy',
    name: 'Accuracy',
    kind: 'share',
    higherIsBetter: true,
    read: (d) => num(d.metrics?.classification?.accuracy) ?? num(d.accuracies.accuracy_score),
  },
  {
    key: 'balanced_accuracy',
    name: 'Balanced accuracy',
    kind: 'share',
    higherIsBetter: true,
    read: (d) =>
      num(d.metrics?.classification?.balanced_accuracy) ??
      num(d.accuracies.balanced_accuracy_score),
  },
  {
    key: 'rows_train',
    name: 'Training rows',
    kind: 'count',
    higherIsBetter: null,
    read: (d) => num(d.metrics?.rows.train),
  },
  {
    key: 'rows_validation',
    name: 'Validation rows',
    kind: 'count',
    higherIsBetter: null,
    read: (d) => num(d.metrics?.rows.validation),
  },
];

const KNOWN_ACCURACIES = new Set(['r2_score', 'accuracy_score', 'balanced_accuracy_score']);

function betterSide(
  a: number | null,
  b: number | null,
  higher: boolean | null,
): MetricRow['better'] {
  if (a === null || b === null || higher === null) return null;
  if (Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))) return 'tie';
  return a > b === higher ? 'a' : 'b';
}

/**
 * The model B defaults to when only A is given and A has no other complete version: a complete
 * model of the project that predicts the same column (a fair comparison), else any other
 * complete one.
 */
export function otherModelToCompare<
  M extends { name: string; status: string; predict?: string | null },
>(models: readonly M[], aName: string, aTarget: string | null | undefined): M | undefined {
  const others = models.filter(
    (m) => m.name.toLowerCase() !== aName.toLowerCase() && m.status === 'complete',
  );
  const target = aTarget?.toLowerCase();
  return others.find((m) => !!target && m.predict?.toLowerCase() === target) ?? others[0];
}

/** Rows for the metrics table: only metrics at least one side has. */
export function compareMetrics(
  a: DescribeSummaryRow | undefined,
  b: DescribeSummaryRow | undefined,
): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const m of METRICS) {
    const va = a ? m.read(a) : null;
    const vb = b ? m.read(b) : null;
    if (va === null && vb === null) continue;
    rows.push({
      key: m.key,
      name: m.name,
      a: va,
      b: vb,
      kind: m.kind,
      higherIsBetter: m.higherIsBetter,
      better: betterSide(va, vb, m.higherIsBetter),
    });
  }
  // Other accuracy functions a server reports (a real MindsDB's), by their own names.
  const extra = new Set(
    [...Object.keys(a?.accuracies ?? {}), ...Object.keys(b?.accuracies ?? {})].filter(
      (k) => !KNOWN_ACCURACIES.has(k),
    ),
  );
  for (const k of [...extra].sort()) {
    const va = num(a?.accuracies[k]);
    const vb = num(b?.accuracies[k]);
    rows.push({
      key: `acc:${k}`,
      name: metricLabel(k),
      a: va,
      b: vb,
      kind: 'number',
      higherIsBetter: metricHigherIsBetter(k),
      better: betterSide(va, vb, metricHigherIsBetter(k)),
    });
  }
  return rows;
}

export interface ImportanceRow {
  column: string;
  a: number | null;
  b: number | null;
}

/** Both models' importances by column (union), most important (on either side) first. */
export function compareImportances(
  a: Record<string, number | null> | undefined,
  b: Record<string, number | null> | undefined,
): ImportanceRow[] {
  const columns = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
  return [...columns]
    .map((column) => ({ column, a: num(a?.[column]), b: num(b?.[column]) }))
    .sort(
      (x, y) =>
        Math.max(y.a ?? -Infinity, y.b ?? -Infinity) -
          Math.max(x.a ?? -Infinity, x.b ?? -Infinity) || x.column.localeCompare(y.column),
    );
}

interface PredictionPair {
  index: number;
  inputs: Record<string, unknown>;
  /** The true value, when the rows carried the target (training rows do). */
  actual: unknown;
  a: unknown;
  b: unknown;
  /** b - a for numbers. */
  diff: number | null;
  /** Same class / value on both sides. */
  agree: boolean;
}

export interface PredictionComparison {
  pairs: PredictionPair[];
  numeric: boolean;
  /** Rows where both predicted the same (classes; numbers equal to 6 significant digits). */
  agreeing: number;
  /** Mean and largest |b - a| (numbers). */
  meanAbsDiff: number | null;
  maxAbsDiff: number | null;
  /** Error against the actual value on these rows: mean |error| (numbers) or share right. */
  errorA: number | null;
  errorB: number | null;
}

const close = (x: number, y: number) =>
  Math.abs(x - y) <= 1e-6 * Math.max(1, Math.abs(x), Math.abs(y));

/** Lines up the two models' predictions on the same input rows (row i of each response). */
export function comparePredictions(
  rows: readonly Record<string, unknown>[],
  target: string | undefined,
  a: readonly PredictionView[],
  b: readonly PredictionView[],
): PredictionComparison {
  const n = Math.min(rows.length, a.length, b.length);
  const pairs: PredictionPair[] = [];
  let numeric = n > 0;
  for (let i = 0; i < n; i++) {
    const pa = a[i].prediction;
    const pb = b[i].prediction;
    if (typeof pa !== 'number' || typeof pb !== 'number') numeric = false;
    pairs.push({
      index: i,
      inputs: rows[i],
      actual: target !== undefined && target in rows[i] ? rows[i][target] : (a[i].original ?? null),
      a: pa,
      b: pb,
      diff: typeof pa === 'number' && typeof pb === 'number' ? pb - pa : null,
      agree:
        typeof pa === 'number' && typeof pb === 'number'
          ? close(pa, pb)
          : String(pa) === String(pb),
    });
  }
  const diffs = pairs.map((p) => p.diff).filter((d): d is number => d !== null);
  const withActual = pairs.filter((p) => p.actual !== null && p.actual !== undefined);
  const errorOf = (side: Side): number | null => {
    if (withActual.length === 0) return null;
    if (numeric) {
      const errs = withActual
        .filter((p) => typeof p.actual === 'number')
        .map((p) => Math.abs((p.actual as number) - (p[side] as number)));
      return errs.length ? errs.reduce((s, e) => s + e, 0) / errs.length : null;
    }
    return (
      withActual.filter((p) => String(p.actual) === String(p[side])).length / withActual.length
    );
  };
  return {
    pairs,
    numeric,
    agreeing: pairs.filter((p) => p.agree).length,
    meanAbsDiff:
      numeric && diffs.length ? diffs.reduce((s, d) => s + Math.abs(d), 0) / diffs.length : null,
    maxAbsDiff: numeric && diffs.length ? Math.max(...diffs.map(Math.abs)) : null,
    errorA: errorOf('a'),
    errorB: errorOf('b'),
  };
}

/**
 * Whose training rows to predict on: the side whose inputs cover the other's (so neither model is
 * fed missing values it had at training time), else A; and which inputs the rows lack for the
 * other model (they are sent as missing).
 */
export function rowsSource(
  inputsA: readonly string[],
  inputsB: readonly string[],
): { side: Side; missing: string[] } {
  const lower = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()));
  const a = lower(inputsA);
  const b = lower(inputsB);
  const lacks = (have: Set<string>, need: readonly string[]) =>
    need.filter((c) => !have.has(c.toLowerCase()));
  const missingForB = lacks(a, inputsB);
  if (missingForB.length === 0) return { side: 'a', missing: [] };
  const missingForA = lacks(b, inputsA);
  if (missingForA.length === 0) return { side: 'b', missing: [] };
  return { side: 'a', missing: missingForB };
}
