/**
 * The predict form's model: fields generated from the model's features, rows of cells that the
 * form, the rows table, CSV paste and the JSON editor all edit, and the conversion both ways
 * between those rows and the JSON body (the spec's array, or MindsDB's `{"data": [...]}`).
 */
import type { DescribeFeatureRow } from '../../../../contract';

export type FieldKind = 'number' | 'choice' | 'date' | 'datetime' | 'text';
export type OptionValue = string | number | boolean;

export interface FormField {
  name: string;
  /** The feature type the model inferred (integer, float, categorical, binary, datetime, ...). */
  type: string;
  kind: FieldKind;
  integer: boolean;
  /** Known values (categorical/binary): from the training data. */
  options: OptionValue[];
  importance: number | null;
}

/**
 * A cell: `undefined` or '' is empty (sent as null), `null` is an explicit null. Number fields
 * keep the text typed (so "12." or a typo survive editing); choices keep the typed option value.
 */
export type Cell = string | number | boolean | null | undefined;

export interface FormRow {
  id: string;
  cells: Record<string, Cell>;
  /** Keys of a JSON body that are not model inputs: kept and sent as they are. */
  extra: Record<string, unknown>;
}

interface CellIssue {
  row: number;
  column: string;
  message: string;
}

export interface BuiltRows {
  rows: Record<string, unknown>[];
  /** Values that cannot be sent (text in a number field): Send stays disabled. */
  errors: CellIssue[];
  /** Empty fields, sent as null. */
  empties: { row: number; column: string }[];
}

export type BodyMode = 'array' | 'envelope';

let nextId = 0;
export function newRowId(): string {
  nextId += 1;
  return `r${nextId.toString(36)}`;
}

export function emptyRow(): FormRow {
  return { id: newRowId(), cells: {}, extra: {} };
}

export function fieldKind(type: string): FieldKind {
  const t = type.toLowerCase();
  if (t === 'integer' || t === 'float' || t === 'quantity' || t === 'num' || t === 'number')
    return 'number';
  if (t === 'categorical' || t === 'binary' || t === 'boolean' || t === 'tags') return 'choice';
  if (t === 'date') return 'date';
  if (t === 'datetime' || t === 'timestamp') return 'datetime';
  return 'text';
}

/**
 * Form fields from `describe?attribute=features` (role `input`) in the order of the info row's
 * `inputs`. Without features, every input is a text field.
 */
export function buildFormFields(
  features: readonly DescribeFeatureRow[] | undefined,
  inputs: readonly string[] | undefined,
  opts: {
    options?: Record<string, OptionValue[]>;
    importances?: Record<string, number | null>;
  } = {},
): FormField[] {
  const byName = new Map((features ?? []).map((f) => [f.column, f]));
  const names =
    inputs && inputs.length > 0
      ? [...inputs]
      : (features ?? [])
          // MindsDB says `feature`; earlier instances said `input`.
          .filter((f) => f.role === 'feature' || f.role === 'input')
          .map((f) => f.column);
  return names.map((name) => {
    const f = byName.get(name);
    const type = f?.type ?? 'text';
    let kind = fieldKind(type);
    const options = opts.options?.[name] ?? [];
    if (kind === 'choice' && options.length === 0) {
      // Without the training values, a free text field beats an empty list (the server casts).
      kind = 'text';
    }
    return {
      name,
      type,
      kind,
      integer: type.toLowerCase() === 'integer',
      options,
      importance: opts.importances?.[name] ?? null,
    };
  });
}

