/**
 * CSV and JSON export of a result: either the current view (the rows the grid shows, in its sort
 * order) or every row as the server returned it; the menu says which is which.
 */
import { formatCount } from '../../lib/format';
import type { GridViewState } from './grid-model';

export type ExportScope = 'view' | 'all';

/** What an export choice covers, in words ("Current view: 15 of 40 rows, filtered and sorted"). */
export function exportScopeLabel(scope: ExportScope, total: number, view: GridViewState): string {
  if (scope === 'all') return `All ${formatCount(total, 'row')}, as returned`;
  const how = [view.filtered ? 'filtered' : '', view.sorted ? 'sorted' : '']
    .filter(Boolean)
    .join(' and ');
  const rows = view.filtered
    ? `${view.shown.toLocaleString('en-US')} of ${formatCount(total, 'row')}`
    : formatCount(view.shown, 'row');
  return `Current view: ${rows}${how ? `, ${how}` : ''}`;
}

function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with a header row; NULL is an empty field, nested values are JSON. */
export function toCsv(
  columnNames: readonly string[],
  rows: readonly (readonly unknown[])[],
): string {
  const lines = [columnNames.map(csvField).join(',')];
  for (const row of rows) lines.push(columnNames.map((_, i) => csvField(row[i])).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Unique keys for JSON objects: a repeated name gets `_2`, `_3`, ... */
export function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let key = n;
    for (let k = 2; used.has(key); k++) key = `${n}_${k}`;
    used.add(key);
    return key;
  });
}

/** JSON array of row objects (keys made unique), values as the server sent them. */
export function toJson(
  columnNames: readonly string[],
  rows: readonly (readonly unknown[])[],
): string {
  const keys = uniqueNames(columnNames);
  const objects = rows.map((row) => {
    const o: Record<string, unknown> = {};
    keys.forEach((k, i) => (o[k] = row[i] ?? null));
    return o;
  });
  return JSON.stringify(objects, null, 2) + '\n';
}

/** File name for an export, e.g. `home_rentals-2024-05-01T10-20-30.csv`. */
export function exportFileName(base: string, ext: 'csv' | 'json', now = new Date()): string {
  const safe =
    base
      .replace(/[^\w.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'result';
  return `${safe}-${now.toISOString().slice(0, 19).replace(/:/g, '-')}.${ext}`;
}

/** A best-guess name for a result from its SQL (the first table after FROM). */
export function resultBaseName(sql: string): string {
  const m = /\bfrom\s+([`"\w.]+)/i.exec(sql);
  return m ? (m[1].replace(/[`"]/g, '').split('.').pop() ?? 'result') : 'result';
}
