/**
 * What changed between two versions (or two models) on the same rows: which rows changed their
 * prediction or class and by how much, largest first; the inputs whose contributions moved most
 * on those rows; where the changed rows concentrate (one input's value or range); and one line
 * saying it. Pure: the service (./service.ts) predicts and explains both sides.
 */
import type { CellValue } from '../../automl/index';
import type { DiffReport, DiffRow } from '../../../contract';
import {
  binCells,
  categoryBins,
  cellKey,
  cellNumber,
  numericBins,
  numericRangeLabel,
  type DriftBins,
} from '../drift/bins';

type Label = string | number | boolean | null;

/** One side's answers on the compared rows. */
export interface DiffSide {
  /** How the summary names it: `v3`, or `other_model.2`. */
  name: string;
  values: Label[];
  /** Classifiers: class (as string) -> probability, per row. */
  probabilities?: Record<string, number>[];
  /**
   * Per row, each input's contribution to the explained score (binary classifiers: already
   * turned towards the same class on both sides; see `towardsClass`). Null: not explained.
   */
  contributions: Record<string, number>[] | null;
}

export interface DiffInput {
  task: 'regression' | 'binary' | 'multiclass';
  /** The compared rows' inputs (the union of both sides' inputs), `n` cells each. */
  inputs: Record<string, CellValue[]>;
  /** How each input is segmented: numbers by deciles, else by category. */
  kinds: Record<string, 'number' | 'category'>;
  n: number;
  before: DiffSide;
  after: DiffSide;
  /** Regression: the smallest change that counts. */
  threshold: number | null;
  /** Rows listed (default 50). */
  limit?: number;
  source: DiffReport['source'];
}

/**
 * A binary classifier's contributions explain the predicted class's log-odds (the negative of
 * class 1's for class 0): this turns them all towards class 1, so two versions compare alike.
 */
export function towardsClass(
  contributions: Record<string, number>,
  explainedClass: Label | undefined,
  negativeClass: Label,
): Record<string, number> {
  if (String(explainedClass) !== String(negativeClass)) return contributions;
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(contributions)) out[k] = -v;
  return out;
}

const pct = (x: number) => {
  const p = x * 100;
  return `${p >= 10 || p === 0 ? Math.round(p) : p.toFixed(1)}%`;
};

function fmt(x: number): string {
  const a = Math.abs(x);
  if (a >= 1000) return Math.round(x).toLocaleString('en-US');
  return String(Number(x.toPrecision(3)));
}

/** Row i's change and whether it counts as changed. */
function rowChanges(d: DiffInput): { change: number[]; changed: boolean[]; flipped: boolean[] } {
  const change = new Array<number>(d.n);
  const changed = new Array<boolean>(d.n);
  const flipped = new Array<boolean>(d.n).fill(false);
  for (let i = 0; i < d.n; i++) {
    if (d.task === 'regression') {
      const a = Number(d.before.values[i]);
      const b = Number(d.after.values[i]);
      change[i] = b - a;
      changed[i] = Math.abs(b - a) > (d.threshold ?? 0);
    } else {
      const cls = String(d.after.values[i]);
      const pa = d.after.probabilities?.[i]?.[cls] ?? 0;
      const pb = d.before.probabilities?.[i]?.[cls] ?? 0;
      change[i] = pa - pb;
      flipped[i] = String(d.before.values[i]) !== cls;
      changed[i] = flipped[i];
    }
  }
  return { change, changed, flipped };
}

/** Per input, how its contributions moved on the changed rows. */
function movedInputs(d: DiffInput, rows: number[]): DiffReport['moved_inputs'] {
  const b = d.before.contributions;
  const a = d.after.contributions;
  if (!a || !b || rows.length === 0) return [];
  const cols = [...new Set([...Object.keys(a[rows[0]] ?? {}), ...Object.keys(b[rows[0]] ?? {})])];
  return cols
    .map((column) => {
      let sum = 0;
      let abs = 0;
      let wb = 0;
      let wa = 0;
      for (const i of rows) {
        const x = a[i]?.[column] ?? 0;
        const y = b[i]?.[column] ?? 0;
        sum += x - y;
        abs += Math.abs(x - y);
        wa += Math.abs(x);
        wb += Math.abs(y);
      }
      const k = rows.length;
      return {
        column,
        mean_change: sum / k,
        mean_abs_change: abs / k,
        weight_before: wb / k,
        weight_after: wa / k,
      };
    })
    .sort((x, y) => y.mean_abs_change - x.mean_abs_change || (x.column < y.column ? -1 : 1));
}

/**
 * Where the changed rows concentrate: over every input, the value (or contiguous range of decile
 * bins) whose share of the changed rows most exceeds its share of all rows, when it holds at
 * least 1.5 times its share and a quarter of the changed rows.
 */