export function isEmptyCell(c: Cell): boolean {
  return c === undefined || c === '';
}

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Is the text of a number field a number? */
export function parseNumberText(text: string): number | undefined {
  const t = text.trim();
  if (!NUMBER_RE.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** Value to send for a cell, or the problem with it. */
export function cellToJson(
  field: FormField,
  cell: Cell,
): { value: unknown; empty?: boolean; error?: string } {
  if (cell === null) return { value: null };
  if (isEmptyCell(cell)) return { value: null, empty: true };
  if (field.kind === 'number') {
    if (typeof cell === 'number') return { value: cell };
    const text = String(cell);
    const n = parseNumberText(text);
    if (n === undefined) return { value: text, error: `"${text}" is not a number` };
    return { value: n };
  }
  if (field.kind === 'datetime' && typeof cell === 'string') {
    // <input type=datetime-local> gives 2024-05-01T13:45; SQL-style timestamps read better.
    return { value: cell.replace('T', ' ') };
  }
  return { value: cell };
}

/** The cell a JSON value becomes in the form (inverse of cellToJson). */
export function jsonToCell(field: FormField | undefined, value: unknown): Cell {
  if (value === null) return null;
  if (value === undefined) return undefined;
  if (field?.kind === 'number') {
    if (typeof value === 'number' || typeof value === 'string') return String(value);
    return JSON.stringify(value);
  }
  if (field?.kind === 'choice') {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      // The option itself, typed as the training data has it: "1" from a link or pasted JSON
      // selects the option 1 and is sent as 1.
      return field.options.find((o) => String(o) === String(value)) ?? value;
    }
    return JSON.stringify(value);
  }
  if (field?.kind === 'datetime' && typeof value === 'string') {
    return value;
  }
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Rows -> the objects to send, with their problems. Every input is present (null when empty). */
export function buildPredictRows(
  fields: readonly FormField[],
  rows: readonly FormRow[],
): BuiltRows {
  const out: BuiltRows = { rows: [], errors: [], empties: [] };
  rows.forEach((r, i) => {
    const o: Record<string, unknown> = {};
    for (const f of fields) {
      const c = cellToJson(f, r.cells[f.name]);
      o[f.name] = c.value;
      if (c.error) out.errors.push({ row: i, column: f.name, message: c.error });
      if (c.empty) out.empties.push({ row: i, column: f.name });
    }
    for (const [k, v] of Object.entries(r.extra)) if (!(k in o)) o[k] = v;
    out.rows.push(o);
  });
  return out;
}

/** Options of a prediction sent in the body's `params` (`explain`: per-row contributions). */
export type PredictParams = Record<string, unknown>;

const hasParams = (p: PredictParams | undefined): p is PredictParams =>
  !!p && Object.keys(p).length > 0;

/**
 * The body as sent: the spec's array, or the real service's `{"data": [...]}`. Params (asking for
 * explanations) only fit the `{"data": [...], "params": {...}}` form, so they imply it.
 */
export function buildPredictBody(
  rows: Record<string, unknown>[],
  mode: BodyMode,
  params?: PredictParams,
): unknown {
  if (hasParams(params)) return { data: rows, params };
  return mode === 'envelope' ? { data: rows } : rows;
}

function formatRowObject(o: Record<string, unknown>): string {
  const parts = Object.entries(o).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{${parts.join(', ')}}`;
}

/** Up to this many rows, the editor shows one key per line; beyond, one row per line. */
const PRETTY_ROWS = 3;

/** The body as the JSON editor shows it (readable for a few rows, compact for many). */
export function formatPredictBody(
  rows: Record<string, unknown>[],
  mode: BodyMode,
  params?: PredictParams,
): string {
  const wrap = (arr: string) =>
    hasParams(params)
      ? `{"data": ${arr}, "params": ${JSON.stringify(params)}}`
      : mode === 'envelope'
        ? `{"data": ${arr}}`
        : arr;
  if (rows.length <= PRETTY_ROWS) return wrap(JSON.stringify(rows, null, 2));
  const inner =
    rows.length === 0 ? '' : `\n${rows.map((r) => `  ${formatRowObject(r)}`).join(',\n')}\n`;
  return wrap(`[${inner}]`);
}

export type ParsedBody =
  | {
      ok: true;
      rows: FormRow[];
      unknownColumns: string[];
      /** `params.explain` when the body sets it (true/false). */
      explain?: boolean;
    }
  | { ok: false; error: string };

/**
 * JSON editor text -> form rows. Accepts the array or `{"data": [...]}` (either mode). Existing
 * rows keep their ids by position so tables do not redraw everything on each keystroke.
 */
export function parsePredictBody(
  text: string,
  fields: readonly FormField[],
  previous: readonly FormRow[] = [],
): ParsedBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Invalid JSON: ${(e as Error).message}` };
  }
  let list: unknown = json;
  let explain: boolean | undefined;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const params = (json as { params?: unknown }).params;
    if (params && typeof params === 'object' && 'explain' in params) {
      const e = params.explain;
      if (typeof e === 'boolean') explain = e;
    }
    if (!('data' in json)) {
      return {
        ok: false,
        error: 'The body must be a JSON array of row objects, or {"data": [...]}',
      };
    }
    list = json.data;
  }
  if (!Array.isArray(list)) {
    return { ok: false, error: 'The body must be a JSON array of row objects' };
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  const lowerName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  const unknown = new Set<string>();
  const rows: FormRow[] = [];
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      return { ok: false, error: `Row ${i + 1} is not an object like {"column": value}` };
    }
    const cells: Record<string, Cell> = {};
    const extra: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
      const f = byName.get(k) ?? lowerName.get(k.toLowerCase());
      if (f) cells[f.name] = jsonToCell(f, v);
      else {
        extra[k] = v;
        unknown.add(k);
      }
    }
    rows.push({ id: previous[i]?.id ?? newRowId(), cells, extra });
  }
  return {
    ok: true,
    rows,
    unknownColumns: [...unknown],
    ...(explain === undefined ? {} : { explain }),
  };
}

/** A training row as a form row (the "fill with an example" button). */
export function rowFromRecord(
  fields: readonly FormField[],
  record: Record<string, unknown>,
  id = newRowId(),
): FormRow {
  const cells: Record<string, Cell> = {};
  for (const f of fields) {
    const v = record[f.name];
    if (v !== undefined) cells[f.name] = jsonToCell(f, v);
  }
  return { id, cells, extra: {} };
}

/** Text a cell shows in the rows table. */
export function cellText(cell: Cell): string {
  if (cell === null) return 'null';
  if (cell === undefined) return '';
  return String(cell);
}
