/** Chart tab logic: default axes for a result and the points recharts plots. */
import type { GridColumn } from './grid-model';

export type ChartKind = 'bar' | 'line' | 'scatter';

export interface ChartAxes {
  x: number;
  y: number;
}

/** Default axes: x = first text/date column (else the first column), y = first other numeric. */
export function defaultAxes(columns: readonly GridColumn[]): ChartAxes | undefined {
  const numeric = columns.filter((c) => c.kind === 'number');
  if (numeric.length === 0) return undefined;
  const xCol = columns.find((c) => c.kind === 'text' || c.kind === 'date') ?? columns[0];
  const yCol = numeric.find((c) => c.index !== xCol.index) ?? numeric[0];
  return { x: xCol.index, y: yCol.index };
}

/**
 * The one-click line chart of a result with a date/time column: x = the first date column,
 * y = the first numeric column (undefined without either).
 */
export function timeAxes(columns: readonly GridColumn[]): ChartAxes | undefined {
  const x = columns.find((c) => c.kind === 'date');
  const y = columns.find((c) => c.kind === 'number');
  return x && y ? { x: x.index, y: y.index } : undefined;
}

const MAX_CHART_POINTS = 2000;

export interface ChartPoint {
  x: string | number;
  y: number;
}

/** Points for the chart: rows with a numeric y, at most `limit` of them. */
export function chartPoints(
  rows: readonly (readonly unknown[])[],
  axes: ChartAxes,
  xKind: GridColumn['kind'],
  limit = MAX_CHART_POINTS,
  /** Sort by x: a line over dates reads left to right in time, whatever the row order. */
  sortByX = false,
): { points: ChartPoint[]; skipped: number; capped: boolean } {
  const points: ChartPoint[] = [];
  let skipped = 0;
  for (const row of rows) {
    if (points.length >= limit) break;
    const rawY = row[axes.y];
    const y = typeof rawY === 'number' ? rawY : typeof rawY === 'string' ? Number(rawY) : NaN;
    if (!Number.isFinite(y)) {
      skipped += 1;
      continue;
    }
    const rawX = row[axes.x];
    const x =
      xKind === 'number' && typeof rawX === 'number'
        ? rawX
        : rawX === null || rawX === undefined
          ? 'NULL'
          : typeof rawX === 'object'
            ? JSON.stringify(rawX)
            : typeof rawX === 'number'
              ? rawX
              : String(rawX);
    points.push({ x, y });
  }
  if (sortByX) {
    // Stable: ISO dates and times compare as text; NULL (as 'NULL') goes last.
    points.sort((a, b) =>
      a.x === 'NULL'
        ? b.x === 'NULL'
          ? 0
          : 1
        : b.x === 'NULL'
          ? -1
          : a.x < b.x
            ? -1
            : a.x > b.x
              ? 1
              : 0,
    );
  }
  return { points, skipped, capped: rows.length - skipped > points.length };
}
