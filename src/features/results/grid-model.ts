/**
 * Maps a `table` response to grid columns and display values. Columns are addressed by index
 * (`c0`, `c1`, ...) so duplicate names (`SELECT t.*, m.*`) all show; rows stay the server's arrays.
 */

/** What the grid shows of a result: rows left by filters, and whether it is filtered or sorted. */
export interface GridViewState {
  shown: number;
  filtered: boolean;
  sorted: boolean;
}

export type ColumnKind = 'number' | 'text' | 'boolean' | 'date' | 'json';

export interface GridColumn {
  /** Stable id, unique even when names repeat. */
  id: string;
  index: number;
  name: string;
  /** The engine type when the server sent one (e.g. `BIGINT`, `VARCHAR`). */
  type?: string;
  kind: ColumnKind;
}

const NUMERIC =
  /^(TINYINT|SMALLINT|INTEGER|INT|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|REAL|DOUBLE|DECIMAL|NUMERIC|INT\d+|FLOAT\d+|UINT\d+)\b/i;

export function kindFromType(type: string): ColumnKind | undefined {
  const t = type.trim();
  if (/\[\]$|^(STRUCT|MAP|LIST|JSON|UNION|ARRAY)\b/i.test(t)) return 'json';
  if (NUMERIC.test(t)) return 'number';
  if (/^BOOL/i.test(t)) return 'boolean';
  if (/^(DATE|TIME|TIMESTAMP|DATETIME)/i.test(t)) return 'date';
  if (/^(VARCHAR|TEXT|STRING|CHAR|UUID|BLOB|ENUM|INTERVAL|BIT)/i.test(t)) return 'text';
  return undefined;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/** Infers a column kind from its values (first non-null values decide). */
export function kindFromValues(
  rows: readonly unknown[][],
  index: number,
  sample = 200,
): ColumnKind {
  let seen: ColumnKind | undefined;
  let checked = 0;
  for (let r = 0; r < rows.length && checked < sample; r++) {
    const v = rows[r]?.[index];
    if (v === null || v === undefined) continue;
    checked += 1;
    const k: ColumnKind =
      typeof v === 'number'
        ? 'number'
        : typeof v === 'boolean'
          ? 'boolean'
          : typeof v === 'object'
            ? 'json'
            : typeof v === 'string' && DATE_RE.test(v)
              ? 'date'
              : 'text';
    if (seen === undefined) seen = k;
    else if (seen !== k) return seen === 'json' || k === 'json' ? 'json' : 'text';
  }
  return seen ?? 'text';
}

export function toGridColumns(
  columnNames: readonly string[],
  rows: readonly unknown[][],
  columnTypes?: readonly string[],
): GridColumn[] {
  return columnNames.map((name, index) => {
    const type = columnTypes?.[index];
    const kind = (type && kindFromType(type)) || kindFromValues(rows, index);
    return { id: `c${index}`, index, name, ...(type ? { type } : {}), kind };
  });
}

/** Text shown in a grid cell (the full value is available in the detail panel). */
export function formatCell(value: unknown, maxLength = 500): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') {
    const s = JSON.stringify(value);
    return s.length > maxLength ? s.slice(0, maxLength) + '…' : s;
  }
  const s = String(value);
  return s.length > maxLength ? s.slice(0, maxLength) + '…' : s;
}

/** Full text of a value for copying and the detail panel (JSON pretty-printed). */
export function fullText(value: unknown, pretty = true): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value, null, pretty ? 2 : undefined);
  return String(value);
}

/** Values worth opening in the detail panel: nested values and long or multi-line text. */
export function isExpandable(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'object') return true;
  return typeof value === 'string' && (value.length > 60 || value.includes('\n'));
}

const toNum = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;

/** Sort order for a column: NULLs first, numbers numerically (incl. big integers sent as text). */
export function compareValues(a: unknown, b: unknown, kind: ColumnKind): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? -1 : 1;
  if (kind === 'number') {
    if (typeof a === 'string' || typeof b === 'string') {
      try {
        const x = BigInt(String(a).split('.')[0]);
        const y = BigInt(String(b).split('.')[0]);
        if (x !== y) return x < y ? -1 : 1;
      } catch {
        /* not integers: fall through to floats */
      }
    }
    return toNum(a) - toNum(b);
  }
  if (kind === 'boolean') return Number(a) - Number(b);
  const x = fullText(a, false);
  const y = fullText(b, false);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Row as tab-separated text (row copy). */
export function rowToTsv(row: readonly unknown[]): string {
  return row.map((v) => (v === null || v === undefined ? '' : fullText(v, false))).join('\t');
}

/** A cell of the result: its column, value, whole row and row index (as displayed). */
export interface CellRef {
  column: GridColumn;
  value: unknown;
  row: unknown[];
  rowIndex: number;
}

/** Row as a JSON object by column name; a repeated name gets its index (`id`, `id_2`). */
export function rowToJson(columns: readonly GridColumn[], row: readonly unknown[]): string {
  const o: Record<string, unknown> = {};
  for (const col of columns)
    o[col.name in o ? `${col.name}_${col.index}` : col.name] = row[col.index] ?? null;
  return JSON.stringify(o, null, 2);
}
