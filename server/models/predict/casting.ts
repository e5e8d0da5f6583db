/**
 * Input values cast to the types a model was trained on (`"1000"` -> 1000 for a numeric column,
 * `"yes"` -> true for a boolean one, the usual missing tokens -> null), with the column and row
 * named when a value cannot be; and which names a model never saw.
 */
import type { CellValue, ModelDescription } from '../../automl/index';
import { badInput } from '../../errors';

export type ValueKind = 'number' | 'boolean' | 'string';

/** How the values of a list of labels are typed: all numbers, all booleans, or anything else. */
function kindOf(values: readonly unknown[] | undefined): ValueKind {
  if (!values || values.length === 0) return 'string';
  if (values.every((v) => typeof v === 'number')) return 'number';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'string';
}

/** The value kind of an input column, from its training type and (for categories) its labels. */
export function inputKind(desc: ModelDescription, column: string): ValueKind {
  const t = desc.inputTypes[column];
  if (t === 'integer' || t === 'float') return 'number';
  if (t === 'binary' || t === 'categorical') return kindOf(desc.categories[column]);
  return 'string';
}

export function targetKind(desc: ModelDescription): ValueKind {
  return desc.task === 'regression' ? 'number' : kindOf(desc.classes);
}

const MISSING = new Set(['', 'nan', 'null', 'none', 'na', 'n/a']);

function fail(value: unknown, column: string, row: number, what: string): never {
  throw badInput(
    `Cannot use ${JSON.stringify(value)} for column '${column}' in row ${row + 1}: the model was trained on ${what}`,
  );
}

/**
 * Casts one cell to a kind: `"1000"` -> 1000 for numeric columns, `"true"` -> true for boolean
 * ones. NULL, blanks and the usual missing tokens become null (the model handles missing values);
 * anything else that does not fit is the caller's mistake and names the column and row.
 */
function castCell(
  v: unknown,
  kind: ValueKind,
  column: string,
  row: number,
  what: string,
): CellValue {
  if (v === null || v === undefined) return null;
  if (kind === 'number') {
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'string') {
      const s = v.trim();
      if (MISSING.has(s.toLowerCase())) return null;
      const x = Number(s);
      if (Number.isFinite(x)) return x;
    }
    return fail(v, column, row, what);
  }
  if (kind === 'boolean') {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 0) return v === 1;
    if (typeof v === 'string') {
      const s = v.trim().toLowerCase();
      if (MISSING.has(s)) return null;
      if (['true', 't', 'yes', 'y', '1'].includes(s)) return true;
      if (['false', 'f', 'no', 'n', '0'].includes(s)) return false;
    }
    return fail(v, column, row, what);
  }
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return v.toString();
  return JSON.stringify(v);
}

/**
 * Whether every cell of a column is already what `castCell` makes of it (finite numbers, booleans,
 * text; nulls), so the column needs no copy: the usual case, and a wide model's 64 columns were
 * copied cell by cell.
 */
function isCast(src: ArrayLike<unknown>, kind: ValueKind, n: number): boolean {
  if (src.length !== n) return false;
  if (src instanceof Float64Array) {
    if (kind !== 'number') return false;
    for (let i = 0; i < n; i++) if (!Number.isFinite(src[i])) return false;
    return true;
  }
  if (!Array.isArray(src)) return false;
  for (let i = 0; i < n; i++) {
    const v: unknown = src[i];
    if (v === null) continue;
    const t = typeof v;
    if (
      kind === 'number'
        ? t !== 'number' || !Number.isFinite(v)
        : kind === 'boolean'
          ? t !== 'boolean'
          : t !== 'string' && t !== 'number' && t !== 'boolean'
    )
      return false;
  }
  return true;
}

const describeType = (desc: ModelDescription, column: string) => {
  const t = desc.inputTypes[column];
  const k = inputKind(desc, column);
  if (t === 'integer' || t === 'float') return `${t} values`;
  if (k === 'number') return `${t} numeric values`;
  if (k === 'boolean') return `${t} true/false values`;
  return `${t} values`;
};

/**
 * Casts the model's input columns (and the target, when given, as the truth for `_anomaly` and
 * `_original`) of a columnar batch. Columns the model does not use are dropped here; whether they
 * are an error is the caller's decision (see `unknownColumns`).
 */
export function castColumns(
  desc: ModelDescription,
  columns: Record<string, ArrayLike<unknown>>,
  n: number,
): { inputs: Record<string, CellValue[]>; truth: CellValue[] | null } {
  const inputs: Record<string, CellValue[]> = {};
  for (const col of desc.inputs) {
    const src = columns[col];
    const kind = inputKind(desc, col);
    if (src && isCast(src, kind, n)) {
      // Nothing to cast: the column itself (a Float64Array from the prediction thread's wire
      // as an array of its numbers).
      if (Array.isArray(src)) inputs[col] = src as CellValue[];
      else {
        // An indexed copy (Array.from walks a typed array through its iterator, far slower).
        const out = new Array<CellValue>(n);
        for (let i = 0; i < n; i++) out[i] = src[i] as number;
        inputs[col] = out;
      }
      continue;
    }
    const out = new Array<CellValue>(n);
    if (!src) out.fill(null);
    else {
      const what = describeType(desc, col);
      for (let i = 0; i < n; i++) out[i] = castCell(src[i], kind, col, i, what);
    }
    inputs[col] = out;
  }
  let truth: CellValue[] | null = null;
  const t = columns[desc.target];
  if (t) {
    const kind = targetKind(desc);
    truth = new Array<CellValue>(n);
    for (let i = 0; i < n; i++) {
      try {
        truth[i] = castCell(t[i], kind, desc.target, i, `${desc.targetType} values`);
      } catch {
        // A truth that does not fit the target type cannot be compared; it only loses `_anomaly`.
        truth[i] = null;
      }
    }
  }
  return { inputs, truth };
}

/**
 * Names of the columns a model never saw, for errors. Columns it saw and set aside (identifiers
 * such as customerID, constants) are known: sending them is normal and harmless.
 */
function unknownColumns(desc: ModelDescription, names: Iterable<string>): string[] {
  const known = new Set(
    [...desc.inputs, desc.target, ...desc.features.map((f) => f.column)].map((c) =>
      c.toLowerCase(),
    ),
  );
  return [...names].filter((n) => !known.has(n.toLowerCase()));
}

/** Refuses columns a model never saw (typos such as `sqfeet = 823`), naming its inputs. */
export function assertKnownColumns(
  model: string,
  desc: ModelDescription,
  names: Iterable<string>,
): void {
  const unknown = unknownColumns(desc, names);
  if (unknown.length > 0) {
    throw badInput(
      `Model '${model}' has no input column ${unknown.map((c) => `'${c}'`).join(', ')}; its inputs are: ${desc.inputs.join(', ')}`,
    );
  }
}
