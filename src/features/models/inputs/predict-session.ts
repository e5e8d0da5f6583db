/**
 * State of the predict inputs shared by the form, the rows table, CSV paste and the JSON editor,
 * as a reducer: edits to rows rewrite the JSON text; edits to the JSON text update the rows when
 * it parses and otherwise mark it invalid (the rows keep their last valid state).
 */
import {
  buildPredictRows,
  emptyRow,
  formatPredictBody,
  parsePredictBody,
  type BodyMode,
  type Cell,
  type FormField,
  type FormRow,
  type PredictParams,
} from './predict-form';

export interface PredictSession {
  rows: FormRow[];
  /** The row the form edits. */
  selected: number;
  /** What the user typed in the JSON editor; null while the JSON is derived from the rows. */
  jsonText: string | null;
  jsonError: string | null;
  unknownColumns: string[];
  /** Ask for explanations (`params.explain`); null: the page's default. */
  explain: boolean | null;
}

export type PredictAction =
  | { type: 'cell'; row: number; column: string; value: Cell }
  | { type: 'set-row'; row: number; value: FormRow }
  | { type: 'replace-rows'; rows: FormRow[] }
  | { type: 'append-rows'; rows: FormRow[] }
  | { type: 'add-row' }
  | { type: 'duplicate-row'; row: number }
  | { type: 'remove-row'; row: number }
  | { type: 'select'; row: number }
  | { type: 'json'; text: string }
  | { type: 'explain'; on: boolean }
  | { type: 'derive-json' };

function formatRows(
  fields: readonly FormField[],
  rows: readonly FormRow[],
  mode: BodyMode,
  params?: PredictParams,
) {
  return formatPredictBody(buildPredictRows(fields, rows).rows, mode, params);
}

/** The JSON editor's text: the user's own while they edit it, else the rows formatted. */
export function shownJson(
  s: PredictSession,
  fields: readonly FormField[],
  mode: BodyMode,
  params?: PredictParams,
): string {
  return s.jsonText ?? formatRows(fields, s.rows, mode, params);
}

export function initialSession(rows: FormRow[] = [emptyRow()]): PredictSession {
  return {
    rows,
    selected: 0,
    jsonText: null,
    jsonError: null,
    unknownColumns: [],
    explain: null,
  };
}

function withRows(s: PredictSession, rows: FormRow[], selected = s.selected): PredictSession {
  return {
    ...s,
    rows,
    selected: Math.max(0, Math.min(selected, rows.length - 1)),
    jsonText: null,
    jsonError: null,
    unknownColumns: s.unknownColumns.filter((c) => rows.some((r) => c in r.extra)),
  };
}

export function predictReducer(fields: readonly FormField[]) {
  return (s: PredictSession, a: PredictAction): PredictSession => {
    switch (a.type) {
      case 'cell': {
        const rows = s.rows.map((r, i) =>
          i === a.row ? { ...r, cells: { ...r.cells, [a.column]: a.value } } : r,
        );
        return withRows(s, rows);
      }
      case 'set-row':
        return withRows(
          s,
          s.rows.map((r, i) => (i === a.row ? a.value : r)),
        );
      case 'replace-rows':
        return withRows(s, a.rows.length > 0 ? a.rows : [emptyRow()], 0);
      case 'append-rows': {
        // Appending to a single untouched row replaces it.
        const blank =
          s.rows.length === 1 && Object.keys(s.rows[0].cells).length === 0 && !s.jsonError;
        return withRows(s, blank ? a.rows : [...s.rows, ...a.rows]);
      }
      case 'add-row':
        return withRows(s, [...s.rows, emptyRow()], s.rows.length);
      case 'duplicate-row': {
        const src = s.rows[a.row];
        if (!src) return s;
        const copy = { ...emptyRow(), cells: { ...src.cells }, extra: { ...src.extra } };
        const rows = [...s.rows.slice(0, a.row + 1), copy, ...s.rows.slice(a.row + 1)];
        return withRows(s, rows, a.row + 1);
      }
      case 'remove-row': {
        const rows = s.rows.filter((_, i) => i !== a.row);
        return withRows(s, rows.length > 0 ? rows : [emptyRow()], s.selected);
      }
      case 'select':
        return { ...s, selected: Math.max(0, Math.min(a.row, s.rows.length - 1)) };
      case 'json': {
        const p = parsePredictBody(a.text, fields, s.rows);
        if (!p.ok) return { ...s, jsonText: a.text, jsonError: p.error };
        const rows = p.rows.length > 0 ? p.rows : [emptyRow()];
        return {
          rows,
          selected: Math.min(s.selected, rows.length - 1),
          jsonText: a.text,
          jsonError: null,
          unknownColumns: p.unknownColumns,
          explain: p.explain ?? s.explain,
        };
      }
      case 'explain':
        // The editor shows the body with (or without) params from now on.
        return s.jsonError ? { ...s, explain: a.on } : { ...s, explain: a.on, jsonText: null };
      case 'derive-json':
        return s.jsonError ? s : { ...s, jsonText: null };
    }
  };
}
