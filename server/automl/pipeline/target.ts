// Target analysis: which task (regression, binary, multiclass) the target column asks for, the rows
// with a usable target value, and the class keys and labels of a classifier.

import type { Task } from '../api';
import {
  type ColumnProfile,
  type ValueKind,
  categoryKey,
  inferColumnType,
  isMissing,
  keyToLabel,
  parseNumber,
} from '../data/column-types';
import { type Table, cellAt, cellsAt } from '../data/table';
import { AutoMLError } from '../errors';
import { Rng, permutation } from '../prng';

/** Fewer rows than this cannot be split into training and validation rows meaningfully. */
const MIN_TRAIN_ROWS = 5;
/** Type inference looks at a seeded sample of this many rows (distinct counts, parse shares). */
export const INFERENCE_SAMPLE_ROWS = 100_000;
/** A classifier grows one tree per class per iteration; beyond this a "class" is an identifier. */
const MAX_CLASSES = 100;

export interface TargetInfo {
  task: Task;
  profile: ColumnProfile;
  /** Positions (into the data rows) of rows with a usable target. */
  keep: number[];
  /** Regression: values; classification: class codes. Indexed by position in `keep`. */
  y: Float64Array;
  classKeys: string[] | null;
  classLabels: (string | number | boolean)[] | null;
}

function sortClassKeys(keys: string[], kind: ValueKind): string[] {
  if (kind === 'number') return keys.sort((a, b) => Number(a) - Number(b));
  return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function analyzeTarget(data: Table, target: string, seed: number): TargetInfo {
  const tIdx = data.columns.indexOf(target);
  if (tIdx < 0) {
    throw new AutoMLError(
      `target column '${target}' is not in the data; columns are: ${data.columns.join(', ')}`,
    );
  }
  if (data.rowCount === 0) throw new AutoMLError('the training data has no rows');
  const col = data.data[tIdx];
  const present: number[] = [];
  for (let r = 0; r < data.rowCount; r++) if (!isMissing(cellAt(col, r))) present.push(r);
  if (present.length === 0) {
    throw new AutoMLError(
      `target column '${target}' has no values: all ${data.rowCount} rows are NULL or blank`,
    );
  }
  checkRowCount(target, present.length);
  const values = cellsAt(col, present);
  let profile = inferColumnType(target, inferenceSample(values, seed));
  // A target is never dropped: an "identifier" target is judged by its underlying data type.
  if (profile.type === 'identifier' && profile.dataType === 'integer') {
    profile = { ...profile, type: 'integer' };
  }
  // A target with a few small integer values (0-2, a 1-5 rating) is a set of classes, as in
  // Lightwood; as an input the same values are a scale.
  if (profile.scale) profile = { ...profile, type: 'categorical', dataType: 'categorical' };
  const t = profile.type;
  if (profile.constant) {
    const only = String(values[0]);
    throw new AutoMLError(
      t === 'binary' || t === 'categorical'
        ? `target column '${target}' has only one class ('${only}'); a classifier needs at least 2`
        : `target column '${target}' has a single value (${only}) in every row; there is nothing to learn`,
    );
  }
  if (t === 'datetime') {
    throw new AutoMLError(
      `target column '${target}' holds dates/times; predicting dates is not supported`,
    );
  }
  if (t === 'integer' || t === 'float') {
    const keep: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < present.length; i++) {
      const x = parseNumber(values[i]);
      if (!Number.isNaN(x)) {
        keep.push(present[i]);
        y.push(x);
      }
    }
    checkRowCount(target, keep.length);
    return {
      task: 'regression',
      profile,
      keep,
      y: Float64Array.from(y),
      classKeys: null,
      classLabels: null,
    };
  }
  // Classification (binary, categorical, short text, string identifiers with few values).
  const kind = profile.valueKind;
  const counts = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const k = categoryKey(values[i], kind)!;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  if (counts.size > MAX_CLASSES) {
    throw new AutoMLError(
      `target column '${target}' has ${counts.size} distinct values; classification supports at most ${MAX_CLASSES} classes (is it an identifier or free text?)`,
    );
  }
  const classKeys = sortClassKeys([...counts.keys()], kind);
  const code = new Map(classKeys.map((k, i) => [k, i]));
  const y = new Float64Array(present.length);
  for (let i = 0; i < present.length; i++) y[i] = code.get(categoryKey(values[i], kind)!)!;
  checkRowCount(target, present.length);
  return {
    task: classKeys.length === 2 ? 'binary' : 'multiclass',
    profile: { ...profile, type: classKeys.length === 2 ? 'binary' : 'categorical' },
    keep: present,
    y,
    classKeys,
    classLabels: classKeys.map((k) => keyToLabel(k, kind)),
  };
}

/** The sample positions of the last inferenceSample call (every column of a table shares them). */
let samplePositions: { n: number; seed: number; pos: Int32Array } | null = null;

/**
 * A seeded sample of `values` when there are more than INFERENCE_SAMPLE_ROWS of them (a number
 * column's sample stays a Float64Array, which type inference reads without boxing).
 */
export function inferenceSample<T>(values: ArrayLike<T>, seed: number): ArrayLike<T> {
  const n = values.length;
  if (n <= INFERENCE_SAMPLE_ROWS) return values;
  if (!samplePositions || samplePositions.n !== n || samplePositions.seed !== seed) {
    const p = permutation(n, new Rng(seed ^ 0x5eed));
    samplePositions = { n, seed, pos: p.subarray(0, INFERENCE_SAMPLE_ROWS) };
  }
  const pos = samplePositions.pos;
  if (values instanceof Float64Array) return sampleNumbers(values, pos) as unknown as ArrayLike<T>;
  const out = new Array<T>(INFERENCE_SAMPLE_ROWS);
  for (let i = 0; i < INFERENCE_SAMPLE_ROWS; i++) out[i] = values[pos[i]];
  return out;
}

/** values[pos[i]] for each i, as a plain typed loop (a mapping callback cost 10x as much). */
function sampleNumbers(values: Float64Array, pos: Int32Array): Float64Array {
  const out = new Float64Array(pos.length);
  for (let i = 0; i < pos.length; i++) out[i] = values[pos[i]];
  return out;
}

function checkRowCount(target: string, n: number): void {
  if (n < MIN_TRAIN_ROWS) {
    throw new AutoMLError(
      `training needs at least ${MIN_TRAIN_ROWS} rows with a value in '${target}', got ${n}`,
    );
  }
}
