/**
 * A drift report from counts: per input the PSI over shared bins and a two-sample test, each
 * input's level, the importance the drifted inputs carry, the predictions' shift, and the one-line
 * verdict. Pure: the service (./drift.ts) gathers the counts and samples, this decides.
 */
import type {
  DriftBin,
  DriftColumn,
  DriftLevel,
  DriftPredictions,
  DriftReport,
  DriftTest,
  DriftThresholds,
  DriftVerdict,
} from '../../../contract';
import { type BinnedColumn, type DriftBins, binCells, binLabels, missingBin, newBin } from './bins';
import { chiSquaredTwoSample, ksTwoSample, psi } from './stats';

/** What is known of one compared input. */
export interface ColumnEvidence {
  bins: DriftBins;
  importance: number;
  present: boolean;
  reference: BinnedColumn;
  current: BinnedColumn;
  /** Categories: never-seen values of today's data with their counts (all rows, or its sample). */
  newValues?: Map<string, number>;
  /** Numbers: the finite values of both samples, for the KS test. */
  referenceValues?: ArrayLike<number>;
  currentValues?: ArrayLike<number>;
}

const total = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const share = (x: number, n: number) => (n > 0 ? x / n : 0);

function driftBins(labels: string[], ref: number[], cur: number[]): DriftBin[] {
  const nr = total(ref);
  const nc = total(cur);
  return labels.map((label, i) => ({
    label,
    reference: ref[i],
    current: cur[i],
    reference_share: share(ref[i], nr),
    current_share: share(cur[i], nc),
  }));
}

/**
 * Drifted: a shift large enough to matter (PSI at the threshold) that the test says is not
 * sampling noise; moderate: PSI at half the threshold.
 */
function driftLevel(p: number, test: DriftTest, t: DriftThresholds): DriftLevel {
  if (p >= t.psi && test.p_value < t.p_value) return 'drifted';
  if (p >= t.psi / 2) return 'moderate';
  return 'stable';
}

/** Chi-squared over the bins with a count on either side (the missing bin included). */
function chi2Test(ref: number[], cur: number[]): DriftTest {
  const r = chiSquaredTwoSample(ref, cur);
  return {
    name: 'chi2',
    statistic: r.statistic,
    p_value: r.pValue,
    dof: r.dof,
    n_reference: total(ref),
    n_current: total(cur),
  };
}

function ksTest(a: ArrayLike<number>, b: ArrayLike<number>): DriftTest {
  const r = ksTwoSample(a, b);
  return {
    name: 'ks',
    statistic: r.statistic,
    p_value: r.pValue,
    n_reference: a.length,
    n_current: b.length,
  };
}

const mean = (sum: number, counts: number[], b: DriftBins) => {
  const n = total(counts) - counts[missingBin(b)];
  return n > 0 ? sum / n : null;
};

export function columnDrift(e: ColumnEvidence, t: DriftThresholds): DriftColumn {
  const { bins: b, reference: ref, current: cur } = e;
  const nr = total(ref.counts);
  const nc = total(cur.counts);
  const p = psi(ref.counts, cur.counts);
  // A column today's data lacks, or numbers without values on a side, is compared by its bins.
  const test =
    b.kind === 'number' &&
    e.referenceValues &&
    e.currentValues &&
    e.referenceValues.length > 0 &&
    e.currentValues.length > 0
      ? ksTest(e.referenceValues, e.currentValues)
      : chi2Test(ref.counts, cur.counts);
  const out: DriftColumn = {
    column: b.column,
    kind: b.kind,
    importance: e.importance,
    present: e.present,
    psi: p,
    level: driftLevel(p, test, t),
    test,
    bins: driftBins(binLabels(b), ref.counts, cur.counts),
    missing: {
      reference: share(ref.counts[missingBin(b)], nr),
      current: share(cur.counts[missingBin(b)], nc),
    },
  };
  if (b.kind === 'number') {
    out.mean = { reference: mean(ref.sum, ref.counts, b), current: mean(cur.sum, cur.counts, b) };
    if (b.range) {
      out.out_of_range = {
        min: b.range.min,
        max: b.range.max,
        below: share(cur.below, nc),
        above: share(cur.above, nc),
      };
    }
  } else {
    const rows = cur.counts[newBin(b)];
    const seen = e.newValues ?? cur.newValues;
    out.new_categories = {
      rows,
      share: share(rows, nc),
      distinct: Math.max(rows > 0 ? 1 : 0, seen.size),
      values: [...seen.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 10)
        .map(([k]) => k),
    };
  }
  return out;
}

/** What the predictions are compared on: numbers (regression) or classes, on both samples. */
export type PredictionEvidence =
  | { kind: 'number'; bins: DriftBins; reference: number[]; current: number[] }
  | { kind: 'category'; bins: DriftBins; reference: BinnedColumn; current: BinnedColumn };

export function predictionDrift(e: PredictionEvidence, t: DriftThresholds): DriftPredictions {
  if (e.kind === 'number') {
    const ref = binCells(e.bins, e.reference);
    const cur = binCells(e.bins, e.current);
    const test = ksTest(e.reference, e.current);
    const p = psi(ref.counts, cur.counts);
    return {
      kind: 'number',
      psi: p,
      level: driftLevel(p, test, t),
      test,
      bins: driftBins(
        binLabels(e.bins).slice(0, -1),
        ref.counts.slice(0, -1),
        cur.counts.slice(0, -1),
      ),
      mean: {
        reference: mean(ref.sum, ref.counts, e.bins),
        current: mean(cur.sum, cur.counts, e.bins),
      },
    };
  }
  const test = chi2Test(e.reference.counts, e.current.counts);
  const p = psi(e.reference.counts, e.current.counts);
  // Classes only: a prediction is never missing, new or "other".
  const n = e.bins.kind === 'category' ? e.bins.shown.length : e.reference.counts.length;
  return {
    kind: 'category',
    psi: p,
    level: driftLevel(p, test, t),
    test,
    bins: driftBins(
      binLabels(e.bins).slice(0, n),
      e.reference.counts.slice(0, n),
      e.current.counts.slice(0, n),
    ),
  };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The verdict and its one line, from the columns' levels and the predictions'. */
export function verdict(
  columns: DriftColumn[],
  predictions: DriftPredictions | null,
  t: DriftThresholds,
): DriftReport['summary'] {
  const drifted = columns.filter((c) => c.level === 'drifted');
  const weight = total(drifted.map((c) => c.importance));
  const moderate = columns.some((c) => c.level === 'moderate');
  let v: DriftVerdict = 'stable';
  if (weight >= t.importance || predictions?.level === 'drifted') v = 'retrain';
  else if (drifted.length > 0 || moderate || predictions?.level === 'moderate') v = 'watch';
  const action = { retrain: 'retrain', watch: 'watch it', stable: 'no action needed' }[v];
  let sentence = `${drifted.length} of ${columns.length} inputs drifted, covering ${pct(weight)} of importance`;
  if (predictions && predictions.level !== 'stable')
    sentence += `; predictions ${predictions.level === 'drifted' ? 'shifted' : 'moved'} (PSI ${predictions.psi.toFixed(2)})`;
  return {
    inputs: columns.length,
    drifted: drifted.length,
    drifted_importance: weight,
    verdict: v,
    sentence: `${sentence}: ${action}`,
  };
}
