/**
 * The result cells whose "why" a click opens (issue 27): the predicted values of a model query,
 * told by the answer's `column_origins`, and the model inputs of a row read back from it (the
 * result columns the origin names, and the values given to every row).
 */
import type { ColumnOrigin } from '../../../contract';

/** Indexes of the result columns holding a model's predicted value. */
export function predictedColumns(
  origins: readonly (ColumnOrigin | null)[] | undefined,
): ReadonlySet<number> {
  const out = new Set<number>();
  origins?.forEach((o, i) => {
    if (o?.predicted) out.add(i);
  });
  return out;
}

/** A row's model inputs: the result columns the origin names, and values given to every row. */
export function rowInputs(origin: ColumnOrigin, row: readonly unknown[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = { ...(origin.values ?? {}) };
  for (const [name, at] of Object.entries(origin.inputs)) inputs[name] = row[at] ?? null;
  return inputs;
}

/** A predicted value to explain: its model, the row's inputs as the result carries them. */
export interface WhyCell {
  origin: ColumnOrigin;
  /** The column's name in the result (an alias, maybe). */
  columnName: string;
  value: unknown;
  rowIndex: number;
  /** The inputs the result carries (an input absent here was in neither result nor query). */
  inputs: Record<string, unknown>;
}
