/**
 * Pasted CSV -> predict rows (papaparse does the parsing: quotes, embedded commas and newlines).
 * A header row naming model inputs maps columns by name (case-insensitively); otherwise the
 * values fill the inputs in order. Empty cells stay empty (sent as null); the literal `null`
 * becomes an explicit null.
 */
import Papa from 'papaparse';
import { jsonToCell, newRowId, type Cell, type FormField, type FormRow } from './predict-form';

export interface CsvPasteResult {
  rows: FormRow[];
  /** Header names that are not inputs (their values are dropped). */
  ignoredColumns: string[];
  hasHeader: boolean;
  /** Problems papaparse reported (row numbers are 1-based data rows). */
  warnings: string[];
}

export function parseCsvRows(text: string, fields: readonly FormField[]): CsvPasteResult {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  const data = parsed.data;
  const warnings = parsed.errors
    .filter((e) => e.code !== 'UndetectableDelimiter')
    .slice(0, 5)
    .map((e) => (e.row !== undefined ? `Row ${e.row + 1}: ${e.message}` : e.message));
  if (data.length === 0) return { rows: [], ignoredColumns: [], hasHeader: false, warnings };

  const byLower = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  const first = data[0].map((h) => h.trim());
  const matched = first.filter((h) => byLower.has(h.toLowerCase())).length;
  const hasHeader = matched > 0 && matched >= Math.min(first.length, fields.length) / 2;
  const columns: (FormField | undefined)[] = hasHeader
    ? first.map((h) => byLower.get(h.toLowerCase()))
    : first.map((_, i) => fields[i]);
  const ignoredColumns = hasHeader ? first.filter((h) => !byLower.has(h.toLowerCase())) : [];
  if (!hasHeader && first.length > fields.length) {
    warnings.push(
      `Rows have ${first.length} values but the model has ${fields.length} inputs; extra values are ignored`,
    );
  }

  const rows: FormRow[] = [];
  for (const values of hasHeader ? data.slice(1) : data) {
    const cells: Record<string, Cell> = {};
    values.forEach((raw, i) => {
      const f = columns[i];
      if (!f) return;
      const v = raw.trim();
      if (v === '') return;
      if (v.toLowerCase() === 'null') cells[f.name] = null;
      else if (f.kind === 'choice') cells[f.name] = matchOption(f, v);
      else cells[f.name] = jsonToCell(f, v);
    });
    rows.push({ id: newRowId(), cells, extra: {} });
  }
  return { rows, ignoredColumns, hasHeader, warnings };
}

/** CSV text is untyped: "2" for an option 2 means the number. */
function matchOption(field: FormField, text: string): Cell {
  const hit = field.options.find((o) => String(o) === text);
  return hit ?? text;
}
