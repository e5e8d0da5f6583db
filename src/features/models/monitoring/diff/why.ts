/**
 * The "why" of one predicted value in a SQL result (issue 27): the predict request that explains
 * it (the row's inputs to the version that produced it, with `explain`), and what the panel must
 * say beside the waterfall: inputs the result did not carry, and an explanation whose prediction
 * is not the value shown (then the inputs were not the row's whole story).
 */
import { formatNumber } from '../../shared';

export interface WhySource {
  project: string;
  model: string;
  version: number;
  /** The model's predicted column (the target, or its alias). */
  column: string;
  inputs: Record<string, unknown>;
}

/** The body of POST .../models/{m}.{version}/predict that explains the row. */
export function whyRequestBody(w: WhySource) {
  return { data: [w.inputs], params: { explain: true } };
}

/** Model inputs the row did not carry (the model reads them as missing). */
export function missingInputs(
  allInputs: readonly string[] | undefined,
  have: Record<string, unknown>,
): string[] {
  const known = new Set(Object.keys(have).map((k) => k.toLowerCase()));
  return (allInputs ?? []).filter((n) => !known.has(n.toLowerCase()));
}

/** Whether the explained prediction is the value in the grid (numbers to 6 significant digits). */
export function sameValue(shown: unknown, explained: unknown): boolean {
  if (shown === explained) return true;
  const a = typeof shown === 'string' && shown.trim() !== '' ? Number(shown) : shown;
  const b =
    typeof explained === 'string' && explained.trim() !== '' ? Number(explained) : explained;
  if (typeof a === 'number' && typeof b === 'number') {
    if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
    return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
  }
  return String(shown) === String(explained);
}

/** The panel's title: the column as the result names it (an alias, maybe), its value and row. */
export function whyTitle(columnName: string, value: unknown, rowIndex: number): string {
  const shown = typeof value === 'number' ? formatNumber(value) : String(value ?? 'null');
  return `Why ${columnName} = ${shown} (row ${rowIndex + 1})`;
}
