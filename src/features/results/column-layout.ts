/**
 * How wide each result column starts, and which columns stay in view: widths come from the header
 * and a sample of the values (so dates, ids and model names are not cut), capped so one long
 * value cannot push everything else off screen; a model's prediction (the target column, found
 * by its `<target>_confidence` / `_explain` / `_min`+`_max` siblings or named by the caller) and
 * its confidence are pinned at the left.
 */
import { formatCell, type GridColumn } from './grid-model';

export const MIN_COLUMN_PX = 64;
export const MAX_COLUMN_PX = 360;
/** A pinned column never takes more than this, so the rest of the grid keeps room. */
export const MAX_PINNED_PX = 220;
const CELL_PADDING_PX = 24;
/** Room for the sort arrow and the filter button beside a header's name. */
const HEADER_EXTRA_PX = 44;

/** Width in px of a cell's text; the grid measures with its real font (see ResultGrid). */
export type MeasureText = (text: string, kind: GridColumn['kind'] | 'header') => number;

/** Rough text widths at the grid's 12.5 px font (JSON cells are monospace): the fallback. */
const estimateTextWidth: MeasureText = (text, kind) => {
  const perChar = kind === 'json' ? 7.1 : kind === 'number' ? 7.3 : 7.2;
  let wide = 0;
  for (const ch of text) if (/[A-Z@#%&MW]/.test(ch)) wide += 1;
  return (text.length * perChar + wide * 2) * (kind === 'header' ? 1.05 : 1);
};

/** Row indexes to measure: the first rows, then rows spread evenly over the rest. */
export function sampleRows(total: number, size = 200): number[] {
  if (total <= size) return Array.from({ length: total }, (_, i) => i);
  const head = Math.floor(size / 2);
  const out = Array.from({ length: head }, (_, i) => i);
  const step = (total - head) / (size - head);
  for (let k = 0; k < size - head; k++) out.push(head + Math.floor(k * step));
  return out;
}

export function columnWidth(
  column: GridColumn,
  rows: readonly unknown[][],
  sample: readonly number[] = sampleRows(rows.length),
  measure: MeasureText = estimateTextWidth,
  /** Larger type (presentation mode) scales the bounds with it. */
  scale = 1,
): number {
  const max = MAX_COLUMN_PX * scale;
  let widest = measure(column.name, 'header') + HEADER_EXTRA_PX * scale;
  for (const r of sample) {
    const v = rows[r]?.[column.index];
    const w = measure(formatCell(v, 80), column.kind) + CELL_PADDING_PX * scale;
    if (w > widest) widest = w;
    if (widest >= max) break;
  }
  return Math.round(Math.min(max, Math.max(MIN_COLUMN_PX * scale, widest)));
}

const PREDICTION_SUFFIXES = ['_confidence', '_explain', '_anomaly', '_original'];

/**
 * Indexes of prediction columns: targets named by the caller (a model the statement queries), or
 * a column whose `_confidence`/`_explain`/`_anomaly`/`_original` or `_min`+`_max` siblings are in
 * the result (what a model query returns); with each target, its `_confidence` column.
 */
export function predictionColumns(
  names: readonly string[],
  knownTargets: readonly string[] = [],
): number[] {
  const lower = names.map((n) => n.toLowerCase());
  const has = new Set(lower);
  const known = new Set(knownTargets.map((t) => t.toLowerCase()));
  const out: number[] = [];
  lower.forEach((n, i) => {
    const isTarget =
      known.has(n) ||
      PREDICTION_SUFFIXES.some((s) => has.has(n + s)) ||
      (has.has(`${n}_min`) && has.has(`${n}_max`));
    if (!isTarget) return;
    out.push(i);
    const conf = lower.indexOf(`${n}_confidence`);
    if (conf >= 0) out.push(conf);
  });
  return [...new Set(out)];
}

export interface ColumnLayout {
  width: number;
  pinned: boolean;
  prediction: boolean;
}

/** Width and pinning of every column (same order as `columns`). */
export function layoutColumns(
  columns: readonly GridColumn[],
  rows: readonly unknown[][],
  knownTargets: readonly string[] = [],
  measure: MeasureText = estimateTextWidth,
  scale = 1,
): ColumnLayout[] {
  const sample = sampleRows(rows.length);
  const predicted = new Set(
    predictionColumns(
      columns.map((c) => c.name),
      knownTargets,
    ),
  );
  // Pinning only helps when there are columns to scroll past.
  const pin = predicted.size > 0 && predicted.size < columns.length;
  return columns.map((c) => {
    const width = columnWidth(c, rows, sample, measure, scale);
    const prediction = predicted.has(c.index);
    // Prediction cells are bold: a little wider than measured.
    const shown = prediction ? Math.round(width * 1.1) : width;
    return {
      width: prediction && pin ? Math.min(shown, MAX_PINNED_PX * scale) : shown,
      pinned: prediction && pin,
      prediction,
    };
  });
}

/**
 * Widths after spreading `room - sum(widths)` spare pixels evenly over the columns, none growing
 * past `max` by it (a column already wider keeps its width) and none shrinking: what one capped
 * column cannot take goes to the others. Whole pixels.
 */
export function spreadWidth(widths: readonly number[], room: number, max: number): number[] {
  const out = [...widths];
  let spare = Math.floor(room - out.reduce((n, w) => n + w, 0));
  for (;;) {
    const open = out.map((w, i) => i).filter((i) => out[i] < max);
    if (spare < open.length || open.length === 0) return out;
    const each = Math.floor(spare / open.length);
    for (const i of open) {
      const add = Math.min(each, max - out[i]);
      out[i] += add;
      spare -= add;
    }
  }
}
