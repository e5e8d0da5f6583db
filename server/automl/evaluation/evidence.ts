// What a trained version keeps beside its artifact to be questioned later (docs/evaluation.md,
// "Evidence kept"): its held-out rows as the model saw them (inputs, actual, prediction,
// probabilities or interval, per-row contributions), a sample of its training data, and every
// candidate the AutoML tried. Bounded in size (the caps below) and stored as its own JSON file, so
// artifacts stay small and predictions never load it.

import type { CellValue, ColumnarColumn, ColumnarData, Task } from '../api';
import { fromBase64, toBase64 } from '../base64';
import { AutoMLError } from '../errors';

/** Held-out rows kept: every one up to this many, else a seeded sample stratified by class. */
export const HELD_OUT_MAX_ROWS = 50_000;
/** Training rows kept (a seeded sample beyond), for drift and partial dependence. */
export const TRAINING_SAMPLE_ROWS = 10_000;
/** Held-out rows whose per-row contributions are kept (the first ones; TreeSHAP is the cost). */
export const CONTRIBUTION_MAX_ROWS = 2_000;
/** Text cells are kept up to this many characters (a kept sample is for judging, not storing). */
const TEXT_MAX_CHARS = 200;

type Label = string | number | boolean;

/** One candidate the AutoML trained, as the leaderboard shows it. */
export interface CandidateEvidence {
  name: string;
  /** 'gbm' | 'linear' | 'ensemble', or a time-series candidate's kind. */
  kind: string;
  selected: boolean;
  /** On held-out rows: the model's metric (DESCRIBE's accuracy) and one more. */
  score: { name: string; value: number };
  other: { name: string; value: number } | null;
  fitSeconds: number;
  /** Rows per second scoring held-out rows on one thread (null: not measured). */
  predictRowsPerSecond: number | null;
  /** Bytes of the candidate's model in an artifact (null: not measured). */
  sizeBytes: number | null;
  /** The `USING model = '...'` value that makes this candidate serve (null: none does). */
  using: string | null;
}

/** The validation (or out-of-fold) rows, each scored by a model that did not train on it. */
export interface HeldOutEvidence {
  /** How the rows were held out: one validation split, out of fold, or the last periods. */
  validation: 'split' | 'cross-fitted' | 'time-split';
  /** Held-out rows the training had; `rows.rowCount` of them are kept. */
  total: number;
  /** How the kept rows were chosen. */
  sample: 'all' | 'stratified' | 'random';
  /** Every column of the training data but the target (inputs and the rest), cells as given. */
  rows: ColumnarData;
  /** Regression: the actual value; classifiers: the actual class (index into `classes`). */
  actual: Float64Array;
  /** Regression: the prediction; classifiers: the predicted class under the model's rule. */
  predicted: Float64Array;
  /** Classifiers: probabilities, row-major (rows x classes). */
  probabilities?: Float32Array;
  /** Regression: the interval at `ModelEvidence.level`. */
  lower?: Float64Array;
  upper?: Float64Array;
  /** Time series: the forecast step (1..horizon) of each row. */
  step?: Int32Array;
  /** Per-row contributions of the first `rows` kept rows (see Explanation in api.ts). */
  contributions?: {
    rows: number;
    columns: string[];
    /** Row-major (rows x columns). */
    values: Float32Array;
    base: Float64Array;
  };
}

export interface ModelEvidence {
  format: 'evidence/1';
  task: Task;
  target: string;
  /** Classifiers: class labels (index = class code in actual / predicted / probabilities). */
  classes: Label[] | null;
  /** Regression: the promised interval coverage. */
  level: number | null;
  heldOut: HeldOutEvidence;
  /** A sample of the training rows, every column (the target included). */
  training: { total: number; rows: ColumnarData };
  candidates: CandidateEvidence[];
}

// ---- storage -----------------------------------------------------------------------------------

type StoredColumn =
  | { kind: 'number'; values: string; nulls?: string }
  | { kind: 'boolean'; values: string }
  | { kind: 'text'; dict: string[]; codes: string }
  | { kind: 'mixed'; values: CellValue[] }
  | { kind: 'null' };

interface StoredTable {
  columns: string[];
  rowCount: number;
  data: StoredColumn[];
}

const f64 = (s: string) => fromBase64(s, (b) => new Float64Array(b));
const f32 = (s: string) => fromBase64(s, (b) => new Float32Array(b));
const i32 = (s: string) => fromBase64(s, (b) => new Int32Array(b));
const u8 = (s: string) => fromBase64(s, (b) => new Uint8Array(b));

function storeColumn(c: ColumnarColumn): StoredColumn {
  switch (c.kind) {
    case 'number':
      return {
        kind: 'number',
        values: toBase64(c.values),
        ...(c.nulls ? { nulls: toBase64(c.nulls) } : {}),
      };
    case 'boolean':
      return { kind: 'boolean', values: toBase64(c.values) };
    case 'text':
      return { kind: 'text', dict: c.dict, codes: toBase64(c.codes) };
    case 'mixed':
      return { kind: 'mixed', values: Array.from(c.values) };
    default:
      return { kind: 'null' };
  }
}

function loadColumn(c: StoredColumn): ColumnarColumn {
  switch (c.kind) {
    case 'number':
      return { kind: 'number', values: f64(c.values), nulls: c.nulls ? u8(c.nulls) : null };
    case 'boolean':
      return { kind: 'boolean', values: u8(c.values) };
    case 'text':
      return { kind: 'text', dict: c.dict, codes: i32(c.codes) };
    case 'mixed':
      return { kind: 'mixed', values: c.values };
    default:
      return { kind: 'null' };
  }
}