function findSegment(d: DiffInput, changed: boolean[]): DiffReport['segment'] {
  const nChanged = changed.filter(Boolean).length;
  if (nChanged === 0 || nChanged === d.n) return null;
  let best: NonNullable<DiffReport['segment']> | null = null;
  let bestScore = 0;
  const consider = (column: string, label: string, inChanged: number, inAll: number) => {
    const sc = inChanged / nChanged;
    const sr = inAll / d.n;
    if (sc < 0.25 || sc < 1.5 * sr) return;
    if (sc - sr > bestScore + 1e-12) {
      bestScore = sc - sr;
      best = { column, label, share_of_changed: sc, share_of_rows: sr };
    }
  };
  for (const column of Object.keys(d.inputs).sort()) {
    const cells = d.inputs[column];
    const kind = d.kinds[column] ?? 'category';
    const b: DriftBins =
      kind === 'number'
        ? numericBins(column, Float64Array.from(cells, cellNumber))
        : categoryBins(
            column,
            'string',
            Array.from(cells, (v) => cellKey(v, 'string')),
            [],
          );
    const all = binCells(b, cells).counts;
    const sub = binCells(
      b,
      cells.filter((_, i) => changed[i]),
    ).counts;
    const values = b.kind === 'number' ? b.edges.length + 1 : b.shown.length;
    if (b.kind === 'number') {
      for (let a = 0; a < values; a++) {
        let c = 0;
        let t = 0;
        for (let z = a; z < values; z++) {
          c += sub[z];
          t += all[z];
          if (a === 0 && z === values - 1) continue; // every value: no segment
          consider(column, numericRangeLabel(b, a, z), c, t);
        }
      }
    } else {
      for (let j = 0; j < values; j++) consider(column, b.shown[j], sub[j], all[j]);
    }
  }
  return best;
}

export function diffVersions(d: DiffInput): Omit<DiffReport, 'project' | 'before' | 'after'> {
  const { change, changed, flipped } = rowChanges(d);
  const order = Array.from({ length: d.n }, (_, i) => i).filter((i) => changed[i]);
  order.sort((x, y) => Math.abs(change[y]) - Math.abs(change[x]) || x - y);
  const moved = movedInputs(d, order);
  const inputNames = Object.keys(d.inputs);
  const rowsOut: DiffRow[] = order.slice(0, d.limit ?? 50).map((i) => {
    const ca = d.after.contributions?.[i];
    const cb = d.before.contributions?.[i];
    const perInput =
      ca && cb
        ? Object.keys(ca)
            .map((column) => ({ column, change: (ca[column] ?? 0) - (cb[column] ?? 0) }))
            .sort((x, y) => Math.abs(y.change) - Math.abs(x.change))
            .slice(0, 3)
        : [];
    return {
      row: i,
      inputs: Object.fromEntries(inputNames.map((c) => [c, d.inputs[c][i]])),
      before: d.before.values[i],
      after: d.after.values[i],
      change: change[i],
      ...(d.task === 'regression' ? {} : { flipped: flipped[i] }),
      moved: perInput,
    };
  });
  const n = d.n;
  const meanChange = n > 0 ? change.reduce((s, x) => s + x, 0) / n : 0;
  const meanAbs = n > 0 ? change.reduce((s, x) => s + Math.abs(x), 0) / n : 0;
  const segment = findSegment(d, changed);
  return {
    task: d.task,
    rows: { compared: n, changed: order.length },
    threshold: d.threshold,
    source: d.source,
    mean_change: meanChange,
    mean_abs_change: meanAbs,
    changed_rows: rowsOut,
    moved_inputs: moved,
    segment,
    summary: summarize(d, order.length, meanChange, segment, moved),
  };
}

function summarize(
  d: DiffInput,
  nChanged: number,
  meanChange: number,
  segment: DiffReport['segment'],
  moved: DiffReport['moved_inputs'],
): string {
  const who = d.after.name;
  const share = d.n > 0 ? nChanged / d.n : 0;
  let s =
    d.task === 'regression'
      ? `${who} moves ${pct(share)} of predictions by more than ${fmt(d.threshold ?? 0)} (average change ${meanChange >= 0 ? '+' : ''}${fmt(meanChange)})`
      : `${who} flips ${pct(share)} of classes`;
  if (nChanged === 0) {
    return d.task === 'regression'
      ? `${who} moves no prediction by more than ${fmt(d.threshold ?? 0)} (average change ${meanChange >= 0 ? '+' : ''}${fmt(meanChange)})`
      : `${who} flips no class on these ${d.n} rows`;
  }
  if (segment) s += `, mostly where ${segment.column} is ${segment.label}`;
  const top = [...moved].sort(
    (x, y) =>
      Math.abs(y.weight_after - y.weight_before) - Math.abs(x.weight_after - x.weight_before),
  )[0];
  if (top && Math.abs(top.weight_after - top.weight_before) > 1e-12) {
    s += `${segment ? ', and' : ','} ${top.column} now counts ${top.weight_after > top.weight_before ? 'more' : 'less'}`;
  }
  return s;
}