const storeTable = (t: ColumnarData): StoredTable => ({
  columns: t.columns,
  rowCount: t.rowCount,
  data: t.data.map(storeColumn),
});

const loadTable = (t: StoredTable): ColumnarData => ({
  columns: t.columns,
  rowCount: t.rowCount,
  data: t.data.map(loadColumn),
});

/** JSON text of evidence (typed arrays as base64, as in artifacts). */
export function serializeEvidence(e: ModelEvidence): string {
  const h = e.heldOut;
  return JSON.stringify({
    ...e,
    heldOut: {
      ...h,
      rows: storeTable(h.rows),
      actual: toBase64(h.actual),
      predicted: toBase64(h.predicted),
      ...(h.probabilities ? { probabilities: toBase64(h.probabilities) } : {}),
      ...(h.lower ? { lower: toBase64(h.lower) } : {}),
      ...(h.upper ? { upper: toBase64(h.upper) } : {}),
      ...(h.step ? { step: toBase64(h.step) } : {}),
      ...(h.contributions
        ? {
            contributions: {
              ...h.contributions,
              values: toBase64(h.contributions.values),
              base: toBase64(h.contributions.base),
            },
          }
        : {}),
    },
    training: { ...e.training, rows: storeTable(e.training.rows) },
  });
}

/** Parses evidence; a damaged or foreign file is an AutoMLError. */
export function deserializeEvidence(s: string): ModelEvidence {
  let x: Record<string, unknown> & {
    heldOut?: Record<string, unknown>;
    training?: Record<string, unknown>;
  };
  try {
    x = JSON.parse(s);
  } catch (e) {
    throw new AutoMLError(`model evidence is not valid JSON: ${(e as Error).message}`);
  }
  if (!x || x.format !== 'evidence/1' || !x.heldOut || !x.training) {
    throw new AutoMLError(
      `unsupported model evidence format ${JSON.stringify(x?.format)}; expected 'evidence/1'`,
    );
  }
  const h = x.heldOut as Record<string, unknown> & { contributions?: Record<string, unknown> };
  try {
    const heldOut: HeldOutEvidence = {
      validation: h.validation as HeldOutEvidence['validation'],
      total: h.total as number,
      sample: h.sample as HeldOutEvidence['sample'],
      rows: loadTable(h.rows as StoredTable),
      actual: f64(h.actual as string),
      predicted: f64(h.predicted as string),
      ...(h.probabilities ? { probabilities: f32(h.probabilities as string) } : {}),
      ...(h.lower ? { lower: f64(h.lower as string) } : {}),
      ...(h.upper ? { upper: f64(h.upper as string) } : {}),
      ...(h.step ? { step: i32(h.step as string) } : {}),
      ...(h.contributions
        ? {
            contributions: {
              rows: h.contributions.rows as number,
              columns: h.contributions.columns as string[],
              values: f32(h.contributions.values as string),
              base: f64(h.contributions.base as string),
            },
          }
        : {}),
    };
    return {
      ...(x as unknown as ModelEvidence),
      heldOut,
      training: {
        total: x.training.total as number,
        rows: loadTable(x.training.rows as StoredTable),
      },
    };
  } catch (e) {
    throw new AutoMLError(`model evidence is damaged: ${(e as Error).message}`);
  }
}

// ---- building ----------------------------------------------------------------------------------

/** A column's cells at `rows` (positions), in the column's own kind; long text is cut. */
function columnAt(c: ColumnarColumn, rows: ArrayLike<number>): ColumnarColumn {
  const n = rows.length;
  switch (c.kind) {
    case 'number': {
      const values = new Float64Array(n);
      const nulls = c.nulls ? new Uint8Array(n) : null;
      for (let i = 0; i < n; i++) {
        values[i] = c.values[rows[i]];
        if (nulls) nulls[i] = c.nulls![rows[i]];
      }
      return { kind: 'number', values, nulls };
    }
    case 'boolean':
      return {
        kind: 'boolean',
        values: Uint8Array.from({ length: n }, (_, i) => c.values[rows[i]]),
      };
    case 'text': {
      // Only the strings the kept rows use.
      const dict: string[] = [];
      const remap = new Map<number, number>();
      const codes = new Int32Array(n);
      for (let i = 0; i < n; i++) {
        const k = c.codes[rows[i]];
        if (k < 0) {
          codes[i] = -1;
          continue;
        }
        let m = remap.get(k);
        if (m === undefined) {
          m = dict.length;
          remap.set(k, m);
          dict.push(cut(c.dict[k]));
        }
        codes[i] = m;
      }
      return { kind: 'text', dict, codes };
    }
    case 'mixed':
      return {
        kind: 'mixed',
        values: Array.from({ length: n }, (_, i) => {
          const v = c.values[rows[i]];
          return typeof v === 'string' ? cut(v) : (v ?? null);
        }),
      };
    default:
      return { kind: 'null' };
  }
}

const cut = (s: string) => (s.length > TEXT_MAX_CHARS ? s.slice(0, TEXT_MAX_CHARS) : s);

/** The table's columns (all but `skip`) at `rows`. */
export function tableAt(t: ColumnarData, rows: ArrayLike<number>, skip?: string): ColumnarData {
  const keep = t.columns.map((c, j) => j).filter((j) => t.columns[j] !== skip);
  return {
    columns: keep.map((j) => t.columns[j]),
    rowCount: rows.length,
    data: keep.map((j) => columnAt(t.data[j], rows)),
  };
}
